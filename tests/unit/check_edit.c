/* Unit tests of the editor: the order of insertions at one offset, strip on
 * every tag form apply writes (and not on tags inside literals), and the
 * all-or-nothing writes. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_write.h"
#include "edit.h"
#include "edit_journal.h"
#include "src_file.h"

static char *strip(const char *in, bool all, unsigned *removed)
{
	size_t n;

	return edit_strip(in, strlen(in), all, &n, removed, NULL, NULL);
}

START_TEST(test_list_order)
{
	struct edit_list l;
	struct src_file *f;
	size_t n;
	char *out;

	edit_list_init(&l);
	edit_list_add(&l, 3, 0, 1, 0, 0, "[B1]");
	edit_list_add(&l, 3, 0, 0, -1, 0, "[E-outer]");
	edit_list_add(&l, 3, 0, 0, -2, 0, "[E-inner]");
	edit_list_add(&l, 3, 0, 2, 0, 0, "[indent]");
	edit_list_add(&l, 3, 0, 1, 0, 0, "[B2]");
	edit_list_add(&l, 0, 3, 1, 0, 0, "XYZ");
	edit_list_add(&l, 0, 0, 1, 0, 0, "<");
	f = src_file_from_buffer("op.h", "abcdef", 6);
	ck_assert_int_eq(edit_list_apply(&l, f, &out, &n, NULL), 0);
	src_file_free(f);
	ck_assert_str_eq(out, "<XYZ[E-inner][E-outer][B1][B2][indent]def");
	ck_assert_uint_eq(n, strlen(out));
	free(out);
	edit_list_release(&l);
	edit_list_release(NULL);
}
END_TEST

/* The one splice of apply and wire: where each text lands, and an edit
 * inside what an earlier one replaced refused (never skipped). */
START_TEST(test_splice)
{
	const struct edit_span ok[] = { { 0, 0, "<" }, { 0, 3, "XYZ" }, { 3, 3, "-" }, { 6, 6, ">" } };
	const struct edit_span overlap[] = { { 0, 3, "XYZ" }, { 2, 2, "[B]" } };
	const struct edit_span past[] = { { 4, 9, "!" } };
	size_t at[4], n = 0, bad = 99;
	char *out = NULL;

	ck_assert_int_eq(edit_splice("abcdef", 6, ok, 4, &out, &n, at, &bad), 0);
	ck_assert_str_eq(out, "<XYZ-def>");
	ck_assert_uint_eq(n, 9);
	ck_assert_uint_eq(at[0], 0);
	ck_assert_uint_eq(at[1], 1);
	ck_assert_uint_eq(at[2], 4);
	ck_assert_uint_eq(at[3], 8);
	free(out);
	out = NULL;
	ck_assert_int_eq(edit_splice("abcdef", 6, overlap, 2, &out, &n, NULL, &bad), -1);
	ck_assert_uint_eq(bad, 1);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(edit_splice("abcdef", 6, past, 1, &out, &n, NULL, &bad), -1);
	ck_assert_uint_eq(bad, 0);
}
END_TEST

/* apply reports an overlap at the edit refused, as the internal error it is. */
START_TEST(test_list_overlap_reported)
{
	struct edit_list l;
	struct src_file *f = src_file_from_buffer("op.h", "return x;\n", 10);
	struct diag d;
	char *buf = NULL, *out = NULL;
	size_t len = 0, n = 0;
	FILE *fp = open_memstream(&buf, &len);

	diag_init(&d, fp, false);
	edit_list_init(&l);
	edit_list_add(&l, 0, 6, 1, 0, 0, "decltype(auto) autotraceRet =");
	edit_list_add(&l, 3, 0, 1, 0, 0, "[B]");
	ck_assert_int_eq(edit_list_apply(&l, f, &out, &n, &d), -1);
	fclose(fp);
	ck_assert_ptr_null(out);
	ck_assert_str_eq(buf, "op.h:1:4: error: internal error: overlapping edits (inserting '[B]')\n"
			      "return x;\n"
			      "   ^\n");
	free(buf);
	edit_list_release(&l);
	src_file_free(f);
}
END_TEST

START_TEST(test_strip_forms)
{
	const char *applied =
		"void f()\n"
		"{\n"
		"    MoeTracing(TRACE_POINT(\"f\", \"B\")); // autotrace\n"
		"    if (x) { // autotrace split\n"
		"        MoeTracing(TRACE_POINT(\"f\", \"E\")); // autotrace\n"
		"        return;\n"
		"    } // autotrace\n"
		"    for (;;) { // autotrace\n"
		"        g();\n"
		"    } // autotrace\n"
		"    case 1: h(); /*autotrace:*/MoeTracing(TRACE_POINT(\"f\", \"E\")); /*:autotrace*/break;\n"
		"    decltype(auto) autotraceRet = k();\n"
		"    MoeTracing(TRACE_POINT(\"f\", \"E\")); // autotrace\n"
		"    return autotraceRet; // autotrace\n"
		"}";
	const char *orig =
		"void f()\n"
		"{\n"
		"    if (x) return;\n"
		"    for (;;)\n"
		"        g();\n"
		"    case 1: h(); break;\n"
		"    return k();\n"
		"}";
	unsigned removed;
	char *out = strip(applied, false, &removed);

	ck_assert_str_eq(out, orig);
	ck_assert_uint_eq(removed, 4);
	free(out);
}
END_TEST

START_TEST(test_strip_keeps_hand_written)
{
	const char *src = "    MoeTracing(TRACE_POINT(\"mine\", \"B\"));\n"
			  "    const char *s = \"x; // autotrace\";\n"
			  "    foo(); // autotrace\n"
			  "    MoeTracing(TRACE_POINT(\"mine\", \"E\")); // why\n";
	unsigned removed;
	char *out = strip(src, false, &removed);

	ck_assert_str_eq(out, src);
	ck_assert_uint_eq(removed, 0);
	free(out);
	out = strip(src, true, &removed);
	ck_assert_str_eq(out, "    const char *s = \"x; // autotrace\";\n    foo(); // autotrace\n");
	ck_assert_uint_eq(removed, 2);
	free(out);
}
END_TEST

/* strip --all takes the point statements only: not the runtime's other
 * calls (MoeTracingRecord, MoeTracingKernelEnd, ...), not a declaration of
 * a MoeTracing* class, not a line inside a raw string literal; a
 * MoeTracing<...>(...) point goes. */
START_TEST(test_strip_all_points_only)
{
	const char *src = "    MoeTracingRecord(data);\n"
			  "    MoeTracingKernelBegin(profiling, buf);\n"
			  "    MoeTracingKernelEnd();\n"
			  "    MoeTracingKernelScope(const MoeTracingKernelScope &) = delete;\n"
			  "    const char *doc = R\"(\n"
			  "    MoeTracing(TRACE_POINT(\"in\", \"B\"));\n"
			  ")\";\n"
			  "    MoeTracing<2>(TRACE_POINT(\"t\", \"B\"), i);\n"
			  "    MoeTracing (TRACE_POINT(\"s\", \"E\"));\n";
	unsigned removed;
	char *out = strip(src, true, &removed);

	ck_assert_str_eq(out, "    MoeTracingRecord(data);\n"
			      "    MoeTracingKernelBegin(profiling, buf);\n"
			      "    MoeTracingKernelEnd();\n"
			      "    MoeTracingKernelScope(const MoeTracingKernelScope &) = delete;\n"
			      "    const char *doc = R\"(\n"
			      "    MoeTracing(TRACE_POINT(\"in\", \"B\"));\n"
			      ")\";\n");
	ck_assert_uint_eq(removed, 2);
	free(out);
}
END_TEST

START_TEST(test_strip_last_line_without_newline)
{
	unsigned removed;
	char *out = strip("a;\n#include \"x_base.h\" // autotrace", false, &removed);

	ck_assert_str_eq(out, "a;");
	free(out);
	out = strip("", false, &removed);
	ck_assert_str_eq(out, "");
	free(out);
}
END_TEST

START_TEST(test_write_files)
{
	char dir[] = "/tmp/check_edit.XXXXXX";
	char a[64], b[64];
	const char *paths[2], *texts[2] = { "one\n", "two\n" };
	size_t lens[2] = { 4, 4 };
	struct stat st;
	struct src_file *f;
	struct diag d;
	struct edit_lock *lock;
	FILE *fp;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.h", dir);
	snprintf(b, sizeof(b), "%s/b.h", dir);
	fp = fopen(a, "w");
	fputs("old\n", fp);
	fclose(fp);
	chmod(a, 0600);
	paths[0] = a;
	paths[1] = b;
	diag_init(&d, stderr, false);
	lock = edit_lock_acquire(dir, "test", &d);
	ck_assert_ptr_nonnull(lock);
	ck_assert_int_eq(edit_write_files(lock, paths, texts, lens, 2, &d), 0);
	f = src_file_load(a);
	ck_assert_str_eq(f->data, "one\n");
	src_file_free(f);
	ck_assert_int_eq(stat(a, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	f = src_file_load(b);
	ck_assert_str_eq(f->data, "two\n");
	src_file_free(f);
	/* a file that cannot be written: nothing is replaced */
	snprintf(b, sizeof(b), "%s/missing/b.h", dir);
	texts[0] = "three\n";
	lens[0] = 6;
	ck_assert_int_eq(edit_write_files(lock, paths, texts, lens, 2, &d), -1);
	f = src_file_load(a);
	ck_assert_str_eq(f->data, "one\n");
	src_file_free(f);
	unlink(a);
	snprintf(b, sizeof(b), "%s/b.h", dir);
	unlink(b);
	edit_lock_release(lock);
	rmdir(dir);
}
END_TEST

/* A symbolic link is followed and kept; a FIFO is written in place by
 * atomic_write and refused by the edit writer; a directory is an error. */
START_TEST(test_write_through_links_and_devices)
{
	char *t_out;
	bool in_place_out = false;
	char dir[] = "/tmp/autotrace-edit-XXXXXX";
	char real[64], link[64], fifo[64], sub[64];
	const char *paths[1], *texts[1] = { "new\n" };
	size_t lens[1] = { 4 };
	struct stat st;
	struct src_file *f;
	struct diag d;
	struct edit_lock *lock;
	FILE *fp;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(real, sizeof(real), "%s/real.h", dir);
	snprintf(link, sizeof(link), "%s/link.h", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	fp = fopen(real, "w");
	fputs("old\n", fp);
	fclose(fp);
	ck_assert_int_eq(symlink("real.h", link), 0);
	diag_init(&d, stderr, false);
	lock = edit_lock_acquire(dir, "test", &d);
	ck_assert_ptr_nonnull(lock);
	paths[0] = link;
	ck_assert_int_eq(edit_write_files(lock, paths, texts, lens, 1, &d), 0);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	f = src_file_load(real);
	ck_assert_str_eq(f->data, "new\n");
	src_file_free(f);
	ck_assert_int_eq(atomic_write(link, "again\n", 6, &d), 0);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	f = src_file_load(real);
	ck_assert_str_eq(f->data, "again\n");
	src_file_free(f);

	{
		/* a link and its target in one write: refused, nothing written */
		const char *two[2] = { link, real }, *txt[2] = { "x\n", "y\n" };
		size_t l2[2] = { 2, 2 };
		ck_assert_int_eq(edit_write_files(lock, two, txt, l2, 2, &d), -1);
		f = src_file_load(real);
		ck_assert_str_eq(f->data, "again\n");
		src_file_free(f);
	}

	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	paths[0] = fifo;
	ck_assert_int_eq(edit_write_files(lock, paths, texts, lens, 1, &d), -1);
	{
		/* a reader on the FIFO, so the write does not block */
		int rfd = open(fifo, O_RDONLY | O_NONBLOCK);
		char got[16] = "";
		ck_assert_int_ge(rfd, 0);
		ck_assert_int_eq(atomic_write(fifo, "fifo\n", 5, &d), 0);
		ck_assert_int_eq(read(rfd, got, sizeof(got) - 1), 5);
		ck_assert_str_eq(got, "fifo\n");
		close(rfd);
	}
	ck_assert_int_eq(lstat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));

	{
		/* /dev/shm is an ordinary file system: its files are replaced, not streams */
		char shm[] = "/dev/shm/autotrace-edit-XXXXXX";
		int fd = mkstemp(shm);
		if (fd >= 0) {
			char *t;
			bool in_place = true;
			close(fd);
			ck_assert_int_eq(atomic_resolve(shm, &t, &in_place, &d), 0);
			ck_assert(!in_place);
			free(t);
			unlink(shm);
		}
		ck_assert_int_eq(atomic_resolve("/dev/stdout", &t_out, &in_place_out, &d), 0);
		ck_assert(in_place_out);
		free(t_out);
	}

	ck_assert_int_eq(mkdir(sub, 0700), 0);
	ck_assert_int_eq(atomic_write(sub, "x", 1, &d), -1);
	unlink(link);
	unlink(real);
	unlink(fifo);
	rmdir(sub);
	edit_lock_release(lock);
	rmdir(dir);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("edit");
	TCase *tc = tcase_create("edit");

	tcase_add_test(tc, test_list_order);
	tcase_add_test(tc, test_splice);
	tcase_add_test(tc, test_list_overlap_reported);
	tcase_add_test(tc, test_strip_forms);
	tcase_add_test(tc, test_strip_keeps_hand_written);
	tcase_add_test(tc, test_strip_all_points_only);
	tcase_add_test(tc, test_strip_last_line_without_newline);
	tcase_add_test(tc, test_write_files);
	tcase_add_test(tc, test_write_through_links_and_devices);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"

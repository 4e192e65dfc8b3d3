/* Unit tests of wire's edit lists (ordering, overlaps, result offsets), its
 * text helpers, where the runtime goes in a base header, and the undo
 * journal (save, first original kept, undo). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "undo_journal.h"
#include "path_glob.h"
#include "runtime_embed.h"
#include "wire.h"

static struct diag quiet;

static void setup(void)
{
	diag_init(&quiet, stderr, false);
}

static char *result_of(struct wire *w, const struct src_file *f, int *rc)
{
	char *out = NULL;
	size_t len = 0;

	for (size_t i = 0; i < w->nfiles; i++)
		if (w->files[i].f == f) {
			*rc = wire_file_result(w, &w->files[i], &out, &len);
			return out;
		}
	*rc = 0;
	return strdup(f->data);
}

START_TEST(edits_apply_in_offset_then_insertion_order)
{
	struct src_file *f = src_file_from_buffer("t.cpp", "f(a, b);\n", 9);
	struct wire w;
	int rc;
	char *out;

	memset(&w, 0, sizeof(w));
	w.diag = &quiet;
	wire_edit(&w, f, 6, 6, ", c", "third arg");
	wire_edit(&w, f, 2, 3, "x", "rename a");
	wire_edit(&w, f, 6, 6, ", d", "fourth arg");
	out = result_of(&w, f, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(out, "f(x, b, c, d);\n");
	/* where each insertion landed in the result */
	ck_assert_uint_eq(w.files[0].v[0].new_at, 2);
	ck_assert_uint_eq(w.files[0].v[1].new_at, 6);
	ck_assert_uint_eq(w.files[0].v[2].new_at, 9);
	free(out);
	wire_release(&w);
	src_file_free(f);
}
END_TEST

START_TEST(overlapping_edits_are_refused)
{
	struct src_file *f = src_file_from_buffer("t.cpp", "abcdef", 6);
	struct wire w;
	int rc;
	char *out;
	FILE *null = fopen("/dev/null", "w");
	struct diag d;

	diag_init(&d, null, false);
	memset(&w, 0, sizeof(w));
	w.diag = &d;
	wire_edit(&w, f, 1, 4, "X", "one");
	wire_edit(&w, f, 2, 5, "Y", "two");
	out = result_of(&w, f, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_ptr_null(out);
	ck_assert_uint_eq(d.errors, 1);
	wire_release(&w);
	src_file_free(f);
	fclose(null);
}
END_TEST

START_TEST(text_helpers)
{
	const char *t = "    int profilingData;\n\tfoo(profilingDataGm);\n";
	struct src_file *f = src_file_from_buffer("t.cpp", t, strlen(t));
	char *ind = wire_indent_at(f, 10);

	ck_assert_str_eq(ind, "    ");
	free(ind);
	ind = wire_indent_at(f, 30);
	ck_assert_str_eq(ind, "\t");
	free(ind);
	ck_assert_uint_eq(wire_line_start(f, 30), 23);
	ck_assert(wire_has_word(f, 0, (uint32_t)f->len, "profilingData"));
	ck_assert(!wire_has_word(f, 23, (uint32_t)f->len, "profilingData"));
	ck_assert(wire_has_word(f, 23, (uint32_t)f->len, "profilingDataGm"));
	src_file_free(f);
}
END_TEST

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

static char *read_file(const char *path)
{
	struct src_file *f = src_file_load(path);
	char *s;

	ck_assert_ptr_nonnull(f);
	s = strdup(f->data);
	src_file_free(f);
	return s;
}

START_TEST(journal_keeps_first_original_and_undo_restores)
{
	char dir[] = "/tmp/check_wire.XXXXXX";
	char *a, *b, *s;
	struct src_file *fa, *fb, *fa2;
	struct wire w;
	const char *paths[2], *texts[2];
	size_t lens[2];
	const struct src_file *origs[2];
	FILE *null = fopen("/dev/null", "w");
	FILE *saved = stdout;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	a = path_join(dir, "a.cpp");
	b = path_join(dir, "b.py");
	write_file(a, "original a\n");
	write_file(b, "original b\n");
	fa = src_file_load(a);
	fb = src_file_load(b);
	memset(&w, 0, sizeof(w));
	w.diag = &quiet;
	w.opdir = dir;
	paths[0] = a;
	origs[0] = fa;
	texts[0] = "wired a\n";
	lens[0] = 8;
	ck_assert_int_eq(undo_journal_save(dir, WIRE_UNDO_NAME, paths, origs, 1, &quiet), 0);
	write_file(a, "wired a\n");
	ck_assert_int_eq(undo_journal_wired(dir, WIRE_UNDO_NAME, paths, origs, texts, lens, 1, &quiet), 0);
	/* a second run: a changes again, b for the first time; a keeps its first original */
	fa2 = src_file_load(a);
	paths[0] = a;
	origs[0] = fa2;
	paths[1] = b;
	origs[1] = fb;
	texts[0] = "wired twice a\n";
	lens[0] = 14;
	texts[1] = "wired b\n";
	lens[1] = 8;
	ck_assert_int_eq(undo_journal_save(dir, WIRE_UNDO_NAME, paths, origs, 2, &quiet), 0);
	write_file(a, "wired twice a\n");
	write_file(b, "wired b\n");
	ck_assert_int_eq(undo_journal_wired(dir, WIRE_UNDO_NAME, paths, origs, texts, lens, 2, &quiet), 0);
	{
		char *jd = path_join(dir, ".autotrace/" WIRE_UNDO_NAME), *mp = path_join(jd, "MANIFEST");
		s = read_file(mp);
		ck_assert_str_eq(s, "autotrace-wire-undo 1\n0\ta.cpp\n1\tb.py\n");
		free(s);
		free(mp);
		free(jd);
	}

	/* b edited by hand since: --undo refuses and restores nothing; --force restores */
	write_file(b, "wired b, then edited\n");
	stdout = null;
	ck_assert_int_eq(undo_journal_restore(dir, NULL, WIRE_UNDO_NAME, "wire", false, false, &quiet), -1);
	stdout = saved;
	s = read_file(a);
	ck_assert_str_eq(s, "wired twice a\n");
	free(s);
	{
		char *gi = path_join(dir, ".autotrace/.gitignore");
		s = read_file(gi);
		ck_assert_str_eq(s, "*\n");
		free(s);
		free(gi);
	}
	stdout = null;
	ck_assert_int_eq(undo_journal_restore(dir, NULL, WIRE_UNDO_NAME, "wire", false, true, &quiet), 0);
	stdout = saved;
	s = read_file(a);
	ck_assert_str_eq(s, "original a\n");
	free(s);
	s = read_file(b);
	ck_assert_str_eq(s, "original b\n");
	free(s);
	{
		char *j = path_join(dir, ".autotrace");
		struct stat st;
		ck_assert_int_ne(stat(j, &st), 0);
		free(j);
	}
	unlink(a);
	unlink(b);
	rmdir(dir);
	src_file_free(fa);
	src_file_free(fa2);
	src_file_free(fb);
	free(a);
	free(b);
	fclose(null);
}
END_TEST

/* A hand edit between two wires: the second wire starts from the edited
 * text, so its record stays behind and --undo asks for --force. */
START_TEST(journal_keeps_hand_edits_between_wires)
{
	char dir[] = "/tmp/check_wire.XXXXXX";
	char *a, *s;
	struct src_file *f1, *f2;
	struct wire w;
	const char *paths[1], *texts[1];
	size_t lens[1];
	const struct src_file *origs[1];
	FILE *null = fopen("/dev/null", "w"), *saved = stdout;
	struct diag q;

	diag_init(&q, null, false);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	a = path_join(dir, "a.cpp");
	write_file(a, "original\n");
	memset(&w, 0, sizeof(w));
	w.diag = &q;
	w.opdir = dir;
	f1 = src_file_load(a);
	paths[0] = a;
	origs[0] = f1;
	texts[0] = "original\nwired\n";
	lens[0] = 15;
	ck_assert_int_eq(undo_journal_save(dir, WIRE_UNDO_NAME, paths, origs, 1, &q), 0);
	write_file(a, texts[0]);
	ck_assert_int_eq(undo_journal_wired(dir, WIRE_UNDO_NAME, paths, origs, texts, lens, 1, &q), 0);
	/* edited by hand, then wired again from the edited text */
	write_file(a, "original\nwired\nmine\n");
	f2 = src_file_load(a);
	origs[0] = f2;
	texts[0] = "original\nwired\nmine\nwired more\n";
	lens[0] = 31;
	ck_assert_int_eq(undo_journal_save(dir, WIRE_UNDO_NAME, paths, origs, 1, &q), 0);
	write_file(a, texts[0]);
	ck_assert_int_eq(undo_journal_wired(dir, WIRE_UNDO_NAME, paths, origs, texts, lens, 1, &q), 0);
	stdout = null;
	ck_assert_int_eq(undo_journal_restore(dir, NULL, WIRE_UNDO_NAME, "wire", false, false, &q), -1);
	stdout = saved;
	s = read_file(a);
	ck_assert_str_eq(s, "original\nwired\nmine\nwired more\n");
	free(s);
	stdout = null;
	ck_assert_int_eq(undo_journal_restore(dir, NULL, WIRE_UNDO_NAME, "wire", false, true, &q), 0);
	stdout = saved;
	s = read_file(a);
	ck_assert_str_eq(s, "original\n");
	free(s);
	unlink(a);
	rmdir(dir);
	src_file_free(f1);
	src_file_free(f2);
	free(a);
	fclose(null);
}
END_TEST

/* A file outside the operator directory (the project's binding) and a file
 * the command created: the manifest names the first "../bind.cpp", undo
 * restores it and removes the second. */
START_TEST(journal_files_outside_and_created)
{
	char dir[] = "/tmp/check_wire.XXXXXX";
	char *op, *bind, *made, *mp, *s;
	struct src_file *fb;
	const char *paths[2], *texts[2];
	size_t lens[2];
	const struct src_file *origs[2];
	FILE *null = fopen("/dev/null", "w"), *saved = stdout;
	struct stat st;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	op = path_join(dir, "op");
	ck_assert_int_eq(mkdir(op, 0777), 0);
	bind = path_join(dir, "bind.cpp");
	made = path_join(op, "op_base.h");
	write_file(bind, "binding\n");
	fb = src_file_load(bind);
	paths[0] = bind;
	origs[0] = fb;
	texts[0] = "binding + profiling\n";
	lens[0] = strlen(texts[0]);
	paths[1] = made;
	origs[1] = NULL;
	texts[1] = "runtime\n";
	lens[1] = strlen(texts[1]);
	ck_assert_int_eq(undo_journal_save(op, "test-undo", paths, origs, 2, &quiet), 0);
	write_file(bind, texts[0]);
	write_file(made, texts[1]);
	ck_assert_int_eq(undo_journal_wired(op, "test-undo", paths, origs, texts, lens, 2, &quiet), 0);
	ck_assert(undo_journal_exists(op, "test-undo"));
	mp = path_join(op, ".autotrace/test-undo/MANIFEST");
	s = read_file(mp);
	ck_assert_str_eq(s, "autotrace-wire-undo 1\n0\t../bind.cpp\n1\top_base.h\n");
	free(s);
	stdout = null;
	ck_assert_int_eq(undo_journal_restore(op, dir, "test-undo", "test", false, false, &quiet), 0);
	stdout = saved;
	s = read_file(bind);
	ck_assert_str_eq(s, "binding\n");
	free(s);
	ck_assert_int_ne(stat(made, &st), 0);
	ck_assert(!undo_journal_exists(op, "test-undo"));
	ck_assert_int_ne(stat(mp, &st), 0);
	unlink(bind);
	rmdir(op);
	rmdir(dir);
	src_file_free(fb);
	free(op);
	free(bind);
	free(made);
	free(mp);
	fclose(null);
}
END_TEST

START_TEST(undo_rejects_a_foreign_manifest)
{
	char dir[] = "/tmp/check_wire.XXXXXX";
	char *j, *m;
	FILE *null = fopen("/dev/null", "w");
	struct diag d;

	diag_init(&d, null, false);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	j = path_join(dir, ".autotrace");
	mkdir(j, 0777);
	free(j);
	j = path_join(dir, ".autotrace/" WIRE_UNDO_NAME);
	mkdir(j, 0777);
	m = path_join(j, "MANIFEST");
	write_file(m, "something else\n");
	ck_assert_int_eq(undo_journal_restore(dir, NULL, WIRE_UNDO_NAME, "wire", false, false, &d), -1);
	ck_assert_uint_eq(d.errors, 1);
	unlink(m);
	rmdir(j);
	free(m);
	free(j);
	j = path_join(dir, ".autotrace");
	rmdir(j);
	free(j);
	rmdir(dir);
	fclose(null);
}
END_TEST

/* Where the runtime goes in an existing header: before the guard's #endif in
 * a header of constants; in a header with bodies of its own (a base class
 * whose methods get points) before the first of them, with its comment,
 * after the macros that configure the runtime; the #endif again when that
 * body is inside an #if of its own. */
START_TEST(test_runtime_embed_at)
{
	static const char consts[] = "// constants\n#ifndef A_BASE_H\n#define A_BASE_H\n#include \"k.h\"\n"
				     "constexpr int N = 4;\n#endif\n";
	static const char code[] = "/* licence\n * { not code }\n */\n#ifndef S_BASE_H\n#define S_BASE_H\n"
				   "#include \"k.h\"\n#define PROF_SIZE_PER_CORE 4096\nconstexpr int N = 4;\n\n"
				   "// the stage base\n/* waits for its peer */\nclass StageBase\n{\n"
				   "    void Wait() { n++; }\n};\n#endif // S_BASE_H\n";
	static const char in_if[] = "#ifndef C_BASE_H\n#define C_BASE_H\n#if HAVE_X\nstruct X {\n};\n#endif\n"
				    "#endif\n";
	static const char once[] = "#pragma once\n#include \"k.h\"\nclass S {\n};\n";

	ck_assert_uint_eq(runtime_embed_at(consts, strlen(consts)), strstr(consts, "#endif\n") - consts);
	ck_assert_uint_eq(runtime_embed_at(code, strlen(code)), strstr(code, "// the stage base") - code);
	ck_assert_uint_eq(runtime_embed_at(in_if, strlen(in_if)), strlen(in_if) - strlen("#endif\n"));
	ck_assert_uint_eq(runtime_embed_at(once, strlen(once)), strstr(once, "class S") - once);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("wire");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_runtime_embed_at);
	tcase_add_test(tc, edits_apply_in_offset_then_insertion_order);
	tcase_add_test(tc, overlapping_edits_are_refused);
	tcase_add_test(tc, text_helpers);
	tcase_add_test(tc, journal_keeps_first_original_and_undo_restores);
	tcase_add_test(tc, journal_keeps_hand_edits_between_wires);
	tcase_add_test(tc, journal_files_outside_and_created);
	tcase_add_test(tc, undo_rejects_a_foreign_manifest);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"

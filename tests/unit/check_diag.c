/* Unit tests for diag.c, src_file.c and suggest.c: line tables, columns,
 * message format, caret lines (a long line cut around the caret), colour
 * policy, "did you mean"; the size bound of src_file_load and byte_size.c's
 * sizes; for the
 * foundation's text helpers (json_escape.c, strbuf.c); and for file_map.c,
 * the other way a file is read (its pages given back, its bytes kept). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "byte_size.h"
#include "diag.h"
#include "file_map.h"
#include "json_escape.h"
#include "src_file.h"
#include "strbuf.h"
#include "suggest.h"
#include "utf8.h"

/* Runs `fn` with a diag printing into a memory buffer; returns the text.
 * (Not inlined: GCC 12 takes the memstream buffer it returns for a local.) */
__attribute__((noinline)) static char *capture_at(const struct src_file *f, uint32_t start, uint32_t end,
						  enum diag_level level, const char *msg, struct diag *out_counts)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct diag d;

	diag_init(&d, fp, false);
	diag_at(&d, level, src_loc_make(f, start, end), "%s", msg);
	fclose(fp);
	if (out_counts)
		*out_counts = d;
	return buf;
}

START_TEST(t_line_and_column)
{
	struct src_file *f = src_file_from_buffer("a.rules", "ab\ncd\n\nef", 9);

	ck_assert_uint_eq(src_file_line(f, 0), 1);
	ck_assert_uint_eq(src_file_line(f, 2), 1);
	ck_assert_uint_eq(src_file_line(f, 3), 2);
	ck_assert_uint_eq(src_file_line(f, 6), 3);
	ck_assert_uint_eq(src_file_line(f, 7), 4);
	ck_assert_uint_eq(src_file_line(f, 100), 4);
	ck_assert_uint_eq(src_file_column(f, 4), 2);
	ck_assert_uint_eq(src_file_line_start(f, 4), 7);
	ck_assert_uint_eq(src_file_line_length(f, 2), 2);
	ck_assert_uint_eq(src_file_line_length(f, 3), 0);
	src_file_free(f);
}
END_TEST

START_TEST(t_utf8_column_counts_characters)
{
	const char *text = "# 注释\nx";
	struct src_file *f = src_file_from_buffer("u.rules", text, strlen(text));
	/* '释' starts after "# " and one 3-byte character */
	ck_assert_uint_eq(src_file_column(f, 5), 4);
	src_file_free(f);
}
END_TEST

START_TEST(t_crlf_line_length)
{
	struct src_file *f = src_file_from_buffer("w.rules", "abc\r\nd", 6);
	ck_assert_uint_eq(src_file_line_length(f, 1), 3);
	ck_assert_uint_eq(src_file_line(f, 5), 2);
	src_file_free(f);
}
END_TEST

/* One list of C/C++ extensions serves scan, preprocess and strip. */
START_TEST(t_cxx_names)
{
	static const char *const yes[] = { "a.c",   "a.cc",  "a.cpp",       "a.cxx",      "a.c++",
					   "a.h",   "a.hh",  "a.hpp",       "a.hxx",      "a.h++",
					   "a.inl", "a.ipp", "dir/op.tcc",  "k/x.cu",     "k/x.cuh" };
	static const char *const no[] = { "a.py", "a.C2", "Makefile", "dir.cpp/Makefile", "a.cpp.orig", "a.txt", "cu" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		ck_assert_msg(src_file_is_cxx_name(yes[i]), "%s should be a C/C++ file", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		ck_assert_msg(!src_file_is_cxx_name(no[i]), "%s should not be a C/C++ file", no[i]);
}
END_TEST

/* The hand-written JSON (point map, Chrome trace, scan) escapes every byte
 * as cJSON does, so that both kinds of output read alike. */
START_TEST(t_json_escape_as_cjson)
{
	for (int c = 1; c < 256; c++) {
		char in[4] = { 'a', (char)c, 'b', '\0' }, out[3 * JSON_ESCAPE_MAX + 1];
		cJSON *j = cJSON_CreateString(in);
		char *want = cJSON_PrintUnformatted(j);
		size_t n = json_escape(out, in, 3);
		out[n] = '\0';
		ck_assert_uint_eq(n, strlen(want) - 2);
		ck_assert_msg(memcmp(out, want + 1, n) == 0, "byte 0x%02x: %s, cJSON %s", c, out, want);
		free(want);
		cJSON_Delete(j);
	}
}
END_TEST

START_TEST(t_strbuf)
{
	struct strbuf b = { 0 };
	char *s;

	s = strbuf_take(&b);
	ck_assert_str_eq(s, "");
	free(s);
	for (int i = 0; i < 1000; i++)
		strbuf_puts(&b, "abc");
	strbuf_putc(&b, '!');
	ck_assert_uint_eq(b.n, 3001);
	ck_assert_uint_eq(strlen(b.s), 3001);
	s = strbuf_take(&b);
	ck_assert(s[3000] == '!' && b.s == NULL && b.n == 0);
	free(s);
	strbuf_put(&b, "x", 1);
	strbuf_release(&b);
	ck_assert_ptr_null(b.s);
}
END_TEST

START_TEST(t_message_format_with_caret)
{
	const char *text = "trace {\n    fucntion /x/;\n}\n";
	struct src_file *f = src_file_from_buffer("x.rules", text, strlen(text));
	struct diag d;
	char *out = capture_at(f, 12, 20, DIAG_ERROR, "unknown statement 'fucntion'", &d);

	ck_assert_str_eq(out, "x.rules:2:5: error: unknown statement 'fucntion'\n"
			      "    fucntion /x/;\n"
			      "    ^~~~~~~~\n");
	ck_assert_uint_eq(d.errors, 1);
	ck_assert_uint_eq(d.warnings, 0);
	free(out);
	src_file_free(f);
}
END_TEST

START_TEST(t_caret_keeps_tabs_and_wide_characters)
{
	const char *text = "\t\"阶段\" x;\n";
	struct src_file *f = src_file_from_buffer("t.rules", text, strlen(text));
	uint32_t x = (uint32_t)(strchr(text, 'x') - text);
	char *out = capture_at(f, x, x + 1, DIAG_WARNING, "w", NULL);

	/* tab kept, each wide character takes two cells, quotes and space one */
	ck_assert_str_eq(out, "t.rules:1:7: warning: w\n\t\"阶段\" x;\n\t       ^\n");
	free(out);
	src_file_free(f);
}
END_TEST

START_TEST(t_empty_range_points_at_one_column)
{
	const char *text = "depth 7\n";
	struct src_file *f = src_file_from_buffer("d.rules", text, strlen(text));
	char *out = capture_at(f, 7, 7, DIAG_ERROR, "expected ';'", NULL);

	ck_assert_str_eq(out, "d.rules:1:8: error: expected ';'\ndepth 7\n       ^\n");
	free(out);
	src_file_free(f);
}
END_TEST

START_TEST(t_range_stops_at_end_of_line)
{
	const char *text = "ab\ncd\n";
	struct src_file *f = src_file_from_buffer("r.rules", text, strlen(text));
	char *out = capture_at(f, 0, 6, DIAG_NOTE, "n", NULL);

	ck_assert_str_eq(out, "r.rules:1:1: note: n\nab\n^~\n");
	free(out);
	src_file_free(f);
}
END_TEST

/* A line wider than a screen is cut around the caret (issue 33: 50 errors
 * on a line of a megabyte were 50 MB of stderr). */
START_TEST(t_long_line_cut_around_caret)
{
	char text[2001], *out, *line2, *line3, *nl;
	struct src_file *f;

	memset(text, 'a', 2000);
	memcpy(text + 1000, "BAD", 3);
	text[2000] = '\0';
	f = src_file_from_buffer("l.cpp", text, 2000);
	out = capture_at(f, 1000, 1003, DIAG_ERROR, "e", NULL);
	line2 = strchr(out, '\n') + 1;
	nl = strchr(line2, '\n');
	line3 = nl + 1;
	*nl = '\0';
	/* both sides cut, the width kept, the range inside */
	ck_assert_int_eq(strncmp(line2, DIAG_CUT, 3), 0);
	ck_assert_int_eq(strcmp(nl - 3, DIAG_CUT), 0);
	ck_assert_uint_eq(strlen(line2), DIAG_SOURCE_WIDTH);
	ck_assert_ptr_nonnull(strstr(line2, "BAD"));
	/* the caret under the B */
	ck_assert_uint_eq(strspn(line3, " "), (size_t)(strstr(line2, "BAD") - line2));
	ck_assert_int_eq(strncmp(line3 + strspn(line3, " "), "^~~\n", 4), 0);
	free(out);
	src_file_free(f);

	/* at the start: cut on the right only */
	f = src_file_from_buffer("l.cpp", text, 2000);
	out = capture_at(f, 0, 1, DIAG_ERROR, "e", NULL);
	line2 = strchr(out, '\n') + 1;
	ck_assert_int_eq(strncmp(line2, "aaa", 3), 0);
	ck_assert_ptr_nonnull(strstr(line2, "a...\n^\n"));
	free(out);
	src_file_free(f);
}
END_TEST

/* Cut on character boundaries: the cut line is valid UTF-8, wide
 * characters counted as two cells. */
START_TEST(t_long_line_cut_keeps_utf8)
{
	struct strbuf b = { 0 };
	char *out, *line2, *nl;
	struct src_file *f;
	uint32_t at;

	for (int i = 0; i < 500; i++)
		strbuf_puts(&b, "阶");
	at = (uint32_t)b.n;
	strbuf_puts(&b, "x");
	for (int i = 0; i < 500; i++)
		strbuf_puts(&b, "é");
	f = src_file_from_buffer("u.cpp", b.s, b.n);
	out = capture_at(f, at, at + 1, DIAG_ERROR, "e", NULL);
	line2 = strchr(out, '\n') + 1;
	nl = strchr(line2, '\n');
	ck_assert_uint_eq(utf8_invalid_at(line2, (size_t)(nl - line2)), SIZE_MAX);
	ck_assert_int_eq(strncmp(line2, "...阶", strlen("...阶")), 0);
	ck_assert_int_eq(strncmp(nl - strlen("é..."), "é...", strlen("é...")), 0);
	*nl = '\0';
	ck_assert_uint_le(diag_text_cells(line2), DIAG_SOURCE_WIDTH);
	/* the caret under the x: three cells of "...", two for each wide one */
	{
		const char *x = strchr(line2, 'x');
		size_t cells = 0;
		for (const char *p = line2 + 3; p < x; p += strlen("阶"))
			cells += 2;
		ck_assert_uint_eq(strspn(nl + 1, " "), 3 + cells);
	}
	free(out);
	src_file_free(f);
	strbuf_release(&b);
}
END_TEST

/* The size bound: a file over it refused before it is read, why said. */
START_TEST(t_size_bound)
{
	char path[] = "/tmp/check_diag.XXXXXX";
	int fd = mkstemp(path);
	struct src_file *f;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 3000), 0);
	close(fd);
	ck_assert_uint_eq(src_file_max(), SRC_FILE_MAX_DEFAULT);
	src_file_set_max(2048);
	errno = 0;
	ck_assert_ptr_null(src_file_load(path));
	ck_assert_int_eq(errno, EFBIG);
	ck_assert_str_eq(src_file_strerror(EFBIG),
			 "3000 bytes, over the bound of 2 KiB on a file read (the global option --max-file-size raises it)");
	/* a copy byte for byte has a bound of its own */
	f = src_file_load_max(path, 4096);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->len, 3000);
	src_file_free(f);
	src_file_set_max(SRC_FILE_MAX_DEFAULT);
	f = src_file_load(path);
	ck_assert_ptr_nonnull(f);
	src_file_free(f);
	unlink(path);
}
END_TEST

START_TEST(t_byte_size)
{
	uint64_t v;
	char buf[32];

	ck_assert_int_eq(byte_size_parse("16M", &v), 0);
	ck_assert_uint_eq(v, (uint64_t)16 << 20);
	ck_assert_int_eq(byte_size_parse("512KiB", &v), 0);
	ck_assert_uint_eq(v, 512 * 1024);
	ck_assert_int_eq(byte_size_parse("1g", &v), 0);
	ck_assert_uint_eq(v, (uint64_t)1 << 30);
	ck_assert_int_eq(byte_size_parse("100B", &v), 0);
	ck_assert_uint_eq(v, 100);
	ck_assert_int_eq(byte_size_parse("100", &v), 0);
	ck_assert_uint_eq(v, 100);
	ck_assert_int_eq(byte_size_parse("", &v), -1);
	ck_assert_int_eq(byte_size_parse("-1", &v), -1);
	ck_assert_int_eq(byte_size_parse("1.5M", &v), -1);
	ck_assert_int_eq(byte_size_parse("12X", &v), -1);
	ck_assert_int_eq(byte_size_parse("99999999999999999999", &v), -1);
	ck_assert_int_eq(byte_size_parse("17179869184G", &v), -1);
	ck_assert_str_eq(byte_size_text((uint64_t)16 << 20, buf, sizeof(buf)), "16 MiB");
	ck_assert_str_eq(byte_size_text(3 << 10, buf, sizeof(buf)), "3 KiB");
	ck_assert_str_eq(byte_size_text((uint64_t)1 << 30, buf, sizeof(buf)), "1 GiB");
	ck_assert_str_eq(byte_size_text(3000, buf, sizeof(buf)), "3000 bytes");
	ck_assert_str_eq(byte_size_text(1, buf, sizeof(buf)), "1 byte");
}
END_TEST

START_TEST(t_pos_and_plain_forms)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct diag d;

	diag_init(&d, fp, false);
	diag_pos(&d, DIAG_ERROR, "rank000.pt", 0, 0, "truncated archive");
	diag_pos(&d, DIAG_WARNING, "map.json", 3, 0, "odd");
	diag_pos(&d, DIAG_ERROR, "map.json", 3, 7, "bad id");
	diag_plain(&d, DIAG_NOTE, "done");
	fclose(fp);
	ck_assert_str_eq(buf, "rank000.pt: error: truncated archive\n"
			      "map.json:3: warning: odd\n"
			      "map.json:3:7: error: bad id\n"
			      "autotrace: note: done\n");
	ck_assert_uint_eq(d.errors, 2);
	ck_assert_uint_eq(d.warnings, 1);
	free(buf);
}
END_TEST

START_TEST(t_colour_only_when_asked)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct diag d;

	diag_init(&d, fp, true);
	diag_plain(&d, DIAG_ERROR, "x");
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "\033[1;31merror:"));
	free(buf);

	setenv("NO_COLOR", "1", 1);
	ck_assert(!diag_color_auto(stderr));
	unsetenv("NO_COLOR");
	fp = tmpfile(); /* never a terminal */
	ck_assert(!diag_color_auto(fp));
	fclose(fp);
}
END_TEST

START_TEST(t_suggestions)
{
	const char *const words[] = { "function", "loop", "branch", "region" };

	ck_assert_uint_eq(suggest_distance("fucntion", "function"), 1);
	ck_assert_uint_eq(suggest_distance("", "abc"), 3);
	ck_assert_uint_eq(suggest_distance("kitten", "sitting"), 3);
	ck_assert_str_eq(suggest_closest("fucntion", words, 4), "function");
	ck_assert_str_eq(suggest_closest("lop", words, 4), "loop");
	ck_assert_ptr_null(suggest_closest("zzzzzz", words, 4));
}
END_TEST

/* The resident KB of the mapping that starts at `p` (/proc/self/smaps), or
 * -1 when there is none. */
static long resident_kb(const void *p)
{
	char line[256];
	FILE *f = fopen("/proc/self/smaps", "r");
	unsigned long lo, hi;
	bool in = false;
	long kb = -1;

	ck_assert_ptr_nonnull(f);
	while (kb < 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) /* a mapping's first line; the rest are "Name: ..." */
			in = lo == (unsigned long)p;
		else if (in)
			(void)sscanf(line, "Rss: %ld kB", &kb);
	}
	fclose(f);
	return kb;
}

START_TEST(t_file_map)
{
	char path[] = "/tmp/check_file_map_XXXXXX";
	size_t n = 3 * FILE_MAP_STEP + 123, sum = 0;
	unsigned char *want = malloc(n);
	int fd = mkstemp(path);
	struct file_map *m;

	ck_assert_int_ge(fd, 0);
	for (size_t i = 0; i < n; i++)
		want[i] = (unsigned char)(i * 7 + i / 4096);
	ck_assert_int_eq(write(fd, want, n), (ssize_t)n);
	close(fd);
	m = file_map_open(path);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->len, n);
	for (size_t i = 0; i < n; i += 4096)
		sum += m->data[i];
	ck_assert_uint_gt(sum, 0);
	ck_assert_int_ge(resident_kb(m->data), (long)(2 * FILE_MAP_STEP / 1024));
	/* less than a step: nothing given back; going back: nothing either */
	file_map_release(m, FILE_MAP_STEP - 1);
	ck_assert_uint_eq(m->released, 0);
	file_map_release(m, 2 * FILE_MAP_STEP + 5);
	ck_assert_uint_eq(m->released, 2 * FILE_MAP_STEP);
	file_map_release(m, 10);
	ck_assert_uint_eq(m->released, 2 * FILE_MAP_STEP);
	file_map_release(m, n + 1000);
	ck_assert_uint_eq(m->released, n / (size_t)sysconf(_SC_PAGESIZE) * (size_t)sysconf(_SC_PAGESIZE));
	ck_assert_int_ge(resident_kb(m->data), 0);
	ck_assert_int_le(resident_kb(m->data), 64);
	/* the bytes given back read as they were */
	ck_assert_int_eq(memcmp(m->data, want, n), 0);
	file_map_close(m);
	unlink(path);
	free(want);
}
END_TEST

START_TEST(t_file_map_refuses)
{
	char dir[] = "/tmp/check_file_map_XXXXXX", fifo[64], empty[64];
	struct file_map *m;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	errno = 0;
	ck_assert_ptr_null(file_map_open(dir));
	ck_assert_int_eq(errno, EISDIR);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_ptr_null(file_map_open(fifo));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(file_map_open("/nonexistent/x"));
	ck_assert_int_eq(errno, ENOENT);
	snprintf(empty, sizeof(empty), "%s/empty", dir);
	fclose(fopen(empty, "w"));
	m = file_map_open(empty);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->len, 0);
	file_map_release(m, 100);
	file_map_close(m);
	unlink(fifo);
	unlink(empty);
	rmdir(dir);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("diag");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, t_line_and_column);
	tcase_add_test(tc, t_utf8_column_counts_characters);
	tcase_add_test(tc, t_crlf_line_length);
	tcase_add_test(tc, t_cxx_names);
	tcase_add_test(tc, t_json_escape_as_cjson);
	tcase_add_test(tc, t_strbuf);
	tcase_add_test(tc, t_message_format_with_caret);
	tcase_add_test(tc, t_caret_keeps_tabs_and_wide_characters);
	tcase_add_test(tc, t_empty_range_points_at_one_column);
	tcase_add_test(tc, t_range_stops_at_end_of_line);
	tcase_add_test(tc, t_long_line_cut_around_caret);
	tcase_add_test(tc, t_long_line_cut_keeps_utf8);
	tcase_add_test(tc, t_size_bound);
	tcase_add_test(tc, t_byte_size);
	tcase_add_test(tc, t_pos_and_plain_forms);
	tcase_add_test(tc, t_colour_only_when_asked);
	tcase_add_test(tc, t_suggestions);
	tcase_add_test(tc, t_file_map);
	tcase_add_test(tc, t_file_map_refuses);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"

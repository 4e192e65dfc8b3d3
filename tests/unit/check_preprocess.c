/* Unit tests for preprocess and check: the preprocess scanner (code versus
 * comments, literals and directives; positions), the build stamp, the
 * point_map.json writer against its reader, and the B/E pairing analysis
 * of check_pairing.c on small functions. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_trace.h"
#include "cxx_outline.h"
#include "point_map.h"
#include "preprocess.h"
#include "string_literal.h"

static char *errbuf;
static size_t errlen;
static FILE *errfp;

static struct diag *mkdiag(void)
{
	static struct diag d;
	if (errfp)
		fclose(errfp);
	free(errbuf);
	errbuf = NULL;
	errfp = open_memstream(&errbuf, &errlen);
	diag_init(&d, errfp, false);
	return &d;
}

static const char *errors(struct diag *d)
{
	fflush(d->out);
	return errbuf ? errbuf : "";
}

static void scan(const char *text, struct pp_scan *s)
{
	memset(s, 0, sizeof(*s));
	pp_scan_buffer(text, strlen(text), s);
}

/* ---- the scanner ---- */

START_TEST(t_scan_code_only)
{
	const char *text =
		"// MoeTracing(TRACE_POINT(\"c1\", \"B\"));\n"
		"/* TRACE_POINT(\"c2\", \"B\")\n   TRACE_BUILD_STAMP */\n"
		"const char *s = \"TRACE_POINT(\\\"s1\\\", \\\"B\\\")\";\n"
		"const char *r = R\"x(TRACE_POINT(\"r1\", \"B\") )\" )x\";\n"
		"char q = '\"'; int n = 1'000; MoeTracing(TRACE_POINT(\"code\", \"B\"));\n"
		"// continued \\\n TRACE_POINT(\"c3\", \"E\")\n"
		"  MoeTracing(TRACE_POINT ( \"a \\\"q\\\"\" ,\"E\" ), i);\n"
		"#define TRACE_BUILD_STAMP 0\n"
		"#define TRACE_POINT(label, event) 0\n"
		"uint64_t st = TRACE_BUILD_STAMP; int XTRACE_POINT(\"no\", \"B\");\n";
	struct pp_scan s;

	scan(text, &s);
	ck_assert_uint_eq(s.nsites, 3);
	ck_assert_str_eq(s.sites[0].label, "code");
	ck_assert_int_eq(s.sites[0].event, 'B');
	ck_assert_uint_eq(s.sites[0].line, 6);
	ck_assert_uint_eq(s.sites[0].col, 41);
	ck_assert(!s.sites[0].directive);
	ck_assert_str_eq(s.sites[1].label, "a \"q\"");
	ck_assert_int_eq(s.sites[1].event, 'E');
	ck_assert_uint_eq(s.sites[1].line, 9);
	ck_assert_int_eq(text[s.sites[1].end - 1], ')');
	/* the runtime's own #define: a directive, no literal arguments */
	ck_assert_ptr_null(s.sites[2].label);
	ck_assert(s.sites[2].directive);
	/* TRACE_BUILD_STAMP: only the use in code */
	ck_assert_uint_eq(s.nstamps, 1);
	ck_assert(strncmp(text + s.stamps[0], "TRACE_BUILD_STAMP;", 18) == 0);
	pp_scan_release(&s);
}
END_TEST

/* The label of a point as preprocess's scanner reads it and as the C++
 * parser (scan, plan, check) reads it: the same bytes, escapes included,
 * or the point would get another id than the one the map names. */
START_TEST(t_labels_agree_with_the_parser)
{
	static const char *const lits[] = { "plain", "a \\\"q\\\"", "back\\\\slash", "tab\\there", "nl\\n",
					    "\\x41 stays x41", "\\'quote", "UTF-8 \xe9\x98\xb6\xe6\xae\xb5",
					    /* line splices: the label is the joined text */
					    "spl\\\nice", "blank \\ \t\nafter", "crlf\\\r\nsplice", "esc\\\\\nn",
					    "two\\\n\\\nsplices" };

	for (size_t i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
		char code[256];
		struct src_file *f;
		struct cxx_outline *ol;
		struct pp_scan s;
		snprintf(code, sizeof(code), "void k() {\n    MoeTracing(TRACE_POINT(\"%s\", \"B\"));\n}\n", lits[i]);
		scan(code, &s);
		f = src_file_from_buffer("t.cpp", code, strlen(code));
		ol = cxx_outline_build(f, NULL, NULL);
		ck_assert_uint_eq(s.nsites, 1);
		ck_assert_uint_eq(ol->nfuncs, 1);
		ck_assert_uint_eq(ol->funcs[0].body.npoints, 1);
		ck_assert_ptr_nonnull(ol->funcs[0].body.points[0].label);
		ck_assert_str_eq(s.sites[0].label, ol->funcs[0].body.points[0].label);
		cxx_outline_free(ol);
		src_file_free(f);
		pp_scan_release(&s);
	}
}
END_TEST

/* What an earlier run leaves: numeric ids in MoeTracing calls (in code and
 * on #define lines, not in comments or strings) and its tagged stamp. */
START_TEST(t_scan_preprocessed)
{
	const char *text =
		"MoeTracing(17); MoeTracing<true>(5, groupIdx); MoeTracing( 0x2f ,a,b);\n"
		"#define MY_BEGIN() MoeTracing(3)\n"
		"// MoeTracing(9);\n const char *k = \"MoeTracing(8)\";\n"
		"MoeTracing(data | x); XMoeTracing(4); MoeTracing(kId);\n"
		"return (uint64_t)(0x02b441c77784019cULL /* TRACE_BUILD_STAMP */);\n"
		"uint64_t m = 0xFFFFFFFFFFFFFFFFULL; /* TRACE_BUILD_STAMP */\n";
	struct pp_scan s;

	scan(text, &s);
	ck_assert_uint_eq(s.nsites, 0);
	ck_assert_uint_eq(s.ndone, 5);
	ck_assert(strncmp(text + s.done[0].start, "17", 2) == 0 && !s.done[0].stamp);
	ck_assert(strncmp(text + s.done[1].start, "5,", 2) == 0);
	ck_assert(strncmp(text + s.done[2].start, "0x2f ", 5) == 0);
	ck_assert_uint_eq(s.done[3].line, 2);
	ck_assert_uint_eq(s.done[3].col, 31);
	ck_assert(s.done[4].stamp);
	ck_assert_uint_eq(s.done[4].line, 6);
	ck_assert(strncmp(text + s.done[4].start, "0x02b441c77784019cULL /* TRACE_BUILD_STAMP */", 45) == 0);
	pp_scan_release(&s);
	/* nothing to find: the scan stops at memmem */
	scan("int f() { return 1; }\n", &s);
	ck_assert_uint_eq(s.nsites + s.nstamps + s.ndone, 0);
	pp_scan_release(&s);
}
END_TEST

START_TEST(t_scan_malformed)
{
	struct pp_scan s;

	scan("MoeTracing(TRACE_POINT(name, \"B\"));\nMoeTracing(TRACE_POINT(\"x\", \"Q\"));\n"
	     "MoeTracing(TRACE_POINT(\"\", \"B\"));\nint TRACE_POINT = 1;\n/* unterminated", &s);
	ck_assert_uint_eq(s.nsites, 3);
	ck_assert_ptr_null(s.sites[0].label);
	ck_assert_str_eq(s.sites[1].label, "x");
	ck_assert_int_eq(s.sites[1].event, 0);
	ck_assert_str_eq(s.sites[2].label, "");
	pp_scan_release(&s);
	scan("", &s);
	ck_assert_uint_eq(s.nsites, 0);
	scan("TRACE_POINT", &s);
	ck_assert_uint_eq(s.nsites, 0);
	scan("x = u8R\"(TRACE_POINT(\"r\", \"B\"))\"; y = LR\"(\")\"; TRACE_POINT(\"ok\", \"E\")", &s);
	ck_assert_uint_eq(s.nsites, 1);
	ck_assert_str_eq(s.sites[0].label, "ok");
	pp_scan_release(&s);
}
END_TEST

/* ---- the stamp ---- */

static uint64_t stamp_of(const char *file, uint32_t line, uint32_t col, const char *label, char ev)
{
	struct pp_stamp st;

	pp_stamp_init(&st);
	pp_stamp_add(&st, "a.h", 3, 5, "processing", 'B');
	pp_stamp_add(&st, file, line, col, label, ev);
	return pp_stamp_value(&st);
}

START_TEST(t_stamp)
{
	uint64_t base = stamp_of("a.h", 9, 5, "processing", 'E');

	ck_assert(base != 0);
	ck_assert(base == stamp_of("a.h", 9, 5, "processing", 'E'));
	ck_assert(base != stamp_of("a.h", 10, 5, "processing", 'E'));
	ck_assert(base != stamp_of("a.h", 9, 6, "processing", 'E'));
	ck_assert(base != stamp_of("b.h", 9, 5, "processing", 'E'));
	ck_assert(base != stamp_of("a.h", 9, 5, "processing2", 'E'));
	ck_assert(base != stamp_of("a.h", 9, 5, "processing", 'B'));
}
END_TEST

/* ---- point_map.json: writer and reader agree ---- */

START_TEST(t_map_round_trip)
{
	struct point_map *m = point_map_new(), *back;
	struct diag *d = mkdiag();
	const char *labels[] = { "processing", "a \"quoted\" \\ label", "tab\there", "\xe4\xb8\xad\xe6\x96\x87 x" };
	size_t len;
	char *text;

	m->generator = strdup("autotrace test");
	m->has_stamp = true;
	m->build_stamp = 0x00a1b2c3d4e5f607ull;
	for (uint32_t i = 0; i < 4; i++) {
		ck_assert_int_eq(point_map_add(m, 2 * i + 1, labels[i], 'B', i + 1, "op_kernel/a.h", 10 + i), 0);
		ck_assert_int_eq(point_map_add(m, 2 * i + 2, labels[i], 'E', i + 1, i == 3 ? NULL : "b.h", 20 + i), 0);
	}
	text = point_map_to_json(m, &len);
	ck_assert_uint_eq(len, strlen(text));
	ck_assert_ptr_nonnull(strstr(text, "\"build_stamp\": \"00a1b2c3d4e5f607\""));
	ck_assert_ptr_nonnull(strstr(text, "\"version\": 1"));
	back = point_map_parse("map.json", text, len, d);
	ck_assert_msg(back != NULL, "%s", errors(d));
	ck_assert_int_eq(back->version, 1);
	ck_assert(back->has_stamp);
	ck_assert(back->build_stamp == m->build_stamp);
	ck_assert_str_eq(back->generator, "autotrace test");
	ck_assert_uint_eq(back->count, 8);
	for (uint32_t id = 1; id <= 8; id++) {
		const struct point_map_point *a = point_map_get(m, id), *b = point_map_get(back, id);
		ck_assert_ptr_nonnull(b);
		ck_assert_str_eq(back->labels[b->label], m->labels[a->label]);
		ck_assert_int_eq(b->event_type, a->event_type);
		ck_assert_int_eq(b->event_id, a->event_id);
		ck_assert_uint_eq(b->line, a->line);
		if (a->file == UINT32_MAX)
			ck_assert_uint_eq(b->file, UINT32_MAX);
		else
			ck_assert_str_eq(back->files[b->file], m->files[a->file]);
	}
	point_map_free(back);
	free(text);
	/* an empty map */
	point_map_free(m);
	m = point_map_new();
	text = point_map_to_json(m, &len);
	back = point_map_parse("empty.json", text, len, d);
	ck_assert_ptr_nonnull(back);
	ck_assert_uint_eq(back->count, 0);
	ck_assert(!back->has_stamp);
	point_map_free(back);
	point_map_free(m);
	free(text);
}
END_TEST

/* ---- pairing ---- */

static unsigned pairing_errors(const char *code, const char **msgs)
{
	struct src_file *f = src_file_from_buffer("t.cpp", code, strlen(code));
	struct cxx_outline *ol = cxx_outline_build(f, NULL, NULL);
	struct diag *d = mkdiag();
	unsigned n = check_pairing(ol, d);

	*msgs = errors(d);
	cxx_outline_free(ol);
	src_file_free(f);
	return n;
}

#define B(l) "MoeTracing(TRACE_POINT(\"" l "\", \"B\"));"
#define E(l) "MoeTracing(TRACE_POINT(\"" l "\", \"E\"));"

START_TEST(t_pairing_ok)
{
	const char *msgs;
	const char *code =
		"void f(int n) {\n" B("p") "\n"
		"  if (n == 0) { " E("p") " return; }\n"
		"  for (int i = 0; i < n; i++) { " B("l") " if (i == 2) { " E("l") " continue; }\n"
		"      if (i == 5) { " E("l") " break; } " E("l") " }\n"
		"  switch (n) { case 1: " B("s") " " E("s") " break; default: break; }\n"
		"  while (true) { " B("w") " if (n) { " E("w") " break; } " E("w") " }\n"
		"  do { " B("d") " " E("d") " } while (n--);\n"
		"  auto g = [&]() { " B("lam") " if (n) { " E("lam") " return 1; } " E("lam") " return 0; };\n"
		E("p") "\n}\n";

	ck_assert_msg(pairing_errors(code, &msgs) == 0, "%s", msgs);
}
END_TEST

START_TEST(t_pairing_errors)
{
	const char *msgs;

	ck_assert_uint_eq(pairing_errors("void f(int n) { " B("p") " if (n) return; " E("p") " }", &msgs), 1);
	ck_assert_ptr_nonnull(strstr(msgs, "error: return leaves 'p' open"));
	ck_assert_ptr_nonnull(strstr(msgs, "note: 'p' opened here"));

	ck_assert_uint_eq(pairing_errors("void f() { " B("p") " " E("p") " " E("p") " }", &msgs), 1);
	ck_assert_ptr_nonnull(strstr(msgs, "'p' is closed twice on this path"));
	ck_assert_ptr_nonnull(strstr(msgs, "'p' first closed here"));

	ck_assert_uint_eq(pairing_errors("void f() { " B("a") " " B("b") " " E("a") " " E("b") " }", &msgs), 1);
	ck_assert_ptr_nonnull(strstr(msgs, "'a' is closed while 'b', opened inside it, is still open"));

	ck_assert_uint_eq(pairing_errors("void f() { " B("a") " " B("a") " " E("a") " }", &msgs), 1);
	ck_assert_ptr_nonnull(strstr(msgs, "'a' is opened again while it is open"));

	ck_assert_uint_eq(pairing_errors("void f() { " E("a") " }", &msgs), 1);
	ck_assert_ptr_nonnull(strstr(msgs, "'a' is closed but was not opened on this path"));

	ck_assert_uint_eq(pairing_errors("void f() { " B("a") " }", &msgs), 1);
	ck_assert_ptr_nonnull(strstr(msgs, "the end of the function leaves 'a' open"));

	ck_assert_uint_eq(pairing_errors("void f(int n) { " B("a") " if (n) { " E("a") " } foo(); }", &msgs), 1);
	ck_assert_ptr_nonnull(strstr(msgs, "'a' is closed on some paths but not on others"));
	ck_assert_ptr_nonnull(strstr(msgs, "the paths join after this if"));

	ck_assert_uint_eq(pairing_errors("void f(int n) { if (n) { " B("a") " } " E("a") " }", &msgs), 1);
	ck_assert_ptr_nonnull(strstr(msgs, "'a' is left open on some paths but not on others"));

	ck_assert_uint_eq(
		pairing_errors("void f(int n) { for (;;) { " B("a") " if (n) continue; " E("a") " } }", &msgs), 1);
	ck_assert_ptr_nonnull(strstr(msgs, "'a' opened in the loop body is still open when the next iteration starts"));
	ck_assert_ptr_nonnull(strstr(msgs, "note: the iteration ends here"));

	ck_assert_uint_eq(pairing_errors("void f(int n) { " B("a") " while (n--) { " E("a") " } }", &msgs), 1);
	ck_assert_ptr_nonnull(strstr(msgs, "'a' is closed inside the loop body but was opened before the loop"));

	ck_assert_uint_eq(
		pairing_errors("void f(int n) { auto g = [&]() { " B("a") " return 0; }; " B("b") " " E("b") " }", &msgs),
		1);
	ck_assert_ptr_nonnull(strstr(msgs, "return leaves 'a' open"));

	/* a switch case that falls out with its point open */
	ck_assert_uint_eq(pairing_errors("void f(int n) { switch (n) { case 1: " B("a") " break; default: break; } }",
					 &msgs),
			  1);
	ck_assert_ptr_nonnull(strstr(msgs, "'a' is left open on some paths but not on others"));
}
END_TEST

/* Labels decode C++'s escapes, the same for every reader: octal and hex
 * are bytes (were: "\x1b" -> "x1b", "\033" -> "033"), \u is UTF-8, the
 * simple escapes their characters, an unknown one its letter; lines joined
 * by a backslash-newline are one (was: a newline in the label). */
START_TEST(t_label_escapes)
{
	static const struct {
		const char *lit, *want;
		size_t len;
	} cases[] = {
		{ "a\\x1b-b", "a\x1b-b", 4 }, { "\\033[0m", "\033[0m", 4 },    { "\\0", "", 1 },
		{ "\\x41\\x4a", "AJ", 2 },      { "\\101", "A", 1 },            { "\\u00e9", "\xc3\xa9", 2 },
		{ "\\U0001F600", "\xf0\x9f\x98\x80", 4 }, { "\\n\\t\\r\\a", "\n\t\r\a", 4 },
		{ "\\\"\\\\\\'\\?", "\"\\'?", 4 }, { "\\q", "q", 1 },            { "\\x", "x", 1 },
		{ "\\u12", "u12", 3 },           { "tail\\", "tail\\", 5 },
		/* line splices first (phase 2), blanks or a CR before the newline too; a
		 * backslash spliced away from what follows still escapes it */
		{ "spl\\\nice", "splice", 6 }, { "b\\ \t\nlank", "blank", 5 }, { "cr\\\r\nlf", "crlf", 4 },
		{ "esc\\\\\nn", "esc\n", 4 }, { "oct\\\\\n101", "octA", 4 }, { "x\\\n4\\\n1", "x41", 3 },
		{ "\\x4\\\n1", "A", 1 },       { "no\\\\n", "no\\n", 4 },
	};
	char out[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *l = cases[i].lit;
		size_t n = string_literal_unescape(l, l + strlen(l), out);
		ck_assert_msg(n == cases[i].len && memcmp(out, cases[i].want, n) == 0, "case %zu: '%s' -> %zu bytes", i, l, n);
		ck_assert_uint_le(n, strlen(l));
	}
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("preprocess");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, t_scan_code_only);
	tcase_add_test(tc, t_scan_malformed);
	tcase_add_test(tc, t_labels_agree_with_the_parser);
	tcase_add_test(tc, t_stamp);
	tcase_add_test(tc, t_scan_preprocessed);
	tcase_add_test(tc, t_map_round_trip);
	tcase_add_test(tc, t_pairing_ok);
	tcase_add_test(tc, t_pairing_errors);
	tcase_add_test(tc, t_label_escapes);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"

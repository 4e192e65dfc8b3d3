/* Unit tests for the rules language: lexer and parser (through the real
 * flex/bison front end), templates, regexes, decoding and merge rules. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dump_layout.h"
#include "rule_ast.h"
#include "rule_expr.h"
#include "rule_load.h"
#include "rule_policy.h"
#include "rule_regex.h"
#include "rule_template.h"

static char *errbuf;
static size_t errlen;
static FILE *errfp;
static struct diag diag;

static void open_diag(void)
{
	errbuf = NULL;
	errfp = open_memstream(&errbuf, &errlen);
	diag_init(&diag, errfp, false);
}

static const char *diag_text(void)
{
	fflush(errfp);
	return errbuf ? errbuf : "";
}

static void close_diag(void)
{
	fclose(errfp);
	free(errbuf);
}

static struct rule_node *parse(const char *text, struct src_file **f, unsigned *errors)
{
	*f = src_file_from_buffer("t.rules", text, strlen(text));
	return rule_ast_parse(*f, &diag, errors);
}

static struct rule_policy *load(const char *text)
{
	return rule_load_buffer("t.rules", text, strlen(text), NULL, &diag);
}

/* ---- lexer and parser ---- */

START_TEST(t_parse_sections_and_values)
{
	struct src_file *f;
	unsigned errors;
	struct rule_node *root;
	const struct rule_node *sec, *st;

	open_diag();
	root = parse("rules 1;\n# comment\ntrace { loop /g\\/x/i \"a {phase}\" index groupIdx, 50MHz; }\n",
		     &f, &errors);
	ck_assert_uint_eq(errors, 0);
	ck_assert_uint_eq(root->nchildren, 2);
	ck_assert(!root->children[0]->is_section);
	ck_assert_str_eq(root->children[0]->keyword, "rules");
	sec = root->children[1];
	ck_assert(sec->is_section);
	ck_assert_str_eq(sec->keyword, "trace");
	ck_assert_uint_eq(sec->nchildren, 1);
	st = sec->children[0];
	ck_assert_str_eq(st->keyword, "loop");
	ck_assert_uint_eq(st->nargs, 7);
	ck_assert_int_eq(st->args[0]->kind, RV_REGEX);
	ck_assert_str_eq(st->args[0]->text, "g\\/x");
	ck_assert_str_eq(st->args[0]->flags, "i");
	ck_assert_int_eq(st->args[1]->kind, RV_STRING);
	ck_assert_str_eq(st->args[1]->text, "a {phase}");
	ck_assert_int_eq(st->args[2]->kind, RV_WORD);
	ck_assert_int_eq(st->args[4]->kind, RV_COMMA);
	ck_assert_int_eq(st->args[5]->kind, RV_NUMBER);
	ck_assert(st->args[5]->number == 50.0);
	ck_assert_int_eq(st->args[6]->kind, RV_WORD);
	ck_assert_str_eq(st->args[6]->text, "MHz");
	/* spans are byte offsets into the file */
	ck_assert_uint_eq(st->kw_span.start, (uint32_t)(strstr(f->data, "loop") - f->data));
	ck_assert_uint_eq(st->args[5]->span.end - st->args[5]->span.start, 2);
	rule_node_free(root);
	src_file_free(f);
	close_diag();
}
END_TEST

START_TEST(t_string_escapes)
{
	struct src_file *f;
	unsigned errors;
	struct rule_node *root;

	open_diag();
	root = parse("build \"a \\\"b\\\" \\\\ c\";", &f, &errors);
	ck_assert_uint_eq(errors, 0);
	ck_assert_str_eq(root->children[0]->args[0]->text, "a \"b\" \\ c");
	rule_node_free(root);
	src_file_free(f);
	close_diag();
}
END_TEST

START_TEST(t_syntax_error_reports_once)
{
	struct src_file *f;
	unsigned errors;
	struct rule_node *root;

	open_diag();
	root = parse("trace {\n  depth 7\n}\ngate { } } }\n", &f, &errors);
	ck_assert_uint_eq(errors, 1);
	ck_assert_str_eq(diag_text(), "t.rules:2:10: error: expected ';' after '7'\n  depth 7\n         ^\n");
	rule_node_free(root);
	src_file_free(f);
	close_diag();
}
END_TEST

START_TEST(t_lexer_errors_do_not_stop_lexing)
{
	struct src_file *f;
	unsigned errors;
	struct rule_node *root;

	open_diag();
	root = parse("a @ b;\nc \"open\nd $;\n", &f, &errors);
	ck_assert_uint_eq(errors, 3);
	ck_assert_ptr_nonnull(strstr(diag_text(), "t.rules:1:3: error: unexpected character '@'"));
	ck_assert_ptr_nonnull(strstr(diag_text(), "t.rules:2:3: error: unterminated string"));
	ck_assert_ptr_nonnull(strstr(diag_text(), "t.rules:3:3: error: unexpected character '$'"));
	rule_node_free(root);
	src_file_free(f);
	close_diag();
}
END_TEST

/* ---- templates ---- */

START_TEST(t_template_expand)
{
	struct rule_template *t;
	struct rule_tvalues v = { { 0 } };
	char *s;

	open_diag();
	t = rule_template_parse("{phase} {name} x", src_loc_make(NULL, 0, 0), &diag);
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(t->nparts, 4);
	ck_assert(rule_template_uses(t, RULE_TVAR_name));
	ck_assert(!rule_template_uses(t, RULE_TVAR_core));
	v.v[RULE_TVAR_phase] = "dispatch";
	v.v[RULE_TVAR_name] = "send-core-func";
	s = rule_template_expand(t, &v);
	ck_assert_str_eq(s, "dispatch send-core-func x");
	free(s);
	/* an empty phase leaves no stray spaces */
	v.v[RULE_TVAR_phase] = NULL;
	s = rule_template_expand(t, &v);
	ck_assert_str_eq(s, "send-core-func x");
	free(s);
	rule_template_free(t);
	close_diag();
}
END_TEST

START_TEST(t_template_errors)
{
	const char *text = "x \"{phse} a\" \"{\" \"}\" \"  \"";
	struct src_file *f = src_file_from_buffer("t.rules", text, strlen(text));

	open_diag();
	ck_assert_ptr_null(rule_template_parse("{phse} a", src_loc_make(f, 2, 12), &diag));
	ck_assert_ptr_null(rule_template_parse("{", src_loc_make(f, 13, 16), &diag));
	ck_assert_ptr_null(rule_template_parse("}", src_loc_make(f, 17, 20), &diag));
	ck_assert_ptr_null(rule_template_parse("  ", src_loc_make(f, 21, 25), &diag));
	ck_assert_uint_eq(diag.errors, 4);
	ck_assert_ptr_nonnull(strstr(diag_text(), "t.rules:1:4: error: unknown template variable '{phse}' (did you mean '{phase}'?)"));
	ck_assert_ptr_nonnull(strstr(diag_text(), "t.rules:1:15: error: unclosed '{' in label template"));
	ck_assert_ptr_nonnull(strstr(diag_text(), "t.rules:1:19: error: unmatched '}' in label template"));
	ck_assert_ptr_nonnull(strstr(diag_text(), "t.rules:1:22: error: empty label"));
	src_file_free(f);
	close_diag();
}
END_TEST

START_TEST(t_kebab_case)
{
	const char *cases[][2] = {
		{ "SendCoreFunc", "send-core-func" }, { "AICProcess", "aic-process" },
		{ "moe_process", "moe-process" },     { "Process", "process" },
		{ "operator()", "operator" },         { "GroupedMatmul2D", "grouped-matmul2d" },
		{ "Cls::Run", "cls-run" },            { "x", "x" },
		/* all capitals: no case to read words from, split at '_' only */
		{ "SYNCFLAGC2V", "syncflagc2v" },     { "SYNC_FLAG_C2V", "sync-flag-c2v" },
		/* after a digit a word starts only where one follows, or an acronym */
		{ "SyncFlagC2V", "sync-flag-c2v" },   { "DispatchFFNCombineW4A8Kernel", "dispatch-ffn-combine-w4a8-kernel" },
		{ "Gmm2Process", "gmm2-process" },    { "Stage2AIV", "stage2-aiv" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *k = rule_kebab_case(cases[i][0]);
		ck_assert_str_eq(k, cases[i][1]);
		free(k);
	}
}
END_TEST

/* ---- regexes ---- */

/* What `index` and `extra` take unquoted, and which quoted expressions
 * cannot be written into a trace point's call. */
START_TEST(t_clause_expressions)
{
	static const struct {
		const char *text;
		size_t len;
		bool identifier;
	} unq[] = {
		{ "groupIdx", 8, true },
		{ "groupIdx   ", 8, true },
		{ "groupIdx extra stageId", 8, true },
		{ "groupIdx, 50", 8, true },
		{ "params.stageId", 14, false },
		{ "params->stageId sync", 15, false },
		{ "stageIdx + 1 extra e", 12, false },
		{ "stageIdx+1", 10, false },
		{ "stage-idx", 9, false },
		{ "3", 1, false },
		{ "a[i]  ", 4, false },
		{ "syncIdx + extraIdx", 18, false }, /* clause words only as whole words */
	};
	static const char *const bad[] = { "", "  ", "a;b", "a // b", "a /* b */", "a\nb", "f(a", "a)", "a[(b])",
					   NULL };
	static const char *const good[] = { "params.stageId", "cumsumMM((params.EP - 1) * n + groupIdx)", "a[i] / 2",
					    "aivIdx % 2", NULL };

	for (size_t i = 0; i < sizeof(unq) / sizeof(unq[0]); i++) {
		bool id = !unq[i].identifier;
		ck_assert_uint_eq(rule_expr_unquoted(unq[i].text, strlen(unq[i].text), &id), unq[i].len);
		ck_assert_msg(id == unq[i].identifier, "%s", unq[i].text);
	}
	for (size_t i = 0; bad[i]; i++)
		ck_assert_msg(rule_expr_problem(bad[i]) != NULL, "'%s' passes", bad[i]);
	for (size_t i = 0; good[i]; i++)
		ck_assert_msg(rule_expr_problem(good[i]) == NULL, "'%s': %s", good[i], rule_expr_problem(good[i]));
}
END_TEST

START_TEST(t_regex_flags_and_match)
{
	struct rule_regex *re;

	open_diag();
	re = rule_regex_compile("wait|sync", "i", src_loc_make(NULL, 0, 0), &diag);
	ck_assert_ptr_nonnull(re);
	ck_assert(rule_regex_match(re, "CrossCoreWaitFlag", 17));
	ck_assert(!rule_regex_match(re, "DataCopy", 8));
	rule_regex_free(re);
	ck_assert_ptr_null(rule_regex_compile("(", "", src_loc_make(NULL, 0, 0), &diag));
	ck_assert_ptr_null(rule_regex_compile("a", "q", src_loc_make(NULL, 0, 0), &diag));
	ck_assert_uint_eq(diag.errors, 2);
	close_diag();
}
END_TEST

/* ---- decoding and merging ---- */

START_TEST(t_defaults)
{
	struct rule_policy *p;

	open_diag();
	p = load("");
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p->kernel.value, "op_kernel");
	ck_assert_int_eq(p->depth, 7);
	ck_assert_uint_eq(p->nroots, 1);
	ck_assert_str_eq(p->roots[0].label, "processing");
	ck_assert_ptr_null(p->roots[0].at); /* the kernel entry */
	ck_assert_uint_eq(p->clock_hz, 50000000);
	ck_assert_uint_eq(p->slot_words, 2048);
	ck_assert_int_eq(p->mode, RULE_MODE_AUTO);
	ck_assert_ptr_null(p->project.value);
	ck_assert_uint_eq(p->nrules, 0);
	rule_policy_free(p);
	close_diag();
}
END_TEST

START_TEST(t_statements_decode)
{
	struct rule_policy *p;

	open_diag();
	p = load("operator { samples \"a.py\", \"b.py\"; define X; define Y 2; undef X; profiling \"prof\" optional; }\n"
		 "trace { depth 5; density 12 20; loop /\\bgroupIdx\\b/ \"{phase} moe\" index groupIdx extra \"g + 1\";\n"
		 "        region from /A/ to /B/ \"r\"; skip call /^DataCopy$/; hot /Wait/; }\n"
		 "collect { clock 1.5 GHz; cores aiv 4; slot 16; layout moe-v2; }\n");
	ck_assert_msg(p != NULL, "%s", diag_text());
	ck_assert_uint_eq(p->samples.n, 2);
	ck_assert_str_eq(p->samples.v[1], "b.py");
	ck_assert_int_eq(rule_policy_defined(p, "X"), 0);
	ck_assert_int_eq(rule_policy_defined(p, "Y"), 1);
	ck_assert_int_eq(rule_policy_defined(p, "Z"), -1);
	ck_assert_str_eq(p->profiling.value, "prof");
	ck_assert_int_eq(p->mode, RULE_MODE_OPTIONAL);
	ck_assert_int_eq(p->depth, 5);
	ck_assert_int_eq(p->density_min, 12);
	ck_assert_uint_eq(p->nrules, 4);
	ck_assert_int_eq(p->rules[0].kind, RULE_loop);
	ck_assert_str_eq(p->rules[0].index, "groupIdx");
	ck_assert_str_eq(p->rules[0].extra, "g + 1");
	ck_assert_int_eq(p->rules[1].kind, RULE_region);
	ck_assert_ptr_nonnull(p->rules[1].until);
	ck_assert_int_eq(p->rules[2].target, RULE_TARGET_call);
	ck_assert_ptr_null(p->rules[3].label);
	ck_assert_uint_eq(p->clock_hz, 1500000000u);
	ck_assert_uint_eq(p->ncores, 1);
	ck_assert_str_eq(p->cores[0].type, "aiv");
	ck_assert_str_eq(p->layout, "moe-v2");
	rule_policy_free(p);
	close_diag();
}
END_TEST

/* `layout` takes every name of the layout table (dump_layout.h) and "auto";
 * an unknown name is refused with the statement's synopsis, which must then
 * name every layout of the table (rule_statements.def spells it out). */
START_TEST(t_layout_names_from_table)
{
	char text[128];
	struct rule_policy *p;

	for (size_t i = 0; i < DUMP_LAYOUT_COUNT; i++) {
		const struct dump_layout *l = dump_layout_at(i);
		open_diag();
		snprintf(text, sizeof(text), "collect { layout %s; }\n", l->name);
		p = load(text);
		ck_assert_msg(p != NULL, "%s", diag_text());
		ck_assert_str_eq(p->layout, l->name);
		rule_policy_free(p);
		close_diag();
	}
	open_diag();
	p = load("collect { layout auto; }\n");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_null(p->layout);
	rule_policy_free(p);
	close_diag();

	open_diag();
	ck_assert_ptr_null(load("collect { layout moe-v0; }\n"));
	ck_assert_str_eq(diag_text(), "t.rules:1:18: error: unknown layout name 'moe-v0' (did you mean 'moe-v1' or 'moe-v2'?)\n"
				      "collect { layout moe-v0; }\n"
				      "                 ^~~~~~\n");
	close_diag();
	open_diag();
	ck_assert_ptr_null(load("collect { layout packed; }\n"));
	ck_assert_str_eq(diag_text(), "t.rules:1:18: error: unknown layout name 'packed' (layout moe-v1|moe-v2|auto;)\n"
				      "collect { layout packed; }\n"
				      "                 ^~~~~~\n");
	for (size_t i = 0; i < DUMP_LAYOUT_COUNT; i++) {
		snprintf(text, sizeof(text), " %s|", dump_layout_at(i)->name);
		ck_assert_msg(strstr(diag_text(), text) || strstr(diag_text(), text + 1),
			      "the `layout` synopsis in rule_statements.def lacks %s", dump_layout_at(i)->name);
	}
	close_diag();
}
END_TEST

START_TEST(t_every_error_is_reported)
{
	open_diag();
	ck_assert_ptr_null(load("trace { depth 0; fucntion /x/ \"a\"; }\ncollect { clock 5 Mhz; }\n"));
	ck_assert_uint_eq(diag.errors, 3);
	close_diag();
}
END_TEST

/* Writes `text` to dir/name. */
static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

START_TEST(t_include_merge_rules)
{
	char dir[] = "/tmp/check_rules_XXXXXX";
	char path[512];
	struct rule_policy *p;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	write_file(dir, "base.rules",
		   "operator { samples \"a.py\", \"b.py\"; kernel \"k1\"; }\n"
		   "trace { depth 6; loop /i/ \"base loop\"; function /F/ \"base fn\"; }\n");
	write_file(dir, "op.rules",
		   "include \"base.rules\";\n"
		   "operator { samples \"c.py\"; }\n"
		   "trace { depth 4; reset loop; loop /j/ \"op loop\"; }\n");
	snprintf(path, sizeof(path), "%s/op.rules", dir);
	open_diag();
	p = rule_load(path, NULL, NULL, &diag);
	ck_assert_msg(p != NULL, "%s", diag_text());
	ck_assert_uint_eq(p->nsources, 2);
	/* settings: the later one wins; lists are replaced whole */
	ck_assert_int_eq(p->depth, 4);
	ck_assert_str_eq(p->kernel.value, "k1");
	ck_assert_uint_eq(p->samples.n, 1);
	ck_assert_str_eq(p->samples.v[0], "c.py");
	/* rules: appended in reading order; reset dropped the inherited loop */
	ck_assert_uint_eq(p->nrules, 2);
	ck_assert_str_eq(p->rules[0].label->text, "base fn");
	ck_assert_str_eq(p->rules[1].label->text, "op loop");
	rule_policy_free(p);
	close_diag();
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(path), 0);
}
END_TEST

START_TEST(t_include_cycle_and_missing)
{
	char dir[] = "/tmp/check_rules_XXXXXX";
	char path[512];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	write_file(dir, "a.rules", "include \"b.rules\";\n");
	write_file(dir, "b.rules", "include \"a.rules\";\ninclude \"nope.rules\";\n");
	snprintf(path, sizeof(path), "%s/a.rules", dir);
	open_diag();
	ck_assert_ptr_null(rule_load(path, NULL, NULL, &diag));
	ck_assert_uint_eq(diag.errors, 2);
	ck_assert_ptr_nonnull(strstr(diag_text(), "error: include cycle: "));
	ck_assert_ptr_nonnull(strstr(diag_text(), "error: cannot find included file 'nope.rules'"));
	close_diag();
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(path), 0);
}
END_TEST

START_TEST(t_shipped_default_loads)
{
	char path[1024];
	struct rule_policy *p;
	const char *top = getenv("TOP_SRCDIR");

	snprintf(path, sizeof(path), "%s/rules/moe.rules", top ? top : ".");
	open_diag();
	p = rule_load(path, NULL, NULL, &diag);
	ck_assert_msg(p != NULL, "%s", diag_text());
	ck_assert_uint_ge(p->nroots, 1);
	ck_assert_str_eq(p->roots[0].label, "processing");
	ck_assert_uint_ge(p->nrules, 10);
	rule_policy_free(p);
	close_diag();
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("rules");
	TCase *syntax = tcase_create("syntax");
	TCase *tmpl = tcase_create("template");
	TCase *decode = tcase_create("decode");

	tcase_add_test(syntax, t_parse_sections_and_values);
	tcase_add_test(syntax, t_string_escapes);
	tcase_add_test(syntax, t_syntax_error_reports_once);
	tcase_add_test(syntax, t_lexer_errors_do_not_stop_lexing);
	tcase_add_test(tmpl, t_template_expand);
	tcase_add_test(tmpl, t_template_errors);
	tcase_add_test(tmpl, t_kebab_case);
	tcase_add_test(tmpl, t_regex_flags_and_match);
	tcase_add_test(tmpl, t_clause_expressions);
	tcase_add_test(decode, t_defaults);
	tcase_add_test(decode, t_statements_decode);
	tcase_add_test(decode, t_layout_names_from_table);
	tcase_add_test(decode, t_every_error_is_reported);
	tcase_add_test(decode, t_include_merge_rules);
	tcase_add_test(decode, t_include_cycle_and_missing);
	tcase_add_test(decode, t_shipped_default_loads);
	suite_add_tcase(s, syntax);
	suite_add_tcase(s, tmpl);
	suite_add_tcase(s, decode);
	return s;
}

#include "check_main.h"

/* Unit tests of the build-script modules under the G1 hook: the words
 * autotrace may write into a script (sh_word), the directory a point of a
 * script runs in and what a word names there (sh_eval), and where a script
 * starts, from what runs it (sh_start). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "path_glob.h"
#include "path_rel.h"
#include "sh_eval.h"
#include "sh_scan.h"
#include "sh_start.h"
#include "sh_word.h"
#include "xalloc.h"

START_TEST(words_plain_expanding_and_refused)
{
	static const struct {
		const char *w;
		int kind;
		size_t at;
	} cases[] = {
		{ "mc2/op", SH_WORD_PLAIN, 0 },
		{ "my ops/op*", SH_WORD_PLAIN, 0 },
		{ "~/op", SH_WORD_PLAIN, 0 },
		{ "\"${ROOT_DIR}/csrc\"/mc2/op", SH_WORD_EXPANDS, 0 },
		{ "$ROOT/'my op'", SH_WORD_EXPANDS, 0 },
		{ "\"${BUILD:-build}/src\"", SH_WORD_EXPANDS, 0 },
		{ "${BUILD-$HOME/b}/src", SH_WORD_EXPANDS, 0 },
		{ "\"$1\"/op", SH_WORD_EXPANDS, 0 },
		{ "", SH_WORD_BAD, 0 },
		{ "$(id)", SH_WORD_BAD, 0 },
		{ "\"$ROOT/$(id)\"", SH_WORD_BAD, 7 },
		{ "a`id`", SH_WORD_BAD, 1 },
		{ "op;rm", SH_WORD_BAD, 2 },
		{ "op&", SH_WORD_BAD, 2 },
		{ "op|x", SH_WORD_BAD, 2 },
		{ "op\nx", SH_WORD_BAD, 2 },
		{ "'op", SH_WORD_BAD, 0 },
		{ "$ROOT/\"op", SH_WORD_BAD, 6 },
		{ "$ROOT/my op", SH_WORD_BAD, 8 },
		{ "$ROOT/*", SH_WORD_BAD, 6 },
		{ "~/$ROOT", SH_WORD_BAD, 0 },
		{ "${ROOT%/*}", SH_WORD_BAD, 0 },
		{ "$@", SH_WORD_BAD, 0 },
		{ "\"$ROOT\\op\"", SH_WORD_BAD, 6 },
		{ "$ROOT/(x)", SH_WORD_BAD, 6 },
		/* single-quoted text is text, whatever it holds but a newline: the words sh_quote writes */
		{ "'x$(touch PWNED)y'", SH_WORD_EXPANDS, 0 },
		{ "'a;b|c&d`id`'", SH_WORD_EXPANDS, 0 },
		{ "'it'\\''s'", SH_WORD_EXPANDS, 0 },
		{ "$ROOT/'x\"y'", SH_WORD_EXPANDS, 0 },
		{ "'a\nb'", SH_WORD_BAD, 2 },
		{ "\"a;b\"", SH_WORD_BAD, 2 },
		{ "\"a`id`\"", SH_WORD_BAD, 2 },
		{ "a\\ b", SH_WORD_BAD, 1 },
		{ "'x';id", SH_WORD_BAD, 3 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t at = 99, len;
		const char *why = NULL;
		int k = sh_word_check(cases[i].w, &at, &len, &why);
		ck_assert_msg(k == cases[i].kind, "'%s': kind %d, expected %d", cases[i].w, k, cases[i].kind);
		if (k == SH_WORD_BAD) {
			ck_assert_msg(at == cases[i].at, "'%s': at %zu, expected %zu", cases[i].w, at, cases[i].at);
			ck_assert_ptr_nonnull(why);
		}
	}
}
END_TEST

START_TEST(quoting_and_joining)
{
	/* fn 0: sh_quote(a), 1: sh_word_for(a), 2: sh_word_join(a, b), 3: sh_word_literal(a); a NULL want: none */
	static const struct {
		int fn;
		const char *a, *b, *want;
	} cases[] = {
		{ 0, "mc2/op", NULL, "mc2/op" },
		{ 0, "it's here", NULL, "'it'\\''s here'" },
		{ 0, "", NULL, "''" },
		{ 1, "my ops/op", NULL, "'my ops/op'" },
		{ 1, "\"$A\"/x", NULL, "\"$A\"/x" },
		{ 1, "$ROOT/x", NULL, "\"$ROOT\"/x" },
		{ 1, "'a b'", NULL, "'a b'" },
		{ 2, "\"${ROOT_DIR}/csrc\"", "mc2/op", "\"${ROOT_DIR}/csrc/mc2/op\"" },
		{ 2, "$ROOT", "my op", "$ROOT/'my op'" },
		{ 2, "\"$ROOT\"", ".", "\"$ROOT\"" },
		{ 2, "\"$ROOT\"", "x$(id)", "\"$ROOT\"/'x$(id)'" },
		{ 2, "\"$ROOT\"", "a\nb", NULL },
		{ 3, "x$(id)'y", NULL, "'x$(id)'\\''y'" },
		{ 3, "a\nb", NULL, NULL },
		{ 3, "tab\there", NULL, NULL },
		{ 3, "", NULL, NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *q = cases[i].fn == 0 ? sh_quote(cases[i].a)
			  : cases[i].fn == 1 ? sh_word_for(cases[i].a)
			  : cases[i].fn == 2 ? sh_word_join(cases[i].a, cases[i].b)
					     : sh_word_literal(cases[i].a);
		if (!cases[i].want) {
			ck_assert_msg(q == NULL, "%s: got '%s', expected none", cases[i].a, q);
			continue;
		}
		ck_assert_msg(q && strcmp(q, cases[i].want) == 0, "%s: got '%s', expected '%s'", cases[i].a, q ? q : "(none)",
			      cases[i].want);
		free(q);
	}
}
END_TEST

/* A script's word written again (sh_word_requote): its unquoted
 * expansions inside double quotes, literal text with a shell character
 * single-quoted, a leading ~ or ~USER kept; globs, braces and what
 * sh_word_check refuses are refused; what it writes it leaves as it is. */
START_TEST(requoting_script_words)
{
	static const struct {
		const char *w, *want;   /* want NULL: refused */
	} cases[] = {
		{ "$X", "\"$X\"" },
		{ "${X}/out", "\"${X}\"/out" },
		{ "${BUILD_DIR:-build}/src/", "\"${BUILD_DIR:-build}\"/src/" },
		{ "${A:-$HOME/b}", "\"${A:-$HOME/b}\"" },
		{ "$1", "\"$1\"" },
		{ "\"$A\"/x", "\"$A\"/x" },
		{ "\"${MODULE_BUILD_PATH}/${proj_name}\"", "\"${MODULE_BUILD_PATH}/${proj_name}\"" },
		{ "'a b'/$X/c", "'a b'/\"$X\"/c" },
		{ "'it'\\''s'", "'it'\\''s'" },
		{ "build_out/op", "build_out/op" },
		{ "./$P-$Q", "./\"$P\"-\"$Q\"" },
		{ "~", "~" },
		{ "~/build", "~/build" },
		{ "~user/out/$X", "~user/out/\"$X\"" },
		{ "~/\"$X\"", "~/\"$X\"" },
		{ "~/a!b", "~/'a!b'" },
		{ "a~b", "'a~b'" },
		{ "x!y#z", "'x!y#z'" },
		{ "build_*", NULL },
		{ "$X/b?", NULL },
		{ "out[12]", NULL },
		{ "{a,b}", NULL },
		{ "~+/x", NULL },
		{ "~$X", NULL },
		{ "~\"a\"", NULL },
		{ "$(id)", NULL },
		{ "`id`", NULL },
		{ "a;b", NULL },
		{ "\"$X", NULL },
		{ "$X/a\\ b", NULL },
		{ "", NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t at = 99, len = 0;
		const char *why = NULL;
		char *q = sh_word_requote(cases[i].w, &at, &len, &why), *again;
		if (!cases[i].want) {
			ck_assert_msg(q == NULL, "%s: got '%s', expected a refusal", cases[i].w, q);
			ck_assert_msg(why && at <= strlen(cases[i].w), "%s: refused without a place and a reason", cases[i].w);
			continue;
		}
		ck_assert_msg(q && strcmp(q, cases[i].want) == 0, "%s: got '%s', expected '%s' (%s)", cases[i].w,
			      q ? q : "(none)", cases[i].want, q ? "" : why);
		again = sh_word_requote(q, &at, &len, &why);
		ck_assert_msg(again && strcmp(again, q) == 0, "%s: written again as '%s'", q, again ? again : "(none)");
		free(again);
		free(q);
	}
}
END_TEST

/* What sh_word_literal writes reads back as the text, and is a word
 * sh_word_check takes (a block keeps it); a word that expands reads back
 * as nothing. */
START_TEST(literal_words_read_back)
{
	static const char *const texts[] = {
		"mc2/op", "x$(touch PWNED)y", "x`id`y", "x\"y", "x'y", "x;id;y", "x&id&y", "x|id|y", "x y", "x\\y",
		"x*y", "~", "x!y", "''", "'\\''", "-n", "#x", "\xc3\xa9t\xc3\xa9",
	};
	static const char *const expanding[] = { "$HOME/x", "\"${ROOT}\"/x", "x*y", "~/x", "a\"$b\"" };
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char *w = sh_word_literal(texts[i]), *back;
		size_t at, len;
		const char *why;
		ck_assert_ptr_nonnull(w);
		ck_assert_msg(sh_word_check(w, &at, &len, &why) != SH_WORD_BAD, "%s: %s refused: %s", texts[i], w, why);
		back = sh_word_unquote(w);
		ck_assert_msg(back && strcmp(back, texts[i]) == 0, "%s: %s reads back as '%s'", texts[i], w, back ? back : "(none)");
		free(back);
		free(w);
	}
	for (size_t i = 0; i < sizeof(expanding) / sizeof(expanding[0]); i++)
		ck_assert_msg(sh_word_unquote(expanding[i]) == NULL, "%s reads back", expanding[i]);
}
END_TEST

/* The directory the build step (the last `bash ...`) of `script`, a script
 * at /p/csrc/b.sh started in /p, runs in: "abs|word|assumed variable|from
 * start|its value", or "? " and what it depends on. */
static char *dir_at_last(const char *script, const char *opdir)
{
	struct src_file *f = src_file_from_buffer("/p/csrc/b.sh", script, strlen(script));
	struct sh_script sh;
	struct sh_eval_ctx ec = { "/p", "/p", { "/p/csrc", opdir } };
	struct sh_dir d;
	char *out;
	size_t last;

	sh_scan(f->data, f->len, &sh);
	/* the build step: the last `bash ...` */
	for (last = sh.ncmds - 1; last > 0 && strncmp(f->data + sh.cmds[last].start, "bash ", 5) != 0;)
		last--;
	sh_eval_dir(f, &sh, last, sh.cmds[last].line_start, &ec, &d);
	if (d.abs)
		out = xasprintf("%s|%s|%s|%d|%s", d.abs, d.word ? d.word : "-", d.assumed_var ? d.assumed_var : "-",
				d.from_start, d.assumed_value ? d.assumed_value : "-");
	else
		out = xasprintf("? %s", d.unknown ? d.unknown : "");
	sh_dir_release(&d);
	sh_script_release(&sh);
	src_file_free(f);
	return out;
}

START_TEST(the_directory_of_a_point)
{
	static const struct {
		const char *script, *want;
	} cases[] = {
		{ "cd csrc\nbash build.sh\n", "/p/csrc|-|-|1|-" },
		{ "cd /opt/x\nbash build.sh\n", "/opt/x|/opt/x|-|0|-" },
		{ "cd csrc\ncd mc2\ncd -\nbash build.sh\n", "/p/csrc|-|-|1|-" },
		{ "pushd csrc\npushd mc2\npopd\nbash build.sh\n", "/p/csrc|-|-|1|-" },
		{ "(cd csrc)\nbash build.sh\n", "/p|-|-|1|-" },
		{ "(\n  cd csrc\n  bash build.sh\n)\n", "/p/csrc|-|-|1|-" },
		{ "(cd csrc && bash build.sh)\n", "/p|-|-|1|-" },
		{ "go() { cd \"$1\"; }\ngo csrc/mc2\nbash build.sh\n", "/p/csrc/mc2|-|-|1|-" },
		{ "go() ( cd \"$1\" )\ngo csrc\nbash build.sh\n", "/p|-|-|1|-" },
		{ "b() {\n  cd \"$1\"\n  bash build.sh\n}\nb csrc\n", "/p/csrc|-|-|1|-" },
		{ "R=$(cd \"$(dirname \"$0\")/..\" && pwd)\ncd \"$R/csrc\"\nbash build.sh\n", "/p/csrc|\"$R/csrc\"|-|0|-" },
		{ "cd \"$(dirname \"${BASH_SOURCE[0]}\")\"\nbash build.sh\n", "/p/csrc|-|-|0|-" },
		{ "cd \"${0%/*}/mc2\"\nbash build.sh\n", "/p/csrc/mc2|-|-|0|-" },
		{ "ROOT_DIR=$1\ncd \"${ROOT_DIR}/csrc\"\nbash build.sh\n", "/p/csrc|\"${ROOT_DIR}/csrc\"|ROOT_DIR|0|/p" },
		{ "ROOT_DIR=$1\nS=\"${ROOT_DIR}/csrc/mc2\"\ncd \"$S\"\nbash build.sh\n", "/p/csrc/mc2|\"$S\"|ROOT_DIR|0|/p" },
		{ "cd \"$1/csrc\"\nbash build.sh\n", "/p/csrc|\"$1/csrc\"|1|0|/p" },
		{ "cd \"${B:-csrc}\"\nbash build.sh\n", "/p/csrc|-|-|1|-" },
		{ "cd \"$(git rev-parse --show-toplevel)/csrc\"\nbash build.sh\n", "/p/csrc|-|-|0|-" },
		{ "cd \"$PWD/csrc\"\nbash build.sh\n", "/p/csrc|-|-|1|-" },
		{ "cd \"$OPS\"\nbash build.sh\n", "? ${OPS}, which the script does not set (the environment's)" },
		{ "cd \"$1\"\nbash build.sh\n", "? $1, an argument the script is given" },
		{ "cd\nbash build.sh\n", "? $HOME (a cd with no directory)" },
		{ "cd \"$(find . -name x)\"\nbash build.sh\n", "? the output of `find . -name x`" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = dir_at_last(cases[i].script, "/p/csrc/mc2/op");
		ck_assert_msg(strcmp(got, cases[i].want) == 0, "%s: got '%s', expected '%s'", cases[i].script, got,
			      cases[i].want);
		free(got);
	}
}
END_TEST

START_TEST(what_a_word_names)
{
	const char *script = "R=$(cd \"$(dirname \"$0\")/..\" && pwd)\ncd csrc\nbash build.sh\n";
	struct src_file *f = src_file_from_buffer("/p/csrc/b.sh", script, strlen(script));
	struct sh_script sh;
	struct sh_eval_ctx ec = { "/p", "/p", { "/p/csrc", NULL } };
	char *v;

	sh_scan(f->data, f->len, &sh);
	v = sh_eval_word(f, &sh, 2, sh.cmds[2].line_start, &ec, "mc2/op");
	ck_assert_str_eq(v, "/p/csrc/mc2/op");
	free(v);
	v = sh_eval_word(f, &sh, 2, sh.cmds[2].line_start, &ec, "\"$R\"/csrc/../csrc/mc2");
	ck_assert_str_eq(v, "/p/csrc/mc2");
	free(v);
	ck_assert_ptr_null(sh_eval_word(f, &sh, 2, sh.cmds[2].line_start, &ec, "\"$NOT_SET\"/x"));
	sh_script_release(&sh);
	src_file_free(f);
}
END_TEST

static void put(const char *dir, const char *rel, const char *text)
{
	char *p = path_join(dir, rel), *d = strdup(p), *slash = strrchr(d, '/');
	FILE *f;

	*slash = '\0';
	ck_assert_int_eq(path_mkdirs(d, NULL), 0);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	free(d);
	free(p);
}

/* Where csrc/build_aclnn.sh starts when `rel` holds `text`: the start
 * relative to the project, then the reason. */
static char *start_with(const char *rel, const char *text)
{
	char tmpl[] = "/tmp/check_sh.XXXXXX", *root = mkdtemp(tmpl), *abs, *script, *d, *out;
	struct sh_start st;
	char cmd[256];

	ck_assert_ptr_nonnull(root);
	abs = path_absolute(root);
	put(abs, "csrc/build_aclnn.sh", "#!/bin/bash\ncd ../csrc\nbash build.sh\n");
	if (rel)
		put(abs, rel, text);
	script = path_join(abs, "csrc/build_aclnn.sh");
	sh_start_find(abs, script, &st);
	d = path_relative(abs, st.dir);
	out = xasprintf("%s: %s", d, st.why);
	sh_start_release(&st);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", abs);
	ck_assert_int_eq(system(cmd), 0);
	free(d);
	free(script);
	free(abs);
	return out;
}

START_TEST(where_a_script_starts)
{
	static const struct {
		const char *rel, *text, *want;
	} cases[] = {
		{ NULL, NULL, ".: the project root: nothing in the project runs csrc/build_aclnn.sh" },
		{ "tools/all.sh", "#!/bin/sh\n# build_aclnn.sh is run below\necho build_aclnn.sh\ncd \"$(dirname \"$0\")/../csrc\"\nbash ./build_aclnn.sh x\n",
		  "csrc: tools/all.sh:5 runs it: `bash ./build_aclnn.sh x`" },
		{ "Makefile", "ops:\n\t@cd csrc && bash build_aclnn.sh\n", "csrc: Makefile:2 runs it: `bash build_aclnn.sh`" },
		{ "setup.py", "import subprocess\nsubprocess.check_call([\"bash\", \"csrc/build_aclnn.sh\"])\n",
		  ".: setup.py:2 runs it: \"csrc/build_aclnn.sh\" in a subprocess, from its own directory" },
		{ "setup.py", "import subprocess\nsubprocess.run([\"bash\", \"build_aclnn.sh\"], cwd=\"csrc\")\n",
		  "csrc: setup.py:2 runs it: \"build_aclnn.sh\" in a subprocess with cwd=\"csrc\"" },
		{ "setup.py", "print('build_aclnn.sh')\n", ".: the project root: nothing in the project runs csrc/build_aclnn.sh" },
		{ "csrc/CMakeLists.txt",
		  "execute_process(COMMAND bash build_aclnn.sh\n  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})\n",
		  "csrc: csrc/CMakeLists.txt:1 runs it: execute_process(... build_aclnn.sh ...) with WORKING_DIRECTORY "
		  "${CMAKE_CURRENT_SOURCE_DIR}" },
		{ "CMakeLists.txt", "add_custom_target(ops COMMAND bash ${CMAKE_SOURCE_DIR}/csrc/build_aclnn.sh)\n",
		  ".: the project root: CMakeLists.txt:1 runs it (add_custom_target(... ${CMAKE_SOURCE_DIR}/csrc/build_aclnn.sh "
		  "...)), but it runs in CMake's build directory, which is not known here" },
		{ ".github/workflows/b.yml",
		  "jobs:\n  b:\n    steps:\n      - name: ops\n        working-directory: csrc\n        run: |\n          echo hi\n          bash build_aclnn.sh\n",
		  "csrc: .github/workflows/b.yml:8 runs it: `bash build_aclnn.sh`" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = start_with(cases[i].rel, cases[i].text);
		ck_assert_msg(strcmp(got, cases[i].want) == 0, "%s: got '%s', expected '%s'", cases[i].rel ? cases[i].rel : "none",
			      got, cases[i].want);
		free(got);
	}
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("sh");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, words_plain_expanding_and_refused);
	tcase_add_test(tc, quoting_and_joining);
	tcase_add_test(tc, literal_words_read_back);
	tcase_add_test(tc, requoting_script_words);
	tcase_add_test(tc, the_directory_of_a_point);
	tcase_add_test(tc, what_a_word_names);
	tcase_add_test(tc, where_a_script_starts);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"

/* instrument builds its report from the steps' typed results, never from
 * what the commands print: this program replaces the commands wire, apply,
 * hook, check and plan by ones that print other summaries and count their
 * calls, then runs `instrument --dry-run --format json` in this process on
 * a copy of the bundled example. Its output must be byte for byte the real
 * autotrace's on the same copy, its steps' summaries made from results, and
 * no command called. (With the report taken from the commands' printed
 * lines, as it once was, the summaries differ and the test fails.) */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "diag.h"
#include "src_file.h"

static int calls;

/* The commands instrument must not go through: other text, counted. */
#define STUB(name)                                                                         \
	int name(int argc, char **argv, struct diag *diag)                                 \
	{                                                                                  \
		(void)argc, (void)argv, (void)diag;                                        \
		calls++;                                                                   \
		printf(#name ": a summary worded otherwise\n");                            \
		return 0;                                                                  \
	}
STUB(cmd_wire)
STUB(cmd_apply)
STUB(cmd_hook)
STUB(cmd_check)
STUB(cmd_plan)

static void run_ok(const char *cmd)
{
	ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

START_TEST(t_report_from_results)
{
	char tmpl[] = "/tmp/autotrace-check-instrument.XXXXXX", cmd[4096];
	const char *top = getenv("TOP_SRCDIR"), *bin = getenv("AUTOTRACE_BIN");
	char *argv[] = { "instrument", "--dry-run", "--format", "json", "op", NULL };
	struct src_file *real, *mine;
	struct diag d;
	cJSON *rep, *steps, *st;
	int rc;

	ck_assert_ptr_nonnull(top);
	ck_assert_ptr_nonnull(bin);
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	snprintf(cmd, sizeof(cmd), "cp -R '%s/examples/moe_dispatch_gmm' '%s/op'", top, tmpl);
	run_ok(cmd);
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' instrument --dry-run --format json op >real.out 2>/dev/null", tmpl, bin);
	run_ok(cmd);
	ck_assert_int_eq(chdir(tmpl), 0);
	fflush(stdout);
	ck_assert_ptr_nonnull(freopen("mine.out", "w", stdout));
	diag_init(&d, stderr, false);
	rc = cmd_instrument(5, argv, &d);
	fflush(stdout);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(calls, 0);
	real = src_file_load("real.out");
	mine = src_file_load("mine.out");
	ck_assert_ptr_nonnull(real);
	ck_assert_ptr_nonnull(mine);
	ck_assert_uint_gt(real->len, 0);
	ck_assert_msg(real->len == mine->len && memcmp(real->data, mine->data, real->len) == 0,
		      "instrument's output in this process differs from autotrace's");
	/* the JSON: every step done, with a line of its own, each file its diff */
	rep = cJSON_Parse(mine->data); /* one JSON document, the diffs in it */
	ck_assert_ptr_nonnull(rep);
	steps = cJSON_GetObjectItemCaseSensitive(rep, "steps");
	ck_assert_int_eq(cJSON_GetArraySize(steps), 5);
	cJSON_ArrayForEach(st, steps) {
		const char *sum = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "summary"));
		ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "status")), "done");
		ck_assert_ptr_nonnull(sum);
		ck_assert_ptr_null(strstr(sum, "worded otherwise"));
		ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(st, "output"));
	}
	{
		/* --dry-run --format json: one JSON document on standard output, each
		 * file's unified diff in it (were printed before the JSON) */
		cJSON *f, *files = cJSON_GetObjectItemCaseSensitive(rep, "files");
		ck_assert_int_gt(cJSON_GetArraySize(files), 0);
		cJSON_ArrayForEach(f, files) {
			const char *diff = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "diff"));
			ck_assert_ptr_nonnull(diff);
			ck_assert(strncmp(diff, "--- ", 4) == 0);
		}
	}
	ck_assert_ptr_nonnull(strstr(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(steps, 3), "summary")),
				     "check: 9 files, "));
	cJSON_Delete(rep);
	src_file_free(real);
	src_file_free(mine);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	run_ok(cmd);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("instrument");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, t_report_from_results);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"

/* autotrace rules check|dump: validate rules files (and try an operator's
 * on its sources), print the resolved policy. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "commands.h"
#include "exit_status.h"
#include "rule_dump.h"
#include "rule_find.h"
#include "rule_load.h"
#include "rules_check_opdir.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace rules check [--rules FILE] FILE|OPDIR...\n"
	      "       autotrace rules dump [FILE]\n"
	      "\n"
	      "check  parse and check each rules file with its includes; print\n"
	      "       'FILE: ok' or the errors; exit 0 when all are good, 2 otherwise.\n"
	      "       For an operator directory OPDIR, its rules (--rules FILE, else\n"
	      "       OPDIR/autotrace.rules, else the shipped moe.rules) are checked,\n"
	      "       then planned on its kernel sources without output: the rules of\n"
	      "       its own files that match nothing there, or that a later rule\n"
	      "       always overrides, are warnings (FILE:LINE:COL: warning: ...;\n"
	      "       exit 0). No kernel sources, or sources the planner cannot\n"
	      "       read, are errors (exit 2).\n"
	      "dump   print the resolved policy (defaults, includes and overrides applied)\n"
	      "       as JSON on stdout. Without FILE, the rules found as other commands\n"
	      "       find them: ./autotrace.rules, else the shipped default.\n"
	      "\n"
	      "Includes are looked up next to the including file, then in the shipped\n"
	      "rules directory ($AUTOTRACE_RULES_DIR, default " RULESDIR ").\n"
	      "The language is described in autotrace-rules(5).\n",
	      out);
}

/* rules check [--rules FILE] FILE|OPDIR...: a directory is an operator's,
 * whose rules are tried on its sources too (rules_check_opdir.c). */
static int check(int n, char **args, struct diag *diag)
{
	const char *rules = NULL;
	int status = EXIT_OK, nchecked = 0;

	for (int i = 0; i < n; i++) {
		struct stat st;
		struct rule_policy *p;
		int s = EXIT_OK;
		if (strcmp(args[i], "--rules") == 0 || strncmp(args[i], "--rules=", 8) == 0) {
			if (args[i][7] == '=') {
				rules = args[i] + 8;
			} else if (i + 1 < n) {
				rules = args[++i];
			} else {
				diag_plain(diag, DIAG_ERROR, "rules check: --rules needs a FILE");
				return EXIT_BAD_INPUT;
			}
			continue;
		}
		nchecked++;
		if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			s = rules_check_opdir(args[i], rules, diag);
		} else if ((p = rule_load(args[i], rule_find_rules_dir(), NULL, diag)) != NULL) {
			printf("%s: ok (%zu trace rules from %zu file%s)\n", args[i], p->nrules, p->nsources,
			       p->nsources == 1 ? "" : "s");
			rule_policy_free(p);
		} else {
			s = EXIT_BAD_INPUT;
		}
		if (s != EXIT_OK)
			status = s;
	}
	if (nchecked == 0) {
		diag_plain(diag, DIAG_ERROR, "rules check: no rules file or operator directory given");
		return EXIT_BAD_INPUT;
	}
	return status;
}

int cmd_rules(int argc, char **argv, struct diag *diag)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };
	const char *action;
	int c;

	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	action = argv[optind++];
	if (strcmp(action, "check") == 0)
		return check(argc - optind, argv + optind, diag);
	if (strcmp(action, "dump") == 0) {
		struct rule_policy *p;
		cJSON *json;
		char *text;
		if (argc - optind > 1) {
			diag_plain(diag, DIAG_ERROR, "rules dump: one rules file at most");
			return EXIT_BAD_INPUT;
		}
		p = rule_find_and_load(optind < argc ? argv[optind] : NULL, ".", diag);
		if (!p)
			return EXIT_BAD_INPUT;
		json = rule_dump_json(p);
		text = cJSON_Print(json);
		puts(text);
		cJSON_free(text);
		cJSON_Delete(json);
		rule_policy_free(p);
		return EXIT_OK;
	}
	diag_plain(diag, DIAG_ERROR, "rules: unknown action '%s' (expected 'check' or 'dump')", action);
	return EXIT_BAD_INPUT;
}

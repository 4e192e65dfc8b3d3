/* autotrace rules check|dump: validate rules files, print the resolved policy. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "commands.h"
#include "exit_status.h"
#include "rule_dump.h"
#include "rule_find.h"
#include "rule_load.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace rules check FILE...\n"
	      "       autotrace rules dump [FILE]\n"
	      "\n"
	      "check  parse and check each rules file with its includes; print\n"
	      "       'FILE: ok' or the errors; exit 0 when all are good, 2 otherwise.\n"
	      "dump   print the resolved policy (defaults, includes and overrides applied)\n"
	      "       as JSON on stdout. Without FILE, the rules found as other commands\n"
	      "       find them: ./autotrace.rules, else the shipped default.\n"
	      "\n"
	      "Includes are looked up next to the including file, then in the shipped\n"
	      "rules directory ($AUTOTRACE_RULES_DIR, default " RULESDIR ").\n"
	      "The language is described in autotrace-rules(5).\n",
	      out);
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
	if (strcmp(action, "check") == 0) {
		int status = EXIT_OK;
		if (optind >= argc) {
			diag_plain(diag, DIAG_ERROR, "rules check: no rules file given");
			return EXIT_BAD_INPUT;
		}
		for (; optind < argc; optind++) {
			struct rule_policy *p = rule_load(argv[optind], rule_find_rules_dir(), NULL, diag);
			if (!p) {
				status = EXIT_BAD_INPUT;
				continue;
			}
			printf("%s: ok (%zu trace rules from %zu file%s)\n", argv[optind], p->nrules, p->nsources,
			       p->nsources == 1 ? "" : "s");
			rule_policy_free(p);
		}
		return status;
	}
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

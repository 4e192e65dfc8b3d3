/* autotrace plan: the trace tree the rules give for an operator, without
 * editing anything. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "exit_status.h"
#include "opdirs.h"
#include "plan.h"
#include "project_ops.h"
#include "rule_find.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace plan [--rules FILE] [--op NAME] [--format tree|json] [OPDIR...]\n"
	      "       autotrace plan --positions FUNCTION [--rules FILE] [--op NAME] [OPDIR]\n"
	      "\n"
	      "Show where 'autotrace apply' puts trace points: the tree from the roots\n"
	      "(by default the __global__ kernel entry) through the static call graph\n"
	      "(calls, and the constructors of the objects the code makes),\n"
	      "each point with its label, kind (root, function, loop, branch, wrap,\n"
	      "region, hot), file:line, core type (aic, aiv or mix), depth and the rule\n"
	      "that placed it (file:line); candidates that are folded (deeper than the\n"
	      "rules' depth), skipped (tile level, a skip rule), merged into their caller\n"
	      "or left alone (inside a macro) say why. Then the number of distinct labels\n"
	      "per core type, the #if branches the points are also balanced under, the\n"
	      "rules of the operator's own files that match nothing in its sources (a\n"
	      "misspelt name; the shipped policy's are not listed) and those a later\n"
	      "rule always overrides (with that rule), the calls not followed to a\n"
	      "function the sources define (and why), and a count of the library calls\n"
	      "(all of them with --format json).\n"
	      "\n"
	      "  --rules FILE        the rules (default: OPDIR/autotrace.rules, else the\n"
	      "                      shipped moe.rules)\n"
	      "  --op NAME           the operator, in a directory that holds several (an\n"
	      "                      OpDef class name or its snake_case): only its kernel\n"
	      "                      entry (the __global__ of that snake_case name) and the\n"
	      "                      files it includes are planned; without it, a directory\n"
	      "                      of several operators is refused with their list (the\n"
	      "                      rules' `name \"NAME\";` names it too)\n"
	      "  --format tree|json  output form (default tree)\n"
	      "  --positions FUNCTION  instead of the tree, the statements of FUNCTION (a\n"
	      "                      qualified name, or its last components: Op::Process,\n"
	      "                      Process) in every file that defines it, each with the\n"
	      "                      rule forms that take it by position: `wrap call /RE/ #N`,\n"
	      "                      `region from /RE/ #N` (or `to`), per call `hot /RE/ #N`,\n"
	      "                      per loop `loop /RE/ #N`, per arm `branch /RE/ #N`,\n"
	      "                      N counted as apply counts (points and the arms of if\n"
	      "                      chains are not); exit 2 when no function has that name\n"
	      "  -h, --help          this help\n"
	      "\n"
	      "OPDIR is the operator directory (default: .); with several, each plan\n"
	      "is headed by \"== OPDIR\" (json: one array of the plans). Exit status:\n"
	      "0 ok, 2 bad usage, bad rules, unreadable sources or code the scanner\n"
	      "cannot follow where a point would go (for any of the operators).\n",
	      out);
}

struct plan_opts {
	const char *rules;
	const char *op;          /* --op */
	const char *positions;   /* --positions FUNCTION, or NULL */
	struct rule_cache cache; /* the rules, loaded once for operators sharing them */
	bool json;
};

static int plan_one(const char *opdir, void *ctx, struct diag *diag)
{
	struct plan_opts *o = ctx;
	const struct rule_policy *p = NULL;
	struct plan *pl = NULL;
	struct project_op_choice op = { NULL, NULL, NULL, 0, -1, -1 };
	int status = EXIT_BAD_INPUT;

	p = rule_cache_get(&o->cache, o->rules, opdir, diag);
	if (!p || project_op_select(opdir, p, o->op, &op, diag) != 0)
		goto out;
	pl = plan_build(p, opdir, op.entry, diag);
	if (!pl)
		goto out;
	if (o->positions) {
		if (plan_print_positions(stdout, pl, o->positions, diag) == 0) {
			diag_plain(diag, DIAG_ERROR, "plan: no function named '%s' in the kernel sources of %s", o->positions,
				   opdir);
			goto out;
		}
		status = EXIT_OK;
		goto out;
	}
	if (o->json)
		plan_print_json(stdout, pl);
	else
		plan_print_tree(stdout, pl);
	plan_warn_density(pl, diag);
	plan_warn_idle_rules(pl, opdir, diag);
	status = pl->errors ? EXIT_BAD_INPUT : EXIT_OK;
	if (fflush(stdout) != 0 || ferror(stdout))
		status = EXIT_INTERNAL; /* main says why */
out:
	project_op_choice_release(&op);
	plan_free(pl);
	return status;
}

int cmd_plan(int argc, char **argv, struct diag *diag)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "rules", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "op", required_argument, NULL, 'o' },
		{ "positions", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct plan_opts o = { NULL, NULL, NULL, { NULL, NULL }, false };
	int c, status;

	while ((c = getopt_long(argc, argv, "hr:f:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'r':
			o.rules = optarg;
			break;
		case 'o':
			o.op = optarg;
			break;
		case 'p':
			o.positions = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "json") == 0) {
				o.json = true;
			} else if (strcmp(optarg, "tree") == 0) {
				o.json = false;
			} else {
				diag_plain(diag, DIAG_ERROR, "plan: unknown format '%s' (tree or json)", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	status = opdirs_run("plan", argc - optind, argv + optind, o.json, plan_one, &o, diag);
	rule_cache_release(&o.cache);
	return status;
}

/* autotrace learn: write the operator's rules file from the points in its
 * sources (by hand, or moved by hand), with the figures of how well apply
 * puts them back. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_write.h"
#include "commands.h"
#include "exit_status.h"
#include "learn_run.h"
#include "path_glob.h"
#include "project_ops.h"
#include "rule_find.h"
#include "xalloc.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace learn [--rules BASE] [--op NAME] [-o FILE] [--force] [--dry-run] [OPDIR]\n"
	      "\n"
	      "Write the operator's rules file from the trace points in its sources (put\n"
	      "there by hand, or moved by hand): `include \"moe.rules\";` (or BASE) and the\n"
	      "statements, over function names, kinds and positions (#N), that make\n"
	      "'autotrace apply' put each point back where it is with its label: a\n"
	      "function's body, a loop's body, a call (at its call, or a library call by\n"
	      "its name and #N), a run of statements from one call to another, an arm\n"
	      "by a call of its condition, a whole loop or if (`whole`). Each try is\n"
	      "proved on a scratch copy of the operator with every point stripped (apply\n"
	      "computed, not written; B points compared one to one by file, label and\n"
	      "the code line after); statements that put nothing back are dropped. Each\n"
	      "pair it cannot say is a warning at its B (a marker pair, a statement\n"
	      "with no name to pick it by). The figures -- B points put back one to one,\n"
	      "more points, statements written -- head the file and end the output.\n"
	      "\n"
	      "  --rules BASE    the rules to start from (default: the shipped moe.rules),\n"
	      "                  in OPDIR or the shipped rules directory (or anywhere, with\n"
	      "                  --allow-include-anywhere); included relative to FILE's\n"
	      "                  directory when it lies under it\n"
	      "  --op NAME       the operator, in a directory that holds several\n"
	      "  -o FILE         where to write (default: OPDIR/autotrace.rules, which is\n"
	      "                  not replaced when it exists, unless --force)\n"
	      "  --force         replace OPDIR/autotrace.rules\n"
	      "  --dry-run       print the file instead of writing it\n"
	      "  -h, --help      this help\n"
	      "\n"
	      "Exit status: 0 written (or printed), 2 bad usage, bad rules, sources that\n"
	      "cannot be planned, an output that exists or cannot be written.\n",
	      out);
}

int cmd_learn(int argc, char **argv, struct diag *diag)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },   { "rules", required_argument, NULL, 'r' },
		{ "op", required_argument, NULL, 'p' }, { "force", no_argument, NULL, 'f' },
		{ "dry-run", no_argument, NULL, 'n' }, { NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *opdir = ".";
	bool force = false, dry = false;
	struct learn_opts lo = { NULL, NULL, NULL, NULL, NULL };
	char *out_dir = NULL;
	struct learn_result r;
	struct project_op_choice op = { NULL, NULL, NULL, 0, -1, -1 };
	struct rule_policy *p = NULL;
	char *dest = NULL;
	int c, status = EXIT_BAD_INPUT;

	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'r':
			lo.base = optarg;
			break;
		case 'p':
			lo.op = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'f':
			force = true;
			break;
		case 'n':
			dry = true;
			break;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (argc - optind > 1) {
		diag_plain(diag, DIAG_ERROR, "learn: one operator directory at a time");
		return EXIT_BAD_INPUT;
	}
	if (optind < argc)
		opdir = argv[optind];
	lo.opdir = opdir;
	/* the operator to learn, chosen under the base rules */
	{
		char *base = lo.base ? xstrdup(lo.base) : path_join(rule_find_rules_dir(), "moe.rules");
		p = rule_find_and_load(base, opdir, diag);
		free(base);
	}
	if (!p || project_op_select(opdir, p, lo.op, &op, diag) != 0)
		goto out;
	lo.entry = op.entry;
	dest = out ? xstrdup(out) : path_join(opdir, "autotrace.rules");
	if (!dry && !out) {
		struct stat st;
		if (lstat(dest, &st) == 0 && S_ISLNK(st.st_mode)) {
			/* the tree's own link: it may point anywhere */
			diag_plain(diag, DIAG_ERROR, "learn: %s is a symbolic link: give -o FILE", dest);
			goto out;
		}
		if (!force && lstat(dest, &st) == 0) {
			diag_plain(diag, DIAG_ERROR,
				   "learn: %s exists (the operator's own rules): give -o FILE, or --force to replace it",
				   dest);
			goto out;
		}
	}
	{
		char *slash = strrchr(dest, '/');
		out_dir = slash ? xstrndup(dest, (size_t)(slash - dest + (slash == dest))) : xstrdup(".");
		lo.out_dir = out_dir;
	}
	if (learn_run(&lo, &r, diag) != 0)
		goto out;
	if (dry) {
		fputs(r.text, stdout);
	} else if (atomic_write(dest, r.text, strlen(r.text), diag) != 0) {
		free(r.text);
		goto out;
	}
	printf("%slearn: %u of %u B points put back one to one (%u%%), %u more; %u statement%s after the base%s%s\n",
	       dry ? "\n" : "", r.same, r.hand, r.hand ? 100 * r.same / r.hand : 100, r.more, r.statements,
	       r.statements == 1 ? "" : "s", dry ? "" : "; written to ", dry ? "" : dest);
	free(r.text);
	status = EXIT_OK;
	if (fflush(stdout) != 0 || ferror(stdout))
		status = EXIT_INTERNAL;
out:
	project_op_choice_release(&op);
	rule_policy_free(p);
	free(dest);
	free(out_dir);
	return status;
}

/* autotrace check: validate the trace points of an operator (or of some files)
 * statically, before a build. The checks themselves are in check_*.c. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check_run.h"
#include "commands.h"
#include "cxx_pp.h"
#include "exit_status.h"
#include "xalloc.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace check [--rules FILE] [--op NAME] [-I DIR]... [-D NAME[=VALUE]]...\n"
	      "                       [-U NAME]... [-v] [OPDIR | FILE...]\n"
	      "\n"
	      "Validate trace points statically, before a build. With OPDIR (default: the\n"
	      "current directory) every source under the rules' kernel directory is checked,\n"
	      "with FILEs those files and the #includes they reach.\n"
	      "\n"
	      "  - MoeTracing takes TRACE_POINT(\"label\", \"B\"|\"E\") and at most two extra\n"
	      "    arguments; labels are non-empty, single-spaced, within the policy depth;\n"
	      "  - B/E pairing along the control flow of each function: every path that\n"
	      "    enters a B leaves through its E (returns, breaks, loops, branches),\n"
	      "    points nest, nothing is closed twice;\n"
	      "  - extra arguments are declared in a scope that holds the point;\n"
	      "  - brackets balance, #if/#endif pair, '#if ENABLE_MOE_PROFILING' branches\n"
	      "    close what they open;\n"
	      "  - each file using MoeTracing reaches the runtime (the rules' 'base') through\n"
	      "    its #include closure;\n"
	      "  - OPDIR only: some point has the root label, and the kernel's GM parameters\n"
	      "    follow the op_host this->Input/Output declarations, in order.\n"
	      "\n"
	      "  --rules FILE        the rules (default: OPDIR/autotrace.rules, else moe.rules)\n"
	      "  --op NAME           OPDIR only: the operator, in a directory that holds\n"
	      "                      several (an OpDef class name or its snake_case): its\n"
	      "                      kernel entry and the files that entry includes are\n"
	      "                      checked, against its own OpDef; without it such a\n"
	      "                      directory is refused with the list of its operators\n"
	      "  -I DIR              look for includes in DIR too (after the rules' include_dirs)\n"
	      "  -D NAME[=VALUE]     take NAME as defined when choosing #if branches\n"
	      "  -U NAME             take NAME as undefined\n"
	      "  -v, --verbose       show the scanner's warnings too\n"
	      "  -h, --help          this help\n"
	      "\n"
	      "Exit status: 0 no errors, 1 errors found, 2 bad usage or unreadable input.\n",
	      out);
}

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int cmd_check(int argc, char **argv, struct diag *diag)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },         { "rules", required_argument, NULL, 'r' },
		{ "include", required_argument, NULL, 'I' }, { "define", required_argument, NULL, 'D' },
		{ "undef", required_argument, NULL, 'U' },   { "verbose", no_argument, NULL, 'v' },
		{ "op", required_argument, NULL, 'o' },      { NULL, 0, NULL, 0 },
	};
	const char *rules = NULL, *want = NULL;
	const char **cli_idirs = xcalloc((size_t)argc + 1, sizeof(*cli_idirs));
	size_t ncli = 0;
	struct cxx_macro_table *macros = cxx_macros_new();
	struct check_opts o;
	struct check_result r;
	bool verbose = false, opdir_mode;
	int c, status = EXIT_BAD_INPUT;

	while ((c = getopt_long(argc, argv, "hr:I:D:U:v", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			status = EXIT_OK;
			goto out;
		case 'r':
			rules = optarg;
			break;
		case 'o':
			want = optarg;
			break;
		case 'I':
			cli_idirs[ncli++] = optarg;
			break;
		case 'D':
		case 'U':
			if ((c == 'D' ? cxx_macros_define(macros, optarg) : cxx_macros_undef(macros, optarg)) < 0) {
				diag_plain(diag, DIAG_ERROR, "check: -%c %s: not a macro name", c, optarg);
				goto out;
			}
			break;
		case 'v':
			verbose = true;
			break;
		default:
			usage(stderr);
			goto out;
		}
	}
	opdir_mode = optind >= argc || (argc - optind == 1 && is_dir(argv[optind]));
	memset(&o, 0, sizeof(o));
	o.rules = rules;
	o.op = want;
	o.opdir = opdir_mode && optind < argc ? argv[optind] : ".";
	o.files = opdir_mode ? NULL : (const char *const *)argv + optind;
	o.nfiles = opdir_mode ? 0 : (size_t)(argc - optind);
	o.include_dirs = cli_idirs;
	o.ninclude_dirs = ncli;
	o.macros = macros;
	o.verbose = verbose;
	if (check_run(&o, &r, diag) == 0) {
		printf("check: %zu file%s, %zu point%s: %u error%s\n", r.nfiles, r.nfiles == 1 ? "" : "s", r.npoints,
		       r.npoints == 1 ? "" : "s", r.errors, r.errors == 1 ? "" : "s");
		status = r.clean ? EXIT_OK : EXIT_FINDINGS;
	}
out:
	free(cli_idirs);
	cxx_macros_free(macros);
	return status;
}

/* autotrace apply: insert the planned trace points into the kernel sources. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "apply_run.h"
#include "exit_status.h"
#include "opdirs.h"
#include "path_glob.h"
#include "plan.h"
#include "project_ops.h"
#include "rule_find.h"
#include "udiff.h"
#include "xalloc.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace apply [--rules FILE] [--op NAME] [--dry-run] [--check] [OPDIR...]\n"
	      "\n"
	      "Insert the trace points 'autotrace plan' shows: B at the start of each\n"
	      "point's scope, E before every exit of it (each return, a break or continue\n"
	      "leaving it, the fall-through end), as\n"
	      "  MoeTracing(TRACE_POINT(\"label\", \"B\"));           // autotrace\n"
	      "  MoeTracing(TRACE_POINT(\"label\", \"B\"), extra, index);\n"
	      "Unbraced bodies get braces; indentation follows the code around. For\n"
	      "`return expr;` where expr calls something, the value is computed first\n"
	      "(decltype(auto) autotraceRet = expr;), then the E points, then\n"
	      "`return autotraceRet;`, so the work is timed. The points need the runtime:\n"
	      "when the operator's base header (the one its kernel entry includes, else\n"
	      "<entry>_base.h beside it) does not define MoeTracing, device/moe_tracing.h\n"
	      "is embedded in it, or the header is created. A file that does not reach\n"
	      "the base header through its includes gets one #include of it. Returns\n"
	      "in #if branches the scan did not take get their E points too.\n"
	      "Everything inserted is tagged (// autotrace) so that 'autotrace strip'\n"
	      "removes exactly it. Existing points are kept: a scope that already opens\n"
	      "with a B point is left as it is, so applying twice changes nothing.\n"
	      "\n"
	      "  --rules FILE   the rules (default: OPDIR/autotrace.rules, else moe.rules)\n"
	      "  --op NAME      the operator, in a directory that holds several (an OpDef\n"
	      "                 class name or its snake_case): only its kernel entry and\n"
	      "                 the files that entry includes are planned and edited (a\n"
	      "                 header shared with another operator gets the points of\n"
	      "                 the functions this one reaches); without it such a\n"
	      "                 directory is refused with the list of its operators\n"
	      "  --dry-run      print the changes as a unified diff, write nothing\n"
	      "  --check        write nothing; exit 1 when apply would change a file\n"
	      "  -h, --help     this help\n"
	      "\n"
	      "Files are written atomically (temporary file + rename, permissions kept),\n"
	      "as one journaled batch under OPDIR/.autotrace/lock, all files or none: a\n"
	      "second run meanwhile is refused, a rename that fails half-way (an I/O\n"
	      "error, a full disk) puts back the files replaced before it (exit 2), and\n"
	      "after a kill the next run completes or rolls back the batch (see LOCK AND\n"
	      "JOURNAL in autotrace(1)).\n"
	      "Nothing is written when a file changed since it was read, or when code the\n"
	      "scanner cannot follow is where a point would go (exit 2). Code inside\n"
	      "macros is left alone and reported.\n"
	      "OPDIR is the operator directory (default: .); with several, each is done\n"
	      "in turn (one failing does not stop the others), its output headed by\n"
	      "\"== OPDIR\", and the exit status is the worst of theirs.\n"
	      "Exit status: 0 ok, 1 --check found changes, 2 bad usage or input.\n",
	      out);
}

struct apply_cli {
	const char *rules;
	const char *op;          /* --op */
	struct rule_cache cache; /* the rules, loaded once for operators sharing them */
	bool dry_run, check;
};

static void print_result(const struct apply_result *r, enum apply_mode mode)
{
	const struct edit_runtime *rt = &r->runtime;

	if (mode == APPLY_COUNT) {
		if (rt->path)
			printf("%s: the trace point runtime to %s\n", rt->shown, rt->created ? "create" : "embed");
		for (size_t i = 0; i < r->nfiles; i++)
			printf("%s: %u point%s to insert\n", r->files[i].path, r->files[i].points,
			       r->files[i].points == 1 ? "" : "s");
	} else if (mode == APPLY_SHOW) {
		for (size_t i = 0; i < r->nfiles; i++)
			udiff_print(stdout, r->files[i].path, r->files[i].orig->data, r->files[i].orig->len, r->files[i].text,
				    r->files[i].len);
		if (rt->path) {
			const struct plan *pl = r->plan;
			const struct src_file *f = pl->base != SIZE_MAX ? pl->units[pl->base].file : NULL;
			udiff_print(stdout, rt->shown, f ? f->data : "", f ? f->len : 0, rt->text, rt->len);
		}
	} else {
		for (size_t i = 0; i < r->nfiles; i++)
			printf("%s: %u point%s\n", r->files[i].path, r->files[i].points, r->files[i].points == 1 ? "" : "s");
		if (rt->path)
			printf("%s: the trace point runtime %s\n", rt->shown, rt->created ? "created" : "embedded");
		printf("apply: %u point%s in %zu file%s\n", r->points, r->points == 1 ? "" : "s", r->nfiles,
		       r->nfiles == 1 ? "" : "s");
	}
}

static int apply_one(const char *opdir, void *ctx, struct diag *diag)
{
	struct apply_cli *c = ctx;
	struct apply_opts o = { opdir, c->rules, c->op, &c->cache, c->check ? APPLY_COUNT : c->dry_run ? APPLY_SHOW : APPLY_WRITE };
	struct apply_result r;
	int status;

	if (apply_run(&o, &r, diag) != 0) {
		status = r.internal ? EXIT_INTERNAL : EXIT_BAD_INPUT;
	} else {
		print_result(&r, o.mode);
		status = o.mode == APPLY_COUNT && (r.nfiles || r.runtime.path) ? EXIT_FINDINGS : EXIT_OK;
		if (fflush(stdout) != 0 || ferror(stdout))
			status = EXIT_INTERNAL;
	}
	apply_result_release(&r);
	return status;
}

int cmd_apply(int argc, char **argv, struct diag *diag)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },     { "rules", required_argument, NULL, 'r' },
		{ "dry-run", no_argument, NULL, 'n' },  { "check", no_argument, NULL, 'c' },
		{ "op", required_argument, NULL, 'o' }, { NULL, 0, NULL, 0 },
	};
	struct apply_cli o = { NULL, NULL, { NULL, NULL }, false, false };
	int c, status;

	while ((c = getopt_long(argc, argv, "hr:nc", opts, NULL)) != -1) {
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
		case 'n':
			o.dry_run = true;
			break;
		case 'c':
			o.check = true;
			break;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	status = opdirs_run("apply", argc - optind, argv + optind, false, apply_one, &o, diag);
	rule_cache_release(&o.cache);
	return status;
}

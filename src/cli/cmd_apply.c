/* autotrace apply: insert the planned trace points into the kernel sources. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "edit.h"
#include "edit_journal.h"
#include "exit_status.h"
#include "opdirs.h"
#include "path_glob.h"
#include "plan.h"
#include "project_ops.h"
#include "rule_find.h"
#include "udiff.h"
#include "xalloc.h"

#ifndef DEVICEDIR
#define DEVICEDIR "/usr/local/share/autotrace/device"
#endif

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
	      "as one journaled batch under OPDIR/.autotrace/lock: a second run meanwhile\n"
	      "is refused, and after a kill the next run completes or rolls back the\n"
	      "batch (see LOCK AND JOURNAL in autotrace(1)).\n"
	      "Nothing is written when a file changed since it was read, or when code the\n"
	      "scanner cannot follow is where a point would go (exit 2). Code inside\n"
	      "macros is left alone and reported.\n"
	      "OPDIR is the operator directory (default: .); with several, each is done\n"
	      "in turn (one failing does not stop the others), its output headed by\n"
	      "\"== OPDIR\", and the exit status is the worst of theirs.\n"
	      "Exit status: 0 ok, 1 --check found changes, 2 bad usage or input.\n",
	      out);
}

struct change {
	size_t unit;
	char *text;
	size_t len;
	unsigned points;
};

/* The file on disk still holds what was planned from. */
static bool unchanged(const char *path, const struct src_file *f)
{
	struct src_file *now = src_file_load(path);
	bool same = now && now->len == f->len && memcmp(now->data, f->data, f->len) == 0;

	src_file_free(now);
	return same;
}

struct apply_opts {
	const char *rules;
	const char *op;          /* --op */
	struct rule_cache cache; /* the rules, loaded once for operators sharing them */
	bool dry_run, check;
};

static int apply_one(const char *opdir, void *ctx, struct diag *diag)
{
	struct apply_opts *o = ctx;
	bool dry_run = o->dry_run, check = o->check;
	const struct rule_policy *p = NULL;
	struct plan *pl = NULL;
	struct change *ch = NULL;
	struct edit_lock *lock = NULL;
	size_t nch = 0;
	unsigned total = 0;
	int status = EXIT_BAD_INPUT;
	struct edit_runtime runtime;
	struct project_op_choice op = { NULL, NULL, NULL, 0, -1, -1 };

	memset(&runtime, 0, sizeof(runtime));
	/* before anything is read: an interrupted run is completed first, and
	 * a second run on the tree waits for none and interleaves with none */
	if (!dry_run && !check && !(lock = edit_lock_acquire(opdir, "apply", diag)))
		goto out;
	p = rule_cache_get(&o->cache, o->rules, opdir, diag);
	if (!p || project_op_select(opdir, p, o->op, &op, diag) != 0)
		goto out;
	pl = plan_build(p, opdir, op.entry, diag);
	if (!pl)
		goto out;
	for (size_t i = 0; i < pl->nnodes; i++) {
		const struct plan_node *n = &pl->nodes[i];
		const struct plan_unit *u = &pl->units[n->unit];
		if (n->fate == PLAN_FATE_MACRO)
			diag_at(diag, DIAG_NOTE, src_loc_make(u->file, n->scope.start, n->scope.end), "%s", n->why);
		else if (n->fate == PLAN_FATE_REFUSED)
			diag_at(diag, DIAG_ERROR, src_loc_make(u->file, n->scope.start, n->scope.start), "%s", n->why);
	}
	if (pl->errors) {
		diag_plain(diag, DIAG_ERROR, "apply: nothing written");
		goto out;
	}
	ch = xcalloc(pl->nunits + 1, sizeof(*ch));
	for (size_t u = 0; u < pl->nunits; u++) {
		struct edit_list el;
		unsigned points = 0;
		edit_list_init(&el);
		if (edit_unit(pl, u, &el, diag) != 0) {
			edit_list_release(&el);
			diag_plain(diag, DIAG_ERROR, "apply: nothing written");
			goto out;
		}
		{
			const int *un;
			size_t nun = plan_unit_nodes(pl, u, &un);
			for (size_t i = 0; i < nun; i++)
				if (pl->nodes[un[i]].fate == PLAN_FATE_INSERT)
					points++;
		}
		if (el.n) {
			ch[nch].unit = u;
			ch[nch].points = points;
			if (edit_list_apply(&el, pl->units[u].file, &ch[nch].text, &ch[nch].len, diag) != 0) {
				edit_list_release(&el);
				diag_plain(diag, DIAG_ERROR, "apply: nothing written");
				status = EXIT_INTERNAL;
				goto out;
			}
			if (ch[nch].len == pl->units[u].file->len &&
			    memcmp(ch[nch].text, pl->units[u].file->data, ch[nch].len) == 0)
				free(ch[nch].text);
			else
				nch++, total += points;
		}
		edit_list_release(&el);
	}
	plan_warn_density(pl, diag);
	{
		/* the runtime the points need, when the operator's base lacks it */
		const char *dev = rule_find_data_dir("AUTOTRACE_DEVICE_DIR", DEVICEDIR, "device");
		char *rtp = path_join(dev, "moe_tracing.h");
		int rc = edit_runtime_provide(pl, rtp, &runtime, diag);
		free(rtp);
		if (rc != 0) {
			diag_plain(diag, DIAG_ERROR, "apply: nothing written");
			goto out;
		}
	}
	if (check) {
		if (runtime.path)
			printf("%s: the trace point runtime to %s\n", runtime.shown, runtime.created ? "create" : "embed");
		for (size_t i = 0; i < nch; i++)
			printf("%s: %u point%s to insert\n", pl->units[ch[i].unit].path, ch[i].points,
			       ch[i].points == 1 ? "" : "s");
		status = nch || runtime.path ? EXIT_FINDINGS : EXIT_OK;
		goto out;
	}
	if (dry_run) {
		for (size_t i = 0; i < nch; i++) {
			const struct src_file *f = pl->units[ch[i].unit].file;
			udiff_print(stdout, pl->units[ch[i].unit].path, f->data, f->len, ch[i].text, ch[i].len);
		}
		if (runtime.path) {
			const struct src_file *f = pl->base != SIZE_MAX ? pl->units[pl->base].file : NULL;
			udiff_print(stdout, runtime.shown, f ? f->data : "", f ? f->len : 0, runtime.text, runtime.len);
		}
		status = EXIT_OK;
		goto out;
	}
	if (runtime.created && access(runtime.path, F_OK) == 0) {
		diag_pos(diag, DIAG_ERROR, runtime.path, 0, 0,
			 "apply would create this base header for the trace point runtime, but it exists: "
			 "name it in the rules' 'base' setting; nothing written");
		goto out;
	}
	for (size_t i = 0; i < nch; i++) {
		const struct src_file *f = pl->units[ch[i].unit].file;
		if (!unchanged(pl->units[ch[i].unit].fs_path, f)) {
			diag_plain(diag, DIAG_ERROR, "apply: %s changed while it was being planned; nothing written",
				   pl->units[ch[i].unit].fs_path);
			goto out;
		}
	}
	if (runtime.path && !runtime.created && !unchanged(runtime.path, pl->units[pl->base].file)) {
		diag_plain(diag, DIAG_ERROR, "apply: %s changed while it was being planned; nothing written", runtime.path);
		goto out;
	}
	{
		const char **paths = xcalloc(nch + 2, sizeof(char *));
		const char **texts = xcalloc(nch + 2, sizeof(char *));
		size_t *lens = xcalloc(nch + 2, sizeof(size_t));
		size_t n = nch;
		for (size_t i = 0; i < nch; i++) {
			paths[i] = pl->units[ch[i].unit].fs_path;
			texts[i] = ch[i].text;
			lens[i] = ch[i].len;
		}
		if (runtime.path) {
			paths[n] = runtime.path;
			texts[n] = runtime.text;
			lens[n] = runtime.len;
			n++;
		}
		status = edit_write_files(lock, paths, texts, lens, n, diag) == 0 ? EXIT_OK : EXIT_BAD_INPUT;
		free(paths);
		free(texts);
		free(lens);
	}
	for (size_t i = 0; i < nch && status == EXIT_OK; i++)
		printf("%s: %u point%s\n", pl->units[ch[i].unit].path, ch[i].points, ch[i].points == 1 ? "" : "s");
	if (status == EXIT_OK && runtime.path)
		printf("%s: the trace point runtime %s\n", runtime.shown, runtime.created ? "created" : "embedded");
	if (status == EXIT_OK)
		printf("apply: %u point%s in %zu file%s\n", total, total == 1 ? "" : "s", nch, nch == 1 ? "" : "s");
	if (fflush(stdout) != 0 || ferror(stdout))
		status = EXIT_INTERNAL;
out:
	project_op_choice_release(&op);
	edit_runtime_release(&runtime);
	for (size_t i = 0; i < nch; i++)
		free(ch[i].text);
	free(ch);
	plan_free(pl);
	edit_lock_release(lock);
	return status;
}

int cmd_apply(int argc, char **argv, struct diag *diag)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },     { "rules", required_argument, NULL, 'r' },
		{ "dry-run", no_argument, NULL, 'n' },  { "check", no_argument, NULL, 'c' },
		{ "op", required_argument, NULL, 'o' }, { NULL, 0, NULL, 0 },
	};
	struct apply_opts o = { NULL, NULL, { NULL, NULL }, false, false };
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

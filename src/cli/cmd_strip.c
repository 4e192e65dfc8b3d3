/* autotrace strip: remove the trace points (and braces, includes) that
 * apply inserted; hand-written points stay unless --all. */
#include <errno.h>
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
#include "cxx_pp.h"
#include "cxx_scan.h"
#include "kernel_scan.h"
#include "path_glob.h"
#include "plan.h"
#include "project_ops.h"
#include "rule_find.h"
#include "runtime_embed.h"
#include "udiff.h"
#include "xalloc.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace strip [--rules FILE] [--op NAME] [--all] [--dry-run] [--check] [OPDIR...]\n"
	      "\n"
	      "Remove what 'autotrace apply' inserted in the kernel sources (the C, C++\n"
	      "and CUDA sources and headers under the rules' 'kernel' directory, by\n"
	      "extension, the files apply reads): its points, the braces it added, the\n"
	      "#include it added, and the value it computed before a return; each is\n"
	      "tagged by apply (// autotrace). strip after apply gives the sources back\n"
	      "byte for byte.\n"
	      "Only the shapes apply writes go: a tag in another one (a user's\n"
	      "'x = 1; // autotrace') is left, with a warning; a tagged brace without\n"
	      "its pair stops the file (exit 2, nothing written).\n"
	      "Hand-written points are kept.\n"
	      "\n"
	      "  --rules FILE   the rules (default: OPDIR/autotrace.rules, else moe.rules)\n"
	      "  --op NAME      the operator, in a directory that holds several (an OpDef\n"
	      "                 class name or its snake_case): only its kernel entry and\n"
	      "                 the files that entry includes (headers it shares with\n"
	      "                 another operator too); without it such a directory is\n"
	      "                 refused with the list of its operators\n"
	      "  --all          also remove every line that holds only a MoeTracing(...)\n"
	      "                 statement (hand-written points; their braces stay)\n"
	      "  --dry-run      print the changes as a unified diff, write nothing\n"
	      "  --check        write nothing; exit 1 when strip would change a file\n"
	      "  -h, --help     this help\n"
	      "\n"
	      "Files are written as apply writes them: one journaled batch under\n"
	      "OPDIR/.autotrace/lock (see LOCK AND JOURNAL in autotrace(1)).\n"
	      "OPDIR is the operator directory (default: .); with several, each is done\n"
	      "in turn (one failing does not stop the others), its output headed by\n"
	      "\"== OPDIR\", and the exit status is the worst of theirs.\n"
	      "Exit status: 0 ok, 1 --check found changes, 2 bad usage or input.\n",
	      out);
}

struct strip_opts {
	const char *rules;
	const char *op;          /* --op */
	struct rule_cache cache; /* the rules, loaded once for operators sharing them */
	bool all, dry_run, check;
};

/* The kernel entry `entry` and its #include closure under the kernel root,
 * as paths relative to it (what path_walk gives). 0 or -1 (reported). */
static int entry_closure(const struct rule_policy *p, const char *opdir, const char *entry, char ***out, size_t *n,
			 struct diag *diag)
{
	struct kernel_scan_opts ko = { .policy = p, .opdir = opdir, .entry = entry };
	struct kernel_scan ks;
	struct cxx_unit *u;
	struct diag quiet;
	int rc = -1;

	*out = NULL;
	*n = 0;
	diag_init_quiet(&quiet);
	if (kernel_scan_open(&ks, &ko, &quiet, diag) == 0) {
		while ((u = cxx_scan_next(ks.scan)) != NULL) {
			if (strncmp(u->path, "../", 3) != 0) {
				*out = xrealloc(*out, (*n + 1) * sizeof(**out));
				(*out)[(*n)++] = xstrdup(u->path);
			}
			cxx_unit_free(u);
		}
		rc = 0;
	}
	kernel_scan_close(&ks);
	return rc;
}

static int strip_one(const char *opdir, void *ctx, struct diag *diag)
{
	struct strip_opts *o = ctx;
	bool all = o->all, dry_run = o->dry_run, check = o->check;
	const struct rule_policy *p = NULL;
	char *kernel = NULL, **files = NULL;
	size_t nfiles = 0, changed = 0, cap = 0;
	struct { char *path; char *text; size_t len; unsigned removed; bool runtime, remove; } *ch = NULL;
	unsigned total = 0;
	struct edit_lock *lock = NULL;
	struct project_op_choice op = { NULL, NULL, NULL, 0, -1, -1 };
	int status = EXIT_BAD_INPUT;

	/* before anything is read (see edit_journal.h) */
	if (!o->dry_run && !o->check && !(lock = edit_lock_acquire(opdir, "strip", diag)))
		goto out;
	p = rule_cache_get(&o->cache, o->rules, opdir, diag);
	if (!p || project_op_select(opdir, p, o->op, &op, diag) != 0)
		goto out;
	kernel = path_join(opdir, p->kernel.value);
	/* one operator of several: its entry's files, else every file */
	if ((op.entry ? entry_closure(p, opdir, op.entry, &files, &nfiles, diag)
		      : path_walk_within(kernel, opdir, &files, &nfiles, diag)) != 0)
		goto out;
	status = EXIT_OK;
	for (size_t i = 0; i < nfiles && status == EXIT_OK; i++) {
		char *path;
		struct src_file *f;
		char *text;
		size_t len;
		unsigned removed;
		bool runtime = false, gone = false;
		if (!src_file_is_cxx_name(files[i]))
			continue;
		path = path_join(kernel, files[i]);
		f = src_file_load(path);
		if (!f) {
			diag_plain(diag, DIAG_ERROR, "strip: cannot read %s: %s", path, src_file_strerror(errno));
			status = EXIT_BAD_INPUT;
			free(path);
			break;
		}
		{
			struct edit_foreign fv[EDIT_FOREIGN_MAX];
			size_t nf = 0;
			bool broken = false;
			text = edit_strip(f->data, f->len, all, &len, &removed, fv, &nf);
			/* what is not apply's stays; a brace without its pair stops the file */
			for (size_t k = 0; k < nf && k < EDIT_FOREIGN_MAX; k++) {
				struct src_loc at = src_loc_make(f, fv[k].off, fv[k].end);
				broken |= fv[k].broken;
				diag_at(diag, fv[k].broken ? DIAG_ERROR : DIAG_WARNING, at, "%s: %s", fv[k].why,
					fv[k].broken ? "nothing stripped, as taking one brace out without the other breaks the code; "
						       "put the pair back or remove the tag by hand"
						     : "left as it is");
			}
			if (nf > EDIT_FOREIGN_MAX)
				diag_plain(diag, DIAG_NOTE, "%s: %zu more tags of apply's in shapes it does not write", path,
					   nf - EDIT_FOREIGN_MAX);
			if (broken) {
				status = EXIT_BAD_INPUT;
				free(text);
				src_file_free(f);
				free(path);
				break;
			}
		}
		{
			/* the runtime apply embedded, or the base it created */
			bool remove = false;
			size_t rlen;
			char *r = runtime_strip_apply(text, len, path, &rlen, &remove);
			if (r) {
				free(text);
				text = r;
				len = rlen;
				runtime = true;
				gone = remove;
			}
		}
		if (len == f->len && memcmp(text, f->data, len) == 0) {
			src_file_free(f);
			free(text);
			free(path);
			continue;
		}
		src_file_free(f);
		XGROW(ch, cap, changed + 1);
		ch[changed].path = path;
		ch[changed].text = text;
		ch[changed].len = len;
		ch[changed].removed = removed;
		ch[changed].runtime = runtime;
		ch[changed].remove = gone;
		changed++;
		total += removed;
	}
	if (status == EXIT_OK && !check && !dry_run) {
		/* one batch: a base header apply created goes with the other files
		 * (removed by the commit, journaled like them) */
		struct edit_batch *b = edit_batch_new(lock, 0);
		for (size_t i = 0; i < changed && status == EXIT_OK; i++)
			if ((ch[i].remove ? edit_batch_remove(b, ch[i].path, diag)
					  : edit_batch_add(b, ch[i].path, ch[i].text, ch[i].len, diag)) != 0)
				status = EXIT_BAD_INPUT; /* an unwritable file: reported with its path */
		if (status == EXIT_OK) {
			if (edit_batch_commit(b, diag) != 0)
				status = EXIT_BAD_INPUT;
		} else {
			edit_batch_abort(b);
		}
	}
	for (size_t i = 0; i < changed && status == EXIT_OK; i++) {
		const char *rt = ch[i].remove ? " (the file apply created is removed)" : ch[i].runtime ? " (and the runtime apply embedded)" : "";
		if (check) {
			printf("%s: %u trace call%s to remove%s\n", ch[i].path, ch[i].removed, ch[i].removed == 1 ? "" : "s", rt);
		} else if (dry_run) {
			struct src_file *f = src_file_load(ch[i].path);
			if (f)
				udiff_print(stdout, ch[i].path, f->data, f->len, ch[i].remove ? "" : ch[i].text,
					    ch[i].remove ? 0 : ch[i].len);
			src_file_free(f);
		} else {
			printf("%s: %u trace call%s removed%s\n", ch[i].path, ch[i].removed, ch[i].removed == 1 ? "" : "s", rt);
		}
	}
	if (status == EXIT_OK && check && changed)
		status = EXIT_FINDINGS;
	if (status == EXIT_OK && !check && !dry_run)
		printf("strip: %u trace call%s removed from %zu file%s\n", total, total == 1 ? "" : "s", changed,
		       changed == 1 ? "" : "s");
	if (fflush(stdout) != 0 || ferror(stdout))
		status = EXIT_INTERNAL;
out:
	for (size_t i = 0; i < changed; i++) {
		free(ch[i].path);
		free(ch[i].text);
	}
	free(ch);
	path_glob_free(files, nfiles);
	free(kernel);
	project_op_choice_release(&op);
	edit_lock_release(lock);
	return status;
}

int cmd_strip(int argc, char **argv, struct diag *diag)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },    { "rules", required_argument, NULL, 'r' },
		{ "all", no_argument, NULL, 'a' },     { "dry-run", no_argument, NULL, 'n' },
		{ "check", no_argument, NULL, 'c' },   { "op", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	struct strip_opts o = { NULL, NULL, { NULL, NULL }, false, false, false };
	int c, status;

	while ((c = getopt_long(argc, argv, "hr:anc", opts, NULL)) != -1) {
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
		case 'a':
			o.all = true;
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
	status = opdirs_run("strip", argc - optind, argv + optind, false, strip_one, &o, diag);
	rule_cache_release(&o.cache);
	return status;
}

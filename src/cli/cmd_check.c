/* autotrace check: validate the trace points of an operator (or of some files)
 * statically, before a build. The checks themselves are in check_*.c. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check_trace.h"
#include "commands.h"
#include "cxx_pp.h"
#include "cxx_scan.h"
#include "exit_status.h"
#include "path_glob.h"
#include "plan.h"
#include "project_ops.h"
#include "rule_find.h"
#include "runtime_embed.h"
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

/* Scanner warnings, counted but not shown unless --verbose; errors (an
 * unreadable file) are passed on. */
struct quiet {
	struct diag *to;
	unsigned code; /* warnings about code the scanner could not follow (not about includes) */
};

static void quiet_sink(void *ctx, const struct diag_msg *m)
{
	struct quiet *q = ctx;

	if (m->level == DIAG_ERROR) {
		if (m->loc.file)
			diag_at(q->to, DIAG_ERROR, m->loc, "%s", m->text);
		else
			diag_pos(q->to, DIAG_ERROR, m->path, m->line, m->col, "%s", m->text);
		q->to->errors--; /* counted by the scan's own diag */
	} else if (m->level == DIAG_WARNING && strncmp(m->text, "cannot find", 11) != 0) {
		q->code++;
	}
}

struct checked {
	struct cxx_unit *u;
	bool uses;              /* calls MoeTracing or uses TRACE_POINT */
	struct cxx_range first; /* its first use */
	bool runtime;           /* a base file defining MoeTracing */
	bool base;
	char *real;             /* realpath, or NULL */
};

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The location of the MoeTracing definition in `ol`. */
static struct src_loc runtime_loc(const struct cxx_outline *ol)
{
	for (size_t i = 0; i < ol->nfuncs; i++)
		if (strcmp(ol->funcs[i].name, "MoeTracing") == 0)
			return src_loc_make(ol->file, ol->funcs[i].name_range.start, ol->funcs[i].name_range.end);
	for (size_t i = 0; i < ol->nmacros; i++)
		if (strcmp(ol->macros[i].name, "MoeTracing") == 0)
			return src_loc_make(ol->file, ol->macros[i].range.start, ol->macros[i].range.end);
	return src_loc_make(ol->file, 0, 0);
}

static char *strlist_text(const struct rule_strlist *l)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < l->n; i++)
		len += strlen(l->v[i]) + 4;
	s = xmalloc(len);
	s[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, "\"");
		strcat(s, l->v[i]);
		strcat(s, "\"");
	}
	return s;
}

static unsigned check_reachability(const struct cxx_scan *scan, struct checked *units, size_t n,
				   const struct rule_policy *p, bool have_base_files, bool opdir_mode, struct diag *diag)
{
	const struct checked *def = NULL;
	unsigned errors = 0;
	size_t nfiles = cxx_scan_nfiles(scan);
	const struct checked **by_index = xcalloc(nfiles + 1, sizeof(*by_index));
	bool any_use = false;

	for (size_t i = 0; i < n; i++) {
		if (units[i].u->index < nfiles)
			by_index[units[i].u->index] = &units[i];
		if (units[i].runtime && !def)
			def = &units[i];
		any_use |= units[i].uses && !units[i].base;
	}
	if (!any_use)
		goto out;
	if (!def && !have_base_files && !opdir_mode) {
		char *globs = strlist_text(&p->base);
		diag_plain(diag, DIAG_WARNING,
			   "no file under the current directory matches the rules' base (%s): the include closures "
			   "are not checked for the runtime (run check from the operator directory)",
			   globs);
		free(globs);
		goto out;
	}
	if (!def) {
		char *globs = strlist_text(&p->base);
		errors++;
		if (!have_base_files)
			diag_plain(diag, DIAG_ERROR,
				   "no file matches the rules' base (%s): the trace point runtime (MoeTracing) cannot be found",
				   globs);
		else
			diag_plain(diag, DIAG_ERROR, "no file matching the rules' base (%s) defines MoeTracing", globs);
		free(globs);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		size_t *closure, nc;
		bool found = false;
		if (!units[i].uses || units[i].runtime)
			continue;
		nc = cxx_scan_closure(scan, units[i].u->index, &closure);
		for (size_t k = 0; k < nc && !found; k++)
			found = closure[k] < nfiles && by_index[closure[k]] && by_index[closure[k]]->runtime;
		free(closure);
		if (found)
			continue;
		errors++;
		diag_at(diag, DIAG_ERROR, src_loc_make(units[i].u->file, units[i].first.start, units[i].first.end),
			"the trace point runtime is not in the #include closure of '%s'", units[i].u->file->path);
		diag_at(diag, DIAG_NOTE, runtime_loc(def->u->outline), "MoeTracing is defined here (the rules' base)");
	}
out:
	free(by_index);
	return errors;
}

static unsigned check_root_label(const struct rule_policy *p, size_t points, size_t root_seen, struct diag *diag)
{
	const struct rule_root *r = p->nroots ? &p->roots[0] : NULL;

	if (!r || points == 0 || root_seen > 0)
		return 0;
	if (r->loc.file)
		diag_at(diag, DIAG_ERROR, r->loc, "no trace point has the root label '%s'", r->label);
	else
		diag_plain(diag, DIAG_ERROR, "no trace point has the root label '%s' (the policy's root)", r->label);
	return 1;
}

static size_t count_points(const struct cxx_outline *ol)
{
	size_t n = 0;

	for (size_t i = 0; i < ol->nfuncs; i++)
		n += ol->funcs[i].body.npoints;
	return n;
}

int cmd_check(int argc, char **argv, struct diag *diag)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },         { "rules", required_argument, NULL, 'r' },
		{ "include", required_argument, NULL, 'I' }, { "define", required_argument, NULL, 'D' },
		{ "undef", required_argument, NULL, 'U' },   { "verbose", no_argument, NULL, 'v' },
		{ "op", required_argument, NULL, 'o' },      { NULL, 0, NULL, 0 },
	};
	const char *rules = NULL, *opdir = ".", *want = NULL;
	struct project_op_choice op = { NULL, NULL, NULL, 0, -1, -1 };
	const char **cli_idirs = xcalloc((size_t)argc + 1, sizeof(*cli_idirs));
	size_t ncli = 0, nunits = 0, cap_units = 0, npoints = 0, root_seen = 0, nbase = 0;
	char **idirs = NULL, *root = NULL, **base = NULL;
	size_t nidirs = 0;
	struct checked *units = NULL;
	struct cxx_macro_table *macros = cxx_macros_new();
	struct rule_policy *p = NULL;
	struct cxx_scan *scan = NULL;
	struct cxx_scan_opts so;
	struct cxx_unit *u;
	struct cxx_outline **kernels = NULL;
	struct check_label_policy lp;
	struct quiet q = { diag, 0 };
	struct diag sd;
	bool verbose = false, opdir_mode;
	unsigned errors0 = diag->errors, nerr = 0;
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
	if (opdir_mode && optind < argc)
		opdir = argv[optind];
	if (want && !opdir_mode) {
		diag_plain(diag, DIAG_ERROR, "check: --op goes with an operator directory, not with files");
		goto out;
	}
	p = rule_find_and_load(rules, opdir, diag);
	if (!p || (opdir_mode && project_op_select(opdir, p, want, &op, diag) != 0))
		goto out;
	plan_apply_defines(p, macros);
	idirs = xcalloc(p->include_dirs.n + ncli + 1, sizeof(*idirs));
	for (size_t i = 0; i < p->include_dirs.n; i++)
		idirs[nidirs++] = path_join(opdir, p->include_dirs.v[i]);
	for (size_t i = 0; i < ncli; i++)
		idirs[nidirs++] = xstrdup(cli_idirs[i]);
	if (opdir_mode) {
		root = path_join(opdir, p->kernel.value ? p->kernel.value : ".");
		if (!is_dir(root)) {
			diag_plain(diag, DIAG_ERROR, "check: no kernel directory '%s' (the rules' kernel setting)", root);
			goto out;
		}
	} else {
		root = xstrdup(".");
	}
	if (path_glob(opdir, p->base.v, p->base.n, &base, &nbase, diag) != 0)
		goto out;
	for (size_t i = 0; i < nbase; i++) {
		char *full = path_join(opdir, base[i]), *real = realpath(full, NULL);
		free(full);
		free(base[i]);
		base[i] = real ? real : xstrdup("");
	}

	diag_init(&sd, diag->out, diag->color);
	if (!verbose) {
		sd.sink = quiet_sink;
		sd.sink_ctx = &q;
	}
	memset(&so, 0, sizeof(so));
	so.root = root;
	so.shown_prefix = root;
	so.include_dirs = (const char *const *)idirs;
	so.ninclude_dirs = nidirs;
	so.macros = macros;
	scan = cxx_scan_new(&so, &sd);
	if (!scan) {
		diag->errors += sd.errors;
		goto out;
	}
	if (opdir_mode && op.entry) {
		/* one operator of several: its entry and what that includes */
		char **files = NULL;
		size_t nf = 0;
		int rc = plan_entry_files(p, &so, root, op.entry, &files, &nf, diag);
		for (size_t i = 0; i < nf && rc == 0; i++)
			rc = cxx_scan_add(scan, files[i]);
		path_glob_free(files, nf);
		if (rc != 0)
			goto out_scan;
	} else if (opdir_mode) {
		if (cxx_scan_add(scan, root) != 0)
			goto out_scan;
	} else {
		for (int i = optind; i < argc; i++)
			if (cxx_scan_add(scan, argv[i]) != 0)
				goto out_scan;
	}
	lp.roots = p->roots;
	lp.nroots = p->nroots;
	lp.depth = p->depth;
	while ((u = cxx_scan_next(scan)) != NULL) {
		struct checked *ck;
		char *full = path_join(root, u->path);
		XGROW(units, cap_units, nunits + 1);
		ck = &units[nunits++];
		memset(ck, 0, sizeof(*ck));
		ck->u = u;
		ck->real = realpath(full, NULL);
		free(u->file->path);
		if (opdir_mode) {
			u->file->path = full;
		} else {
			/* as given, or absolute when it lies above the current directory */
			u->file->path = strncmp(u->path, "../", 3) == 0 && ck->real ? xstrdup(ck->real) : xstrdup(u->path);
			free(full);
		}
		for (size_t i = 0; i < nbase && ck->real; i++)
			if (strcmp(base[i], ck->real) == 0)
				ck->base = true;
		ck->uses = check_uses_runtime(u->outline, &ck->first);
		/* a base whose embedded runtime the scan passed over (its include guard
		   was defined by another operator's base earlier in this closure) holds
		   it all the same */
		ck->runtime = ck->base && (check_defines_runtime(u->outline) ||
					   runtime_embedded(u->file->data, u->file->len));
		npoints += count_points(u->outline);
		nerr += check_source(u->outline, diag);
		nerr += check_points(u->outline, &lp, &root_seen, diag);
		nerr += check_pairing(u->outline, diag);
	}
	if (cxx_scan_errors(scan) > 0 || sd.errors > 0) {
		diag->errors += sd.errors;
		goto out_scan;
	}
	nerr += check_reachability(scan, units, nunits, p, nbase > 0, opdir_mode, diag);
	if (opdir_mode) {
		size_t nk = 0;
		kernels = xcalloc(nunits + 1, sizeof(*kernels));
		for (size_t i = 0; i < nunits; i++)
			for (size_t k = 0; k < units[i].u->outline->nfuncs; k++)
				if (units[i].u->outline->funcs[k].kernel) {
					kernels[nk++] = units[i].u->outline;
					break;
				}
		nerr += check_root_label(p, npoints, root_seen, diag);
		nerr += check_gm_params(opdir, p, op.count > 1 ? op.name : NULL, kernels, nk, diag);
	}
	if (q.code > 0)
		diag_plain(diag, DIAG_NOTE,
			   "the scanner could not follow some code (%u warning%s); points there are not checked (-v shows them)",
			   q.code, q.code == 1 ? "" : "s");
	printf("check: %zu file%s, %zu point%s: %u error%s\n", nunits, nunits == 1 ? "" : "s", npoints,
	       npoints == 1 ? "" : "s", nerr, nerr == 1 ? "" : "s");
	status = nerr > 0 || diag->errors > errors0 ? EXIT_FINDINGS : EXIT_OK;
	goto out;
out_scan:
	status = EXIT_BAD_INPUT;
out:
	/* this command's own arrays (cmd_strip.c's cleanup has the same shape) */
	for (size_t i = 0; i < nunits; i++) {
		cxx_unit_free(units[i].u);
		free(units[i].real);
	}
	free(units);
	free(kernels);
	cxx_scan_free(scan);
	for (size_t i = 0; i < nidirs; i++)
		free(idirs[i]);
	free(idirs);
	path_glob_free(base, nbase);
	free(root);
	free(cli_idirs);
	cxx_macros_free(macros);
	rule_policy_free(p);
	project_op_choice_release(&op);
	return status;
}

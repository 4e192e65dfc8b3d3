/* check_run: the static checks of an operator's trace points over the scan
 * of its kernel sources (check_run.h); the checks themselves are in
 * check_*.c, the reachability of the runtime and the root label here. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check_run.h"
#include "check_trace.h"
#include "cxx_scan.h"
#include "kernel_scan.h"
#include "path_glob.h"
#include "project_ops.h"
#include "rule_find.h"
#include "runtime_embed.h"
#include "xalloc.h"

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

/* A translation unit read as the preprocessor reads it: depth first through
 * the active includes in order, each file once (its guard). Is the runtime
 * declared when `target` is first read (found 1), or not (-1), or is it not
 * read (0)? `via` is the file that includes it then. */
struct tu_read {
	const struct cxx_scan *scan;
	const struct checked **by_index;
	bool *seen;
	size_t target, via;
	bool runtime;
	int found;
};

static void tu_visit(struct tu_read *t, size_t i, size_t from)
{
	const struct checked *c;
	const size_t *incs;
	size_t n;

	if (t->found || t->seen[i])
		return;
	t->seen[i] = true;
	if (i == t->target) {
		t->found = t->runtime ? 1 : -1;
		t->via = from;
		return;
	}
	c = t->by_index[i];
	n = cxx_scan_includes(t->scan, i, &incs);
	for (size_t k = 0; k < n && !t->found; k++)
		tu_visit(t, incs[k], i);
	if (c && c->runtime)
		t->runtime = true;
}

/* File i as the messages name files (newly allocated): under the kernel root. */
static char *file_name(const struct cxx_scan *scan, const struct checked **by_index, const char *root, size_t i)
{
	return by_index[i] ? xstrdup(by_index[i]->u->file->path) : path_join(root, cxx_scan_path(scan, i));
}

/* A file that uses the runtime without including it relies on its
 * includers, as C++ allows: every translation unit that reads it must have
 * declared the runtime first. Nothing is said when all of them have; a
 * warning names each unit that has not (and the file including it there),
 * and one is given when no unit reads the file at all. */
/* A source file the compiler reads as a translation unit (not a header). */
static bool is_unit_source(const char *path)
{
	static const char *const ext[] = { ".c", ".cc", ".cpp", ".cxx", ".cu", NULL };
	const char *dot = strrchr(path, '.');

	for (size_t i = 0; dot && ext[i]; i++)
		if (strcmp(dot, ext[i]) == 0)
			return true;
	return false;
}

static unsigned check_includers(const struct cxx_scan *scan, const struct checked **by_index, const char *root,
				const struct checked *c, const struct checked *def, struct diag *diag)
{
	size_t nfiles = cxx_scan_nfiles(scan);
	bool *included = xcalloc(nfiles + 1, sizeof(bool));
	struct tu_read t = { scan, by_index, xcalloc(nfiles + 1, sizeof(bool)), c->u->index, 0, false, 0 };
	size_t readers = 0, bad = 0;

	for (size_t i = 0; i < nfiles; i++) {
		const size_t *incs;
		size_t n = cxx_scan_includes(scan, i, &incs);
		for (size_t k = 0; k < n; k++)
			if (incs[k] != i)
				included[incs[k]] = true;
	}
	if (!included[c->u->index] && is_unit_source(c->u->file->path)) {
		/* a translation unit of its own (a .cpp): nothing declares the runtime before its points */
		diag_at(diag, DIAG_ERROR, src_loc_make(c->u->file, c->first.start, c->first.end),
			"the trace point runtime is not in the #include closure of '%s'", c->u->file->path);
		diag_at(diag, DIAG_NOTE, runtime_loc(def->u->outline), "MoeTracing is defined here (the rules' base)");
		free(t.seen);
		free(included);
		return 1;
	}
	for (size_t i = 0; i < nfiles; i++) {
		if (included[i] || i == c->u->index)
			continue;
		memset(t.seen, 0, nfiles * sizeof(bool));
		t.runtime = false;
		t.found = 0;
		tu_visit(&t, i, SIZE_MAX);
		if (t.found == 0)
			continue;
		readers++;
		if (t.found > 0)
			continue;
		bad++;
		{
			char *tu = file_name(scan, by_index, root, i), *via = file_name(scan, by_index, root, t.via);
			diag_at(diag, DIAG_WARNING, src_loc_make(c->u->file, c->first.start, c->first.end),
				"'%s' uses the trace point runtime without including it, and translation unit '%s' "
				"reads it before anything declares MoeTracing ('%s' includes it): include the rules' "
				"base in it",
				c->u->file->path, tu, via);
			free(tu);
			free(via);
		}
	}
	if (readers == 0)
		diag_at(diag, DIAG_WARNING, src_loc_make(c->u->file, c->first.start, c->first.end),
			"'%s' uses the trace point runtime without including it, and no translation unit includes it: "
			"its points are never compiled",
			c->u->file->path);
	if (bad || readers == 0)
		diag_at(diag, DIAG_NOTE, runtime_loc(def->u->outline), "MoeTracing is defined here (the rules' base)");
	free(t.seen);
	free(included);
	return 0;
}

static unsigned check_reachability(const struct cxx_scan *scan, const char *root, struct checked *units, size_t n,
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
		if (!found)
			errors += check_includers(scan, by_index, root, &units[i], def, diag);
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

static bool defines_kernel(const struct cxx_outline *ol)
{
	for (size_t k = 0; k < ol->nfuncs; k++)
		if (ol->funcs[k].kernel)
			return true;
	return false;
}

static size_t count_points(const struct cxx_outline *ol)
{
	size_t n = 0;

	for (size_t i = 0; i < ol->nfuncs; i++)
		n += ol->funcs[i].body.npoints;
	return n;
}

int check_run(const struct check_opts *o, struct check_result *r, struct diag *diag)
{
	const char *opdir = o->opdir ? o->opdir : ".";
	struct project_op_choice op = { NULL, NULL, NULL, 0, -1, -1 };
	size_t nunits = 0, nchecked = 0, cap_units = 0, npoints = 0, root_seen = 0, nbase = 0;
	char *root = NULL, **base = NULL;
	struct checked *units = NULL;
	struct rule_policy *p = NULL;
	struct kernel_scan ks;
	struct kernel_scan_opts ko;
	struct cxx_unit *u;
	struct cxx_outline **kernels = NULL;
	struct check_label_policy lp;
	struct quiet q = { diag, 0 };
	struct diag sd;
	bool opdir_mode = o->files == NULL;
	unsigned errors0 = diag->errors, nerr = 0;
	int status = -1;

	memset(r, 0, sizeof(*r));
	memset(&ks, 0, sizeof(ks));
	if (o->op && !opdir_mode) {
		diag_plain(diag, DIAG_ERROR, "check: --op goes with an operator directory, not with files");
		goto out;
	}
	p = rule_find_and_load(o->rules, opdir, diag);
	if (!p || (opdir_mode && project_op_select(opdir, p, o->op, &op, diag) != 0))
		goto out;
	if (opdir_mode) {
		root = path_join(opdir, p->kernel.value);
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
	if (!o->verbose) {
		sd.sink = quiet_sink;
		sd.sink_ctx = &q;
	}
	memset(&ko, 0, sizeof(ko));
	ko.policy = p;
	ko.opdir = opdir;
	ko.entry = opdir_mode ? op.entry : NULL;
	ko.root = root;
	ko.files = o->files;
	ko.nfiles = o->nfiles;
	ko.include_dirs = o->include_dirs;
	ko.ninclude_dirs = o->ninclude_dirs;
	ko.macros = o->macros;
	ko.shown_under_root = true;
	ko.skipped_diag = diag;
	if (kernel_scan_open(&ks, &ko, &sd, diag) != 0) {
		diag->errors += sd.errors;
		goto out;
	}
	lp.roots = p->roots;
	lp.nroots = p->nroots;
	lp.depth = p->depth;
	while ((u = cxx_scan_next(ks.scan)) != NULL) {
		struct checked *ck;
		char *full = path_join(root, u->path);
		XGROW(units, cap_units, nunits + 1);
		ck = &units[nunits++];
		nchecked++;
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
		/* checked: held on only when what follows asks of it (a tree of
		   100,000 files nothing includes costs their names, not outlines) */
		if (!ck->uses && !ck->runtime && !defines_kernel(u->outline)) {
			cxx_unit_free(u);
			free(ck->real);
			nunits--;
		}
	}
	if (cxx_scan_errors(ks.scan) > 0 || sd.errors > 0) {
		diag->errors += sd.errors;
		goto out;
	}
	nerr += check_reachability(ks.scan, root, units, nunits, p, nbase > 0, opdir_mode, diag);
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
		nerr += check_gm_params(opdir, p, op.name, kernels, nk, diag);
	}
	if (q.code > 0)
		diag_plain(diag, DIAG_NOTE,
			   "the scanner could not follow some code (%u warning%s); points there are not checked (-v shows them)",
			   q.code, q.code == 1 ? "" : "s");
	r->nfiles = nchecked;
	r->npoints = npoints;
	r->errors = nerr;
	r->clean = nerr == 0 && diag->errors == errors0;
	status = 0;
out:
	for (size_t i = 0; i < nunits; i++) {
		cxx_unit_free(units[i].u);
		free(units[i].real);
	}
	free(units);
	free(kernels);
	kernel_scan_close(&ks);
	path_glob_free(base, nbase);
	free(root);
	rule_policy_free(p);
	project_op_choice_release(&op);
	return status;
}

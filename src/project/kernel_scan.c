/* The scan of an operator's kernel sources as its rules see them
 * (kernel_scan.h): where it starts, what it includes, which macros hold. */
#include <stdlib.h>
#include <string.h>

#include "kernel_reach.h"
#include "kernel_scan.h"
#include "path_glob.h"
#include "src_file.h"
#include "xalloc.h"

/* The other kernel entries an error about a missing one lists. */
#define PLAN_ENTRIES_LISTED 32
struct plan_entry_at {
	char *name, *path;
	size_t line, col;
};
struct plan_entry_seen {
	struct plan_entry_at v[PLAN_ENTRIES_LISTED];
	size_t n;
};

void kernel_scan_defines(const struct rule_policy *p, struct cxx_macro_table *macros)
{
	/* the build's own first (its CMakeLists.txt), then the rules', which win */
	for (size_t i = 0; i < p->build_defines.n; i++) {
		char *spec = xasprintf("%s=%s", p->build_defines.v[i].name, p->build_defines.v[i].value);
		cxx_macros_define(macros, spec);
		free(spec);
	}
	for (size_t i = 0; i < p->ndefines; i++) {
		const struct rule_define *d = &p->defines[i];
		if (!d->value) {
			cxx_macros_undef(macros, d->name);
		} else {
			char *spec = xasprintf("%s=%s", d->name, d->value);
			cxx_macros_define(macros, spec);
			free(spec);
		}
	}
}

struct cxx_macro_table *kernel_scan_macros(const struct rule_policy *p)
{
	struct cxx_macro_table *macros = cxx_macros_new();

	kernel_scan_defines(p, macros);
	return macros;
}

/* `a` and `b` are one name but for case and underscores. */
static bool same_name_key(const char *a, const char *b)
{
	for (;;) {
		while (*a == '_')
			a++;
		while (*b == '_')
			b++;
		if (!*a || !*b)
			return !*a && !*b;
		if ((*a | 0x20) != (*b | 0x20))
			return false;
		a++, b++;
	}
}

/* True when the outline defines the __global__ kernel entry `entry`. */
static bool defines_entry(const struct cxx_outline *ol, const char *entry, struct plan_entry_seen *seen,
			  const struct cxx_unit *u)
{
	bool yes = false;

	for (size_t k = 0; k < ol->nfuncs; k++) {
		const struct cxx_func *fn = &ol->funcs[k];
		if (!fn->kernel || fn->def != CXX_DEF_BODY)
			continue;
		if (strcmp(fn->name, entry) == 0 || same_name_key(fn->name, entry))
			yes = true;
		else if (seen->n < PLAN_ENTRIES_LISTED)
			seen->v[seen->n++] = (struct plan_entry_at){ xstrdup(fn->name), xstrdup(u->path),
								     src_file_line(u->file, fn->name_range.start),
								     src_file_column(u->file, fn->name_range.start) };
	}
	return yes;
}

int kernel_scan_entry_files(const struct rule_policy *p, const struct cxx_scan_opts *opts, const char *kernel,
			    const char *entry, char ***files, size_t *n, struct diag *diag)
{
	struct cxx_scan_opts so = *opts;
	struct diag quiet;
	struct cxx_scan *scan;
	struct cxx_unit *u;
	struct plan_entry_seen seen;
	int rc = -1;

	*files = NULL;
	*n = 0;
	memset(&seen, 0, sizeof(seen));
	diag_init_quiet(&quiet);
	so.macros = kernel_scan_macros(p);
	scan = cxx_scan_new(&so, &quiet);
	if (!scan || cxx_scan_add(scan, kernel) != 0) {
		diag_plain(diag, DIAG_ERROR, "the kernel directory %s cannot be read", kernel);
		goto out;
	}
	while ((u = cxx_scan_next(scan)) != NULL) {
		if (defines_entry(u->outline, entry, &seen, u)) {
			*files = xrealloc(*files, (*n + 1) * sizeof(**files));
			(*files)[(*n)++] = path_join(kernel, u->path);
		}
		cxx_unit_free(u);
	}
	if (*n) {
		rc = 0;
		goto out;
	}
	diag_plain(diag, DIAG_ERROR,
		   "no __global__ kernel entry named %s under %s (an operator's entry is the __global__ function named "
		   "after it in snake_case)", entry, kernel);
	for (size_t i = 0; i < seen.n; i++) {
		char *path = path_join(kernel, seen.v[i].path);
		diag_pos(diag, DIAG_NOTE, path, seen.v[i].line, seen.v[i].col, "kernel entry %s", seen.v[i].name);
		free(path);
	}
out:
	for (size_t i = 0; i < seen.n; i++) {
		free(seen.v[i].name);
		free(seen.v[i].path);
	}
	cxx_scan_free(scan);
	cxx_macros_free(so.macros);
	return rc;
}

int kernel_scan_open(struct kernel_scan *ks, const struct kernel_scan_opts *o, struct diag *scan_diag,
		     struct diag *diag)
{
	const struct rule_policy *p = o->policy;
	char **files = NULL;
	size_t nf = 0;
	int rc = 0;
	struct kernel_reach reach = { .whole = true };

	memset(ks, 0, sizeof(*ks));
	ks->root = o->root ? xstrdup(o->root) : path_join(o->opdir, p->kernel.value);
	ks->idirs = xcalloc(p->include_dirs.n + o->ninclude_dirs + 1, sizeof(*ks->idirs));
	for (size_t i = 0; i < p->include_dirs.n; i++)
		ks->idirs[ks->nidirs++] = path_join(o->opdir, p->include_dirs.v[i]);
	for (size_t i = 0; i < o->ninclude_dirs; i++)
		ks->idirs[ks->nidirs++] = xstrdup(o->include_dirs[i]);
	if (o->macros) {
		ks->macros = o->macros;
		kernel_scan_defines(p, ks->macros);
	} else {
		ks->macros = kernel_scan_macros(p);
		ks->own_macros = true;
	}
	ks->so.root = ks->root;
	ks->so.bound = o->opdir; /* links may lead anywhere in the operator directory */
	ks->so.shown_prefix = o->shown_under_root ? ks->root : NULL;
	ks->so.include_dirs = (const char *const *)ks->idirs;
	ks->so.ninclude_dirs = ks->nidirs;
	ks->so.macros = ks->macros;
	ks->so.skipped_diag = o->skipped_diag;
	diag_init_quiet(&ks->quiet);
	if (!o->files && o->entry &&
	    kernel_scan_entry_files(p, &ks->so, ks->root, o->entry, &files, &nf, diag) != 0)
		return -1;
	if (!o->files && !o->entry && o->reached) {
		/* macros of its own: the include guards it defines are not the next scan's */
		struct cxx_macro_table *first = kernel_scan_macros(p);
		kernel_reach_files(p, &ks->so, first, ks->root, o->opdir, &reach,
				   o->skipped_diag ? o->skipped_diag : scan_diag);
		cxx_macros_free(first);
		/* the files left unread for their size are said: once */
		ks->so.skipped_diag = &ks->quiet;
	}
	ks->scan = cxx_scan_new(&ks->so, scan_diag);
	if (!ks->scan) {
		path_glob_free(files, nf);
		kernel_reach_release(&reach);
		return -1;
	}
	if (o->files)
		for (size_t i = 0; i < o->nfiles && rc == 0; i++)
			rc = cxx_scan_add(ks->scan, o->files[i]);
	else if (o->entry)
		for (size_t i = 0; i < nf && rc == 0; i++)
			rc = cxx_scan_add(ks->scan, files[i]);
	else if (!reach.whole)
		/* in the whole directory's order; a file only an #include needs may
		   be left unread for its size, located there */
		for (size_t i = 0; i < reach.n && rc == 0; i++)
			rc = reach.named[i] ? cxx_scan_add(ks->scan, reach.files[i])
					    : cxx_scan_add_found(ks->scan, reach.files[i]);
	else
		rc = cxx_scan_add(ks->scan, ks->root);
	path_glob_free(files, nf);
	kernel_reach_release(&reach);
	return rc;
}

void kernel_scan_close(struct kernel_scan *ks)
{
	cxx_scan_free(ks->scan);
	if (ks->own_macros)
		cxx_macros_free(ks->macros);
	for (size_t i = 0; i < ks->nidirs; i++)
		free(ks->idirs[i]);
	free(ks->idirs);
	free(ks->root);
	memset(ks, 0, sizeof(*ks));
}

/* The files of a whole kernel directory that its entries reach
 * (kernel_reach.h). */
#include "kernel_reach.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_token.h"
#include "index_table.h"
#include "path_glob.h"
#include "rule_regex.h"
#include "src_file.h"
#include "xalloc.h"

/* A set of name hashes (open addressing; 0 stands for an empty slot). */
struct name_set {
	uint64_t *v;
	size_t cap, n;
};

static uint64_t name_hash(const char *s, size_t n)
{
	uint64_t h = index_hash_bytes(s, n);
	return h ? h : 1;
}

static bool set_has(const struct name_set *s, uint64_t h)
{
	if (!s->cap)
		return false;
	for (size_t i = (size_t)h & (s->cap - 1); s->v[i]; i = (i + 1) & (s->cap - 1))
		if (s->v[i] == h)
			return true;
	return false;
}

static void set_add(struct name_set *s, uint64_t h)
{
	if (2 * (s->n + 1) > s->cap) {
		struct name_set g = { xcalloc(s->cap ? 2 * s->cap : 1024, sizeof(uint64_t)), s->cap ? 2 * s->cap : 1024, 0 };
		for (size_t i = 0; i < s->cap; i++)
			if (s->v[i])
				set_add(&g, s->v[i]);
		free(s->v);
		*s = g;
	}
	for (size_t i = (size_t)h & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
		if (s->v[i] == h)
			return;
		if (!s->v[i]) {
			s->v[i] = h;
			s->n++;
			return;
		}
	}
}

/* The names each file of the first scan defines, by file index. */
struct defs {
	size_t *first;   /* file i: hash[first[i] .. first[i + 1]) */
	uint64_t *hash;
	size_t n, cap, nfiles, files_cap;
};

static void defs_add(struct defs *d, uint64_t h)
{
	XGROW(d->hash, d->cap, d->n + 1);
	d->hash[d->n++] = h;
}

/* Opens file `idx`'s list (files skipped by the scan have empty ones). */
static void defs_file(struct defs *d, size_t idx)
{
	if (!d->first) {
		XGROW(d->first, d->files_cap, idx + 2);
		d->first[0] = 0;
	}
	XGROW(d->first, d->files_cap, idx + 2);
	while (d->nfiles <= idx)
		d->first[++d->nfiles] = d->n;
}

/* Each identifier of a qualified name outside template arguments
 * ("Ns::Kernel<T>::Process" -> Ns, Kernel, Process). */
static void defs_qualified(struct defs *d, const char *q)
{
	int angle = 0;

	for (const char *s = q; s && *s;) {
		if (*s == '<')
			angle++;
		else if (*s == '>' && angle > 0)
			angle--;
		if (!angle && (*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) {
			const char *e = s;
			while (*e == '_' || (*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9'))
				e++;
			defs_add(d, name_hash(s, (size_t)(e - s)));
			s = e;
			continue;
		}
		s++;
	}
}

static void defs_outline(struct defs *d, size_t idx, const struct cxx_outline *ol)
{
	defs_file(d, idx);
	for (size_t k = 0; k < ol->nfuncs; k++) {
		defs_qualified(d, ol->funcs[k].qualified_name);
		defs_qualified(d, ol->funcs[k].name);
	}
	for (size_t k = 0; k < ol->ntypes; k++) {
		defs_qualified(d, ol->types[k].name);
		defs_qualified(d, ol->types[k].scope);
	}
	for (size_t k = 0; k < ol->nmacros; k++)
		defs_qualified(d, ol->macros[k].name);
	for (size_t k = 0; k < ol->nunfollowed; k++)
		defs_qualified(d, ol->unfollowed[k].qualified_name);
	d->first[idx + 1] = d->n;
}

/* A function of the outline that a `root ... at function /RE/` names (one
 * with a body, as the planner takes roots). */
static bool names_a_root(const struct rule_policy *p, const struct cxx_outline *ol)
{
	for (size_t r = 0; r < p->nroots; r++) {
		if (!p->roots[r].at)
			continue;
		for (size_t k = 0; k < ol->nfuncs; k++) {
			const char *q = ol->funcs[k].qualified_name;
			if (ol->funcs[k].def == CXX_DEF_BODY && q && rule_regex_match(p->roots[r].at, q, strlen(q)))
				return true;
		}
	}
	return false;
}

/* Marks the base headers (the rules' `base` globs, under the operator
 * directory) among the files of the scan. */
static void mark_bases(const struct rule_policy *p, const char *opdir, const struct cxx_scan *scan, bool *from,
		       bool *named)
{
	struct diag quiet;
	char **found = NULL;
	size_t n = 0;

	diag_init_quiet(&quiet);
	if (path_glob(opdir, p->base.v, p->base.n, &found, &n, &quiet) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		char *path = path_join(opdir, found[i]);
		size_t k = cxx_scan_index(scan, path);
		if (k != SIZE_MAX)
			from[k] = named[k] = true;
		free(path);
	}
	path_glob_free(found, n);
}

/* Adds the identifiers file `path` spells to `used` (read again: its
 * outline was dropped). */
static void add_identifiers(const char *path, struct name_set *used)
{
	struct src_file *f = src_file_load(path);
	struct cxx_tokens toks = { NULL, 0, 0 };

	if (!f)
		return;
	cxx_tokenize(f->data, f->len, &toks);
	for (size_t i = 0; i < toks.n; i++)
		if (toks.v[i].kind == CXX_TOK_IDENT)
			set_add(used, name_hash(f->data + toks.v[i].start, toks.v[i].end - toks.v[i].start));
	cxx_tokens_release(&toks);
	src_file_free(f);
}

/* Pulls in, until none is left, the files defining a name that the files
 * held spell, each with its closure. */
static void pull_by_name(const struct cxx_scan *scan, const char *kernel, const struct defs *d, bool *held)
{
	size_t nfiles = cxx_scan_nfiles(scan);
	bool *done = xcalloc(nfiles + 1, sizeof(*done)), *pull = xcalloc(nfiles + 1, sizeof(*pull));
	struct name_set used = { NULL, 0, 0 };
	bool more = true;

	while (more) {
		more = false;
		for (size_t i = 0; i < nfiles; i++) {
			char *path;
			if (!held[i] || done[i])
				continue;
			done[i] = true;
			path = path_join(kernel, cxx_scan_path(scan, i));
			add_identifiers(path, &used);
			free(path);
		}
		memset(pull, 0, (nfiles + 1) * sizeof(*pull));
		for (size_t i = 0; i < nfiles && i < d->nfiles; i++) {
			if (held[i])
				continue;
			for (size_t k = d->first[i]; k < d->first[i + 1] && !pull[i]; k++)
				pull[i] = set_has(&used, d->hash[k]);
			more |= pull[i];
		}
		if (more)
			cxx_scan_reach(scan, pull, false, held);
	}
	free(used.v);
	free(pull);
	free(done);
}

void kernel_reach_files(const struct rule_policy *p, const struct cxx_scan_opts *opts, struct cxx_macro_table *macros,
			const char *kernel, const char *opdir, struct kernel_reach *r, struct diag *skipped_diag)
{
	struct cxx_scan_opts so = *opts;
	struct diag quiet;
	struct cxx_scan *scan;
	struct cxx_unit *u;
	struct defs defs;
	size_t *at = NULL, nat = 0, cap = 0, nfiles, n = 0;
	bool *from = NULL, *named = NULL, *held = NULL, entries = false;

	memset(r, 0, sizeof(*r));
	memset(&defs, 0, sizeof(defs));
	r->whole = true;
	diag_init_quiet(&quiet);
	so.macros = macros;
	so.skipped_diag = skipped_diag;
	scan = cxx_scan_new(&so, &quiet);
	if (!scan || cxx_scan_add(scan, kernel) != 0)
		goto out;
	/* each file looked at once, its outline dropped at once */
	while ((u = cxx_scan_next(scan)) != NULL) {
		if (names_a_root(p, u->outline)) {
			XGROW(at, cap, nat + 1);
			at[nat++] = u->index;
		}
		defs_outline(&defs, u->index, u->outline);
		cxx_unit_free(u);
	}
	nfiles = cxx_scan_nfiles(scan);
	from = xcalloc(nfiles + 1, sizeof(*from));
	named = xcalloc(nfiles + 1, sizeof(*named));
	held = xcalloc(nfiles + 1, sizeof(*held));
	for (size_t k = 0; k < nat; k++)
		from[at[k]] = entries = true;
	for (size_t i = 0; i < nfiles; i++)
		if (cxx_scan_nkernels(scan, i) > 0)
			from[i] = entries = true;
	/* no entry and no root: the planner says so of the whole directory, as before */
	if (!entries)
		goto out;
	/* the translation units the entries and roots are part of (a root in a
	   .tcc whose callees a sibling .ipp defines, both included by the .cpp) */
	cxx_scan_reach(scan, from, true, held);
	memset(from, 0, (nfiles + 1) * sizeof(*from));
	mark_bases(p, opdir, scan, from, named);
	cxx_scan_reach(scan, from, false, held);
	pull_by_name(scan, kernel, &defs, held);
	for (size_t i = 0; i < nfiles; i++)
		n += held[i];
	r->whole = false;
	r->nfiles = nfiles;
	r->files = xcalloc(n + 1, sizeof(*r->files));
	r->named = xcalloc(n + 1, sizeof(*r->named));
	for (size_t i = 0; i < nfiles; i++) {
		if (!held[i])
			continue;
		r->files[r->n] = path_join(kernel, cxx_scan_path(scan, i));
		r->named[r->n++] = named[i];
	}
out:
	cxx_scan_free(scan);
	free(defs.first);
	free(defs.hash);
	free(at);
	free(from);
	free(named);
	free(held);
}

void kernel_reach_release(struct kernel_reach *r)
{
	path_glob_free(r->files, r->n);
	free(r->named);
	memset(r, 0, sizeof(*r));
}

/* The scan session: queueing files, resolving includes against the including
 * file and the include dirs, following the closure under the kernel root. */
#include "cxx_scan.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cxx_pp.h"
#include "index_table.h"
#include "path_glob.h"
#include "path_rel.h"
#include "xalloc.h"

struct scan_file {
	char *canon;       /* absolute, symlinks resolved */
	char *rel;         /* as printed */
	size_t *incs;      /* followed includes, as file indices */
	size_t nincs, incs_cap;
	char **kernels;
	size_t nkernels;
	/* who asked for it, for a located error when it cannot be read */
	size_t from;       /* SIZE_MAX: the command line */
	char *from_name;
	char *from_path;   /* the first #include that names it, as printed (NULL: none yet) */
	size_t from_line, from_col;
	bool found;        /* found by a walk: not needed until an #include names it */
	char *skipped;     /* found, not read for its size: why (src_file_strerror) */
};

struct missing {
	char *name;
	char *where;       /* the first #include of it: file as printed */
	size_t line, col;
};

struct cxx_scan {
	struct diag *diag;
	struct diag *skipped_diag; /* see cxx_scan_opts */
	char *root;        /* canonical */
	char *bound;       /* canonical: the tree links may lead into (cxx_scan_opts) */
	char *bound_given; /* as given, NULL: the directory walked */
	char *shown_prefix; /* see cxx_scan_opts */
	char **idirs;      /* canonical */
	size_t nidirs;
	struct cxx_macro_table *macros;
	struct cxx_macro_table *own_macros;
	struct scan_file *files;
	size_t nfiles, files_cap, next;
	struct index_table set; /* files by canonical path */
	unsigned errors;
	struct missing *missing; /* quoted includes not found, each once, reported at the end */
	size_t nmissing;
	bool reported;
};

static char *canon_path(const char *path)
{
	char *r = realpath(path, NULL);
	return r;
}

struct canon_key {
	const struct cxx_scan *s;
	const char *canon;
};

static bool same_canon(const void *ctx, size_t item)
{
	const struct canon_key *k = ctx;
	return strcmp(k->s->files[item].canon, k->canon) == 0;
}

static size_t set_find(const struct cxx_scan *s, const char *canon)
{
	struct canon_key key = { s, canon };
	return index_table_find(&s->set, index_hash_bytes(canon, strlen(canon)), same_canon, &key);
}

static void set_insert(struct cxx_scan *s, size_t idx)
{
	const char *c = s->files[idx].canon;
	index_table_add(&s->set, index_hash_bytes(c, strlen(c)), idx);
}

/* `to` relative to directory `from` (both canonical). */
static char *rel_path(const char *from, const char *to)
{
	size_t fl = strlen(from), i = 0, last_sep = 0, common, ups = 0;
	const char *rest;
	char *out, *w;

	if (strcmp(from, to) == 0)
		return xstrdup(".");
	if (strcmp(from, "/") == 0)
		return xstrdup(to + 1);
	if (strncmp(to, from, fl) == 0 && to[fl] == '/')
		return xstrdup(to + fl + 1);
	while (from[i] && from[i] == to[i]) {
		if (from[i] == '/')
			last_sep = i;
		i++;
	}
	common = (to[i] == '\0' && from[i] == '/') ? i : last_sep;
	for (const char *c = from + common; *c; c++)
		if (*c == '/')
			ups++;
	rest = to[common] ? to + common + 1 : "";
	w = out = xmalloc(ups * 3 + strlen(rest) + 1);
	for (size_t u = 0; u < ups; u++) {
		memcpy(w, "../", 3);
		w += 3;
	}
	strcpy(w, rest);
	if (!rest[0] && w > out)
		w[-1] = '\0';
	return out;
}

static bool within_dir(const char *dir, const char *canon)
{
	size_t n = strlen(dir);

	return strcmp(dir, "/") == 0 || (strncmp(canon, dir, n) == 0 && (canon[n] == '/' || canon[n] == '\0'));
}

static bool under_root(const struct cxx_scan *s, const char *canon)
{
	size_t rl = strlen(s->root);

	if (strcmp(s->root, "/") == 0)
		return true;
	return strncmp(canon, s->root, rl) == 0 && canon[rl] == '/';
}

static size_t queue_file(struct cxx_scan *s, const char *canon, size_t from, const char *from_name)
{
	size_t idx = set_find(s, canon);
	struct scan_file *f;

	if (idx != SIZE_MAX)
		return idx;
	XGROW(s->files, s->files_cap, s->nfiles + 1);
	f = &s->files[s->nfiles];
	memset(f, 0, sizeof(*f));
	f->canon = xstrdup(canon);
	f->rel = rel_path(s->root, canon);
	f->from = from;
	f->from_name = from_name ? xstrdup(from_name) : NULL;
	set_insert(s, s->nfiles);
	return s->nfiles++;
}

struct cxx_scan *cxx_scan_new(const struct cxx_scan_opts *opts, struct diag *diag)
{
	struct cxx_scan *s = xcalloc(1, sizeof(*s));
	const char *root = opts->root ? opts->root : ".";

	s->diag = diag;
	s->skipped_diag = opts->skipped_diag ? opts->skipped_diag : diag;
	s->root = canon_path(root);
	s->bound = canon_path(opts->bound ? opts->bound : root);
	s->bound_given = opts->bound ? xstrdup(opts->bound) : NULL;
	s->shown_prefix = opts->shown_prefix && strcmp(opts->shown_prefix, ".") != 0 ? xstrdup(opts->shown_prefix) : NULL;
	if (!s->root || !s->bound) {
		diag_plain(diag, DIAG_ERROR, "cannot use '%s' as the kernel root: %s", s->root ? opts->bound : root,
			   strerror(errno));
		goto fail;
	}
	s->idirs = xcalloc(opts->ninclude_dirs + 1, sizeof(*s->idirs));
	for (size_t i = 0; i < opts->ninclude_dirs; i++) {
		struct stat st;
		char *c = canon_path(opts->include_dirs[i]);
		if (!c || stat(c, &st) < 0 || !S_ISDIR(st.st_mode)) {
			diag_plain(diag, DIAG_ERROR, "cannot use '%s' as an include dir: %s", opts->include_dirs[i],
				   c ? strerror(ENOTDIR) : strerror(errno));
			free(c);
			goto fail;
		}
		s->idirs[s->nidirs++] = c;
	}
	s->macros = opts->macros;
	if (!s->macros)
		s->macros = s->own_macros = cxx_macros_new();
	return s;
fail:
	cxx_scan_free(s);
	return NULL;
}

void cxx_scan_free(struct cxx_scan *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nfiles; i++) {
		free(s->files[i].canon);
		free(s->files[i].rel);
		free(s->files[i].incs);
		free(s->files[i].from_name);
		free(s->files[i].from_path);
		free(s->files[i].skipped);
		for (size_t k = 0; k < s->files[i].nkernels; k++)
			free(s->files[i].kernels[k]);
		free(s->files[i].kernels);
	}
	for (size_t i = 0; i < s->nidirs; i++)
		free(s->idirs[i]);
	for (size_t i = 0; i < s->nmissing; i++) {
		free(s->missing[i].name);
		free(s->missing[i].where);
	}
	free(s->missing);
	free(s->idirs);
	free(s->files);
	index_table_free(&s->set);
	free(s->root);
	free(s->bound);
	free(s->bound_given);
	free(s->shown_prefix);
	cxx_macros_free(s->own_macros);
	free(s);
}

/* A C++ file of a directory walk: queued by its canonical path. */
static int add_walked(void *ctx, const char *rel, const char *path)
{
	struct cxx_scan *s = ctx;
	char *c;

	(void)rel;
	if (!src_file_is_cxx_name(path))
		return 0;
	c = canon_path(path);
	if (c) {
		size_t before = s->nfiles, idx = queue_file(s, c, SIZE_MAX, NULL);
		if (idx == before)
			s->files[idx].found = true;
	}
	free(c);
	return 0;
}

/* The C++ files under `dir`, walked as every command walks a tree
 * (path_visit: a link out of it refused, a cycle not entered). */
static int add_dir(struct cxx_scan *s, const char *dir)
{
	return path_visit(dir, s->bound_given, PATH_WALK_STRICT, add_walked, s, s->diag);
}

/* True when `path`, read as written (its links not followed), lies in the
 * tree: a file of it by its name, whatever its canonical path says. */
static bool written_under_root(const struct cxx_scan *s, const char *path)
{
	char *abs, *norm;
	bool yes;

	if (path[0] == '/') {
		abs = xstrdup(path);
	} else {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)))
			return false;
		abs = path_join(cwd, path);
	}
	norm = path_normalize(abs);
	yes = within_dir(s->bound, norm);
	free(norm);
	free(abs);
	return yes;
}

static int add_path(struct cxx_scan *s, const char *path, bool found)
{
	struct stat st;
	char *c;
	size_t idx, before;

	if (stat(path, &st) < 0) {
		diag_plain(s->diag, DIAG_ERROR, "cannot read '%s': %s", path, strerror(errno));
		s->errors++;
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		return add_dir(s, path) < 0 ? (s->errors++, -1) : 0;
	c = canon_path(path);
	if (!c) {
		diag_plain(s->diag, DIAG_ERROR, "cannot read '%s': %s", path, strerror(errno));
		s->errors++;
		return -1;
	}
	if (!within_dir(s->bound, c) && written_under_root(s, path)) {
		/* a file of the tree by its name, elsewhere by its links: the walks'
		 * policy (path_glob.h) */
		diag_pos(s->diag, DIAG_ERROR, path, 0, 0,
			 "a symbolic link to %s, outside %s: refused (links are followed only within the tree a "
			 "command works on)", c, s->bound_given ? s->bound_given : s->root);
		free(c);
		s->errors++;
		return -1;
	}
	before = s->nfiles;
	idx = queue_file(s, c, SIZE_MAX, NULL);
	/* named on its own: needed, also when a walk found it before */
	if (idx == before || !found)
		s->files[idx].found = found;
	free(c);
	return 0;
}

int cxx_scan_add(struct cxx_scan *s, const char *path)
{
	return add_path(s, path, false);
}

int cxx_scan_add_found(struct cxx_scan *s, const char *path)
{
	return add_path(s, path, true);
}

/* Canonical path of `name` in `dir` when it is a regular file. */
static char *try_path(const char *dir, const char *name)
{
	char *p = name[0] == '/' ? xstrdup(name) : path_join(dir, name), *c;
	struct stat st;

	c = stat(p, &st) == 0 && S_ISREG(st.st_mode) ? canon_path(p) : NULL;
	free(p);
	return c;
}

/* Records a quoted include found nowhere (once per name, with where it was
 * first met); true when it was recorded before. */
static bool seen_missing(struct cxx_scan *s, const struct cxx_outline *ol, const struct cxx_include *inc)
{
	struct missing *m;

	for (size_t i = 0; i < s->nmissing; i++)
		if (strcmp(s->missing[i].name, inc->name) == 0)
			return true;
	s->missing = xrealloc(s->missing, (s->nmissing + 1) * sizeof(*s->missing));
	m = &s->missing[s->nmissing++];
	m->name = xstrdup(inc->name);
	m->where = xstrdup(ol->file->path);
	m->line = src_file_line(ol->file, inc->range.start);
	m->col = src_file_column(ol->file, inc->range.start);
	return false;
}

/* One warning for all the quoted includes found nowhere: usually the
 * toolchain's (kernel_operator.h, catlass/...), listed by name. */
static void report_missing(struct cxx_scan *s)
{
	const struct missing *m = &s->missing[0];
	char where[96], list[1024];
	size_t n = 0;

	if (s->reported || s->nmissing == 0)
		return;
	s->reported = true;
	if (s->nidirs)
		snprintf(where, sizeof(where), "next to the including file%s or in the %zu include dir%s given",
			 s->nmissing > 1 ? "s" : "", s->nidirs, s->nidirs == 1 ? "" : "s");
	else
		snprintf(where, sizeof(where), "next to the including file%s (no include dirs given)",
			 s->nmissing > 1 ? "s" : "");
	if (s->nmissing == 1) {
		diag_pos(s->diag, DIAG_WARNING, m->where, m->line, m->col, "cannot find \"%s\" %s; it is not followed",
			 m->name, where);
		return;
	}
	list[0] = '\0';
	for (size_t i = 1; i < s->nmissing && i <= 8; i++)
		n += (size_t)snprintf(list + n, n < sizeof(list) ? sizeof(list) - n : 0, "%s\"%s\"", i > 1 ? ", " : "",
				      s->missing[i].name);
	diag_pos(s->diag, DIAG_WARNING, m->where, m->line, m->col,
		 "cannot find \"%s\" and %zu more quoted #include%s %s: %s%s; they are not followed "
		 "(toolchain headers? the rules' include_dirs says where to look)",
		 m->name, s->nmissing - 1, s->nmissing > 2 ? "s" : "", where, list, s->nmissing > 9 ? ", ..." : "");
}

/* Reports that file `t` cannot be read: at the #include that named it
 * first, else by its path. */
static void unreadable(struct cxx_scan *s, size_t t, const char *why)
{
	const struct scan_file *f = &s->files[t];

	if (f->from_path)
		diag_pos(s->diag, DIAG_ERROR, f->from_path, f->from_line, f->from_col,
			 "cannot read '%s', which this #include names: %s", f->rel, why);
	else
		diag_plain(s->diag, DIAG_ERROR, "cannot read '%s'%s%s%s: %s", f->rel, f->from_name ? " (included from " : "",
			   f->from_name ? s->files[f->from].rel : "", f->from_name ? ")" : "", why);
	s->errors++;
}

/* File `t` is named by an #include of file `from` (outline `ol`): needed
 * now, located there when nothing named it before; one skipped for its
 * size is an error there. */
static void named_by(struct cxx_scan *s, size_t t, size_t from, const struct cxx_outline *ol,
		     const struct cxx_include *inc)
{
	struct scan_file *f = &s->files[t];

	f->found = false;
	if (!f->from_path) {
		f->from_path = xstrdup(ol->file->path);
		f->from_line = src_file_line(ol->file, inc->range.start);
		f->from_col = src_file_column(ol->file, inc->range.start);
		if (!f->from_name) {
			f->from = from;
			f->from_name = xstrdup(inc->name);
		}
	}
	if (f->skipped) {
		unreadable(s, t, f->skipped);
		free(f->skipped);
		f->skipped = NULL;
	}
}

/* The files a walk found and the size bound left unread, that no #include
 * needed: each a warning. */
static void report_skipped(struct cxx_scan *s)
{
	for (size_t i = 0; i < s->nfiles; i++) {
		struct scan_file *f = &s->files[i];
		char *shown;
		if (!f->skipped)
			continue;
		shown = s->shown_prefix ? path_join(s->shown_prefix, f->rel) : xstrdup(f->rel);
		diag_pos(s->skipped_diag, DIAG_WARNING, shown, 0, 0, "not scanned: %s", f->skipped);
		free(shown);
		free(f->skipped);
		f->skipped = NULL;
	}
}

static void resolve_includes(struct cxx_scan *s, size_t idx, struct cxx_outline *ol)
{
	char *dir = xstrdup(s->files[idx].canon);
	char *slash = strrchr(dir, '/');

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	for (size_t i = 0; i < ol->nincludes; i++) {
		struct cxx_include *inc = &ol->includes[i];
		char *found = NULL;
		if (!inc->active || !inc->name[0])
			continue;
		if (!inc->system)
			found = try_path(dir, inc->name);
		for (size_t d = 0; !found && d < s->nidirs; d++)
			found = try_path(s->idirs[d], inc->name);
		if (!found) {
			inc->status = inc->system ? CXX_INC_SYSTEM : CXX_INC_MISSING;
			if (!inc->system && !seen_missing(s, ol, inc))
				ol->warnings++;
			continue;
		}
		{
			char *rel = rel_path(s->root, found);
			inc->resolved = cxx_outline_strdup(ol, rel, strlen(rel));
			free(rel);
		}
		if (under_root(s, found)) {
			size_t t = queue_file(s, found, idx, inc->name);
			struct scan_file *f = &s->files[idx];
			inc->status = CXX_INC_FOLLOWED;
			XGROW(f->incs, f->incs_cap, f->nincs + 1);
			f->incs[f->nincs++] = t;
			named_by(s, t, idx, ol, inc);
		} else {
			inc->status = CXX_INC_OUTSIDE;
		}
		free(found);
	}
	free(dir);
}

struct cxx_unit *cxx_scan_next(struct cxx_scan *s)
{
	while (s->next < s->nfiles) {
		size_t idx = s->next++;
		struct scan_file *f = &s->files[idx];
		struct src_file *file = src_file_load(f->canon);
		struct cxx_unit *u;

		if (!file) {
			int err = errno;
			/* a file only a walk found, too big to read: a warning at the
			   end, unless an #include needs it by then */
			if (err == EFBIG && f->found)
				f->skipped = xstrdup(src_file_strerror(err));
			else
				unreadable(s, idx, src_file_strerror(err));
			continue;
		}
		/* diagnostics name the file as printed, or as it opens from here */
		free(file->path);
		file->path = s->shown_prefix ? path_join(s->shown_prefix, f->rel) : xstrdup(f->rel);
		u = xcalloc(1, sizeof(*u));
		u->index = idx;
		u->path = xstrdup(f->rel);
		u->file = file;
		u->outline = cxx_outline_build(file, s->macros, s->diag);
		resolve_includes(s, idx, u->outline);
		f = &s->files[idx];
		for (size_t k = 0; k < u->outline->nfuncs; k++) {
			const struct cxx_func *fn = &u->outline->funcs[k];
			if (!fn->kernel || fn->def != CXX_DEF_BODY)
				continue;
			f->kernels = xrealloc(f->kernels, (f->nkernels + 1) * sizeof(*f->kernels));
			f->kernels[f->nkernels++] = xstrdup(fn->qualified_name);
		}
		return u;
	}
	report_skipped(s);
	report_missing(s);
	return NULL;
}

void cxx_unit_free(struct cxx_unit *u)
{
	if (!u)
		return;
	cxx_outline_free(u->outline);
	src_file_free(u->file);
	free(u->path);
	free(u);
}

unsigned cxx_scan_errors(const struct cxx_scan *s)
{
	return s->errors;
}

size_t cxx_scan_nfiles(const struct cxx_scan *s)
{
	return s->nfiles;
}

const char *cxx_scan_path(const struct cxx_scan *s, size_t i)
{
	return i < s->nfiles ? s->files[i].rel : NULL;
}

size_t cxx_scan_nkernels(const struct cxx_scan *s, size_t i)
{
	return i < s->nfiles ? s->files[i].nkernels : 0;
}

const char *cxx_scan_kernel(const struct cxx_scan *s, size_t i, size_t k)
{
	return i < s->nfiles && k < s->files[i].nkernels ? s->files[i].kernels[k] : NULL;
}

size_t cxx_scan_closure(const struct cxx_scan *s, size_t i, size_t **out)
{
	size_t *list = xmalloc((s->nfiles + 1) * sizeof(*list));
	bool *seen = xcalloc(s->nfiles + 1, sizeof(*seen));
	size_t n = 0, head = 0;

	list[n++] = i;
	seen[i] = true;
	while (head < n) {
		const struct scan_file *f = &s->files[list[head++]];
		for (size_t k = 0; k < f->nincs; k++) {
			if (!seen[f->incs[k]]) {
				seen[f->incs[k]] = true;
				list[n++] = f->incs[k];
			}
		}
	}
	free(seen);
	*out = list;
	return n;
}

/* Sets up[i] for the files from[] names and those that include them,
 * transitively: a walk back along the include edges. */
static void mark_includers(const struct cxx_scan *s, const bool *from, bool *up)
{
	size_t *first = xcalloc(s->nfiles + 2, sizeof(*first)), *by, *stack, n = 0, edges = 0;

	for (size_t i = 0; i < s->nfiles; i++)
		for (size_t k = 0; k < s->files[i].nincs; k++)
			first[s->files[i].incs[k] + 1]++, edges++;
	for (size_t i = 0; i < s->nfiles; i++)
		first[i + 1] += first[i];
	by = xmalloc((edges + 1) * sizeof(*by));
	{
		size_t *fill = xcalloc(s->nfiles + 1, sizeof(*fill));
		for (size_t i = 0; i < s->nfiles; i++)
			for (size_t k = 0; k < s->files[i].nincs; k++) {
				size_t t = s->files[i].incs[k];
				by[first[t] + fill[t]++] = i;
			}
		free(fill);
	}
	stack = xmalloc((s->nfiles + 1) * sizeof(*stack));
	for (size_t i = 0; i < s->nfiles; i++)
		if (from[i] && !up[i]) {
			up[i] = true;
			stack[n++] = i;
		}
	while (n > 0) {
		size_t t = stack[--n];
		for (size_t k = first[t]; k < first[t + 1]; k++)
			if (!up[by[k]]) {
				up[by[k]] = true;
				stack[n++] = by[k];
			}
	}
	free(stack);
	free(by);
	free(first);
}

size_t cxx_scan_reach(const struct cxx_scan *s, const bool *from, bool includers, bool *reached)
{
	size_t *stack = xmalloc((s->nfiles + 1) * sizeof(*stack)), n = 0, count = 0;
	bool *up = NULL;

	if (includers) {
		up = xcalloc(s->nfiles + 1, sizeof(*up));
		mark_includers(s, from, up);
		from = up;
	}
	for (size_t i = 0; i < s->nfiles; i++)
		if (from[i] && !reached[i]) {
			reached[i] = true;
			stack[n++] = i;
		}
	while (n > 0) {
		const struct scan_file *f = &s->files[stack[--n]];
		count++;
		for (size_t k = 0; k < f->nincs; k++)
			if (!reached[f->incs[k]]) {
				reached[f->incs[k]] = true;
				stack[n++] = f->incs[k];
			}
	}
	free(up);
	free(stack);
	return count;
}

size_t cxx_scan_includes(const struct cxx_scan *s, size_t i, const size_t **out)
{
	*out = s->files[i].incs;
	return s->files[i].nincs;
}

size_t cxx_scan_index(const struct cxx_scan *s, const char *path)
{
	char *c = canon_path(path);
	size_t i = c ? set_find(s, c) : SIZE_MAX;

	free(c);
	return i;
}

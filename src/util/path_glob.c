/* Sorted directory walks, with the one policy every walk of a tree follows
 * (symbolic links, cycles: path_glob.h), and glob matching with `**`. */
#include "path_glob.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "xalloc.h"

bool path_glob_match(const char *pat, const char *path)
{
	if (pat[0] == '*' && pat[1] == '*') {
		const char *rest = pat + 2;
		if (*rest == '/')
			rest++;
		/* `**` matches zero or more whole segments */
		for (const char *p = path;;) {
			if (path_glob_match(rest, p))
				return true;
			p = strchr(p, '/');
			if (!p)
				return false;
			p++;
		}
	}
	while (*pat) {
		if (*pat == '*') {
			if (pat[1] == '*')
				return path_glob_match(pat, path);
			pat++;
			for (const char *p = path;; p++) {
				if (path_glob_match(pat, p))
					return true;
				if (*p == '\0' || *p == '/')
					return false;
			}
		}
		if (*path == '\0')
			return false;
		if (*pat == '?') {
			if (*path == '/')
				return false;
		} else if (*pat != *path) {
			return false;
		}
		pat++;
		path++;
	}
	return *path == '\0';
}

char *path_join(const char *dir, const char *name)
{
	size_t n;
	char *s;

	if (!dir || !*dir || strcmp(dir, ".") == 0)
		return xstrdup(name);
	n = strlen(dir) + strlen(name) + 2;
	s = xmalloc(n);
	snprintf(s, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
	return s;
}

struct walk {
	char **v;
	size_t n, cap;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names with their type letter in front: sorted by the names alone. */
static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a + 1, *(char *const *)b + 1);
}

struct visit {
	const char *root, *bound;     /* bound: the tree links may lead into, as given */
	char *real_bound;             /* its realpath */
	unsigned flags;
	path_visit_fn fn;
	void *ctx;
	struct diag *diag;
	struct { dev_t dev; ino_t ino; } way[PATH_WALK_DEPTH + 2]; /* the directories on the way down */
	int depth;
	int ret;
};

/* Warned about already (a link seen by several walks of one run says so once). */
static bool warned_once(const char *path)
{
	static char **seen;
	static size_t n;

	for (size_t i = 0; i < n; i++)
		if (strcmp(seen[i], path) == 0)
			return true;
	seen = xrealloc(seen, (n + 1) * sizeof(*seen));
	seen[n++] = xstrdup(path);
	return false;
}

static bool on_the_way(const struct visit *v, const struct stat *st)
{
	for (int i = 0; i <= v->depth; i++)
		if (v->way[i].dev == st->st_dev && v->way[i].ino == st->st_ino)
			return true;
	return false;
}

static bool within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strcmp(dir, "/") == 0 || (strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0'));
}

/* A symbolic link met on the walk (`full`, the path as walked): refused when
 * it leads out of the tree, else not followed (see path_glob.h). */
static void visit_link(struct visit *v, const char *full)
{
	char *real = realpath(full, NULL), *here;
	const char *slash = strrchr(full, '/');
	struct stat st;

	if (!real)
		return; /* dangling, or a loop of links: it names nothing to read */
	if (!within(real, v->real_bound)) {
		diag_pos(v->diag, DIAG_ERROR, full, 0, 0,
			 "a symbolic link to %s, outside %s: refused (links are followed only within the tree a "
			 "command works on)", real, v->bound);
		v->ret = -1;
		free(real);
		return;
	}
	/* the directory holding the link lies in the one it points to */
	here = slash ? xstrndup(full, (size_t)(slash - full)) : xstrdup(".");
	{
		char *real_here = realpath(here, NULL);
		if (real_here && stat(real, &st) == 0 && S_ISDIR(st.st_mode) && within(real_here, real) &&
		    !warned_once(full))
			diag_pos(v->diag, DIAG_WARNING, full, 0, 0,
				 "a symbolic link to %s, a directory it lies in: a cycle, not followed", real);
		free(real_here);
	}
	free(here);
	free(real);
}

static void visit_dir(struct visit *v, const char *rel)
{
	char *dir = rel[0] ? path_join(v->root, rel) : xstrdup(v->root);
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	char **names = NULL;
	size_t nn = 0, cap = 0;

	if (!d || fstat(dirfd(d), &st) != 0) {
		if (v->depth == 0 || (v->flags & PATH_WALK_STRICT)) {
			diag_pos(v->diag, DIAG_ERROR, dir, 0, 0, "cannot read directory: %s", strerror(errno));
			v->ret = -1;
		}
		if (d)
			closedir(d);
		free(dir);
		return;
	}
	if (on_the_way(v, &st)) {
		/* a directory inside itself (a bind mount of a directory above) */
		if (!warned_once(dir))
			diag_pos(v->diag, DIAG_WARNING, dir, 0, 0, "the same directory as one it lies in (a bind mount?): a "
				 "cycle, not entered");
		closedir(d);
		free(dir);
		return;
	}
	v->way[v->depth].dev = st.st_dev;
	v->way[v->depth].ino = st.st_ino;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		XGROW(names, cap, nn + 1);
		/* the entry's type rides in front of its name: no lstat(2) for the
		 * file systems that fill d_type (all the usual ones) */
		names[nn] = xmalloc(strlen(e->d_name) + 2);
		names[nn][0] = e->d_type == DT_REG   ? 'f'
			       : e->d_type == DT_DIR ? 'd'
			       : e->d_type == DT_LNK ? 'l'
			       : e->d_type == DT_UNKNOWN ? '?'
							 : 'o';
		strcpy(names[nn] + 1, e->d_name);
		nn++;
	}
	closedir(d);
	xqsort(names, nn, sizeof(*names), cmp_name);
	for (size_t i = 0; i < nn; i++) {
		char *r = rel[0] ? path_join(rel, names[i] + 1) : xstrdup(names[i] + 1);
		char *full = path_join(v->root, r);
		char type = names[i][0];
		if (type == '?') {
			type = lstat(full, &st) != 0 ? 'o'
			       : S_ISDIR(st.st_mode) ? 'd'
			       : S_ISREG(st.st_mode) ? 'f'
			       : S_ISLNK(st.st_mode) ? 'l'
						     : 'o';
		}
		if (type == 'd' && v->depth < PATH_WALK_DEPTH && v->ret == 0) {
			v->depth++;
			visit_dir(v, r);
			v->depth--;
		} else if (type == 'f' && v->ret == 0) {
			if (v->fn(v->ctx, r, full) != 0)
				v->ret = -1;
		} else if (type == 'l') {
			visit_link(v, full);
		}
		/* devices, FIFOs, sockets: not walked */
		free(full);
		free(r);
		free(names[i]);
	}
	free(names);
	free(dir);
}

int path_visit(const char *root, const char *bound, unsigned flags, path_visit_fn fn, void *ctx, struct diag *diag)
{
	struct visit v;
	char *real_root;

	memset(&v, 0, sizeof(v));
	v.root = root;
	v.bound = bound ? bound : root;
	v.flags = flags;
	v.fn = fn;
	v.ctx = ctx;
	v.diag = diag;
	real_root = realpath(root, NULL);
	v.real_bound = realpath(v.bound, NULL);
	if (!real_root || !v.real_bound) {
		diag_pos(diag, DIAG_ERROR, real_root ? v.bound : root, 0, 0, "cannot read directory: %s", strerror(errno));
		free(real_root);
		free(v.real_bound);
		return -1;
	}
	if (!within(real_root, v.real_bound)) {
		/* the directory walked is itself a link out of the tree */
		diag_pos(diag, DIAG_ERROR, root, 0, 0,
			 "leads to %s, outside %s: refused (links are followed only within the tree a command works on)",
			 real_root, v.bound);
		free(real_root);
		free(v.real_bound);
		return -1;
	}
	visit_dir(&v, "");
	free(real_root);
	free(v.real_bound);
	return v.ret;
}

static int collect(void *ctx, const char *rel, const char *path)
{
	struct walk *w = ctx;

	(void)path;
	XGROW(w->v, w->cap, w->n + 1);
	w->v[w->n++] = xstrdup(rel);
	return 0;
}

int path_walk_within(const char *root, const char *bound, char ***out, size_t *n, struct diag *diag)
{
	struct walk w = { NULL, 0, 0 };
	int ret = path_visit(root, bound, 0, collect, &w, diag);

	if (ret != 0) {
		/* a failed walk gives nothing: the caller frees no list */
		path_glob_free(w.v, w.n);
		*out = NULL;
		*n = 0;
		return ret;
	}
	/* per-directory sorting gives "a/b" before "a.h"; sort the whole list bytewise */
	xqsort(w.v, w.n, sizeof(*w.v), cmp_str);
	*out = w.v;
	*n = w.n;
	return ret;
}

int path_walk(const char *root, char ***out, size_t *n, struct diag *diag)
{
	return path_walk_within(root, NULL, out, n, diag);
}

int path_glob(const char *root, char *const *globs, size_t nglobs, char ***out, size_t *n, struct diag *diag)
{
	char **all;
	size_t nall, k = 0;

	if (path_walk(root, &all, &nall, diag) != 0) {
		*out = NULL;
		*n = 0;
		return -1;
	}
	for (size_t i = 0; i < nall; i++) {
		bool keep = false;
		for (size_t g = 0; g < nglobs && !keep; g++)
			keep = path_glob_match(globs[g], all[i]);
		if (keep)
			all[k++] = all[i];
		else
			free(all[i]);
	}
	*out = all;
	*n = k;
	return 0;
}

void path_glob_free(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

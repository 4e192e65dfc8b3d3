/* Sorted directory walks and glob matching with `**`. */
#include "path_glob.h"

#include <dirent.h>
#include <errno.h>
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

static int walk_dir(const char *root, const char *rel, struct walk *w, int depth, struct diag *diag)
{
	char *dir = rel[0] ? path_join(root, rel) : xstrdup(root);
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t nn = 0, cap = 0;
	int ret = 0;

	if (!d) {
		if (depth == 0) {
			diag_pos(diag, DIAG_ERROR, root, 0, 0, "cannot read directory: %s", strerror(errno));
			ret = -1;
		}
		free(dir);
		return ret;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		XGROW(names, cap, nn + 1);
		/* the entry's type rides in front of its name: no lstat(2) for the
		 * file systems that fill d_type (all the usual ones) */
		names[nn] = xmalloc(strlen(e->d_name) + 2);
		names[nn][0] = e->d_type == DT_REG ? 'f' : e->d_type == DT_DIR ? 'd' : e->d_type == DT_UNKNOWN ? '?' : 'o';
		strcpy(names[nn] + 1, e->d_name);
		nn++;
	}
	closedir(d);
	xqsort(names, nn, sizeof(*names), cmp_name);
	for (size_t i = 0; i < nn; i++) {
		char *r = rel[0] ? path_join(rel, names[i] + 1) : xstrdup(names[i] + 1);
		char type = names[i][0];
		if (type == '?') {
			char *full = path_join(root, r);
			struct stat st;
			type = lstat(full, &st) != 0 ? 'o' : S_ISDIR(st.st_mode) ? 'd' : S_ISREG(st.st_mode) ? 'f' : 'o';
			free(full);
		}
		if (type == 'd') {
			if (depth < 64)
				walk_dir(root, r, w, depth + 1, diag);
			free(r);
		} else if (type == 'f') {
			XGROW(w->v, w->cap, w->n + 1);
			w->v[w->n++] = r;
		} else {
			free(r); /* symbolic links, devices, FIFOs: not walked */
		}
		free(names[i]);
	}
	free(names);
	free(dir);
	return ret;
}

int path_walk(const char *root, char ***out, size_t *n, struct diag *diag)
{
	struct walk w = { NULL, 0, 0 };
	int ret = walk_dir(root, "", &w, 0, diag);

	/* per-directory sorting gives "a/b" before "a.h"; sort the whole list bytewise */
	xqsort(w.v, w.n, sizeof(*w.v), cmp_str);
	*out = w.v;
	*n = w.n;
	return ret;
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

/* Relative and display forms of paths. */
#include "path_rel.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "path_glob.h"
#include "xalloc.h"

/* The components of `path` ("a", "..", "b"), "." and empty ones dropped. */
static size_t split(const char *path, const char ***comp, size_t **len)
{
	size_t n = 0, cap = 8;

	*comp = xmalloc(cap * sizeof(**comp));
	*len = xmalloc(cap * sizeof(**len));
	for (const char *s = path; *s;) {
		size_t k = strcspn(s, "/");
		if (k && !(k == 1 && s[0] == '.')) {
			if (n == cap) {
				cap *= 2;
				*comp = xrealloc(*comp, cap * sizeof(**comp));
				*len = xrealloc(*len, cap * sizeof(**len));
			}
			(*comp)[n] = s;
			(*len)[n++] = k;
		}
		s += k;
		while (*s == '/')
			s++;
	}
	return n;
}

static bool is_dotdot(const char *c, size_t k)
{
	return k == 2 && c[0] == '.' && c[1] == '.';
}

char *path_normalize(const char *path)
{
	const char **comp;
	size_t *len, n = split(path, &comp, &len), keep = 0, total = 2;
	bool abs = path[0] == '/';
	char *out;

	/* resolve "x/.." pairs in place; leading ".." stay (or vanish above "/") */
	for (size_t i = 0; i < n; i++) {
		if (is_dotdot(comp[i], len[i])) {
			if (keep > 0 && !is_dotdot(comp[keep - 1], len[keep - 1])) {
				keep--;
				continue;
			}
			if (abs)
				continue;
		}
		comp[keep] = comp[i];
		len[keep++] = len[i];
	}
	for (size_t i = 0; i < keep; i++)
		total += len[i] + 1;
	out = xmalloc(total);
	out[0] = '\0';
	if (abs)
		strcat(out, "/");
	for (size_t i = 0; i < keep; i++) {
		if (i)
			strcat(out, "/");
		strncat(out, comp[i], len[i]);
	}
	if (!out[0])
		strcpy(out, ".");
	free(comp);
	free(len);
	return out;
}

char *path_absolute(const char *path)
{
	char buf[PATH_MAX];

	if (!realpath(path, buf))
		return NULL;
	return xstrdup(buf);
}

bool path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

char *path_upwards_holding(const char *abs_dir, const char *name)
{
	char *d = xstrdup(abs_dir);

	for (;;) {
		char *probe = path_join(d, name), *slash;
		struct stat st;
		bool yes = stat(probe, &st) == 0;

		free(probe);
		if (yes)
			return d;
		slash = strrchr(d, '/');
		if (!slash || (slash == d && d[1] == '\0'))
			break;
		if (slash == d)
			d[1] = '\0';
		else
			*slash = '\0';
	}
	free(d);
	return NULL;
}

char *path_relative(const char *from, const char *to)
{
	const char **fc, **tc;
	size_t *fl, *tl, nf = split(from, &fc, &fl), nt = split(to, &tc, &tl), c = 0, cap = 2;
	char *out;

	while (c < nf && c < nt && fl[c] == tl[c] && memcmp(fc[c], tc[c], fl[c]) == 0)
		c++;
	cap += (nf - c) * 3;
	for (size_t i = c; i < nt; i++)
		cap += tl[i] + 1;
	out = xmalloc(cap);
	out[0] = '\0';
	for (size_t i = c; i < nf; i++)
		strcat(out, i + 1 < nf || c < nt ? "../" : "..");
	for (size_t i = c; i < nt; i++) {
		strncat(out, tc[i], tl[i]);
		if (i + 1 < nt)
			strcat(out, "/");
	}
	if (!out[0])
		strcpy(out, ".");
	free(fc);
	free(fl);
	free(tc);
	free(tl);
	return out;
}

char *path_display_from(const char *cwd, const char *abs)
{
	if (path_within(abs, cwd) || path_within(cwd, abs))
		return path_relative(cwd, abs);
	return xstrdup(abs);
}

char *path_display(const char *abs)
{
	char cwd[PATH_MAX];

	if (!getcwd(cwd, sizeof(cwd)))
		return xstrdup(abs);
	return path_display_from(cwd, abs);
}

int path_mkdirs(const char *path, char **failed)
{
	char *s = xstrdup(path);

	if (failed)
		*failed = NULL;
	for (char *q = s + 1;; q++) {
		if (*q == '/' || *q == '\0') {
			char c = *q;
			*q = '\0';
			if (mkdir(s, 0777) != 0 && errno != EEXIST) {
				if (failed)
					*failed = xstrdup(s);
				free(s);
				return -1;
			}
			*q = c;
			if (!c)
				break;
		}
	}
	free(s);
	return 0;
}

void path_remove_tree(const char *path)
{
	struct stat st;
	DIR *d = lstat(path, &st) == 0 && S_ISDIR(st.st_mode) ? opendir(path) : NULL;
	struct dirent *e;

	if (!d) {
		unlink(path);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		char *p;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		p = path_join(path, e->d_name);
		path_remove_tree(p);
		free(p);
	}
	closedir(d);
	rmdir(path);
}

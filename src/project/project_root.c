/* Finding the project root of an operator directory, and its build script. */
#include "project_root.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "path_glob.h"
#include "path_rel.h"
#include "src_file.h"
#include "xalloc.h"

static char *forced_root;
static enum project_root_how forced_how;

void project_root_force(const char *abs, enum project_root_how how)
{
	free(forced_root);
	forced_root = abs ? xstrdup(abs) : NULL;
	forced_how = how;
}

const char *project_root_how_text(enum project_root_how how)
{
	switch (how) {
	case PROJECT_ROOT_RULES:
		return "the rules' project setting";
	case PROJECT_ROOT_GIT:
		return "the git top level";
	case PROJECT_ROOT_BUILD_SCRIPT:
		return "the nearest directory holding a build script";
	case PROJECT_ROOT_OPDIR:
		break;
	}
	return "the operator directory: nothing above it marks a project";
}

static bool exists(const char *dir, const char *name, bool want_dir)
{
	char *p = path_join(dir, name);
	struct stat st;
	bool yes = stat(p, &st) == 0 && (want_dir ? S_ISDIR(st.st_mode) : true);

	free(p);
	return yes;
}

/* The parent of an absolute directory (newly allocated; "/" stays "/"). */
static char *parent_of(const char *abs)
{
	char *s = xstrdup(abs), *slash = strrchr(s, '/');

	if (slash && slash != s)
		*slash = '\0';
	else
		strcpy(s, "/");
	return s;
}

/* The last segment of a glob when it holds no wildcard ("build_aclnn.sh"). */
static const char *plain_basename(const char *glob)
{
	const char *b = strrchr(glob, '/');

	b = b ? b + 1 : glob;
	return strpbrk(b, "*?[") ? NULL : b;
}

/* The first directory from `start` upwards for which `has` holds, or NULL. */
static char *upwards(const char *start, bool (*has)(const char *dir, const struct rule_policy *p),
		     const struct rule_policy *p)
{
	char *d = xstrdup(start);

	for (;;) {
		char *up;
		if (has(d, p))
			return d;
		if (strcmp(d, "/") == 0)
			break;
		up = parent_of(d);
		free(d);
		d = up;
	}
	free(d);
	return NULL;
}

static bool has_git(const char *dir, const struct rule_policy *p)
{
	(void)p;
	return exists(dir, ".git", false);
}

static bool has_build_script(const char *dir, const struct rule_policy *p)
{
	for (size_t i = 0; i < p->build.n; i++) {
		const char *b = plain_basename(p->build.v[i]);
		if (b && exists(dir, b, false))
			return true;
	}
	return false;
}

int project_root_find(const char *opdir, const struct rule_policy *p, struct project_root *out, struct diag *diag)
{
	memset(out, 0, sizeof(*out));
	out->opdir_abs = path_absolute(opdir);
	if (!out->opdir_abs) {
		diag_plain(diag, DIAG_ERROR, "%s is not a directory", opdir);
		return -1;
	}
	if (forced_root && path_within(out->opdir_abs, forced_root)) {
		out->abs = xstrdup(forced_root);
		out->how = forced_how;
	} else if (p->project.value) {
		char *dir = path_join(opdir, p->project.value);
		struct stat st;
		out->abs = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? path_absolute(dir) : NULL;
		if (!out->abs) {
			diag_at(diag, DIAG_ERROR, p->project.loc, "the project root %s is not a directory", dir);
			free(dir);
			return -1;
		}
		free(dir);
		if (!path_within(out->opdir_abs, out->abs)) {
			diag_at(diag, DIAG_ERROR, p->project.loc,
				"the project root %s does not hold the operator directory %s", out->abs, opdir);
			return -1;
		}
		out->how = PROJECT_ROOT_RULES;
	} else if ((out->abs = upwards(out->opdir_abs, has_git, p)) != NULL) {
		out->how = PROJECT_ROOT_GIT;
	} else if ((out->abs = upwards(out->opdir_abs, has_build_script, p)) != NULL) {
		out->how = PROJECT_ROOT_BUILD_SCRIPT;
	} else {
		out->abs = xstrdup(out->opdir_abs);
		out->how = PROJECT_ROOT_OPDIR;
	}
	out->path = path_display(out->abs);
	out->opdir_rel = path_relative(out->abs, out->opdir_abs);
	return 0;
}

void project_root_release(struct project_root *r)
{
	free(r->path);
	free(r->abs);
	free(r->opdir_abs);
	free(r->opdir_rel);
	memset(r, 0, sizeof(*r));
}

/* Components of `dir` (relative to the root, "." for the root) that lead to
 * the operator directory; -1 when `dir` is not on that way. */
static long nearness(const char *dir, const char *opdir_rel)
{
	long k = 0;

	if (strcmp(dir, ".") == 0)
		return 0;
	if (strcmp(opdir_rel, ".") == 0 || !(strncmp(opdir_rel, dir, strlen(dir)) == 0 &&
					     (opdir_rel[strlen(dir)] == '/' || opdir_rel[strlen(dir)] == '\0')))
		return -1;
	for (const char *s = dir; *s; s++)
		k += *s == '/';
	return k + 1;
}

/* True when the script's text names the operator directory's last segment. */
static bool names_operator(const char *path, const char *opdir_abs)
{
	const char *base = strrchr(opdir_abs, '/');
	struct src_file *f = src_file_load(path);
	bool yes = false;

	base = base ? base + 1 : opdir_abs;
	if (f && *base) {
		size_t n = strlen(base);
		for (size_t i = 0; i + n <= f->len && !yes; i++)
			yes = memcmp(f->data + i, base, n) == 0;
	}
	src_file_free(f);
	return yes;
}

int project_build_script(const struct project_root *r, const struct rule_strlist *globs, char **out,
			 struct diag *diag)
{
	char **found = NULL;
	size_t n = 0, nbest = 0;
	long best = -2;
	bool best_names = false;
	size_t *cand;
	int ret = -1;

	*out = NULL;
	if (path_glob(r->path, globs->v, globs->n, &found, &n, diag) != 0)
		return -1;
	cand = xmalloc((n ? n : 1) * sizeof(*cand));
	for (size_t i = 0; i < n; i++) {
		char *dir = xstrdup(found[i]), *slash = strrchr(dir, '/'), *full;
		long near;
		bool names;
		if (slash)
			*slash = '\0';
		else
			strcpy(dir, ".");
		near = nearness(dir, r->opdir_rel);
		free(dir);
		full = path_join(r->path, found[i]);
		names = near >= 0 && names_operator(full, r->opdir_abs);
		free(full);
		if (near > best || (near == best && names && !best_names)) {
			best = near;
			best_names = names;
			nbest = 0;
		} else if (near < best || (names != best_names)) {
			continue;
		}
		cand[nbest++] = i;
	}
	if (n == 0) {
		char pats[512] = "";
		for (size_t i = 0; i < globs->n && strlen(pats) + strlen(globs->v[i]) + 4 < sizeof(pats); i++)
			snprintf(pats + strlen(pats), sizeof(pats) - strlen(pats), "%s%s", i ? ", " : "", globs->v[i]);
		diag_plain(diag, DIAG_ERROR, "no build script matches the rules' 'build' patterns (%s) under the project root %s (%s)",
			   pats, r->path, project_root_how_text(r->how));
	} else if (best < 0 && n > 1) {
		diag_plain(diag, DIAG_ERROR,
			   "%zu build scripts match the rules' 'build' patterns (%s, %s%s), none on the way from the operator "
			   "directory to the project root %s; use --script FILE or narrow the patterns",
			   n, found[0], found[1], n > 2 ? ", ..." : "", r->path);
	} else if (nbest > 1) {
		diag_plain(diag, DIAG_ERROR,
			   "%zu build scripts are equally near the operator directory (%s, %s%s); use --script FILE or "
			   "narrow the rules' 'build' patterns",
			   nbest, found[cand[0]], found[cand[1]], nbest > 2 ? ", ..." : "");
	} else {
		*out = path_join(r->path, found[cand[0]]);
		ret = 0;
	}
	free(cand);
	path_glob_free(found, n);
	return ret;
}

/* Finding the project root of an operator directory, and its build script. */
#include "project_root.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "path_glob.h"
#include "path_rel.h"
#include "sh_scan.h"
#include "src_file.h"
#include "xalloc.h"

static char *forced_root;
static enum project_root_how forced_how;
static char *named_root; /* --project DIR, as given */

void project_root_name(const char *dir)
{
	free(named_root);
	named_root = dir ? xstrdup(dir) : NULL;
}

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
		return "the operator directory, holding a build script; no git checkout holds it";
	case PROJECT_ROOT_NAMED:
		return "named by --project";
	case PROJECT_ROOT_OPDIR:
		break;
	}
	return "the operator directory: no git checkout holds it";
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

static bool has_build_script(const char *dir, const struct rule_strlist *globs)
{
	for (size_t i = 0; i < globs->n; i++) {
		const char *b = plain_basename(globs->v[i]);
		if (b && exists(dir, b, false))
			return true;
	}
	return false;
}

/* The nearest directory strictly above `abs` holding a build script the
 * rules name, or NULL: what a tree outside git would have climbed to. */
static char *script_above(const char *abs, const struct rule_strlist *globs)
{
	char *d = xstrdup(abs);

	while (strcmp(d, "/") != 0) {
		char *up = parent_of(d);
		free(d);
		d = up;
		if (has_build_script(d, globs))
			return d;
	}
	free(d);
	return NULL;
}

char *project_root_bound(const char *abs)
{
	char *named_abs = named_root ? path_absolute(named_root) : NULL;

	if (named_abs && path_within(abs, named_abs))
		return named_abs;
	free(named_abs);
	return path_upwards_holding(abs, ".git");
}

/* The root --project names: it must be a directory holding the operator
 * directory, and not "/". */
static int named(struct project_root *out, const char *opdir, struct diag *diag)
{
	struct stat st;

	out->abs = stat(named_root, &st) == 0 && S_ISDIR(st.st_mode) ? path_absolute(named_root) : NULL;
	if (!out->abs) {
		diag_plain(diag, DIAG_ERROR, "--project %s: not a directory", named_root);
		return -1;
	}
	if (!path_within(out->opdir_abs, out->abs)) {
		diag_plain(diag, DIAG_ERROR, "--project %s does not hold the operator directory %s", named_root, opdir);
		return -1;
	}
	out->how = PROJECT_ROOT_NAMED;
	return 0;
}

/* The rules' `project "DIR";`: a directory holding the operator directory,
 * within `bound` (the git top level, else the operator directory): a rules
 * file of the tree names a part of the tree, never more. */
static int from_rules(struct project_root *out, const char *opdir, const char *bound, bool git,
		      const struct rule_policy *p, struct diag *diag)
{
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
	if (!path_within(out->abs, bound)) {
		diag_at(diag, DIAG_ERROR, p->project.loc,
			"the project root %s lies outside %s %s: a rules file cannot widen the tree autotrace "
			"edits; name a wider root on the command line: autotrace --project DIR ...",
			out->abs, git ? "the git checkout" : "the operator directory", bound);
		return -1;
	}
	out->how = PROJECT_ROOT_RULES;
	return 0;
}

int project_root_find(const char *opdir, const struct rule_policy *p, struct project_root *out, struct diag *diag)
{
	char *git;

	memset(out, 0, sizeof(*out));
	out->opdir_abs = path_absolute(opdir);
	if (!out->opdir_abs) {
		diag_plain(diag, DIAG_ERROR, "%s is not a directory", opdir);
		return -1;
	}
	git = path_upwards_holding(out->opdir_abs, ".git");
	if (forced_root && path_within(out->opdir_abs, forced_root)) {
		out->abs = xstrdup(forced_root);
		out->how = forced_how;
	} else if (named_root) {
		if (named(out, opdir, diag) != 0)
			goto fail;
	} else if (p->project.value) {
		if (from_rules(out, opdir, git ? git : out->opdir_abs, git != NULL, p, diag) != 0)
			goto fail;
	} else if (git) {
		out->abs = git;
		git = NULL;
		out->how = PROJECT_ROOT_GIT;
	} else {
		out->abs = xstrdup(out->opdir_abs);
		out->how = has_build_script(out->abs, &p->build) ? PROJECT_ROOT_BUILD_SCRIPT : PROJECT_ROOT_OPDIR;
	}
	if (strcmp(out->abs, "/") == 0) {
		/* a git checkout at / (or a rules file saying so): never the tree to edit */
		if (p->project.value && out->how == PROJECT_ROOT_RULES)
			diag_at(diag, DIAG_ERROR, p->project.loc, "the project root would be /: refused");
		else
			diag_plain(diag, DIAG_ERROR, "the project root of %s would be /: refused; name one with --project DIR",
				   opdir);
		goto fail;
	}
	free(git);
	out->path = path_display(out->abs);
	out->opdir_rel = path_relative(out->abs, out->opdir_abs);
	return 0;
fail:
	free(git);
	project_root_release(out);
	return -1;
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

/* True when a word (quotes aside) names the file `base` as a path: "build.sh",
 * "./build.sh", "csrc/build.sh", "\"${ROOT}/build.sh\"". */
static bool word_names(const char *data, const struct sh_word *w, const char *base)
{
	size_t bl = strlen(base), n = 0;
	char buf[512];

	for (uint32_t i = w->start; i < w->end && n + 1 < sizeof(buf); i++)
		if (data[i] != '"' && data[i] != '\'')
			buf[n++] = data[i];
	buf[n] = '\0';
	return n >= bl && strcmp(buf + n - bl, base) == 0 && (n == bl || buf[n - bl - 1] == '/');
}

/* True when the script text runs a script named `base`: as its command
 * (`./build.sh`), or through an interpreter (`bash build.sh`, `sh -e x/build.sh`,
 * `source build.sh`). */
static bool runs_script(const struct src_file *f, const char *base)
{
	static const char *const shells[] = { "bash", "sh", "source", ".", "exec", "dash", "zsh" };
	struct sh_script sh;
	bool yes = false;

	sh_scan(f->data, f->len, &sh);
	for (size_t k = 0; k < sh.ncmds && !yes; k++) {
		const struct sh_cmd *c = &sh.cmds[k];
		long w = sh_cmd_word(&sh, c);
		bool shell = false;
		if (w < 0 || c->defines >= 0)
			continue;
		if (word_names(f->data, &c->words[w], base)) {
			yes = true;
			break;
		}
		for (size_t i = 0; i < sizeof(shells) / sizeof(shells[0]) && !shell; i++)
			shell = c->words[w].end - c->words[w].start == strlen(shells[i]) &&
				memcmp(f->data + c->words[w].start, shells[i], strlen(shells[i])) == 0;
		for (size_t a = (size_t)w + 1; shell && a < c->nwords; a++) {
			if (f->data[c->words[a].start] == '-')
				continue; /* an option of the shell */
			yes = word_names(f->data, &c->words[a], base);
			break;
		}
	}
	sh_script_release(&sh);
	return yes;
}

/* Among scripts equally near, those another of them runs (build_aclnn.sh
 * runs `bash build.sh`: the build is the outer script's) are not the build
 * script; keeps the others in cand, returns how many. */
static size_t drop_inner(const struct project_root *r, char *const *found, size_t *cand, size_t n)
{
	bool *inner = xcalloc(n, sizeof(*inner));
	size_t k = 0;

	for (size_t a = 0; a < n; a++) {
		char *path = path_join(r->path, found[cand[a]]);
		struct src_file *f = src_file_load(path);
		for (size_t b = 0; f && b < n; b++) {
			const char *base = strrchr(found[cand[b]], '/');
			base = base ? base + 1 : found[cand[b]];
			if (a != b && strcmp(found[cand[a]], found[cand[b]]) != 0 && runs_script(f, base))
				inner[b] = true;
		}
		src_file_free(f);
		free(path);
	}
	for (size_t a = 0; a < n; a++)
		if (!inner[a])
			cand[k++] = cand[a];
	free(inner);
	return k ? k : n; /* scripts that run one another in a circle: none is outer */
}

int project_build_script(const struct project_root *r, const struct rule_strlist *globs, char **out,
			 struct diag *diag)
{
	bool absent;

	return project_build_script_or_absent(r, globs, out, &absent, diag);
}

int project_build_script_or_absent(const struct project_root *r, const struct rule_strlist *globs, char **out,
				   bool *absent, struct diag *diag)
{
	char **found = NULL;
	size_t n = 0, nbest = 0;
	long best = -2;
	size_t *cand;
	char *full;
	bool names = false;
	int ret = -1;

	*out = NULL;
	*absent = false;
	if (path_glob(r->path, globs->v, globs->n, &found, &n, diag) != 0)
		return -1;
	cand = xmalloc((n ? n : 1) * sizeof(*cand));
	for (size_t i = 0; i < n; i++) {
		char *dir = xstrdup(found[i]), *slash = strrchr(dir, '/');
		long near;
		if (slash)
			*slash = '\0';
		else
			strcpy(dir, ".");
		near = nearness(dir, r->opdir_rel);
		free(dir);
		if (near > best) {
			best = near;
			nbest = 0;
		} else if (near < best) {
			continue;
		}
		cand[nbest++] = i;
	}
	/* of the nearest: not one that another runs, then the ones naming the operator */
	if (nbest > 1)
		nbest = drop_inner(r, found, cand, nbest);
	if (nbest > 1) {
		size_t k = 0;
		for (size_t c = 0; c < nbest; c++) {
			full = path_join(r->path, found[cand[c]]);
			names = best >= 0 && names_operator(full, r->opdir_abs);
			free(full);
			if (names)
				cand[k++] = cand[c];
		}
		if (k)
			nbest = k;
	}
	*absent = n == 0 || best < 0;
	if (n == 0) {
		char pats[512] = "";
		for (size_t i = 0; i < globs->n && strlen(pats) + strlen(globs->v[i]) + 4 < sizeof(pats); i++)
			snprintf(pats + strlen(pats), sizeof(pats) - strlen(pats), "%s%s", i ? ", " : "", globs->v[i]);
		diag_plain(diag, DIAG_ERROR,
			   "no build script matches the rules' 'build' patterns (%s) under the project root %s (%s)",
			   pats, r->path, project_root_how_text(r->how));
	} else if (best < 0) {
		/* a script off the way up (a template the build copies, another
		   component's) is not the operator's build script */
		diag_plain(diag, DIAG_ERROR,
			   "%zu build script%s match%s the rules' 'build' patterns (%s%s%s), none on the way from the operator "
			   "directory up to the project root %s; use --script FILE or set the patterns",
			   n, n == 1 ? "" : "s", n == 1 ? "es" : "", found[0], n > 1 ? ", " : "", n > 2 ? "..." : n > 1 ? found[1] : "",
			   r->path);
	} else if (nbest > 1) {
		diag_plain(diag, DIAG_ERROR,
			   "%zu build scripts are equally near the operator directory (%s, %s%s); use --script FILE or "
			   "narrow the rules' 'build' patterns",
			   nbest, found[cand[0]], found[cand[1]], nbest > 2 ? ", ..." : "");
	} else {
		*out = path_join(r->path, found[cand[0]]);
		ret = 0;
	}
	if (ret != 0 && r->how == PROJECT_ROOT_OPDIR) {
		char *above = script_above(r->abs, globs);
		if (above)
			diag_plain(diag, DIAG_NOTE,
				   "%s, above the operator directory, holds a build script: not taken, as outside git "
				   "only the command line widens the tree autotrace edits (autotrace --project %s ...)",
				   above, above);
		free(above);
	}
	free(cand);
	path_glob_free(found, n);
	return ret;
}

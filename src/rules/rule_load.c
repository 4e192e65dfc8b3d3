/* Reading rules files: parse, follow includes (with cycle detection), decode. */
#include "rule_load.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rule_ast.h"
#include "rule_decode.h"
#include "strbuf.h"
#include "path_glob.h"
#include "path_rel.h"
#include "xalloc.h"

enum { MAX_INCLUDE_DEPTH = 32, MAX_INCLUDE_ROOTS = 5 };

static bool include_anywhere;

void rule_load_allow_anywhere(bool yes)
{
	include_anywhere = yes;
}

struct loader {
	struct rule_policy *policy;
	struct diag *diag;
	const char *rules_dir;
	char *roots[MAX_INCLUDE_ROOTS]; /* absolute directories includes may come from */
	unsigned nroots;
	char *stack[MAX_INCLUDE_DEPTH]; /* canonical paths of the files being read */
	const struct src_file *stack_file[MAX_INCLUDE_DEPTH];
	unsigned depth;
};

static unsigned load_file(struct loader *ld, struct src_file *f, const char *canon);

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* A display path: relative names stay as written ("./" dropped). */
static char *include_candidate(const char *includer, const char *name)
{
	char *dir, *path;

	if (name[0] == '/')
		return xstrdup(name);
	if (!strchr(includer, '/'))
		return xstrdup(name);
	dir = dir_of(includer);
	path = path_join(dir, name);
	free(dir);
	return path;
}

/* Adds the absolute form of `dir` (when it exists, and once). */
static void add_root(struct loader *ld, const char *dir)
{
	char *abs = dir ? path_absolute(dir) : NULL;

	if (!abs)
		return;
	for (unsigned i = 0; i < ld->nroots; i++) {
		if (strcmp(ld->roots[i], abs) == 0) {
			free(abs);
			return;
		}
	}
	if (ld->nroots < MAX_INCLUDE_ROOTS)
		ld->roots[ld->nroots++] = abs;
	else
		free(abs);
}

/* `dir` and the git top level above it. */
static void add_root_and_git_top(struct loader *ld, const char *dir)
{
	char *abs = dir ? path_absolute(dir) : NULL;
	char *top = abs ? path_upwards_holding(abs, ".git") : NULL;

	add_root(ld, abs);
	add_root(ld, top);
	free(abs);
	free(top);
}

static bool include_allowed(const struct loader *ld, const char *canon)
{
	if (include_anywhere)
		return true;
	for (unsigned i = 0; i < ld->nroots; i++)
		if (path_within(canon, ld->roots[i]))
			return true;
	return false;
}

/* Says which directories were allowed ("/op, /repo or /usr/share/autotrace/rules"). */
static void refuse_include(const struct loader *ld, struct src_loc loc, const char *name, const char *canon)
{
	struct strbuf where = { 0 };

	for (unsigned i = 0; i < ld->nroots; i++) {
		strbuf_puts(&where, i == 0 ? "" : i + 1 == ld->nroots ? " or " : ", ");
		strbuf_puts(&where, ld->roots[i]);
	}
	if (ld->nroots == 0)
		strbuf_puts(&where, "none");
	diag_at(ld->diag, DIAG_ERROR, loc,
		"include \"%s\" names %s, outside the directories rules may include from (%s); "
		"pass --allow-include-anywhere to read it",
		name, canon, where.s);
	strbuf_release(&where);
}

static unsigned on_include(void *ctx, const char *name, struct src_loc loc)
{
	struct loader *ld = ctx;
	char *path = include_candidate(loc.file->path, name);
	char canon[PATH_MAX];
	struct src_file *f;

	if (access(path, F_OK) != 0 && name[0] != '/' && ld->rules_dir) {
		char *alt = path_join(ld->rules_dir, name);
		if (access(alt, F_OK) == 0) {
			free(path);
			path = alt;
		} else {
			free(alt);
		}
	}
	if (!realpath(path, canon)) {
		if (ld->rules_dir && name[0] != '/')
			diag_at(ld->diag, DIAG_ERROR, loc, "cannot find included file '%s' (looked next to %s and in %s)",
				name, loc.file->path, ld->rules_dir);
		else
			diag_at(ld->diag, DIAG_ERROR, loc, "cannot find included file '%s': %s", name, strerror(errno));
		free(path);
		return 1;
	}
	if (!include_allowed(ld, canon)) {
		refuse_include(ld, loc, name, canon);
		free(path);
		return 1;
	}
	for (unsigned i = 0; i < ld->depth; i++) {
		if (strcmp(ld->stack[i], canon) == 0) {
			size_t cap = 64, len = 0;
			char *chain = xmalloc(cap);
			chain[0] = '\0';
			for (unsigned k = i; k < ld->depth; k++) {
				const char *part = ld->stack_file[k]->path;
				XGROW(chain, cap, len + strlen(part) + 5);
				len += (size_t)sprintf(chain + len, "%s -> ", part);
			}
			diag_at(ld->diag, DIAG_ERROR, loc, "include cycle: %s%s", chain, path);
			free(chain);
			free(path);
			return 1;
		}
	}
	if (ld->depth >= MAX_INCLUDE_DEPTH) {
		diag_at(ld->diag, DIAG_ERROR, loc, "includes nest deeper than %d files", MAX_INCLUDE_DEPTH);
		free(path);
		return 1;
	}
	f = src_file_load(path);
	if (!f) {
		diag_at(ld->diag, DIAG_ERROR, loc, "cannot read included file '%s': %s", path, src_file_strerror(errno));
		free(path);
		return 1;
	}
	free(path);
	return load_file(ld, f, canon);
}

/* Takes ownership of `f`. */
static unsigned load_file(struct loader *ld, struct src_file *f, const char *canon)
{
	struct rule_policy *p = ld->policy;
	struct rule_node *root;
	unsigned errors;

	p->sources = xrealloc(p->sources, (p->nsources + 1) * sizeof(*p->sources));
	p->sources[p->nsources++] = f;
	root = rule_ast_parse(f, ld->diag, &errors);
	if (errors == 0) {
		ld->stack[ld->depth] = xstrdup(canon);
		ld->stack_file[ld->depth] = f;
		ld->depth++;
		errors = rule_decode(p, f, root, ld->diag, on_include, ld);
		ld->depth--;
		free(ld->stack[ld->depth]);
	}
	rule_node_free(root);
	return errors;
}

static struct rule_policy *finish_load(struct loader *ld, unsigned errors)
{
	for (unsigned i = 0; i < ld->nroots; i++)
		free(ld->roots[i]);
	if (errors) {
		rule_policy_free(ld->policy);
		return NULL;
	}
	return ld->policy;
}

struct rule_policy *rule_load(const char *path, const char *rules_dir, const char *opdir, struct diag *diag)
{
	struct loader ld = { .policy = NULL, .diag = diag, .rules_dir = rules_dir };
	char canon[PATH_MAX];
	struct src_file *f = src_file_load(path);
	char *dir;

	if (!f) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot read rules file: %s", src_file_strerror(errno));
		return NULL;
	}
	if (!realpath(path, canon))
		snprintf(canon, sizeof(canon), "%s", path);
	dir = dir_of(canon);
	add_root_and_git_top(&ld, dir);
	free(dir);
	add_root(&ld, rules_dir);
	add_root_and_git_top(&ld, opdir);
	ld.policy = rule_policy_new();
	if (opdir)
		cmake_defines_read(opdir, &ld.policy->build_defines);
	return finish_load(&ld, load_file(&ld, f, canon));
}

struct rule_policy *rule_load_buffer(const char *name, const char *data, size_t len, const char *rules_dir,
				     struct diag *diag)
{
	struct loader ld = { .policy = NULL, .diag = diag, .rules_dir = rules_dir };

	add_root(&ld, rules_dir);
	ld.policy = rule_policy_new();
	return finish_load(&ld, load_file(&ld, src_file_from_buffer(name, data, len), name));
}

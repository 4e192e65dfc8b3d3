/* G5 for paths that cross a spawn in the environment: a script whose ranks
 * read a profiling path from an environment variable (AUTOTRACE_PROFILING_DIR,
 * os.environ.get("..._POINT_MAP")) makes it absolute in the parent before the
 * spawn: `os.environ[NAME] = <absolute>` (or os.environ.update, or a call of
 * a function of the script that does so) on every path to the spawn. */
#include <stdlib.h>
#include <string.h>

#include "g5_env.h"
#include "project_py.h"
#include "xalloc.h"

/* An environment variable's name: upper case, digits and '_'. */
static bool env_like(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

static const struct py_func *func_named(const struct py_module *m, const char *name)
{
	for (size_t i = 0; i < m->nfuncs; i++)
		if (strcmp(m->funcs[i].name, name) == 0)
			return &m->funcs[i];
	return NULL;
}

/* True when statement `s` lies in function f's body. */
static bool in_func(const struct py_module *m, int s, const struct py_func *f)
{
	return py_stmt_within(m, s, f->stmt);
}

/* Tokens [i, j) are an absolute path: an absolute expression, or a call of a
 * function of the script whose every return gives one. */
static bool abs_value(struct py_module *m, size_t i, size_t j)
{
	const struct py_func *f;
	bool any = false, all = true;

	if (project_py_abs_expr(m, i, j))
		return true;
	if (j < i + 3 || m->toks[i].kind != PY_TOK_NAME || !py_tok_is(m, i + 1, "(") || m->match[i + 1] != j - 1)
		return false;
	f = func_named(m, py_text(m, i, i + 1));
	if (!f)
		return false;
	for (size_t s = 0; s < m->nstmts; s++) {
		const struct py_stmt *st = &m->stmts[s];
		if (st->kind != PY_STMT_RETURN || !in_func(m, (int)s, f))
			continue;
		any = true;
		all = all && project_py_abs_expr(m, st->tok_start, st->tok_end);
	}
	return any && all;
}

/* Statement s sets an environment variable to an absolute path. */
static bool sets_env_abs(struct py_module *m, size_t s)
{
	for (size_t a = 0; a < m->nassigns; a++) {
		const struct py_assign *as = &m->assigns[a];
		if ((size_t)as->stmt != s || as->ntargets != 1 || strncmp(as->targets[0].text, "os.environ[", 11) != 0)
			continue;
		if (abs_value(m, as->value_tok_start, as->value_tok_end))
			return true;
	}
	for (size_t c = 0; c < m->ncalls; c++) {
		const struct py_call *call = &m->calls[c];
		if ((size_t)call->stmt == s && strcmp(call->callee_text, "os.environ.update") == 0 &&
		    project_py_abs_expr(m, call->args_range.start ? py_tok_at(m, call->args_range.start) : 0,
					py_tok_at(m, call->args_range.end)))
			return true;
	}
	return false;
}

/* The statement runs something that makes the environment's paths absolute:
 * it does so itself, or calls a function of the script (a level or two deep)
 * that does. */
static bool absolutizes(struct py_module *m, size_t s, int depth)
{
	if (sets_env_abs(m, s))
		return true;
	if (depth > 2)
		return false;
	for (size_t c = 0; c < m->ncalls; c++) {
		const struct py_call *call = &m->calls[c];
		const struct py_func *f;
		if ((size_t)call->stmt != s || !(f = func_named(m, call->callee_text)))
			continue;
		for (size_t t = 0; t < m->nstmts; t++)
			if (in_func(m, (int)t, f) && absolutizes(m, t, depth + 1))
				return true;
	}
	return false;
}

/* The innermost statement holding byte `off`, or -1. */
static int stmt_of(const struct py_module *m, uint32_t off)
{
	int best = -1;

	for (size_t s = 0; s < m->nstmts; s++)
		if (m->stmts[s].range.start <= off && off < m->stmts[s].range.end)
			best = (int)s; /* statements are in order: the last that holds it is the innermost */
	return best;
}

/* True when the function whose def statement is `def` spawns. */
static bool spawns(const struct py_module *m, int def)
{
	for (size_t c = 0; c < m->ncalls; c++)
		if (project_py_is_spawn(&m->calls[c]) && m->stmts[m->calls[c].stmt].func == def)
			return true;
	return false;
}

void g5_check_env(struct gate_report *r, const struct src_file *f, struct py_module *m, const struct py_call *sp)
{
	char *name = NULL;
	uint32_t at = 0;

	/* a path the ranks take from the environment: named in a function that
	   spawns nothing (the parent's own reads, at the top level or in the
	   function that spawns, are its values, checked where they cross the
	   spawn), other than where it is set */
	for (size_t i = 0; i < m->ntoks && !name; i++) {
		char *v;
		int s;
		if (m->toks[i].kind != PY_TOK_STRING || (s = stmt_of(m, m->toks[i].start)) < 0 ||
		    m->stmts[s].func == PY_NONE || spawns(m, m->stmts[s].func) || sets_env_abs(m, (size_t)s))
			continue;
		v = py_string_value(m, i);
		if (v && env_like(v) && project_py_path_name(v)) {
			name = v;
			at = m->toks[i].start;
		} else {
			free(v);
		}
	}
	if (!name)
		return;
	for (size_t s = 0; s < m->nstmts; s++)
		if (py_dominates(m, project_py_top(m, (int)s), sp->stmt) && absolutizes(m, s, 0)) {
			free(name);
			return;
		}
	{
		struct gate_finding *fd = gate_add(
			r, GATE_RULE_G5_RELATIVE, DIAG_ERROR, gate_loc_at(f, sp->callee.start, sp->callee.end),
			"before the spawn: os.environ[name] = str(Path(os.environ[name]).expanduser().resolve()) for each "
			"profiling path of the environment",
			"the ranks this spawn starts read %s from the environment, which is not made absolute before it: a "
			"relative path would be resolved in each rank (save_profiling_data joins a relative directory to its "
			"own module's folder)", name);
		gate_relate(fd, gate_loc_at(f, at, at + 1), "%s is read here", name);
	}
	free(name);
}

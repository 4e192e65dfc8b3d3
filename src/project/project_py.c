/* Recognisers over scanned Python samples for G4 and G5. */
#include "project_py.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "project_tokens.h"
#include "xalloc.h"

const struct py_assign *project_py_assign_of_call(const struct py_module *m, size_t c)
{
	for (size_t a = 0; a < m->nassigns; a++)
		if (m->assigns[a].call == (int)c)
			return &m->assigns[a];
	return NULL;
}

bool project_py_is_spawn(const struct py_call *c)
{
	const char *t = c->callee_text;

	if (strcmp(c->name, "start_processes") == 0)
		return true;
	if (strcmp(c->name, "spawn") == 0)
		return strstr(t, "mp.") == t || strstr(t, "multiprocessing") != NULL || strcmp(t, "spawn") == 0;
	if (strcmp(c->name, "Process") == 0)
		return strstr(t, "multiprocessing") != NULL || strstr(t, "mp.") == t || strcmp(t, "Process") == 0;
	return false;
}

bool project_py_is_sync(const struct py_call *c)
{
	return strcmp(c->name, "synchronize") == 0;
}

bool project_py_is_save(const struct py_call *c)
{
	return strcmp(c->name, "save_profiling_data") == 0;
}

/* `what` in a name or string of range r, case ignored (TRACE_COLLECTOR). */
static bool text_has(struct py_module *m, struct py_range r, const char *what)
{
	size_t i = py_tok_at(m, r.start), j = py_tok_at(m, r.end);

	for (size_t k = i; k < j; k++)
		if (m->toks[k].kind == PY_TOK_STRING || m->toks[k].kind == PY_TOK_NAME) {
			const char *s = m->data + m->toks[k].start;
			size_t n = m->toks[k].end - m->toks[k].start, w = strlen(what);
			for (size_t q = 0; q + w <= n; q++)
				if (strncasecmp(s + q, what, w) == 0)
					return true;
		}
	return false;
}

bool project_py_is_collector(struct py_module *m, const struct py_call *c)
{
	const char *t = c->callee_text;
	char *k;
	bool yes;

	if (strstr(t, "subprocess.") == t || strcmp(t, "os.system") == 0 || strcmp(c->name, "check_call") == 0 ||
	    strcmp(c->name, "check_output") == 0 || strcmp(t, "os.execvp") == 0)
		return text_has(m, c->args_range, "collect");
	k = tv_name_key(c->name);
	yes = strstr(k, "collect") != NULL && strcmp(k, "collect") != 0 ? true : strstr(t, "trace_collector") != NULL;
	if (strcmp(k, "collect") == 0 && strstr(t, "gc.") != t)
		yes = true;
	free(k);
	return yes;
}

const struct py_arg *project_py_arg(const struct py_call *c, const char *keyword, int pos)
{
	int k = 0;

	for (size_t i = 0; i < c->nargs; i++)
		if (keyword && c->args[i].keyword && strcmp(c->args[i].keyword, keyword) == 0)
			return &c->args[i];
	for (size_t i = 0; i < c->nargs; i++) {
		if (c->args[i].keyword || c->args[i].star || c->args[i].dstar)
			continue;
		if (k++ == pos)
			return &c->args[i];
	}
	return NULL;
}

bool project_py_spawn_nojoin(struct py_module *m, const struct py_call *c)
{
	const struct py_arg *a = project_py_arg(c, "join", 4);

	if (strcmp(c->name, "Process") == 0)
		return true;
	return a && a->tok_end == a->tok_start + 1 && py_tok_is(m, a->tok_start, "False");
}

bool project_py_abs_expr(const struct py_module *m, size_t i, size_t j)
{
	for (size_t k = i; k < j; k++) {
		if (m->toks[k].kind != PY_TOK_NAME)
			continue;
		if ((py_tok_is(m, k, "resolve") || py_tok_is(m, k, "absolute") || py_tok_is(m, k, "abspath") ||
		     py_tok_is(m, k, "realpath")) &&
		    k + 1 < j && py_tok_is(m, k + 1, "("))
			return true;
	}
	return false;
}

bool project_py_path_name(const char *name)
{
	char *k = tv_name_key(name);
	bool yes = (strstr(k, "prof") && strstr(k, "dir")) || strstr(k, "chrometrace") || strstr(k, "pointmap");

	free(k);
	return yes;
}

struct project_py_option *project_py_options(struct py_module *m, size_t *n)
{
	struct project_py_option *v = NULL;

	*n = 0;
	for (size_t c = 0; c < m->ncalls; c++) {
		const struct py_call *call = &m->calls[c];
		const struct py_arg *dest = project_py_arg(call, "dest", -1);
		char *name = NULL;
		if (strcmp(call->name, "add_argument") != 0)
			continue;
		if (dest && dest->tok_end == dest->tok_start + 1)
			name = py_string_value(m, dest->tok_start);
		for (size_t a = 0; !name && a < call->nargs; a++) {
			char *s;
			if (call->args[a].keyword || call->args[a].tok_end != call->args[a].tok_start + 1)
				continue;
			s = py_string_value(m, call->args[a].tok_start);
			if (s && strncmp(s, "--", 2) == 0)
				name = xstrdup(s + 2);
			else if (s && s[0] != '-' && a == 0)
				name = xstrdup(s);
			free(s);
		}
		if (!name)
			continue;
		for (char *q = name; *q; q++)
			if (*q == '-')
				*q = '_';
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[*n].dest = name;
		v[*n].call = (int)c;
		(*n)++;
	}
	return v;
}

void project_py_options_free(struct project_py_option *o, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(o[i].dest);
	free(o);
}

int project_py_top(const struct py_module *m, int s)
{
	int f = m->stmts[s].func;

	while (m->stmts[s].parent != PY_NONE && m->stmts[s].parent != f)
		s = m->stmts[s].parent;
	return s;
}

/* Python fake / meta implementations of a torch.ops name (project_py_fake.h). */
#include "project_py_fake.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* The name the string value registers: "ns::op.overload" -> "op". */
static const char *which(const char *v, char *const *names, size_t n)
{
	const char *s = v, *q;
	size_t len;

	while ((q = strstr(s, "::")) != NULL)
		s = q + 2;
	len = strcspn(s, ".");
	for (size_t i = 0; i < n; i++)
		if (strlen(names[i]) == len && strncmp(s, names[i], len) == 0)
			return names[i];
	return NULL;
}

/* The first string token of [i, j) naming one of the names, or NULL. */
static const char *names_in(const struct py_module *m, size_t i, size_t j, char *const *names, size_t n)
{
	for (size_t k = i; k < j; k++) {
		char *v;
		const char *hit;
		if (m->toks[k].kind != PY_TOK_STRING)
			continue;
		v = py_string_value(m, k);
		hit = v ? which(v, names, n) : NULL;
		free(v);
		if (hit)
			return hit;
	}
	return NULL;
}

static int func_named(const struct py_module *m, const char *name)
{
	for (size_t f = 0; f < m->nfuncs; f++)
		if (strcmp(m->funcs[f].name, name) == 0)
			return (int)f;
	return -1;
}

size_t project_py_fakes(struct py_module *m, char *const *names, size_t n, struct py_fake **out)
{
	size_t k = 0;

	*out = NULL;
	/* @register_fake("ns::op") and the like: the decorators of a def */
	for (size_t f = 0; f < m->nfuncs; f++) {
		int s = m->funcs[f].stmt;
		for (int d = s - 1; d >= 0 && m->stmts[d].kind == PY_STMT_DECORATOR; d--) {
			const char *hit = names_in(m, m->stmts[d].tok_start, m->stmts[d].tok_end, names, n);
			if (!hit)
				continue;
			*out = xrealloc(*out, (k + 1) * sizeof(**out));
			(*out)[k].func = (int)f;
			(*out)[k].at = m->stmts[d].range;
			(*out)[k].name = hit;
			k++;
			break;
		}
	}
	/* lib.impl("op", op_meta, "Meta"): a call naming the op and a def of the module */
	for (size_t c = 0; c < m->ncalls; c++) {
		const struct py_call *call = &m->calls[c];
		size_t close = m->match[call->open_tok];
		const char *hit = close == (size_t)-1 ? NULL : names_in(m, call->open_tok + 1, close, names, n);
		if (!hit || m->stmts[call->stmt].kind == PY_STMT_DECORATOR)
			continue;
		for (size_t a = 0; a < call->nargs; a++) {
			const struct py_arg *arg = &call->args[a];
			int f;
			bool seen = false;
			if (arg->tok_end != arg->tok_start + 1 || m->toks[arg->tok_start].kind != PY_TOK_NAME)
				continue;
			f = func_named(m, py_text(m, arg->tok_start, arg->tok_end));
			for (size_t q = 0; q < k && !seen; q++)
				seen = (*out)[q].func == f;
			if (f < 0 || seen)
				continue;
			*out = xrealloc(*out, (k + 1) * sizeof(**out));
			(*out)[k].func = f;
			(*out)[k].at = call->range;
			(*out)[k].name = hit;
			k++;
		}
	}
	return k;
}

void project_py_fakes_free(struct py_fake *v)
{
	free(v);
}

long project_py_return_arity(const struct py_module *m, int s, size_t *last)
{
	const struct py_stmt *st = &m->stmts[s];
	size_t i = st->tok_start + 1, j = st->tok_end, n = 1;

	while (j > i && m->toks[j - 1].kind == PY_TOK_NEWLINE)
		j--;
	if (j <= i)
		return -1;
	if ((py_tok_is(m, i, "(") || py_tok_is(m, i, "[")) && m->match[i] == j - 1) {
		/* (a, b): inside the brackets */
		i++;
		j--;
		if (j == i)
			return 0;
	}
	for (size_t k = i; k < j; k++) {
		/* (*outs, extra): the values of outs are not counted here */
		if ((k == i || py_tok_is(m, k - 1, ",")) && py_tok_is(m, k, "*"))
			return -1;
		if (m->match[k] != (size_t)-1 && m->match[k] > k) {
			k = m->match[k];
			continue;
		}
		if (py_tok_is(m, k, ","))
			n += k + 1 < j; /* a trailing comma adds none */
	}
	if (n == 1 && !(i > st->tok_start + 1))
		return -1; /* one expression: a tuple it holds is not seen */
	*last = j;
	return (long)n;
}

bool project_py_takes_rest(const struct py_module *m, const struct py_func *f)
{
	for (uint32_t o = f->params_range.start; o < f->params_range.end; o++)
		if (m->data[o] == '*')
			return true;
	return false;
}

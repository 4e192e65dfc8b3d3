/* A small evaluator of build-script words along the flow to one command. */
#include "sh_eval.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "path_glob.h"
#include "path_rel.h"
#include "strbuf.h"
#include "xalloc.h"

struct var {
	char *name;
	char *value;                  /* NULL: not known */
};

struct env {
	struct var *v;
	size_t n;
	char *script;                 /* absolute path of the script */
	char *script_dir;
	char *cwd;                    /* NULL: not known */
};

static struct var *lookup(struct env *e, const char *name, size_t n)
{
	for (size_t i = e->n; i-- > 0;)
		if (strlen(e->v[i].name) == n && memcmp(e->v[i].name, name, n) == 0)
			return &e->v[i];
	return NULL;
}

static void set_var(struct env *e, const char *name, size_t n, char *value)
{
	struct var *v = lookup(e, name, n);

	if (!v) {
		e->v = xrealloc(e->v, (e->n + 1) * sizeof(*e->v));
		v = &e->v[e->n++];
		v->name = xstrndup(name, n);
		v->value = NULL;
	}
	free(v->value);
	v->value = value;
}

static bool name_char(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
}

/* The end of a bracketed construct starting at s[i] == open. */
static size_t matching(const char *s, size_t n, size_t i, char open, char close)
{
	int depth = 0;
	char q = 0;

	for (; i < n; i++) {
		char c = s[i];
		if (q) {
			if (c == q)
				q = 0;
			continue;
		}
		if (c == '\'' || c == '"')
			q = c;
		else if (c == open)
			depth++;
		else if (c == close && --depth == 0)
			return i;
	}
	return n;
}

static bool expand(struct env *e, const char *s, size_t n, struct strbuf *out);

/* $( ... ): the script's own directory, or the working directory. */
static bool command_subst(struct env *e, const char *in, size_t n, struct strbuf *out)
{
	char *t = xstrndup(in, n), *p = t;
	bool ok = false;

	while (*p == ' ')
		p++;
	for (char *q = p + strlen(p); q > p && q[-1] == ' ';)
		*--q = '\0';
	if (strcmp(p, "pwd") == 0 && e->cwd) {
		strbuf_put(out, e->cwd, strlen(e->cwd));
		ok = true;
	} else if ((strstr(p, "dirname") && (strstr(p, "BASH_SOURCE") || strstr(p, "$0"))) &&
		   (strncmp(p, "dirname", 7) == 0 || (strncmp(p, "cd ", 3) == 0 && strstr(p, "pwd")))) {
		strbuf_put(out, e->script_dir, strlen(e->script_dir));
		ok = true;
	}
	free(t);
	return ok;
}

/* ${name}, ${name:-default}, ${name-default}, ${name:?msg}, ${BASH_SOURCE[0]}, ${0} */
static bool param(struct env *e, const char *in, size_t n, struct strbuf *out)
{
	size_t k = 0;
	struct var *v;

	if ((n == 14 && memcmp(in, "BASH_SOURCE[0]", 14) == 0) || (n == 1 && in[0] == '0')) {
		strbuf_put(out, e->script, strlen(e->script));
		return true;
	}
	while (k < n && name_char(in[k], k == 0))
		k++;
	if (k == 0)
		return false;
	v = lookup(e, in, k);
	if (k == n)
		return v && v->value && (strbuf_put(out, v->value, strlen(v->value)), true);
	{
		const char *op = in + k;
		bool colon = *op == ':';
		if (colon)
			op++;
		if (*op == '-' || *op == '=') {
			const char *def = op + 1;
			size_t dl = n - (size_t)(def - in);
			if (v && v->value && !(colon && !v->value[0]))
				return strbuf_put(out, v->value, strlen(v->value)), true;
			if (v && !v->value)
				return false;
			/* unset: the default (the environment may set it: the report says "by default") */
			return expand(e, def, dl, out);
		}
		if (*op == '?')
			return v && v->value && (strbuf_put(out, v->value, strlen(v->value)), true);
	}
	return false;
}

static bool expand(struct env *e, const char *s, size_t n, struct strbuf *out)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\'') {
			size_t j = i + 1;
			while (j < n && s[j] != '\'')
				j++;
			strbuf_put(out, s + i + 1, j - i - 1);
			i = j;
		} else if (c == '"') {
			continue;
		} else if (c == '\\' && i + 1 < n) {
			strbuf_put(out, s + ++i, 1);
		} else if (c == '$' && i + 1 < n && s[i + 1] == '(') {
			size_t j = matching(s, n, i + 1, '(', ')');
			if (j >= n || !command_subst(e, s + i + 2, j - i - 2, out))
				return false;
			i = j;
		} else if (c == '$' && i + 1 < n && s[i + 1] == '{') {
			size_t j = matching(s, n, i + 1, '{', '}');
			if (j >= n || !param(e, s + i + 2, j - i - 2, out))
				return false;
			i = j;
		} else if (c == '$' && i + 1 < n && (name_char(s[i + 1], true) || s[i + 1] == '0')) {
			size_t j = i + 1;
			if (s[j] == '0')
				j++;
			else
				while (j < n && name_char(s[j], false))
					j++;
			if (!param(e, s + i + 1, j - i - 1, out))
				return false;
			i = j - 1;
		} else if (c == '$') {
			return false; /* $1, $@, $?: what the script was given or did */
		} else {
			strbuf_put(out, &c, 1);
		}
	}
	return true;
}

/* The value of a word, NULL when not known. */
static char *value_of(struct env *e, const char *s, size_t n)
{
	struct strbuf b = { 0 };

	if (!expand(e, s, n, &b)) {
		strbuf_release(&b);
		return NULL;
	}
	return strbuf_take(&b);
}

static char *absolute_in(const struct env *e, const char *v)
{
	char *j;

	if (!v)
		return NULL;
	if (v[0] == '/')
		return path_normalize(v);
	if (!e->cwd)
		return NULL;
	j = path_join(e->cwd, v);
	{
		char *norm = path_normalize(j);
		free(j);
		return norm;
	}
}

/* Runs command k's assignments and cd. */
static void simulate(const struct src_file *f, const struct sh_script *sh, size_t k, struct env *e)
{
	const struct sh_cmd *c = &sh->cmds[k];
	long cw = sh_cmd_word(sh, c);
	size_t from = 0;

	if (c->defines >= 0)
		return;
	if (cw >= 0) {
		const struct sh_word *w = &c->words[cw];
		size_t wl = w->end - w->start;
		const char *t = f->data + w->start;
		if (wl == 2 && memcmp(t, "cd", 2) == 0) {
			if ((size_t)cw + 1 < c->nwords) {
				const struct sh_word *a = &c->words[cw + 1];
				char *v = value_of(e, f->data + a->start, a->end - a->start), *abs = absolute_in(e, v);
				free(e->cwd);
				e->cwd = abs;
				free(v);
			}
			return;
		}
		if (!((wl == 5 && memcmp(t, "local", 5) == 0) || (wl == 6 && memcmp(t, "export", 6) == 0) ||
		      (wl == 8 && memcmp(t, "readonly", 8) == 0) || (wl == 7 && memcmp(t, "declare", 7) == 0)))
			return; /* a command: only its leading assignments would matter, to its environment */
		from = (size_t)cw + 1;
	}
	for (size_t i = cw < 0 ? 0 : from; i < c->nwords; i++) {
		const char *a = f->data + c->words[i].start, *eq = memchr(a, '=', c->words[i].end - c->words[i].start);
		size_t nl;
		if (!eq)
			continue;
		nl = (size_t)(eq - a);
		if (!nl || !name_char(a[0], true))
			continue;
		set_var(e, a, nl, value_of(e, eq + 1, (size_t)(f->data + c->words[i].end - eq - 1)));
	}
}

/* The command whose command word calls function fn, first reachable one, or -1. */
static long caller_of(const struct src_file *f, const struct sh_script *sh, int fn)
{
	const char *name = sh->funcs[fn].name;
	size_t n = strlen(name);

	for (size_t k = 0; k < sh->ncmds; k++) {
		long cw = sh_cmd_word(sh, &sh->cmds[k]);
		const struct sh_word *w;
		if (cw < 0 || sh->cmds[k].defines >= 0 || sh->cmds[k].func == fn)
			continue;
		w = &sh->cmds[k].words[cw];
		if (w->end - w->start == n && memcmp(f->data + w->start, name, n) == 0)
			return (long)k;
	}
	return -1;
}

char *sh_eval_path(const struct src_file *f, const struct sh_script *sh, size_t at, const char *word)
{
	struct env e;
	size_t chain[16], nchain = 0;
	char *v, *abs;

	memset(&e, 0, sizeof(e));
	e.script = path_absolute(f->path);
	if (!e.script)
		return NULL;
	{
		char *d = xstrdup(e.script), *slash = strrchr(d, '/');
		if (slash && slash != d)
			*slash = '\0';
		e.script_dir = d;
	}
	e.cwd = xstrdup(e.script_dir);
	/* the calls that lead from the top level to `at`, outermost last */
	chain[nchain++] = at;
	for (int fn = sh->cmds[at].func; fn >= 0 && nchain < 16;) {
		long c = caller_of(f, sh, fn);
		if (c < 0)
			break;
		chain[nchain++] = (size_t)c;
		fn = sh->cmds[c].func;
	}
	for (size_t level = nchain; level-- > 0;) {
		size_t until = chain[level];
		int fn = sh->cmds[until].func;
		uint32_t start = fn >= 0 ? sh->funcs[fn].start : 0;
		for (size_t k = 0; k < until; k++)
			if (sh->cmds[k].func == fn && sh->cmds[k].start >= start)
				simulate(f, sh, k, &e);
	}
	v = value_of(&e, word, strlen(word));
	abs = absolute_in(&e, v);
	free(v);
	for (size_t i = 0; i < e.n; i++) {
		free(e.v[i].name);
		free(e.v[i].value);
	}
	free(e.v);
	free(e.script);
	free(e.script_dir);
	free(e.cwd);
	return abs;
}

/* N when `v` is $N, ${N}, ${N:-...}, ${N:?...} (quoted or not), else 0. */
static unsigned positional(const char *v, size_t n)
{
	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		v++;
		n -= 2;
	}
	if (n == 2 && v[0] == '$' && v[1] >= '1' && v[1] <= '9')
		return (unsigned)(v[1] - '0');
	if (n >= 4 && v[0] == '$' && v[1] == '{' && v[2] >= '1' && v[2] <= '9' && v[n - 1] == '}' &&
	    (v[3] == '}' || v[3] == ':' || v[3] == '-' || v[3] == '?'))
		return (unsigned)(v[2] - '0');
	return 0;
}

size_t sh_eval_arguments(const struct src_file *f, const struct sh_script *sh, char ***names)
{
	char *slot[10] = { NULL };
	size_t n = 0;

	for (size_t k = 0; k < sh->ncmds; k++) {
		const struct sh_cmd *c = &sh->cmds[k];
		if (c->func >= 0 || c->defines >= 0 || sh_cmd_word(sh, c) >= 0)
			continue;
		for (size_t i = 0; i < c->nwords; i++) {
			const char *a = f->data + c->words[i].start,
				   *eq = memchr(a, '=', c->words[i].end - c->words[i].start);
			unsigned p;
			if (!eq || eq == a || !name_char(a[0], true))
				continue;
			p = positional(eq + 1, (size_t)(f->data + c->words[i].end - eq - 1));
			if (p && !slot[p]) {
				slot[p] = xstrndup(a, (size_t)(eq - a));
				if (p > n)
					n = p;
			}
		}
	}
	*names = n ? xcalloc(n, sizeof(**names)) : NULL;
	for (size_t p = 1; p <= n; p++)
		(*names)[p - 1] = slot[p] ? slot[p] : xasprintf("ARG%zu", p);
	return n;
}

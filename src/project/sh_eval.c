/* A small evaluator of build-script words along the flow to one point. */
#include "sh_eval.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "path_glob.h"
#include "path_rel.h"
#include "sh_word.h"
#include "strbuf.h"
#include "xalloc.h"

#define MAX_CALL_DEPTH 8

struct var {
	char *name;
	char *value;                  /* NULL: not known */
	char *raw;                    /* the word it was given, as written (for a value not known) */
};

struct env {
	const struct src_file *f;
	const struct sh_script *sh;
	const struct sh_eval_ctx *ctx;
	struct var *v;
	size_t n;
	char *script;                 /* absolute path of the script */
	struct sh_dir cwd, old;       /* $PWD and $OLDPWD */
	struct sh_dir stack[16];      /* pushd */
	int nstack;
	char *pos[10];                /* $1..$9 of the flow (pos[0] unused); NULL: not known */
	int npos;                     /* how many there are; -1: not known (the script's own) */
	int fn;                       /* the function whose body runs, -1: the top level */
	int depth;                    /* calls entered */
	bool dep_start;               /* an expansion used a directory found from the starting one */
	char *why;                    /* the first thing an expansion could not tell */
	/* the symbolic pass: an unknown variable at the start of a word */
	bool symbolic;
	char *leaf;
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void dir_copy(struct sh_dir *to, const struct sh_dir *from)
{
	sh_dir_release(to);
	to->abs = dup_or_null(from->abs);
	to->cmd = from->cmd;
	to->word = dup_or_null(from->word);
	to->from_start = from->from_start;
	to->assumed_var = dup_or_null(from->assumed_var);
	to->assumed_value = dup_or_null(from->assumed_value);
	to->unknown = dup_or_null(from->unknown);
}

static void note_why(struct env *e, char *why)
{
	if (!e->why)
		e->why = why;
	else
		free(why);
}

static struct var *lookup(struct env *e, const char *name, size_t n)
{
	for (size_t i = e->n; i-- > 0;)
		if (strlen(e->v[i].name) == n && memcmp(e->v[i].name, name, n) == 0)
			return &e->v[i];
	return NULL;
}

static bool name_char(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
}

/* Does `word` expand the variable `name`? */
static bool mentions(const char *word, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strchr(word, '$'); p; p = strchr(p + 1, '$')) {
		const char *q = p + 1 + (p[1] == '{');
		if (strncmp(q, name, n) == 0 && !name_char(q[n], false))
			return true;
	}
	return false;
}

static void set_var(struct env *e, const char *name, size_t n, char *value, const char *raw, size_t rawlen)
{
	struct var *v = lookup(e, name, n);

	if (!v) {
		e->v = xrealloc(e->v, (e->n + 1) * sizeof(*e->v));
		v = &e->v[e->n++];
		v->name = xstrndup(name, n);
		v->value = NULL;
		v->raw = NULL;
	}
	free(v->value);
	free(v->raw);
	v->value = value;
	v->raw = raw ? xstrndup(raw, rawlen) : NULL;
	/* a cd word that expands it no longer names the directory the cd went to */
	if (e->cwd.word && mentions(e->cwd.word, v->name)) {
		free(e->cwd.word);
		e->cwd.word = NULL;
	}
}

/* The end of a bracketed construct starting at s[i] == open. */
static size_t matching(const char *s, size_t n, size_t i, char open, char close)
{
	int depth = 0;
	char q = 0;

	for (; i < n; i++) {
		char c = s[i];
		if (q) {
			if (c == '\\' && q == '"')
				i++;
			else if (c == q)
				q = 0;
			continue;
		}
		if (c == '\\')
			i++;
		else if (c == '\'' || c == '"')
			q = c;
		else if (c == open)
			depth++;
		else if (c == close && --depth == 0)
			return i;
	}
	return n;
}

static bool expand(struct env *e, const char *s, size_t n, struct strbuf *out);

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

/* `v` made absolute from the directory `cwd` (the flow's, or a command
 * substitution's own): NULL when v is relative and the directory not known. */
static char *absolute_from(struct env *e, const struct sh_dir *cwd, const char *v)
{
	char *j, *norm;

	if (!v)
		return NULL;
	if (v[0] == '/')
		return path_normalize(v);
	if (!cwd->abs) {
		note_why(e, cwd->unknown ? xstrdup(cwd->unknown) : xstrdup("a directory the script does not say"));
		return NULL;
	}
	if (cwd->from_start)
		e->dep_start = true;
	j = path_join(cwd->abs, v);
	norm = path_normalize(j);
	free(j);
	return norm;
}

static char *dirname_of(const char *p)
{
	size_t n = strlen(p);
	char *d = xmalloc(n + 2), *slash; /* room for "." of "" */

	memcpy(d, p, n + 1);

	while (n > 1 && d[n - 1] == '/')
		d[--n] = '\0';
	slash = strrchr(d, '/');
	if (!slash)
		strcpy(d, ".");
	else if (slash == d)
		d[1] = '\0';
	else
		*slash = '\0';
	return d;
}

static char *basename_of(const char *p)
{
	char *d = xstrdup(p);
	size_t n = strlen(d);
	const char *slash;

	while (n > 1 && d[n - 1] == '/')
		d[--n] = '\0';
	slash = strrchr(d, '/');
	if (slash && slash[1]) {
		char *b = xstrdup(slash + 1);
		free(d);
		return b;
	}
	return d;
}

static bool word_eq(const char *s, const struct sh_word *w, const char *lit)
{
	size_t n = strlen(lit);

	return w->end - w->start == n && memcmp(s + w->start, lit, n) == 0;
}

/* $( ... ) made of cd, pwd, dirname, basename, realpath, readlink -f, echo
 * and `git rev-parse --show-toplevel`: its output, or false. */
static bool command_subst(struct env *e, const char *in, size_t n, struct strbuf *out)
{
	struct sh_script sub;
	struct sh_dir here;
	char *produced = NULL;
	bool ok = n > 0;

	memset(&here, 0, sizeof(here));
	dir_copy(&here, &e->cwd);
	sh_scan(in, n, &sub);
	for (size_t k = 0; k < sub.ncmds && ok; k++) {
		const struct sh_cmd *c = &sub.cmds[k];
		long cw = sh_cmd_word(&sub, c);
		const struct sh_word *arg = NULL;
		size_t i;
		char *v = NULL;
		if (cw < 0 || sub.cmds[k].subshell >= 0) {
			ok = false;
			break;
		}
		/* the operand: the first word after the options */
		for (i = (size_t)cw + 1; i < c->nwords; i++) {
			const struct sh_word *w = &c->words[i];
			if (in[w->start] != '-' || word_eq(in, w, "-"))
				break;
			if (word_eq(in, w, "--")) {
				i++;
				break;
			}
		}
		arg = i < c->nwords ? &c->words[i] : NULL;
		free(produced);
		produced = NULL;
		if (word_eq(in, &c->words[cw], "pwd")) {
			if (here.abs && here.from_start)
				e->dep_start = true;
			produced = dup_or_null(here.abs);
			if (!produced)
				note_why(e, dup_or_null(here.unknown));
		} else if (word_eq(in, &c->words[cw], "cd") && arg) {
			v = value_of(e, in + arg->start, arg->end - arg->start);
			if (v && v[0] == '/') {
				free(here.abs);
				here.abs = path_normalize(v);
				here.from_start = e->dep_start;
			} else if (v) {
				char *a = absolute_from(e, &here, v);
				free(here.abs);
				here.abs = a;
			}
			ok = v && here.abs;
			free(v);
			continue;
		} else if (arg && (word_eq(in, &c->words[cw], "dirname") || word_eq(in, &c->words[cw], "basename"))) {
			v = value_of(e, in + arg->start, arg->end - arg->start);
			produced = v ? (in[c->words[cw].start] == 'd' ? dirname_of(v) : basename_of(v)) : NULL;
		} else if (arg && (word_eq(in, &c->words[cw], "realpath") || word_eq(in, &c->words[cw], "readlink") ||
				   word_eq(in, &c->words[cw], "grealpath"))) {
			v = value_of(e, in + arg->start, arg->end - arg->start);
			produced = absolute_from(e, &here, v);
		} else if (word_eq(in, &c->words[cw], "echo") && arg && i + 1 == c->nwords) {
			produced = value_of(e, in + arg->start, arg->end - arg->start);
		} else if (word_eq(in, &c->words[cw], "git") && c->nwords == (size_t)cw + 3 &&
			   word_eq(in, &c->words[cw + 1], "rev-parse") && word_eq(in, &c->words[cw + 2], "--show-toplevel") &&
			   e->ctx->root) {
			produced = xstrdup(e->ctx->root);
		} else {
			note_why(e, xasprintf("the output of `%.*s`", (int)n, in));
		}
		free(v);
		ok = produced != NULL;
	}
	if (ok && produced)
		strbuf_puts(out, produced);
	free(produced);
	sh_dir_release(&here);
	sh_script_release(&sub);
	return ok && produced;
}

/* A variable's value, or false (noting why). */
static bool var_value(struct env *e, const char *name, size_t k, struct strbuf *out, bool *unset)
{
	struct var *v;

	*unset = false;
	if (k == 1 && name[0] >= '0' && name[0] <= '9') {
		int p = name[0] - '0';
		if (p == 0) {
			strbuf_puts(out, e->script);
			return true;
		}
		if (e->npos >= 0 && p > e->npos) {
			*unset = true;
			return true;
		}
		if (e->npos >= 0 && e->pos[p]) {
			strbuf_puts(out, e->pos[p]);
			return true;
		}
		if (e->symbolic && out->n == 0 && !e->leaf) {
			e->leaf = xstrndup(name, k);
			return true;
		}
		note_why(e, xasprintf("$%d, an argument the %s is given", p, e->fn >= 0 ? "function" : "script"));
		return false;
	}
	if ((k == 3 && memcmp(name, "PWD", 3) == 0) || (k == 6 && memcmp(name, "OLDPWD", 6) == 0)) {
		const struct sh_dir *d = k == 3 ? &e->cwd : &e->old;
		if (!d->abs) {
			note_why(e, dup_or_null(d->unknown));
			return false;
		}
		if (d->from_start)
			e->dep_start = true;
		strbuf_puts(out, d->abs);
		return true;
	}
	if ((k == 11 && memcmp(name, "BASH_SOURCE", 11) == 0)) {
		strbuf_puts(out, e->script);
		return true;
	}
	v = lookup(e, name, k);
	if (v && v->value) {
		strbuf_puts(out, v->value);
		return true;
	}
	if (!v)
		*unset = true;
	if (e->symbolic && out->n == 0 && !e->leaf) {
		/* a variable set from another that is not known ("$ROOT/csrc"): that
		   one leads, when the path after it says something */
		if (v && v->raw) {
			struct strbuf in = { 0 };
			bool inner = expand(e, v->raw, strlen(v->raw), &in);
			if (inner && e->leaf && in.n > 0 && in.s[0] == '/') {
				strbuf_put(out, in.s, in.n);
				strbuf_release(&in);
				return true;
			}
			strbuf_release(&in);
			free(e->leaf);
			e->leaf = NULL;
		}
		e->leaf = xstrndup(name, k);
		return true;
	}
	if (v)
		note_why(e, xasprintf("${%.*s}, set from something the script does not say", (int)k, name));
	else
		note_why(e, xasprintf("${%.*s}, which the script does not set (the environment's)", (int)k, name));
	return false;
}

/* ${...}: a name (BASH_SOURCE[0] too), then one of :- - := = :? ? :+ + or the
 * removal of the last part (percent, slash, star) or of all but it (two
 * hashes, star, slash). */
static bool param(struct env *e, const char *in, size_t n, struct strbuf *out)
{
	size_t k = 0, mark = out->n;
	bool unset;
	const char *op;

	if (n > 0 && in[0] >= '0' && in[0] <= '9')
		k = 1;
	else
		while (k < n && name_char(in[k], k == 0))
			k++;
	if (k == 0) {
		note_why(e, xasprintf("${%.*s}", (int)n, in));
		return false;
	}
	op = in + k;
	if ((size_t)(op - in) + 3 <= n && memcmp(op, "[0]", 3) == 0 && k == 11 && memcmp(in, "BASH_SOURCE", 11) == 0)
		op += 3;
	{
		size_t rest = n - (size_t)(op - in);
		bool colon = rest > 0 && *op == ':';
		const char *o = op + colon;
		size_t orest = rest - colon;
		if (orest > 0 && (*o == '-' || *o == '=' || *o == '?' || *o == '+')) {
			bool got;
			struct strbuf probe = { 0 };
			bool was_symbolic = e->symbolic;
			e->symbolic = false;
			got = var_value(e, in, k, &probe, &unset);
			e->symbolic = was_symbolic;
			free(e->why);
			e->why = NULL;
			if (*o == '+') {
				bool set = got && !unset && !(colon && probe.n == 0);
				strbuf_release(&probe);
				return set ? expand(e, o + 1, orest - 1, out) : true;
			}
			if (got && !unset && !(colon && probe.n == 0)) {
				strbuf_put(out, probe.s, probe.n);
				strbuf_release(&probe);
				return true;
			}
			strbuf_release(&probe);
			if (!got && !unset)
				return var_value(e, in, k, out, &unset); /* set, to something not known */
			if (*o == '?') {
				note_why(e, xasprintf("${%.*s}, which must be given", (int)k, in));
				return false;
			}
			/* unset or empty: the default (the environment may set it otherwise) */
			return expand(e, o + 1, orest - 1, out);
		}
		if (rest == 0) {
			if (!var_value(e, in, k, out, &unset))
				return false;
			return true;
		}
		/* the directory part, or the last part */
		if ((rest == 3 && memcmp(op, "%/*", 3) == 0) || (rest == 4 && memcmp(op, "##*/", 4) == 0)) {
			char *v, *r;
			if (!var_value(e, in, k, out, &unset) || e->leaf)
				return false;
			v = xstrndup(out->s + mark, out->n - mark);
			out->n = mark;
			out->s[mark] = '\0';
			if (*op == '%') {
				char *slash = strrchr(v, '/');
				r = slash ? xstrndup(v, (size_t)(slash - v)) : xstrdup(v);
			} else {
				const char *slash = strrchr(v, '/');
				r = xstrdup(slash ? slash + 1 : v);
			}
			strbuf_puts(out, r);
			free(r);
			free(v);
			return true;
		}
	}
	note_why(e, xasprintf("${%.*s}", (int)n, in));
	return false;
}

static bool expand(struct env *e, const char *s, size_t n, struct strbuf *out)
{
	bool dq = false;

	if (n && s[0] == '~') {
		note_why(e, xstrdup("a home directory (~), the environment's"));
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\'' && !dq) {
			size_t j = i + 1;
			while (j < n && s[j] != '\'')
				j++;
			strbuf_put(out, s + i + 1, j - i - 1);
			i = j;
		} else if (c == '"') {
			dq = !dq;
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
		} else if (c == '$' && i + 1 < n && (name_char(s[i + 1], true) || (s[i + 1] >= '0' && s[i + 1] <= '9'))) {
			size_t j = i + 1;
			bool unset;
			if (s[j] >= '0' && s[j] <= '9')
				j++;
			else
				while (j < n && name_char(s[j], false))
					j++;
			if (!var_value(e, s + i + 1, j - i - 1, out, &unset))
				return false;
			i = j - 1;
		} else if (c == '$' && i + 1 < n) {
			note_why(e, xasprintf("$%c", s[i + 1]));
			return false; /* $@, $?, $$: what the script was given or did */
		} else {
			strbuf_put(out, &c, 1);
		}
	}
	return true;
}

/* ---- the flow ---- */

static void run_range(struct env *e, int fn, uint32_t from, uint32_t limit, uint32_t ref);

static void assign_words(struct env *e, const struct sh_cmd *c, size_t from)
{
	const char *data = e->f->data;

	for (size_t i = from; i < c->nwords; i++) {
		const char *a = data + c->words[i].start, *eq = memchr(a, '=', c->words[i].end - c->words[i].start);
		size_t nl, vl;
		if (!eq || a[0] == '-')
			continue;
		nl = (size_t)(eq - a);
		if (!nl || !name_char(a[0], true))
			continue;
		for (size_t j = 1; j < nl; j++)
			if (!name_char(a[j], false))
				nl = 0;
		if (!nl)
			continue;
		vl = (size_t)(data + c->words[i].end - eq - 1);
		set_var(e, a, nl, value_of(e, eq + 1, vl), eq + 1, vl);
		free(e->why);
		e->why = NULL;
	}
}

/* The unknown variable the word starts with and the literal path after it
 * ("\"${ROOT_DIR}/csrc\"": ROOT_DIR and "/csrc"); false when it is not of
 * that form. */
static bool leading_unknown(struct env *e, const char *w, size_t n, char **leaf, char **tail)
{
	struct strbuf b = { 0 };
	bool ok;

	e->symbolic = true;
	ok = expand(e, w, n, &b) && e->leaf;
	e->symbolic = false;
	*leaf = e->leaf;
	e->leaf = NULL;
	*tail = ok ? strbuf_take(&b) : NULL;
	if (!ok) {
		strbuf_release(&b);
		free(*leaf);
		*leaf = NULL;
	}
	return ok && (*tail)[0] == '/';
}

static bool on_way_to(const char *dir, const char *anchor)
{
	return anchor && path_within(anchor, dir);
}

/* Takes a value for the variable the cd's word starts with: the nearest
 * directory A (an anchor or above it) such that A + tail is an anchor or one
 * of its parents (whether that is inside the project is the caller's to
 * say). */
static char *assume(struct env *e, const char *tail)
{
	for (int a = 0; a < 2; a++) {
		const char *anchor = e->ctx->anchors[a];
		char *up;
		if (!anchor)
			continue;
		up = xstrdup(anchor);
		for (;;) {
			char *j = xasprintf("%s%s", strcmp(up, "/") == 0 ? "" : up, tail), *d = path_normalize(j);
			bool hit = on_way_to(d, e->ctx->anchors[0]) || on_way_to(d, e->ctx->anchors[1]);
			free(j);
			free(d);
			if (hit)
				return up;
			if (strcmp(up, "/") == 0) {
				free(up);
				break;
			}
			{
				char *p = dirname_of(up);
				free(up);
				up = p;
			}
		}
	}
	return NULL;
}

/* Can the directory word of the cd at command k be written again at the point? */
static char *rewritable(struct env *e, size_t k, const char *w, size_t n)
{
	char *t = xstrndup(w, n);
	size_t at, len;
	const char *why;
	enum sh_word_kind kind = sh_word_check(t, &at, &len, &why);
	const char *p = t + (t[0] == '"' || t[0] == '\'');

	if (e->depth > 0 || e->sh->cmds[k].func != e->fn || kind == SH_WORD_BAD || mentions(t, "PWD") ||
	    mentions(t, "OLDPWD") || (*p != '$' && *p != '/')) {
		free(t);
		return NULL;
	}
	if (kind == SH_WORD_PLAIN) {
		char *q = sh_quote(t);
		free(t);
		return q;
	}
	return t;
}

/* cd / pushd DIR at command k (the operand is word i, or none). */
static void change_dir(struct env *e, size_t k, long i, bool push)
{
	const struct sh_cmd *c = &e->sh->cmds[k];
	const char *data = e->f->data;
	struct sh_dir next;
	const struct sh_word *w = i >= 0 ? &c->words[i] : NULL;
	char *v;

	memset(&next, 0, sizeof(next));
	next.cmd = (long)k;
	if (w && word_eq(data, w, "-")) {
		dir_copy(&next, &e->old);
		dir_copy(&e->old, &e->cwd);
		dir_copy(&e->cwd, &next);
		sh_dir_release(&next);
		return;
	}
	if (!w) {
		next.unknown = xstrdup("$HOME (a cd with no directory)");
	} else {
		e->dep_start = false;
		v = value_of(e, data + w->start, w->end - w->start);
		if (!v) {
			char *leaf = NULL, *tail = NULL, *val, *why = e->why;
			e->why = NULL;
			if (leading_unknown(e, data + w->start, w->end - w->start, &leaf, &tail) && (val = assume(e, tail))) {
				if (leaf[0] >= '1' && leaf[0] <= '9' && !leaf[1]) {
					int p = leaf[0] - '0';
					if (e->npos < p)
						e->npos = e->npos < 0 ? 9 : p;
					free(e->pos[p]);
					e->pos[p] = xstrdup(val);
				} else {
					set_var(e, leaf, strlen(leaf), xstrdup(val), NULL, 0);
				}
				/* the variables set from it know their values now */
				for (size_t j = 0; j < e->n; j++)
					if (!e->v[j].value && e->v[j].raw) {
						e->v[j].value = value_of(e, e->v[j].raw, strlen(e->v[j].raw));
						free(e->why);
						e->why = NULL;
					}
				next.assumed_var = leaf;
				next.assumed_value = val;
				leaf = NULL;
				e->dep_start = false;
				/* what the word expands to after the variable it starts with */
				v = xasprintf("%s%s", strcmp(val, "/") == 0 ? "" : val, tail);
			}
			free(leaf);
			free(tail);
			free(e->why);
			e->why = why;
		}
		if (v) {
			bool rel = v[0] != '/';
			next.abs = absolute_from(e, &e->cwd, v);
			next.from_start = rel ? e->cwd.from_start : e->dep_start;
			if (next.abs && !rel)
				next.word = rewritable(e, k, data + w->start, w->end - w->start);
		}
		if (!next.abs)
			next.unknown = e->why ? xstrdup(e->why) : xasprintf("%.*s", (int)(w->end - w->start), data + w->start);
		free(v);
		free(e->why);
		e->why = NULL;
	}
	if (push && e->nstack < 16) {
		memset(&e->stack[e->nstack], 0, sizeof(e->stack[0]));
		dir_copy(&e->stack[e->nstack++], &e->cwd);
	}
	dir_copy(&e->old, &e->cwd);
	dir_copy(&e->cwd, &next);
	sh_dir_release(&next);
}

static void popd(struct env *e, size_t k)
{
	dir_copy(&e->old, &e->cwd);
	if (e->nstack > 0) {
		dir_copy(&e->cwd, &e->stack[--e->nstack]);
		sh_dir_release(&e->stack[e->nstack]);
	} else {
		sh_dir_release(&e->cwd);
		e->cwd.cmd = (long)k;
		e->cwd.unknown = xstrdup("a popd with nothing pushed");
	}
}

/* A call of the script's function `fn` at command k: its body runs with the
 * call's arguments. */
static void call(struct env *e, size_t k, long cw, int fn)
{
	const struct sh_cmd *c = &e->sh->cmds[k];
	char *saved[10];
	int saved_n = e->npos, saved_fn = e->fn;

	memcpy(saved, e->pos, sizeof(saved));
	memset(e->pos, 0, sizeof(e->pos));
	e->npos = 0;
	for (size_t i = (size_t)cw + 1; i < c->nwords && e->npos < 9; i++) {
		e->pos[++e->npos] = value_of(e, e->f->data + c->words[i].start, c->words[i].end - c->words[i].start);
		free(e->why);
		e->why = NULL;
	}
	e->fn = fn;
	e->depth++;
	run_range(e, fn, e->sh->funcs[fn].start, e->sh->funcs[fn].body_end, c->start);
	e->depth--;
	e->fn = saved_fn;
	for (int p = 0; p < 10; p++)
		free(e->pos[p]);
	memcpy(e->pos, saved, sizeof(saved));
	e->npos = saved_n;
}

/* What command k does to the shell: assignments, the directory, a call. */
static void step(struct env *e, size_t k)
{
	const struct sh_cmd *c = &e->sh->cmds[k];
	const char *data = e->f->data;
	long cw = sh_cmd_word(e->sh, c);
	const struct sh_word *w;
	int fn;

	if (cw < 0) {
		assign_words(e, c, 0);
		return;
	}
	w = &c->words[cw];
	if (word_eq(data, w, "cd") || word_eq(data, w, "pushd")) {
		long i = cw + 1;
		while (i < (long)c->nwords && data[c->words[i].start] == '-' && !word_eq(data, &c->words[i], "-")) {
			bool dashdash = word_eq(data, &c->words[i], "--");
			i++;
			if (dashdash)
				break;
		}
		change_dir(e, k, i < (long)c->nwords ? i : -1, data[w->start] == 'p');
		return;
	}
	if (word_eq(data, w, "popd")) {
		popd(e, k);
		return;
	}
	if (word_eq(data, w, "local") || word_eq(data, w, "export") || word_eq(data, w, "readonly") ||
	    word_eq(data, w, "declare") || word_eq(data, w, "typeset")) {
		assign_words(e, c, (size_t)cw + 1);
		return;
	}
	/* a command's leading assignments are its own environment's */
	fn = sh_find_func(e->sh, data + w->start, w->end - w->start);
	if (fn >= 0 && e->depth < MAX_CALL_DEPTH)
		call(e, k, cw, fn);
}

/* The commands of the body of `fn` (-1: the top level) in [from, limit),
 * those whose effects are still there at `ref`. */
static void run_range(struct env *e, int fn, uint32_t from, uint32_t limit, uint32_t ref)
{
	for (size_t k = 0; k < e->sh->ncmds; k++) {
		const struct sh_cmd *c = &e->sh->cmds[k];
		if (c->func != fn || c->start < from || c->start >= limit || c->defines >= 0 ||
		    !sh_cmd_visible_at(e->sh, k, ref))
			continue;
		step(e, k);
	}
}

/* The command whose command word calls function fn, first one, or -1. */
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

/* Runs the flow from the top level to `point`, in the flow of command `at`. */
static void env_run(struct env *e, const struct src_file *f, const struct sh_script *sh, size_t at, uint32_t point,
		    const struct sh_eval_ctx *ctx)
{
	size_t chain[16], nchain = 0;

	memset(e, 0, sizeof(*e));
	e->f = f;
	e->sh = sh;
	e->ctx = ctx;
	e->npos = -1;
	e->fn = -1;
	e->script = path_absolute(f->path);
	if (!e->script)
		e->script = path_normalize(f->path);
	e->cwd.abs = ctx->start ? path_normalize(ctx->start) : NULL;
	e->cwd.cmd = -1;
	e->cwd.from_start = true;
	if (!e->cwd.abs)
		e->cwd.unknown = xstrdup("the directory the script starts in");
	e->old.unknown = xstrdup("$OLDPWD before any cd");
	e->old.cmd = -1;
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
		const struct sh_cmd *c = &sh->cmds[chain[level]];
		uint32_t until = level == 0 ? point : c->start;
		int fn = c->func;
		e->fn = fn;
		run_range(e, fn, fn >= 0 ? sh->funcs[fn].start : 0, until, until);
		if (level > 0) {
			/* enter the call: its arguments become the function's $1..$9 */
			long cw = sh_cmd_word(sh, c);
			char *args[10] = { NULL };
			int nargs = 0;
			for (size_t i = (size_t)cw + 1; cw >= 0 && i < c->nwords && nargs < 9; i++) {
				args[++nargs] = value_of(e, f->data + c->words[i].start, c->words[i].end - c->words[i].start);
				free(e->why);
				e->why = NULL;
			}
			for (int p = 0; p < 10; p++)
				free(e->pos[p]);
			memcpy(e->pos, args, sizeof(args));
			e->npos = nargs;
		}
	}
	e->fn = sh->cmds[at].func;
}

static void env_free(struct env *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->v[i].name);
		free(e->v[i].value);
		free(e->v[i].raw);
	}
	free(e->v);
	free(e->script);
	sh_dir_release(&e->cwd);
	sh_dir_release(&e->old);
	for (int i = 0; i < e->nstack; i++)
		sh_dir_release(&e->stack[i]);
	for (int p = 0; p < 10; p++)
		free(e->pos[p]);
	free(e->why);
	free(e->leaf);
}

void sh_eval_dir(const struct src_file *f, const struct sh_script *sh, size_t at, uint32_t point,
		 const struct sh_eval_ctx *ctx, struct sh_dir *out)
{
	struct env e;

	env_run(&e, f, sh, at, point, ctx);
	*out = e.cwd;
	memset(&e.cwd, 0, sizeof(e.cwd));
	env_free(&e);
}

void sh_dir_release(struct sh_dir *d)
{
	free(d->abs);
	free(d->word);
	free(d->assumed_var);
	free(d->assumed_value);
	free(d->unknown);
	memset(d, 0, sizeof(*d));
}

char *sh_eval_word(const struct src_file *f, const struct sh_script *sh, size_t at, uint32_t point,
		   const struct sh_eval_ctx *ctx, const char *word)
{
	struct env e;
	char *v, *abs;

	env_run(&e, f, sh, at, point, ctx);
	v = value_of(&e, word, strlen(word));
	abs = absolute_from(&e, &e.cwd, v);
	free(v);
	env_free(&e);
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

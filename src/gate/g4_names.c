/* G4: the code that saves and collects the profiling output can run: every
 * name its statements start from (a module, a function, the save function
 * itself and what it is taken from) is bound in the script, and every path
 * option it reads from the parsed arguments (args.profiling_dir) is one the
 * parser declares or the script sets. A save that would stop at a NameError
 * or an AttributeError saves nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "g4_names.h"
#include "project_py.h"
#include "xalloc.h"

/* The builtins a sample's code uses without binding them. */
static const char *const builtins[] = {
	"abs", "all", "any", "bool", "bytes", "callable", "dict", "dir", "divmod", "enumerate", "eval", "exec",
	"filter", "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash", "hex", "id", "input",
	"int", "isinstance", "issubclass", "iter", "len", "list", "locals", "map", "max", "min", "next", "object",
	"oct", "open", "ord", "pow", "print", "range", "repr", "reversed", "round", "set", "setattr", "slice",
	"sorted", "str", "sum", "super", "tuple", "type", "vars", "zip", "__file__", "__name__", "__import__",
	"BaseException", "Exception", "RuntimeError", "ValueError", "TypeError", "KeyError", "OSError", "IOError",
	"FileNotFoundError", "AssertionError", "NotImplementedError", "SystemExit", "ImportError", "IndexError",
	"AttributeError", "None", "True", "False", "self", "cls",
};

static const char *const keywords[] = {
	"and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else",
	"except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not",
	"or", "pass", "raise", "return", "try", "while", "with", "yield",
};

static bool in_list(const char *const *v, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(v[i]) == len && memcmp(v[i], s, len) == 0)
			return true;
	return false;
}

/* The names bound in the script, each with the function whose scope holds
 * it (PY_NONE: the module; a class body counts as the module's, which errs
 * on the side of no finding). */
struct bound {
	const struct py_module *m;
	char **v;
	int *scope;
	size_t n;
	bool star;             /* `from x import *`: anything may be bound */
};

/* The innermost function whose def block holds byte `off`, or PY_NONE. */
static int func_at(const struct py_module *m, uint32_t off)
{
	int best = PY_NONE;
	uint32_t best_len = UINT32_MAX;

	for (size_t f = 0; f < m->nfuncs; f++) {
		const struct py_range *blk = &m->stmts[m->funcs[f].stmt].block;
		if (blk->start <= off && off < blk->end && blk->end - blk->start < best_len) {
			best = (int)f;
			best_len = blk->end - blk->start;
		}
	}
	return best;
}

/* The index in m->funcs of the def statement `def_stmt` (a py_stmt's
 * `func`), or PY_NONE. */
static int func_index(const struct py_module *m, int def_stmt)
{
	for (size_t q = 0; def_stmt != PY_NONE && q < m->nfuncs; q++)
		if (m->funcs[q].stmt == def_stmt)
			return (int)q;
	return PY_NONE;
}

static void bind_in(struct bound *b, const char *s, size_t len, int scope)
{
	b->v = xrealloc(b->v, (b->n + 1) * sizeof(*b->v));
	b->scope = xrealloc(b->scope, (b->n + 1) * sizeof(*b->scope));
	b->v[b->n] = xstrndup(s, len);
	b->scope[b->n++] = scope;
}

/* A name bound by the tokens at byte `at`: in the function that holds them. */
static void bind(struct bound *b, const char *s, size_t len, uint32_t at)
{
	bind_in(b, s, len, func_at(b->m, at));
}

/* Bound where a use in function `func` sees it: the module, `func` or a
 * function that encloses it. */
static bool is_bound(const struct bound *b, const char *s, size_t len, int func)
{
	for (size_t i = 0; i < b->n; i++) {
		if (strlen(b->v[i]) != len || memcmp(b->v[i], s, len) != 0)
			continue;
		for (int f = func;; f = b->m->funcs[f].parent) {
			if (b->scope[i] == f)
				return true;
			if (f == PY_NONE)
				break;
		}
	}
	return false;
}

static bool tok_is(const struct py_module *m, size_t i, const char *lit)
{
	return i < m->ntoks && py_tok_is(m, i, lit);
}

static bool tok_name(const struct py_module *m, size_t i)
{
	return i < m->ntoks && m->toks[i].kind == PY_TOK_NAME;
}

/* Every name the script binds anywhere (scopes are not told apart: a name
 * bound in any function counts, which errs on the side of no finding):
 * imports, def / class names and parameters, assignment targets, for / with /
 * except targets, global statements, comprehension variables, lambda
 * parameters. */
static void collect_bound(const struct py_module *m, struct bound *b)
{
	for (size_t i = 0; i < m->ntoks; i++) {
		const struct py_token *t = &m->toks[i];
		if (t->kind != PY_TOK_NAME)
			continue;
		if (tok_is(m, i, "import")) {
			bool from = false;
			/* from X import a as b, c   |   import a.b as c, d */
			for (size_t k = i; k > 0 && !(m->toks[k].flags & PY_TF_BOL); k--)
				if (tok_is(m, k - 1, "from"))
					from = true;
			for (size_t k = i + 1; k < m->ntoks && m->toks[k].kind != PY_TOK_NEWLINE; k++) {
				if (tok_is(m, k, "*")) {
					b->star = true;
					continue;
				}
				if (!tok_name(m, k) || tok_is(m, k, "as"))
					continue;
				if (tok_is(m, k + 1, "as") && tok_name(m, k + 2)) {
					bind(b, m->data + m->toks[k + 2].start, m->toks[k + 2].end - m->toks[k + 2].start, t->start);
					k += 2;
					continue;
				}
				if (!from && k > 0 && tok_is(m, k - 1, "."))
					continue; /* import a.b binds a */
				bind(b, m->data + m->toks[k].start, m->toks[k].end - m->toks[k].start, t->start);
				while (!from && tok_is(m, k + 1, ".") && tok_name(m, k + 2))
					k += 2;
			}
		} else if ((tok_is(m, i, "for") || tok_is(m, i, "as") || tok_is(m, i, "global") ||
			    tok_is(m, i, "nonlocal") || tok_is(m, i, "lambda")) && tok_name(m, i + 1)) {
			/* for a, b in ...: the names up to `in`; lambda a, b: up to `:`;
			   `global x` binds in the module */
			bool global = tok_is(m, i, "global");
			for (size_t k = i + 1; k < m->ntoks && !tok_is(m, k, "in") && !tok_is(m, k, ":") &&
					       m->toks[k].kind != PY_TOK_NEWLINE && !tok_is(m, k, ")");
			     k++)
				if (tok_name(m, k) && !tok_is(m, k - 1, ".")) {
					if (global)
						bind_in(b, m->data + m->toks[k].start, m->toks[k].end - m->toks[k].start, PY_NONE);
					else
						bind(b, m->data + m->toks[k].start, m->toks[k].end - m->toks[k].start, t->start);
				}
		} else if (tok_is(m, i, "class") && tok_name(m, i + 1)) {
			bind(b, m->data + m->toks[i + 1].start, m->toks[i + 1].end - m->toks[i + 1].start, t->start);
		} else if (tok_is(m, i + 1, ":=")) {
			bind(b, m->data + t->start, t->end - t->start, t->start);
		}
	}
	for (size_t f = 0; f < m->nfuncs; f++) {
		/* the def binds its name where it stands; its parameters in its body */
		bind_in(b, m->funcs[f].name, strlen(m->funcs[f].name), m->funcs[f].parent);
		for (size_t k = 0; k < m->funcs[f].nparams; k++)
			bind_in(b, m->funcs[f].params[k], strlen(m->funcs[f].params[k]), (int)f);
	}
	for (size_t a = 0; a < m->nassigns; a++)
		for (size_t k = 0; k < m->assigns[a].ntargets; k++) {
			const char *s = m->assigns[a].targets[k].text;
			size_t n = strcspn(s, ".[(");
			if (s[n] == '\0')
				bind_in(b, s, n, func_index(m, m->stmts[m->assigns[a].stmt].func));
		}
}

static void bound_free(struct bound *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->v[i]);
	free(b->v);
	free(b->scope);
}

/* The names statement `s` reads that are bound nowhere it can see, each
 * reported once: those it starts expressions from (NAME followed by `.`, `(`
 * or `[`: a module, a function), and with `loads`, every name it reads (an
 * argument's value). Attributes, keywords, keyword-argument names and
 * builtins are not reads of a binding. */
static void check_stmt_names(struct gate_report *r, const struct src_file *f, const struct py_module *m, int s,
			     const struct bound *b, bool loads, const char *what)
{
	const struct py_stmt *st = &m->stmts[s];
	int func = func_index(m, st->func);
	size_t *said = NULL, nsaid = 0; /* the tokens reported, one per name */

	for (size_t i = st->tok_start; i < st->tok_end; i++) {
		const struct py_token *t = &m->toks[i];
		const char *txt = m->data + t->start;
		size_t len = t->end - t->start;
		bool seen = false, starts = tok_is(m, i + 1, ".") || tok_is(m, i + 1, "(") || tok_is(m, i + 1, "[");
		if (t->kind != PY_TOK_NAME || (i > st->tok_start && tok_is(m, i - 1, ".")))
			continue;
		if (!starts && (!loads || tok_is(m, i + 1, "=") || tok_is(m, i + 1, ":=")))
			continue;
		if (in_list(keywords, sizeof(keywords) / sizeof(keywords[0]), txt, len) ||
		    in_list(builtins, sizeof(builtins) / sizeof(builtins[0]), txt, len) || is_bound(b, txt, len, func))
			continue;
		for (size_t k = 0; k < nsaid && !seen; k++)
			seen = m->toks[said[k]].end - m->toks[said[k]].start == len &&
			       memcmp(m->data + m->toks[said[k]].start, txt, len) == 0;
		if (seen)
			continue;
		said = xrealloc(said, (nsaid + 1) * sizeof(*said));
		said[nsaid++] = i;
		gate_add(r, GATE_RULE_G4_NAMES, DIAG_ERROR, gate_loc_at(f, t->start, t->end),
			 "import or define it where this code runs",
			 "%s uses '%.*s', which the script never imports, defines or assigns where this code can see "
			 "it: it stops with a NameError%s", what, (int)len, txt, loads ? "" : " and nothing is saved");
	}
	free(said);
}

/* The statements that give the save function its value: `save = helper()`. */
static void check_binding_of(struct gate_report *r, const struct src_file *f, const struct py_module *m,
			     const char *name, const struct bound *b)
{
	for (size_t a = 0; a < m->nassigns; a++) {
		const struct py_assign *as = &m->assigns[a];
		if (as->ntargets == 1 && strcmp(as->targets[0].text, name) == 0)
			check_stmt_names(r, f, m, as->stmt, b, false, "the statement that gives the save function its value");
	}
}

/* args.<path option> read where the parser declares no such option and the
 * script never sets it. */
static void check_options(struct gate_report *r, const struct src_file *f, struct py_module *m)
{
	size_t nopt;
	struct project_py_option *opts = project_py_options(m, &nopt);
	bool parses = false;

	for (size_t c = 0; c < m->ncalls && !parses; c++)
		parses = strcmp(m->calls[c].name, "parse_args") == 0;
	if (!parses || nopt == 0) {
		project_py_options_free(opts, nopt);
		return;
	}
	for (size_t i = 2; i < m->ntoks; i++) {
		const struct py_token *t = &m->toks[i];
		char *attr;
		bool known = false;
		if (t->kind != PY_TOK_NAME || !tok_is(m, i - 1, ".") || !tok_name(m, i - 2) || tok_is(m, i + 1, "="))
			continue;
		if (!tok_is(m, i - 2, "args") && !tok_is(m, i - 2, "opts") && !tok_is(m, i - 2, "options"))
			continue;
		attr = xstrndup(m->data + t->start, t->end - t->start);
		if (!project_py_path_name(attr)) {
			free(attr);
			continue;
		}
		for (size_t k = 0; k < nopt && !known; k++)
			known = strcmp(opts[k].dest, attr) == 0;
		for (size_t a = 0; a < m->nassigns && !known; a++)
			for (size_t k = 0; k < m->assigns[a].ntargets && !known; k++) {
				const char *s = m->assigns[a].targets[k].text, *dot = strrchr(s, '.');
				known = dot && strcmp(dot + 1, attr) == 0;
			}
		if (!known)
			gate_add(r, GATE_RULE_G4_NAMES, DIAG_ERROR, gate_loc_at(f, t->start, t->end),
				 "declare it: p.add_argument(\"--profiling_dir\", ...)",
				 "reads '%.*s.%s', but the argument parser has no --%s option and the script never sets it: "
				 "an AttributeError", (int)(m->toks[i - 2].end - m->toks[i - 2].start), m->data + m->toks[i - 2].start,
				 attr, attr);
		free(attr);
	}
	project_py_options_free(opts, nopt);
}

void g4_check_names(const struct project_model *p, struct gate_report *r, const struct src_file *f,
		    struct py_module *m)
{
	struct bound b = { m, NULL, NULL, 0, false };

	collect_bound(m, &b);
	if (!b.star)
		for (size_t c = 0; c < m->ncalls; c++) {
			const struct py_call *call = &m->calls[c];
			if (project_py_is_save(call)) {
				check_stmt_names(r, f, m, call->stmt, &b, false, "the save");
				check_binding_of(r, f, m, call->callee_text, &b);
			} else if (project_py_is_collector(m, call)) {
				check_stmt_names(r, f, m, call->stmt, &b, false, "the collector's run");
			} else if (project_is_op_call(p, m, call)) {
				check_stmt_names(r, f, m, call->stmt, &b, true, "this call of the operator");
			}
		}
	check_options(r, f, m);
	bound_free(&b);
}

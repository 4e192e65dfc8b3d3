/* OpDef reader: Input/Output chains (this-> and OpAICoreConfig variables), ParamType/DataType/Format, Attr chains, OP_ADD. */
#include "project_opdef.h"

#include <stdlib.h>
#include <string.h>

#include "project_tokens.h"
#include "xalloc.h"

struct op_class {
	size_t name_tok, open, close;
};

static struct opdef_range rng(uint32_t s, uint32_t e)
{
	struct opdef_range r = { s, e };
	return r;
}

/* `class N [final] : [public] [ns::]OpDef {` starting at token i. */
static bool opdef_class_at(const struct tok_view *tv, size_t i, struct op_class *out)
{
	size_t k = i + 1;
	bool base = false;

	if (!(cxx_tok_kw(&tv->v[i], CXX_KW_class) || cxx_tok_kw(&tv->v[i], CXX_KW_struct)) || !tv_ident(tv, k))
		return false;
	out->name_tok = k;
	for (k++; k < tv->n; k++) {
		if (tv_punct(tv, k, CXX_P_SEMI))
			return false;
		if (tv_punct(tv, k, CXX_P_LBRACE))
			break;
		if (tv_is(tv, k, "OpDef"))
			base = true;
	}
	if (!base || k >= tv->n || tv->match[k] == TV_NONE)
		return false;
	out->open = k;
	out->close = tv->match[k];
	return true;
}

/* The index of the op named `name`, added when new (the array may move). */
static size_t op_index(struct opdef_file *f, const char *name)
{
	struct opdef_op *op;

	for (size_t i = 0; i < f->nops; i++)
		if (strcmp(f->ops[i].name, name) == 0)
			return i;
	f->ops = xrealloc(f->ops, (f->nops + 1) * sizeof(*f->ops));
	op = &f->ops[f->nops];
	memset(op, 0, sizeof(*op));
	op->name = xstrdup(name);
	op->last_input = op->last_output = -1;
	op->from_config = -1;
	return f->nops++;
}

static struct opdef_op *op_named(struct opdef_file *f, const char *name)
{
	size_t k = op_index(f, name);

	return &f->ops[k];
}

static enum opdef_param_type param_type(const char *s)
{
	const char *last = strrchr(s, ':');

	last = last ? last + 1 : s;
	if (strcmp(last, "REQUIRED") == 0)
		return OPDEF_REQUIRED;
	if (strcmp(last, "OPTIONAL") == 0)
		return OPDEF_OPTIONAL;
	if (strcmp(last, "DYNAMIC") == 0)
		return OPDEF_DYNAMIC;
	return OPDEF_OTHER;
}

/* The entries of `({a, b})` or `(a)` at paren `open`. */
static char **list_entries(const struct tok_view *tv, size_t open, size_t *n)
{
	size_t close = tv->match[open], *s, *e, cnt;
	char **v = NULL;

	*n = 0;
	if (close == TV_NONE)
		return NULL;
	if (tv_punct(tv, open + 1, CXX_P_LBRACE) && tv->match[open + 1] != TV_NONE)
		open = open + 1;
	cnt = tv_split_args(tv, open, &s, &e);
	if (cnt) {
		v = xmalloc(cnt * sizeof(*v));
		for (size_t a = 0; a < cnt; a++)
			v[a] = tv_text(tv, s[a], e[a]);
	}
	free(s);
	free(e);
	*n = cnt;
	return v;
}

static uint32_t line_start_of(const char *d, uint32_t at)
{
	while (at > 0 && d[at - 1] != '\n')
		at--;
	return at;
}

static uint32_t line_end_of(const char *d, size_t len, uint32_t at)
{
	while (at < len && d[at] != '\n')
		at++;
	return at < len ? at + 1 : (uint32_t)len;
}

/* An Attr chain whose `Attr` is token k (the chain starts at token i);
 * returns the token after it. */
static size_t read_attr(const struct tok_view *tv, size_t i, size_t k, struct opdef_op *op)
{
	struct opdef_attr a;

	memset(&a, 0, sizeof(a));
	a.name = tv_tok_text(tv, k + 2, true);
	k += 4;
	while (tv_punct(tv, k, CXX_P_DOT) && tv_ident(tv, k + 1) && tv_punct(tv, k + 2, CXX_P_LPAREN) &&
	       tv->match[k + 2] != TV_NONE) {
		size_t open = k + 2;
		if (tv_is(tv, k + 1, "AttrType")) {
			char *t = tv_text(tv, open + 1, tv->match[open]);
			a.optional = param_type(t) == OPDEF_OPTIONAL;
			free(t);
		} else if (!tv_is(tv, k + 1, "Comment") && !tv_is(tv, k + 1, "Version") && !a.kind) {
			a.kind = tv_tok_text(tv, k + 1, false);
		}
		k = tv->match[open] + 1;
	}
	if (!a.kind)
		a.kind = xstrdup("");
	a.chain = rng(tv->v[i].start, tv_punct(tv, k, CXX_P_SEMI) ? tv->v[k].end : tv->v[k - 1].end);
	op->attrs = xrealloc(op->attrs, (op->nattrs + 1) * sizeof(*op->attrs));
	op->attrs[op->nattrs++] = a;
	return tv_punct(tv, k, CXX_P_SEMI) ? k + 1 : k;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The chain starting at token i whose Input/Output/Attr name is token k
 * (k = i for a bare chain, i + 2 after `this->` or `V.`); returns the token
 * after it, or i when there is none. */
static size_t read_chain(const struct tok_view *tv, size_t i, size_t k, struct opdef_op *op)
{
	size_t open;
	struct opdef_param p;

	memset(&p, 0, sizeof(p));
	if (tv_is(tv, k, "Attr") && tv_punct(tv, k + 1, CXX_P_LPAREN) && tv->v[k + 2].kind == CXX_TOK_STRING &&
	    tv_punct(tv, k + 3, CXX_P_RPAREN))
		return read_attr(tv, i, k, op);
	if (!(tv_is(tv, k, "Input") || tv_is(tv, k, "Output")) || !tv_punct(tv, k + 1, CXX_P_LPAREN) ||
	    tv->v[k + 2].kind != CXX_TOK_STRING || !tv_punct(tv, k + 3, CXX_P_RPAREN))
		return i;
	p.output = tv_is(tv, k, "Output");
	p.name = tv_tok_text(tv, k + 2, true);
	p.name_lit = rng(tv->v[k + 2].start, tv->v[k + 2].end);
	k += 4;
	while (tv_punct(tv, k, CXX_P_DOT) && tv_ident(tv, k + 1) && tv_punct(tv, k + 2, CXX_P_LPAREN) &&
	       tv->match[k + 2] != TV_NONE) {
		open = k + 2;
		if (tv_is(tv, k + 1, "ParamType")) {
			char *t = tv_text(tv, open + 1, tv->match[open]);
			p.type = param_type(t);
			free(t);
			p.type_arg = rng(tv->v[open].end, tv->v[tv->match[open]].start);
		} else if ((tv_is(tv, k + 1, "DataType") || tv_is(tv, k + 1, "DataTypeList")) && !p.dtypes) {
			p.dtypes = list_entries(tv, open, &p.ndtypes);
		} else if ((tv_is(tv, k + 1, "Format") || tv_is(tv, k + 1, "FormatList")) && !p.formats) {
			p.formats = list_entries(tv, open, &p.nformats);
		}
		k = tv->match[open] + 1;
	}
	{
		uint32_t end = tv_punct(tv, k, CXX_P_SEMI) ? tv->v[k].end : tv->v[k - 1].end;
		p.chain = rng(tv->v[i].start, end);
		if (p.type == OPDEF_UNSET)
			p.type_arg = rng(tv_punct(tv, k, CXX_P_SEMI) ? tv->v[k].start : end,
					 tv_punct(tv, k, CXX_P_SEMI) ? tv->v[k].start : end);
		p.line_start = line_start_of(tv->data, p.chain.start);
		p.line_end = line_end_of(tv->data, tv->len, end);
	}
	op->params = xrealloc(op->params, (op->nparams + 1) * sizeof(*op->params));
	op->params[op->nparams] = p;
	if (p.output) {
		op->noutputs++;
		op->last_output = (long)op->nparams;
		op->after_last_output = p.line_end;
	} else {
		op->ninputs++;
		op->last_input = (long)op->nparams;
	}
	op->nparams++;
	return tv_punct(tv, k, CXX_P_SEMI) ? k + 1 : k;
}

/* A member function of an OpDef class defined outside it:
 * `[ns::]Foo::Name(...) [const ...] [: init(...), ...] { body }`. */
struct op_method {
	size_t cls;                   /* index in the classes */
	size_t open, close;           /* the body's braces */
};

/* An `OpAICoreConfig V` declaration, its V. chains read as an op's: one
 * round of them. A variable registered for one SoC and then declared again
 * for another (Input("x1") a second time, after AddConfig("ascend310p", V))
 * starts a new round: each registration takes a copy of what V holds then. */
struct config_acc {
	size_t name_tok;
	size_t block;                 /* the innermost '{' around it; TV_NONE at file scope */
	bool member;                  /* a data member: its class's functions see it wherever it is declared */
	bool closed;                  /* a later round of the variable took over */
	struct opdef_op chains;       /* params and their counts only */
	char **socs;                  /* its registrations after its chains */
	size_t nsocs;
};

struct reader {
	const struct tok_view *tv;
	struct opdef_file *out;
	struct op_class *classes;
	size_t nclasses;
	struct op_method *methods;
	size_t nmethods;
	struct config_acc *configs;
	size_t nconfigs;
	size_t nadd;
	char *only_add;
};

/* The method whose class name is token i (`Foo` of `Foo::Name(`), if any. */
static bool method_at(const struct reader *rd, size_t i, struct op_method *out)
{
	const struct tok_view *tv = rd->tv;
	size_t k = i + 2, open;

	if (!tv_ident(tv, i) || !tv_punct(tv, i + 1, CXX_P_SCOPE) ||
	    (i > 0 && (tv_punct(tv, i - 1, CXX_P_DOT) || tv_punct(tv, i - 1, CXX_P_ARROW))))
		return false;
	if (tv_punct(tv, k, CXX_P_TILDE))
		k++;
	if (!tv_ident(tv, k) || !tv_punct(tv, k + 1, CXX_P_LPAREN) || tv->match[k + 1] == TV_NONE)
		return false;
	out->cls = TV_NONE;
	for (size_t c = 0; c < rd->nclasses; c++) {
		const struct cxx_token *a = &tv->v[rd->classes[c].name_tok], *b = &tv->v[i];
		if (a->end - a->start == b->end - b->start && memcmp(tv->data + a->start, tv->data + b->start,
								      a->end - a->start) == 0)
			out->cls = c;
	}
	if (out->cls == TV_NONE)
		return false;
	open = tv->match[k + 1] + 1;
	while (open < tv->n && (tv_ident(tv, open) || tv->v[open].kind == CXX_TOK_KEYWORD))
		open++; /* const, noexcept, override */
	if (tv_punct(tv, open, CXX_P_COLON)) {
		/* a member initializer list: names and their (...) or {...} */
		open++;
		for (;;) {
			while (tv_ident(tv, open) || tv_punct(tv, open, CXX_P_SCOPE))
				open++;
			if (!(tv_punct(tv, open, CXX_P_LPAREN) || tv_punct(tv, open, CXX_P_LBRACE)) ||
			    tv->match[open] == TV_NONE)
				return false;
			open = tv->match[open] + 1;
			if (!tv_punct(tv, open, CXX_P_COMMA))
				break;
			open++;
		}
	}
	if (!tv_punct(tv, open, CXX_P_LBRACE) || tv->match[open] == TV_NONE)
		return false;
	out->open = open;
	out->close = tv->match[open];
	return true;
}

/* The op the code at token i belongs to: the innermost OpDef class around
 * it, else the class of the member function around it, else the file's only
 * OP_ADD, else the op with an empty name. */
static struct opdef_op *owner_at(struct reader *rd, size_t i)
{
	const struct tok_view *tv = rd->tv;
	const struct op_class *in = NULL;
	struct opdef_op *op;
	char *n;

	for (size_t c = 0; c < rd->nclasses; c++)
		if (rd->classes[c].open < i && i < rd->classes[c].close && (!in || rd->classes[c].open > in->open))
			in = &rd->classes[c];
	for (size_t m = 0; m < rd->nmethods && !in; m++)
		if (rd->methods[m].open < i && i < rd->methods[m].close)
			in = &rd->classes[rd->methods[m].cls];
	if (!in)
		return op_named(rd->out, rd->nadd == 1 ? rd->only_add : "");
	n = tv_tok_text(tv, in->name_tok, false);
	op = op_named(rd->out, n);
	free(n);
	op->class_name = rng(tv->v[in->name_tok].start, tv->v[in->name_tok].end);
	op->body = rng(tv->v[in->open].start, tv->v[in->close].end);
	return op;
}

/* `OpAICoreConfig V;` (or `= ...;`, `{...}`, `(args);`) at token i; not a
 * function returning one (`OpAICoreConfig GetConfig() const {`). */
static bool config_decl_at(const struct tok_view *tv, size_t i)
{
	size_t close;

	if (!tv_is(tv, i, "OpAICoreConfig") || !tv_ident(tv, i + 1) ||
	    (i > 0 && (tv_punct(tv, i - 1, CXX_P_DOT) || tv_punct(tv, i - 1, CXX_P_ARROW))))
		return false;
	if (tv_punct(tv, i + 2, CXX_P_SEMI) || tv_punct(tv, i + 2, CXX_P_ASSIGN))
		return true;
	if (tv_punct(tv, i + 2, CXX_P_LBRACE))
		return tv->match[i + 2] != TV_NONE;
	if (!tv_punct(tv, i + 2, CXX_P_LPAREN) || (close = tv->match[i + 2]) == TV_NONE)
		return false;
	return close > i + 3 && tv_punct(tv, close + 1, CXX_P_SEMI);
}

/* The config variable token i names: the nearest declaration of that name
 * before it whose block holds it, else a data member of that name. */
static struct config_acc *config_named(struct reader *rd, size_t i)
{
	const struct tok_view *tv = rd->tv;
	const struct cxx_token *t = &tv->v[i];
	struct config_acc *best = NULL, *member = NULL;

	for (size_t c = 0; c < rd->nconfigs; c++) {
		struct config_acc *a = &rd->configs[c];
		const struct cxx_token *d = &tv->v[a->name_tok];
		if (a->closed || d->end - d->start != t->end - t->start ||
		    memcmp(tv->data + d->start, tv->data + t->start, t->end - t->start) != 0)
			continue;
		if (a->block != TV_NONE && !(a->block < i && i < tv->match[a->block]))
			continue;
		if (a->member) {
			if (!member)
				member = a;
		} else if (a->name_tok < i && (!best || a->name_tok > best->name_tok)) {
			best = a;
		}
	}
	return best ? best : member;
}

/* Does the chain whose name literal is token lit declare a parameter the
 * round already has (an input of that name, or an output: an op that
 * writes an input in place has both)? */
static bool declares_again(const struct tok_view *tv, const struct opdef_op *round, size_t lit)
{
	bool again = false, output = tv_is(tv, lit - 2, "Output");
	char *name;

	if (tv->v[lit].kind != CXX_TOK_STRING)
		return false;
	name = tv_tok_text(tv, lit, true);
	for (size_t k = 0; k < round->nparams && !again; k++)
		again = round->params[k].output == output && strcmp(round->params[k].name, name) == 0;
	free(name);
	return again;
}

/* Closes round a of its variable and returns a new one (the array may move). */
static struct config_acc *config_round(struct reader *rd, struct config_acc *a)
{
	size_t k = (size_t)(a - rd->configs);
	struct config_acc *n;

	rd->configs[k].closed = true;
	rd->configs = xrealloc(rd->configs, (rd->nconfigs + 1) * sizeof(*rd->configs));
	n = &rd->configs[rd->nconfigs++];
	memset(n, 0, sizeof(*n));
	n->name_tok = rd->configs[k].name_tok;
	n->block = rd->configs[k].block;
	n->member = rd->configs[k].member;
	n->chains.last_input = n->chains.last_output = -1;
	return n;
}

/* The innermost '{' around each token (TV_NONE at file scope). */
static size_t *enclosing_braces(const struct tok_view *tv)
{
	size_t *encl = xmalloc((tv->n + 1) * sizeof(*encl)), *stack = xmalloc((tv->n + 1) * sizeof(*stack)), sp = 0;

	for (size_t i = 0; i < tv->n; i++) {
		encl[i] = sp ? stack[sp - 1] : TV_NONE;
		if (tv_punct(tv, i, CXX_P_LBRACE) && tv->match[i] != TV_NONE)
			stack[sp++] = i;
		else if (tv_punct(tv, i, CXX_P_RBRACE) && sp && tv->match[stack[sp - 1]] == i)
			sp--;
	}
	free(stack);
	return encl;
}

static char **copy_list(char *const *v, size_t n)
{
	char **c = n ? xmalloc(n * sizeof(*c)) : NULL;

	for (size_t i = 0; i < n; i++)
		c[i] = xstrdup(v[i]);
	return c;
}

/* Rounds in source order: of their first chains. */
static int config_cmp(const void *x, const void *y)
{
	const struct opdef_config *a = x, *b = y;

	return a->params[0].chain.start < b->params[0].chain.start ? -1 : a->params[0].chain.start > b->params[0].chain.start;
}

/* Hands the configs that declare inputs or outputs to their ops. */
static void configs_finish(struct reader *rd)
{
	for (size_t c = 0; c < rd->nconfigs; c++) {
		struct config_acc *a = &rd->configs[c];
		struct opdef_config *cfg;
		struct opdef_op *op;
		if (a->chains.nparams == 0) {
			free_list(a->socs, a->nsocs);
			continue;
		}
		op = owner_at(rd, a->name_tok);
		op->configs = xrealloc(op->configs, (op->nconfigs + 1) * sizeof(*op->configs));
		cfg = &op->configs[op->nconfigs++];
		cfg->var = tv_tok_text(rd->tv, a->name_tok, false);
		cfg->decl = rng(rd->tv->v[a->name_tok].start, rd->tv->v[a->name_tok].end);
		cfg->socs = a->socs;
		cfg->nsocs = a->nsocs;
		cfg->params = a->chains.params;
		cfg->nparams = a->chains.nparams;
		cfg->ninputs = a->chains.ninputs;
		cfg->noutputs = a->chains.noutputs;
		cfg->last_input = a->chains.last_input;
		cfg->last_output = a->chains.last_output;
		cfg->after_last_output = a->chains.after_last_output;
	}
	for (size_t o = 0; o < rd->out->nops; o++)
		if (rd->out->ops[o].nconfigs > 1)
			xqsort(rd->out->ops[o].configs, rd->out->ops[o].nconfigs, sizeof(struct opdef_config), config_cmp);
	/* An op without this-> chains is declared by its configs alone (each
	   SoC's). They should all list the same inputs and outputs; where they
	   do not, the first one's are taken: wire and G2 hold every other
	   config to the op's list and say where it differs. */
	for (size_t o = 0; o < rd->out->nops; o++) {
		struct opdef_op *op = &rd->out->ops[o];
		const struct opdef_config *first = op->nconfigs ? &op->configs[0] : NULL;
		if (op->nparams > 0 || !first)
			continue;
		op->from_config = 0;
		op->params = xmalloc(first->nparams * sizeof(*op->params));
		for (size_t k = 0; k < first->nparams; k++) {
			struct opdef_param *q = &op->params[k];
			*q = first->params[k];
			q->name = xstrdup(q->name);
			q->dtypes = copy_list(q->dtypes, q->ndtypes);
			q->formats = copy_list(q->formats, q->nformats);
		}
		op->nparams = first->nparams;
		op->ninputs = first->ninputs;
		op->noutputs = first->noutputs;
		op->last_input = first->last_input;
		op->last_output = first->last_output;
		op->after_last_output = first->after_last_output;
	}
}

void project_opdef(const char *data, size_t len, struct opdef_file *out)
{
	struct tok_view tv;
	struct reader rd;
	size_t *encl;

	memset(out, 0, sizeof(*out));
	memset(&rd, 0, sizeof(rd));
	tok_view_init(&tv, data, len);
	rd.tv = &tv;
	rd.out = out;
	for (size_t i = 0; i < tv.n; i++) {
		struct op_class c;
		if (opdef_class_at(&tv, i, &c)) {
			rd.classes = xrealloc(rd.classes, (rd.nclasses + 1) * sizeof(*rd.classes));
			rd.classes[rd.nclasses++] = c;
		}
		if (tv_is(&tv, i, "OP_ADD") && tv_punct(&tv, i + 1, CXX_P_LPAREN) && tv_ident(&tv, i + 2) &&
		    tv.match[i + 1] != TV_NONE) {
			char *n = tv_tok_text(&tv, i + 2, false);
			struct opdef_op *op = op_named(out, n);
			op->registered = true;
			op->op_add = rng(tv.v[i].start, tv.v[tv.match[i + 1]].end);
			free(rd.only_add);
			rd.only_add = n;
			rd.nadd++;
		}
	}
	encl = enclosing_braces(&tv);
	for (size_t i = 0; i < tv.n; i++) {
		struct op_method m;
		if (method_at(&rd, i, &m)) {
			rd.methods = xrealloc(rd.methods, (rd.nmethods + 1) * sizeof(*rd.methods));
			rd.methods[rd.nmethods++] = m;
		}
		if (config_decl_at(&tv, i)) {
			struct config_acc *a;
			rd.configs = xrealloc(rd.configs, (rd.nconfigs + 1) * sizeof(*rd.configs));
			a = &rd.configs[rd.nconfigs++];
			memset(a, 0, sizeof(*a));
			a->name_tok = i + 1;
			a->block = encl[i];
			for (size_t c = 0; c < rd.nclasses && !a->member; c++)
				a->member = a->block == rd.classes[c].open;
			a->chains.last_input = a->chains.last_output = -1;
		}
	}
	for (size_t i = 0; i < tv.n; i++) {
		bool bare = (tv_is(&tv, i, "Input") || tv_is(&tv, i, "Output") || tv_is(&tv, i, "Attr")) &&
			    (i == 0 || tv_punct(&tv, i - 1, CXX_P_SEMI) || tv_punct(&tv, i - 1, CXX_P_LBRACE) ||
			     tv_punct(&tv, i - 1, CXX_P_RBRACE));
		size_t next = i;
		if (cxx_tok_kw(&tv.v[i], CXX_KW_this) && tv_punct(&tv, i + 1, CXX_P_ARROW))
			next = read_chain(&tv, i, i + 2, owner_at(&rd, i));
		else if (bare)
			next = read_chain(&tv, i, i, owner_at(&rd, i));
		else if (tv_ident(&tv, i) && tv_punct(&tv, i + 1, CXX_P_DOT) &&
			 (tv_is(&tv, i + 2, "Input") || tv_is(&tv, i + 2, "Output")) &&
			 !(i > 0 && (tv_punct(&tv, i - 1, CXX_P_DOT) || tv_punct(&tv, i - 1, CXX_P_ARROW) ||
				     tv_punct(&tv, i - 1, CXX_P_SCOPE)))) {
			struct config_acc *a = config_named(&rd, i);
			if (a && declares_again(&tv, &a->chains, i + 4))
				a = config_round(&rd, a);
			if (a)
				next = read_chain(&tv, i, i + 2, &a->chains);
		} else if (tv_is(&tv, i, "AddConfig") && tv_punct(&tv, i + 1, CXX_P_LPAREN) &&
			   tv.v[i + 2].kind == CXX_TOK_STRING && tv_punct(&tv, i + 3, CXX_P_COMMA) &&
			   tv_ident(&tv, i + 4) && tv_punct(&tv, i + 5, CXX_P_RPAREN)) {
			struct config_acc *a = config_named(&rd, i + 4);
			if (a && a->chains.nparams > 0) { /* a registration before any chain takes none */
				a->socs = xrealloc(a->socs, (a->nsocs + 1) * sizeof(*a->socs));
				a->socs[a->nsocs++] = tv_tok_text(&tv, i + 2, true);
			}
		}
		if (next > i)
			i = next - 1;
	}
	/* classes without chains still name an op */
	for (size_t c = 0; c < rd.nclasses; c++) {
		char *n = tv_tok_text(&tv, rd.classes[c].name_tok, false);
		struct opdef_op *op = op_named(out, n);
		free(n);
		op->class_name = rng(tv.v[rd.classes[c].name_tok].start, tv.v[rd.classes[c].name_tok].end);
		op->body = rng(tv.v[rd.classes[c].open].start, tv.v[rd.classes[c].close].end);
	}
	configs_finish(&rd);
	for (size_t c = 0; c < rd.nconfigs; c++)
		free(rd.configs[c].chains.attrs);
	free(rd.configs);
	free(rd.methods);
	free(encl);
	free(rd.only_add);
	free(rd.classes);
	tok_view_release(&tv);
}

static void free_params(struct opdef_param *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		free(v[k].name);
		free_list(v[k].dtypes, v[k].ndtypes);
		free_list(v[k].formats, v[k].nformats);
	}
	free(v);
}

void opdef_file_release(struct opdef_file *f)
{
	for (size_t i = 0; i < f->nops; i++) {
		struct opdef_op *op = &f->ops[i];
		free_params(op->params, op->nparams);
		for (size_t c = 0; c < op->nconfigs; c++) {
			free(op->configs[c].var);
			free_list(op->configs[c].socs, op->configs[c].nsocs);
			free_params(op->configs[c].params, op->configs[c].nparams);
		}
		free(op->configs);
		for (size_t k = 0; k < op->nattrs; k++) {
			free(op->attrs[k].name);
			free(op->attrs[k].kind);
		}
		free(op->attrs);
		free(op->name);
	}
	free(f->ops);
	memset(f, 0, sizeof(*f));
}

long opdef_output(const struct opdef_op *op, size_t k)
{
	for (size_t i = 0; i < op->nparams; i++)
		if (op->params[i].output && k-- == 0)
			return (long)i;
	return -1;
}

long opdef_output_index(const struct opdef_op *op, const char *name)
{
	long k = 0;

	for (size_t i = 0; i < op->nparams; i++) {
		if (!op->params[i].output)
			continue;
		if (strcmp(op->params[i].name, name) == 0)
			return k;
		k++;
	}
	return -1;
}

const char *opdef_param_type_name(enum opdef_param_type t)
{
	switch (t) {
	case OPDEF_UNSET:
		return "unset";
	case OPDEF_REQUIRED:
		return "REQUIRED";
	case OPDEF_OPTIONAL:
		return "OPTIONAL";
	case OPDEF_DYNAMIC:
		return "DYNAMIC";
	case OPDEF_OTHER:
		return "other";
	}
	return "other";
}

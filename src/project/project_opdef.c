/* OpDef reader: Input/Output chains, ParamType/DataType/Format, Attr chains, OP_ADD. */
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

static struct opdef_op *op_named(struct opdef_file *f, const char *name)
{
	struct opdef_op *op;

	for (size_t i = 0; i < f->nops; i++)
		if (strcmp(f->ops[i].name, name) == 0)
			return &f->ops[i];
	f->ops = xrealloc(f->ops, (f->nops + 1) * sizeof(*f->ops));
	op = &f->ops[f->nops++];
	memset(op, 0, sizeof(*op));
	op->name = xstrdup(name);
	op->last_input = op->last_output = -1;
	return op;
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

/* A chain at token i (`this` or the Input/Output/Attr name); returns the
 * token after it, or i when there is none. */
static size_t read_chain(const struct tok_view *tv, size_t i, struct opdef_op *op)
{
	size_t k = i, open;
	struct opdef_param p;

	memset(&p, 0, sizeof(p));
	if (cxx_tok_kw(&tv->v[k], CXX_KW_this)) {
		if (!tv_punct(tv, k + 1, CXX_P_ARROW))
			return i;
		k += 2;
	}
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

void project_opdef(const char *data, size_t len, struct opdef_file *out)
{
	struct tok_view tv;
	struct op_class *classes = NULL;
	size_t nclasses = 0, nadd = 0;
	char *only_add = NULL;

	memset(out, 0, sizeof(*out));
	tok_view_init(&tv, data, len);
	for (size_t i = 0; i < tv.n; i++) {
		struct op_class c;
		if (opdef_class_at(&tv, i, &c)) {
			classes = xrealloc(classes, (nclasses + 1) * sizeof(*classes));
			classes[nclasses++] = c;
		}
		if (tv_is(&tv, i, "OP_ADD") && tv_punct(&tv, i + 1, CXX_P_LPAREN) && tv_ident(&tv, i + 2) &&
		    tv.match[i + 1] != TV_NONE) {
			char *n = tv_tok_text(&tv, i + 2, false);
			struct opdef_op *op = op_named(out, n);
			op->registered = true;
			op->op_add = rng(tv.v[i].start, tv.v[tv.match[i + 1]].end);
			free(only_add);
			only_add = n;
			nadd++;
		}
	}
	for (size_t i = 0; i < tv.n; i++) {
		bool starts = cxx_tok_kw(&tv.v[i], CXX_KW_this) ||
			      ((tv_is(&tv, i, "Input") || tv_is(&tv, i, "Output") || tv_is(&tv, i, "Attr")) &&
			       (i == 0 || tv_punct(&tv, i - 1, CXX_P_SEMI) || tv_punct(&tv, i - 1, CXX_P_LBRACE) ||
				tv_punct(&tv, i - 1, CXX_P_RBRACE)));
		struct opdef_op *op = NULL;
		size_t next;
		const struct op_class *in = NULL;
		if (!starts)
			continue;
		for (size_t c = 0; c < nclasses; c++)
			if (classes[c].open < i && i < classes[c].close &&
			    (!in || classes[c].open > in->open))
				in = &classes[c];
		if (in) {
			char *n = tv_tok_text(&tv, in->name_tok, false);
			op = op_named(out, n);
			free(n);
			op->class_name = rng(tv.v[in->name_tok].start, tv.v[in->name_tok].end);
			op->body = rng(tv.v[in->open].start, tv.v[in->close].end);
		} else {
			op = op_named(out, nadd == 1 ? only_add : "");
		}
		next = read_chain(&tv, i, op);
		if (next > i)
			i = next - 1;
	}
	/* classes without chains still name an op */
	for (size_t c = 0; c < nclasses; c++) {
		char *n = tv_tok_text(&tv, classes[c].name_tok, false);
		struct opdef_op *op = op_named(out, n);
		free(n);
		op->class_name = rng(tv.v[classes[c].name_tok].start, tv.v[classes[c].name_tok].end);
		op->body = rng(tv.v[classes[c].open].start, tv.v[classes[c].close].end);
	}
	free(only_add);
	free(classes);
	tok_view_release(&tv);
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void opdef_file_release(struct opdef_file *f)
{
	for (size_t i = 0; i < f->nops; i++) {
		struct opdef_op *op = &f->ops[i];
		for (size_t k = 0; k < op->nparams; k++) {
			free(op->params[k].name);
			free_list(op->params[k].dtypes, op->params[k].ndtypes);
			free_list(op->params[k].formats, op->params[k].nformats);
		}
		for (size_t k = 0; k < op->nattrs; k++) {
			free(op->attrs[k].name);
			free(op->attrs[k].kind);
		}
		free(op->attrs);
		free(op->params);
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

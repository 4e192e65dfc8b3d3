/* InferShape / InferDataType reader over the C++ outline: output indices,
 * dimensions and data types the functions set, and whether unconditionally. */
#include "project_infer.h"

#include <stdlib.h>
#include <string.h>

#include "cxx_outline.h"
#include "project_tokens.h"
#include "xalloc.h"

static struct infer_range rng(uint32_t s, uint32_t e)
{
	struct infer_range r = { s, e };
	return r;
}

static size_t tok_end(const struct tok_view *tv, uint32_t off)
{
	size_t k = tv_at(tv, off);
	return k;
}

static bool stmt_conditional(const struct cxx_body *b, int stmt)
{
	for (int s = stmt; s >= 0 && (size_t)s < b->nstmts; s = b->stmts[s].parent) {
		switch (b->stmts[s].kind) {
		case CXX_STMT_IF:
		case CXX_STMT_ARM:
		case CXX_STMT_FOR:
		case CXX_STMT_WHILE:
		case CXX_STMT_DO:
		case CXX_STMT_SWITCH:
		case CXX_STMT_CASE:
		case CXX_STMT_LAMBDA:
			return true;
		default:
			break;
		}
	}
	return false;
}

/* The variable a call initialises or is assigned to: `T *v = <call>` / `v = <call>`. */
static char *assigned_var(const struct tok_view *tv, uint32_t call_start)
{
	size_t k = tv_at(tv, call_start);

	if (k >= 2 && k <= tv->n && tv_punct(tv, k - 1, CXX_P_ASSIGN) && tv_ident(tv, k - 2))
		return tv_tok_text(tv, k - 2, false);
	return NULL;
}

static void scan_value(const struct tok_view *tv, const struct tv_consts *c, uint32_t s, uint32_t e,
		       struct infer_dim *d)
{
	size_t i = tv_at(tv, s), j = tok_end(tv, e);

	d->has_value = tv_eval(tv, i, j, c, &d->value) == 0;
	for (size_t k = i; k < j; k++) {
		const struct cxx_token *t = &tv->v[k];
		if (t->kind == CXX_TOK_IDENT) {
			if (tv_punct(tv, k + 1, CXX_P_LPAREN) && !d->runtime_call) {
				size_t close = tv->match[k + 1];
				d->runtime_call = tv_text(tv, k, close == TV_NONE ? k + 1 : close + 1);
			} else if (!tv_punct(tv, k + 1, CXX_P_SCOPE) && tv_consts_find(c, tv->data + t->start, t->end - t->start)) {
				d->named = true;
			}
		} else if (t->kind == CXX_TOK_NUMBER && !d->literal) {
			int64_t v;
			if (tv_eval(tv, k, k + 1, c, &v) == 0 && v >= 4 && v <= 255)
				d->literal = tv_tok_text(tv, k, false);
		}
	}
}

static void scan_func(const struct src_file *f, const struct tok_view *tv, const struct tv_consts *c,
		      const struct cxx_func *fn, struct infer_file *out)
{
	const struct cxx_body *b = &fn->body;

	for (size_t k = 0; k < b->ncalls; k++) {
		const struct cxx_call *call = &b->calls[k];
		bool shape = strcmp(call->name, "GetOutputShape") == 0;
		bool dtype = strcmp(call->name, "SetOutputDataType") == 0;
		bool setdim = strcmp(call->name, "SetDim") == 0, setnum = strcmp(call->name, "SetDimNum") == 0;
		bool append = strcmp(call->name, "AppendDim") == 0;
		if ((shape || dtype) && call->nargs >= 1) {
			struct infer_use u;
			int64_t v;
			memset(&u, 0, sizeof(u));
			u.kind = shape ? INFER_SHAPE : INFER_DTYPE;
			u.index_text = xstrdup(call->args[0]);
			u.call = rng(call->range.start, call->range.end);
			u.index_arg = rng(call->arg_ranges[0].start, call->arg_ranges[0].end);
			u.index = tv_eval(tv, tv_at(tv, u.index_arg.start), tok_end(tv, u.index_arg.end), c, &v) == 0 &&
					  v >= 0
				  ? (long)v
				  : -1;
			if (dtype && call->nargs >= 2)
				u.dtype = xstrdup(call->args[1]);
			if (shape)
				u.var = assigned_var(tv, call->range.start);
			u.conditional = stmt_conditional(b, call->stmt);
			u.func = xstrdup(fn->name);
			out->uses = xrealloc(out->uses, (out->nuses + 1) * sizeof(*out->uses));
			out->uses[out->nuses++] = u;
		} else if ((setdim && call->nargs >= 2) || ((setnum || append) && call->nargs >= 1)) {
			struct infer_dim d;
			size_t vi = setdim ? 1 : 0;
			int64_t v;
			if (!call->object)
				continue;
			memset(&d, 0, sizeof(d));
			d.var = xstrdup(call->object);
			d.is_num = setnum;
			d.dim = -1;
			if (setdim && tv_eval(tv, tv_at(tv, call->arg_ranges[0].start), tok_end(tv, call->arg_ranges[0].end),
					      c, &v) == 0)
				d.dim = (long)v;
			d.expr = xstrdup(call->args[vi]);
			d.call = rng(call->range.start, call->range.end);
			d.expr_range = rng(call->arg_ranges[vi].start, call->arg_ranges[vi].end);
			scan_value(tv, c, d.expr_range.start, d.expr_range.end, &d);
			d.conditional = stmt_conditional(b, call->stmt);
			d.func = xstrdup(fn->name);
			out->dims = xrealloc(out->dims, (out->ndims + 1) * sizeof(*out->dims));
			out->dims[out->ndims++] = d;
		}
	}
	(void)f;
}

static void scan_impls(const struct tok_view *tv, struct infer_file *out)
{
	for (size_t i = 0; i + 3 < tv->n; i++) {
		struct infer_impl im;
		size_t k;
		bool generic;
		/* IMPL_OP_INFERSHAPE(Op).InferShape(f)..., and IMPL_OP(Op).InferShape(f)... */
		generic = tv_is(tv, i, "IMPL_OP");
		if (!(generic || tv_is(tv, i, "IMPL_OP_INFERSHAPE")) || !tv_punct(tv, i + 1, CXX_P_LPAREN) ||
		    tv->match[i + 1] == TV_NONE)
			continue;
		memset(&im, 0, sizeof(im));
		{
			/* ops::Foo -> Foo */
			size_t name = tv->match[i + 1] - 1;
			im.op = tv_ident(tv, name) ? tv_tok_text(tv, name, false) : tv_text(tv, i + 2, tv->match[i + 1]);
		}
		k = tv->match[i + 1] + 1;
		while (tv_punct(tv, k, CXX_P_DOT) && tv_ident(tv, k + 1) && tv_punct(tv, k + 2, CXX_P_LPAREN) &&
		       tv->match[k + 2] != TV_NONE) {
			char **slot = tv_is(tv, k + 1, "InferShape")	  ? &im.shape_func
				      : tv_is(tv, k + 1, "InferDataType") ? &im.dtype_func
									  : NULL;
			if (slot && !*slot)
				*slot = tv_text(tv, k + 3, tv->match[k + 2]);
			k = tv->match[k + 2] + 1;
		}
		im.range = rng(tv->v[i].start, tv->v[k - 1].end);
		if (generic && !im.shape_func && !im.dtype_func) {
			/* IMPL_OP(Op).OpExecuteFunc(...), .Tiling(...): not the infer */
			free(im.op);
			i = k - 1;
			continue;
		}
		out->impls = xrealloc(out->impls, (out->nimpls + 1) * sizeof(*out->impls));
		out->impls[out->nimpls++] = im;
		i = k - 1;
	}
}

void project_infer(const struct src_file *f, struct infer_file *out)
{
	struct tok_view tv;
	struct tv_consts c;
	struct cxx_outline *ol;

	memset(out, 0, sizeof(*out));
	tok_view_init(&tv, f->data, f->len);
	tv_consts_collect(&tv, &c);
	ol = cxx_outline_build(f, NULL, NULL);
	for (size_t i = 0; i < ol->nfuncs; i++)
		if (ol->funcs[i].def == CXX_DEF_BODY)
			scan_func(f, &tv, &c, &ol->funcs[i], out);
	scan_impls(&tv, out);
	cxx_outline_free(ol);
	tv_consts_release(&c);
	tok_view_release(&tv);
}

void infer_file_release(struct infer_file *inf)
{
	for (size_t i = 0; i < inf->nuses; i++) {
		free(inf->uses[i].index_text);
		free(inf->uses[i].dtype);
		free(inf->uses[i].var);
		free(inf->uses[i].func);
	}
	for (size_t i = 0; i < inf->ndims; i++) {
		free(inf->dims[i].var);
		free(inf->dims[i].expr);
		free(inf->dims[i].literal);
		free(inf->dims[i].runtime_call);
		free(inf->dims[i].func);
	}
	for (size_t i = 0; i < inf->nimpls; i++) {
		free(inf->impls[i].op);
		free(inf->impls[i].shape_func);
		free(inf->impls[i].dtype_func);
	}
	free(inf->uses);
	free(inf->dims);
	free(inf->impls);
	memset(inf, 0, sizeof(*inf));
}

bool infer_impl_has(const struct infer_impl *impl, const char *func)
{
	if (!impl)
		return true;
	return (impl->shape_func && strcmp(impl->shape_func, func) == 0) ||
	       (impl->dtype_func && strcmp(impl->dtype_func, func) == 0);
}

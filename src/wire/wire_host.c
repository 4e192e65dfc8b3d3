/* wire, host side: the OpDef output chain (the op's and each OpAICoreConfig's that
 * declares outputs) and the InferShape / InferDataType
 * of the profiling output. */
#include <stdlib.h>
#include <string.h>

#include "project_tokens.h"
#include "path_glob.h"
#include "wire.h"
#include "xalloc.h"

size_t wire_main_outputs(const struct wire *w)
{
	const struct opdef_op *op = w->p->op;

	if (project_launch_form(w->p)) {
		long m = w->fn_main >= 0 ? w->fn_main : w->p->launch.nmain;
		return m > 0 ? (size_t)m : 0;
	}
	if (!op)
		return 0;
	return w->p->prof_out >= 0 ? op->noutputs - 1 : op->noutputs;
}

size_t wire_py_outputs(const struct wire *w)
{
	if (!project_launch_form(w->p) && w->p->py_main >= 0)
		return (size_t)w->p->py_main;
	return wire_main_outputs(w);
}

size_t wire_prof_index(const struct wire *w)
{
	return w->p->prof_out >= 0 ? (size_t)w->p->prof_out : wire_main_outputs(w);
}

int wire_body_after(const struct tok_view *tv, uint32_t off, size_t *open, size_t *close)
{
	for (size_t i = tv_at(tv, off); i < tv->n; i++) {
		if (tv_is(tv, i, ";"))
			return -1;
		if (tv_is(tv, i, "{")) {
			if (tv->match[i] == TV_NONE)
				return -1;
			*open = i;
			*close = tv->match[i];
			return 0;
		}
	}
	return -1;
}

/* "{ge::DT_INT64, ge::DT_INT64}" for n entries (at least one), with the prefix the file uses. */
static char *repeat_list(const char *prefix, const char *name, size_t n)
{
	size_t count = n ? n : 1;
	size_t cap = 3 + count * (strlen(prefix) + strlen(name) + 2);
	char *s = xmalloc(cap);
	size_t len = 0;

	s[len++] = '{';
	for (size_t i = 0; i < count; i++)
		len += (size_t)snprintf(s + len, cap - len, "%s%s%s", i ? ", " : "", prefix, name);
	s[len++] = '}';
	s[len] = '\0';
	return s;
}

/* The number of entries of the braced list that is the only argument of the
 * call whose '(' is token `open` (`.DataType({a, b})`: 2), or -1 when the
 * argument is not a braced list (a variable, a call). */
static long braced_count(const struct tok_view *tv, size_t open)
{
	size_t close = tv->match[open], *s, *e, n, brace = open + 1;

	if (close == TV_NONE)
		return -1;
	if (close == open + 2 && tv->v[open + 1].kind == CXX_TOK_IDENT) {
		/* a list named in the file: `static const std::vector<ge::DataType>
		   qDtype = {...};` (or `qDtype{...}`), counted where it is defined */
		brace = TV_NONE;
		for (size_t j = 1; j + 2 < tv->n && brace == TV_NONE; j++) {
			size_t b = tv_punct(tv, j + 1, CXX_P_ASSIGN) ? j + 2 : j + 1;
			if (j != open + 1 && tv->v[j].kind == CXX_TOK_IDENT && tv->v[j].end - tv->v[j].start ==
			    tv->v[open + 1].end - tv->v[open + 1].start && memcmp(tv->data + tv->v[j].start,
			    tv->data + tv->v[open + 1].start, tv->v[j].end - tv->v[j].start) == 0 &&
			    !tv_punct(tv, j - 1, CXX_P_DOT) && !tv_punct(tv, j - 1, CXX_P_ARROW) &&
			    tv_punct(tv, b, CXX_P_LBRACE) && tv->match[b] != TV_NONE)
				brace = b;
		}
		if (brace == TV_NONE)
			return -1;
	} else if (!tv_is(tv, open + 1, "{") || tv->match[open + 1] + 1 != close) {
		return -1;
	}
	n = tv_split_args(tv, brace, &s, &e);
	free(s);
	free(e);
	return (long)n;
}

struct repl {
	uint32_t start, end;
	char *text;
};

static int repl_cmp(const void *a, const void *b)
{
	const struct repl *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

bool wire_direct_launch(struct wire *w, const struct src_file **f, uint32_t *start, uint32_t *end)
{
	static const char *const launches[] = { "EXEC_KERNEL_CMD", "ACLRT_LAUNCH_KERNEL" };
	struct rule_strlist globs = { NULL, 0, { NULL, 0, 0 } };
	char **found = NULL;
	size_t n = 0;
	bool yes = false;

	rule_strlist_add(&globs, "op_host/**/*.cpp");
	rule_strlist_add(&globs, "op_host/*.cpp");
	if (path_glob(w->opdir, globs.v, globs.n, &found, &n, w->diag) == 0)
		for (size_t i = 0; i < n && !yes; i++) {
			char *path = path_join(w->opdir, found[i]);
			const struct src_file *sf = wire_load(w, path);
			for (size_t k = 0; sf && k < 2 && !yes; k++) {
				const char *hit = strstr(sf->data, launches[k]);
				if (hit) {
					*f = sf;
					*start = (uint32_t)(hit - sf->data);
					*end = *start + (uint32_t)strlen(launches[k]);
					yes = true;
				}
			}
			free(path);
		}
	path_glob_free(found, n);
	rule_strlist_clear(&globs);
	return yes;
}

/* One declaration of the op's inputs and outputs that wire edits: the
 * OpDef's own chains, or those of one OpAICoreConfig variable (a per-SoC
 * override, or the op's only declaration). */
struct decl_list {
	char *what;                   /* for messages: "'Foo'", "OpAICoreConfig 'c' of 'Foo'" */
	char *head;                   /* what its chains start with: "this->", "c." */
	const char *listed;           /* its chains in wire's listing: "", "c." */
	const struct opdef_param *params;
	size_t nparams, noutputs;
	long last_input, last_output;
	long prof;                    /* the profiling output's position among its outputs, or -1 */
};

/* The profiling output's position among the outputs of params, or -1. */
static long prof_position(const struct opdef_param *params, size_t n, const char *prof)
{
	long k = 0;

	for (size_t i = 0; i < n; i++) {
		if (!params[i].output)
			continue;
		if (tv_names_profiling(params[i].name, prof))
			return k;
		k++;
	}
	return -1;
}

static long output_at(const struct decl_list *d, size_t k)
{
	for (size_t i = 0; i < d->nparams; i++)
		if (d->params[i].output && k-- == 0)
			return (long)i;
	return -1;
}

/* The profiling output of d checked (last, mode, int64), or added after its
 * last Output chain (else after its last Input chain, renamed), that chain
 * its template. */
static void wire_decl_list(struct wire *w, const struct src_file *f, const struct decl_list *d)
{
	const char *mode = w->required ? "REQUIRED" : "OPTIONAL";
	const struct opdef_param *q;
	struct tok_view tv;
	struct repl r[8];
	size_t nr = 0;
	uint32_t from, to;
	bool whole_lines, from_input, renamed = false;
	const char *prefix;
	char *text;
	size_t cap, len = 0;

	if (d->prof >= 0) {
		q = &d->params[output_at(d, (size_t)d->prof)];
		if ((size_t)d->prof + 1 != d->noutputs)
			wire_manual(w, f, q->chain.start, q->chain.end,
				    "move the Output(\"%s\") chain after the last output of %s (and its position in every "
				    "other layer)", q->name, d->what);
		if (q->type != (w->required ? OPDEF_REQUIRED : OPDEF_OPTIONAL)) {
			if (q->type_arg.end > q->type_arg.start)
				wire_edit(w, f, q->type_arg.start, q->type_arg.end, mode, "OpDef: %s%s is %s (mode %s)",
					  d->listed, q->name, mode, w->required ? "B" : "A");
			else
				wire_manual(w, f, q->chain.start, q->chain.end, "add .ParamType(%s) to the Output(\"%s\") chain",
					    mode, q->name);
		}
		for (size_t i = 0; i < q->ndtypes; i++)
			if (!strstr(q->dtypes[i], "DT_INT64")) {
				wire_manual(w, f, q->chain.start, q->chain.end,
					    "make every DataType of Output(\"%s\") ge::DT_INT64 (it is %s)", q->name,
					    q->dtypes[i]);
				break;
			}
		return;
	}
	/* an operator that declares no output (it writes into an input, in
	   place): the profiling output is its only one, after its last input,
	   that input's chain its template */
	from_input = d->last_output < 0;
	q = &d->params[from_input ? d->last_input : d->last_output];
	from = q->line_start;
	to = q->line_end;
	whole_lines = true;
	for (uint32_t i = from; i < q->chain.start; i++)
		if (f->data[i] != ' ' && f->data[i] != '\t')
			whole_lines = false;
	for (uint32_t i = q->chain.end; i < to; i++)
		if (f->data[i] != ' ' && f->data[i] != '\t' && f->data[i] != '\n' && f->data[i] != '\r')
			whole_lines = false;
	if (!whole_lines) {
		from = q->chain.start;
		to = q->chain.end;
	}
	/* unqualified only where the chain writes bare DT_ names (a `using
	   namespace ge` file); a list named in the file (`.DataType(qDtype)`)
	   says nothing of it, and a bare DT_INT64 in namespace ops does not compile */
	prefix = q->ndtypes && strncmp(q->dtypes[0], "DT_", 3) != 0 ? "ge::" : "";

	r[nr++] = (struct repl){ q->name_lit.start, q->name_lit.end, xasprintf("\"%s\"", w->prof) };
	if (q->type_arg.end > q->type_arg.start) {
		r[nr++] = (struct repl){ q->type_arg.start, q->type_arg.end, xstrdup(mode) };
	} else {
		uint32_t at = q->name_lit.end;
		while (at < q->chain.end && f->data[at] != ')')
			at++;
		if (at < q->chain.end)
			at++;
		r[nr++] = (struct repl){ at, at, xasprintf(".ParamType(%s)", mode) };
	}
	tok_view_init(&tv, f->data, f->len);
	for (size_t i = tv_at(&tv, q->chain.start); i + 1 < tv.n && tv.v[i].start < q->chain.end && nr < 8; i++) {
		const char *list = NULL;
		long count;
		if (from_input && (tv_is(&tv, i, "ValueDepend") || tv_is(&tv, i, "Scalar") || tv_is(&tv, i, "ScalarList"))) {
			wire_manual(w, f, q->chain.start, q->chain.end,
				    "%s declares no output, and its last input's chain says what only an input can "
				    "(%.*s): add %sOutput(\"%s\").ParamType(%s).DataType({ge::DT_INT64, ...}) after it by hand",
				    d->what, (int)(tv.v[i].end - tv.v[i].start), f->data + tv.v[i].start, d->head, w->prof, mode);
			tok_view_release(&tv);
			for (size_t k = 0; k < nr; k++)
				free(r[k].text);
			return;
		}
		if (from_input && !renamed && tv_is(&tv, i, "Input")) {
			r[nr++] = (struct repl){ tv.v[i].start, tv.v[i].end, xstrdup("Output") };
			renamed = true;
			continue;
		}
		if (tv_is(&tv, i, "DataType") || tv_is(&tv, i, "DataTypeList"))
			list = "DT_INT64";
		else if (tv_is(&tv, i, "Format") || tv_is(&tv, i, "UnknownShapeFormat") || tv_is(&tv, i, "FormatList"))
			list = "FORMAT_ND";
		if (!list || !tv_is(&tv, i + 1, "(") || tv.match[i + 1] == TV_NONE)
			continue;
		/* each list keeps its own length: DataType / Format pair with the other
		   parameters' combinations, the *List forms hold one entry for all */
		count = braced_count(&tv, i + 1);
		if (count < 0) {
			wire_manual(w, f, tv.v[i].start, tv.v[tv.match[i + 1]].end,
				    "the last output's %.*s(...) is not a braced list: write the %sOutput(\"%s\") chain by "
				    "hand, with ge::%s in every entry", (int)(tv.v[i].end - tv.v[i].start), f->data + tv.v[i].start,
				    d->listed, w->prof, list);
			tok_view_release(&tv);
			for (size_t k = 0; k < nr; k++)
				free(r[k].text);
			return;
		}
		r[nr++] = (struct repl){ tv.v[i + 1].end, tv.v[tv.match[i + 1]].start, repeat_list(prefix, list, (size_t)count) };
		i = tv.match[i + 1];
	}
	tok_view_release(&tv);
	if (q->ndtypes == 0 && nr < 8) {
		/* no DataType in the template: add one before the chain's ';' */
		uint32_t semi = q->chain.end - 1;
		r[nr++] = (struct repl){ semi, semi, xasprintf(".DataType({%sDT_INT64})", prefix) };
	}
	xqsort(r, nr, sizeof(r[0]), repl_cmp);
	cap = (to - from) + 4;
	for (size_t i = 0; i < nr; i++)
		cap += strlen(r[i].text);
	text = xmalloc(cap);
	if (!whole_lines)
		text[len++] = ' ';
	{
		uint32_t at = from;
		for (size_t i = 0; i < nr; i++) {
			memcpy(text + len, f->data + at, r[i].start - at);
			len += r[i].start - at;
			len += (size_t)snprintf(text + len, cap - len, "%s", r[i].text);
			at = r[i].end;
		}
		memcpy(text + len, f->data + at, to - at);
		len += to - at;
	}
	text[len] = '\0';
	if (whole_lines && (len == 0 || text[len - 1] != '\n')) {
		/* the last output chain ends the file without a newline */
		wire_edit(w, f, to, to, "\n", "OpDef: newline before the new output");
	}
	wire_edit(w, f, to, to, text, "OpDef: %sOutput(\"%s\") %s, DataType INT64 x%zu, last output of %s", d->listed, w->prof,
		  mode, q->ndtypes ? q->ndtypes : 1, d->what);
	free(text);
	for (size_t i = 0; i < nr; i++)
		free(r[i].text);
}

void wire_opdef(struct wire *w)
{
	const struct opdef_op *op = w->p->op;
	const struct src_file *f = w->p->op_file;
	const char *mode = w->required ? "REQUIRED" : "OPTIONAL";
	struct decl_list d;

	if (project_launch_form(w->p))
		return; /* no OpDef layer: an OpDef beside a direct launch describes the tiling context */
	if (!op || op->nparams == 0) {
		const struct src_file *lf;
		uint32_t ls, le;
		if (wire_direct_launch(w, &lf, &ls, &le))
			wire_manual(w, lf, ls, le,
				    "this operator launches its kernel directly, with no OpDef (rules' 'host' patterns: %s) and no "
				    "aclnn API: wire threads an OpDef output; pass a '%s' tensor ({" WIRE_BOUND_EXPR "} int64) as "
				    "the kernel's last GM argument here by hand, after its outputs", project_globs_text(&w->p->policy->host).s,
				    w->prof);
		else
			wire_manual(w, NULL, 0, 0, "no OpDef found (rules' 'host' patterns: %s): add this->Output(\"%s\")"
				    ".ParamType(%s).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND}); as the last output",
				    project_globs_text(&w->p->policy->host).s, w->prof, mode);
		return;
	}
	if (op->last_output < 0 && op->last_input < 0) {
		wire_manual(w, f, op->body.start, op->body.start + 1,
			    "'%s' declares no input or output: add this->Output(\"%s\").ParamType(%s).DataType({ge::DT_INT64})"
			    ".Format({ge::FORMAT_ND}); after its outputs", op->name, w->prof, mode);
		return;
	}
	/* the op's own list: its this-> chains, or the config it was read from */
	memset(&d, 0, sizeof(d));
	if (op->from_config >= 0) {
		d.what = xasprintf("'%s' (its OpAICoreConfig '%s')", op->name, op->configs[op->from_config].var);
		d.head = xasprintf("%s.", op->configs[op->from_config].var);
	} else {
		d.what = xasprintf("'%s'", op->name);
		d.head = xstrdup("this->");
	}
	d.listed = op->from_config >= 0 ? d.head : "";
	d.params = op->params;
	d.nparams = op->nparams;
	d.noutputs = op->noutputs;
	d.last_input = op->last_input;
	d.last_output = op->last_output;
	d.prof = w->p->prof_out;
	wire_decl_list(w, f, &d);
	free(d.what);
	free(d.head);
	/* every other config that declares outputs: each SoC it is registered
	   for gets the op's outputs from it, the profiling output among them */
	for (size_t c = 0; c < op->nconfigs; c++) {
		const struct opdef_config *cfg = &op->configs[c];
		size_t main_outputs;
		if ((long)c == op->from_config || cfg->noutputs == 0)
			continue;
		d.what = xasprintf("OpAICoreConfig '%s' of '%s'", cfg->var, op->name);
		d.head = xasprintf("%s.", cfg->var);
		d.listed = d.head;
		d.params = cfg->params;
		d.nparams = cfg->nparams;
		d.noutputs = cfg->noutputs;
		d.last_input = cfg->last_input;
		d.last_output = cfg->last_output;
		d.prof = prof_position(cfg->params, cfg->nparams, w->prof);
		main_outputs = d.prof >= 0 ? cfg->noutputs - 1 : cfg->noutputs;
		if (main_outputs != wire_main_outputs(w)) {
			const struct opdef_param *q = &cfg->params[cfg->last_output];
			wire_manual(w, f, q->chain.start, q->chain.end,
				    "the %s declares %zu output%s where '%s' declares %zu (besides '%s'): give it the op's "
				    "outputs in their order, then add %sOutput(\"%s\").ParamType(%s).DataType({ge::DT_INT64, ...}) "
				    "after them, by hand", d.what, main_outputs, main_outputs == 1 ? "" : "s", op->name,
				    wire_main_outputs(w), w->prof, d.head, w->prof, mode);
		} else {
			wire_decl_list(w, f, &d);
		}
		free(d.what);
		free(d.head);
	}
}

/* ---- infer ---- */

/* The first token of the declaration whose name is token `name`. */
static size_t decl_start(const struct tok_view *tv, size_t name)
{
	size_t i = name;

	while (i > 0) {
		const struct cxx_token *t = &tv->v[i - 1];
		if (tv_is(tv, i - 1, ";") || tv_is(tv, i - 1, "{") || tv_is(tv, i - 1, "}") || t->kind == CXX_TOK_PP_END)
			break;
		i--;
	}
	return i;
}

/* Token index of the definition of function `name` (its name token), or TV_NONE. */
static size_t find_def(const struct tok_view *tv, const char *name, size_t *open, size_t *close)
{
	for (size_t i = 0; i + 1 < tv->n; i++) {
		if (!tv_is(tv, i, name) || !tv_is(tv, i + 1, "(") || tv->match[i + 1] == TV_NONE)
			continue;
		if (i > 0 && (tv_is(tv, i - 1, ".") || tv_is(tv, i - 1, "->") || tv_is(tv, i - 1, "(") ||
			      tv_is(tv, i - 1, ",")))
			continue;
		if (wire_body_after(tv, tv->v[tv->match[i + 1]].end, open, close) == 0)
			return i;
	}
	return TV_NONE;
}

/* The name of the function's last parameter ("context"). */
static char *last_param(const struct tok_view *tv, size_t name)
{
	size_t close = tv->match[name + 1];

	if (close > name + 2 && tv_ident(tv, close - 1))
		return tv_tok_text(tv, close - 1, false);
	return xstrdup("context");
}

/* Where a line goes that follows the statement ending at token o: the start
 * of the next line, *ind the indent of token o + 1 (four spaces when none). */
static uint32_t line_after(const struct src_file *f, const struct tok_view *tv, size_t o, char **ind)
{
	uint32_t at = tv->v[o].end;

	while (at < f->len && f->data[at] != '\n')
		at++;
	*ind = wire_indent_at(f, tv->v[o + 1].start);
	if (!(*ind)[0]) {
		free(*ind);
		*ind = xstrdup("    ");
	}
	return at < f->len ? at + 1 : at;
}

static bool file_names(const struct src_file *f, const char *id)
{
	return wire_has_word(f, 0, (uint32_t)f->len, id);
}

/* The file defines the constant (tv_consts_collect: constexpr, const, enum, #define). */
static bool defines(const struct tv_consts *cs, const char *name)
{
	return tv_consts_find(cs, name, strlen(name)) != NULL;
}

/* An output index named for the profiling output: OUTPUT_PROFILING_DATA, kOutputProfilingData. */
static bool names_prof_index(const char *text, const char *prof)
{
	char *k = tv_name_key(text), *p = tv_name_key(prof);
	bool yes = strstr(k, p) != NULL;

	free(k);
	free(p);
	return yes;
}

static bool same_func(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* The functions one registration `impl` of infer source `gi` names. */
static void wire_infer_reg(struct wire *w, const struct project_infer *gi, const struct infer_impl *impl)
{
	const struct opdef_op *op = w->p->op;
	size_t want = wire_prof_index(w);
	bool shape = false, dtype = false;
	struct tok_view tv;
	size_t sname, dname, o1, c1, o2, c2;
	char *consts, *ind, *ctx, *text;
	const char *cname = "OUTPUT_PROFILING_DATA";

	/* a half the registration does not name is absent: InferDataType left
	   out takes the OpDef's DataType list (DT_INT64) */
	if (!impl->shape_func)
		shape = true;
	if (!impl->dtype_func)
		dtype = true;
	for (size_t u = 0; u < gi->inf.nuses; u++) {
		const struct infer_use *use = &gi->inf.uses[u];
		/* an index whose constant is not defined (any more) counts by its name */
		bool by_name = use->index < 0 && use->index_text && names_prof_index(use->index_text, w->prof);
		if ((use->index != (long)want && !by_name) || !infer_impl_has(impl, use->func))
			continue;
		if (use->kind == INFER_SHAPE)
			shape = true;
		else
			dtype = true;
	}
	tok_view_init(&tv, gi->f->data, gi->f->len);
	sname = impl->shape_func ? find_def(&tv, impl->shape_func, &o1, &c1) : TV_NONE;
	dname = impl->dtype_func ? find_def(&tv, impl->dtype_func, &o2, &c2) : TV_NONE;
	if ((!shape && sname == TV_NONE) || (!dtype && dname == TV_NONE)) {
		wire_manual(w, gi->f, impl->range.start, impl->range.end,
			    "the %s function of '%s' is not defined in this file: set the shape of '%s' (output %zu) to "
			    "{" WIRE_BOUND_EXPR "} and its data type to ge::DT_INT64",
			    (!shape && sname == TV_NONE) ? "InferShape" : "InferDataType", op->name, w->prof, want);
		tok_view_release(&tv);
		return;
	}
	/* the index constant and the bound, named once, before the first function edited */
	{
		const struct tv_const *c;
		struct tv_consts cs = { 0 };
		char *add[6];
		size_t na = 0, first = TV_NONE;
		tv_consts_collect(&tv, &cs);
		c = tv_consts_find(&cs, cname, strlen(cname));
		if (c && c->value != (int64_t)want) {
			wire_manual(w, gi->f, c->at, c->at + (uint32_t)strlen(cname),
				    "%s is %lld, but '%s' is output %zu of '%s': fix the constant", cname, (long long)c->value,
				    w->prof, want, op->name);
			tv_consts_release(&cs);
			tok_view_release(&tv);
			return;
		}
		if (!c && (!shape || !dtype || file_names(gi->f, cname)))
			add[na++] = xasprintf("constexpr size_t %s = %zu;\n", cname, want);
		/* the bound's constants, where the shape wire sets uses them or the file
		   uses them without defining them */
		if (!shape || file_names(gi->f, "MAX_INFER_GETBLOCKNUM_UB")) {
			if (!defines(&cs, "MAX_INFER_GETBLOCKNUM_UB"))
				add[na++] = xstrdup("constexpr int64_t MAX_INFER_GETBLOCKNUM_UB = 128;  // infer has no GetBlockNum()\n");
			if (!defines(&cs, "MIX_AIC_1_2_SLOTS_PER_GROUP")) {
				if (!defines(&cs, "MIX_AIC_1_2_SUBBLOCK_NUM"))
					add[na++] = xstrdup("constexpr int64_t MIX_AIC_1_2_SUBBLOCK_NUM = 2;\n");
				add[na++] = xstrdup("constexpr int64_t MIX_AIC_1_2_SLOTS_PER_GROUP = 1 + MIX_AIC_1_2_SUBBLOCK_NUM;\n");
			}
			if (!defines(&cs, "PROF_SIZE_PER_CORE"))
				add[na++] = xstrdup("constexpr int64_t PROF_SIZE_PER_CORE = 2048;\n");
		}
		tv_consts_release(&cs);
		if (!shape)
			first = sname;
		if (!dtype && (first == TV_NONE || dname < first))
			first = dname;
		if (first == TV_NONE) /* both set: the constants go before the first function */
			first = sname != TV_NONE && (dname == TV_NONE || sname < dname) ? sname : dname;
		if (na && first == TV_NONE) {
			for (size_t i = 0; i < na; i++)
				free(add[i]);
			na = 0;
			wire_manual(w, gi->f, impl->range.start, impl->range.end,
				    "the infer functions of '%s' use constants this file does not define (%s): define them", op->name,
				    cname);
		}
		if (na) {
			uint32_t at = wire_line_start(gi->f, tv.v[decl_start(&tv, first)].start);
			size_t cap = 1;
			for (size_t i = 0; i < na; i++)
				cap += strlen(add[i]);
			consts = xmalloc(cap + 1);
			consts[0] = '\0';
			for (size_t i = 0; i < na; i++) {
				strcat(consts, add[i]);
				free(add[i]);
			}
			strcat(consts, "\n");
			wire_edit(w, gi->f, at, at, consts, "infer: %s = %zu and the named bound of '%s'", cname, want, w->prof);
			free(consts);
		}
	}
	if (!shape) {
		uint32_t at = line_after(gi->f, &tv, o1, &ind);
		ctx = last_param(&tv, sname);
		/* an OPTIONAL output the caller did not pass has no shape to set (mode A) */
		text = xasprintf("%sgert::Shape *profilingDataShape = %s->GetOutputShape(%s);\n"
				"%sif (profilingDataShape == nullptr) {\n"
				"%s    return %s;\n"
				"%s}\n"
				"%sprofilingDataShape->SetDimNum(1);\n"
				"%sprofilingDataShape->SetDim(0, " WIRE_BOUND_EXPR ");\n",
				ind, ctx, cname, ind, ind, w->required ? "ge::GRAPH_FAILED" : "ge::GRAPH_SUCCESS", ind, ind, ind);
		wire_edit(w, gi->f, at, at, text, "infer: %s() sets the shape of '%s' (output %zu) to {%s}", impl->shape_func,
			  w->prof, want, WIRE_BOUND_EXPR);
		free(text);
		free(ctx);
		free(ind);
	}
	if (!dtype) {
		uint32_t at = line_after(gi->f, &tv, o2, &ind);
		ctx = last_param(&tv, dname);
		text = xasprintf("%s%s->SetOutputDataType(%s, ge::DT_INT64);\n", ind, ctx, cname);
		wire_edit(w, gi->f, at, at, text, "infer: %s() sets the data type of '%s' to ge::DT_INT64", impl->dtype_func,
			  w->prof);
		free(text);
		free(ctx);
		free(ind);
	}
	tok_view_release(&tv);
}

/* Whether an earlier registration than impl (m of file i) names the same functions. */
static bool registered_before(const struct project_model *p, size_t i, size_t m, const struct infer_impl *impl)
{
	for (size_t a = 0; a <= i; a++)
		for (size_t b = 0; b < (a == i ? m : p->infers[a].inf.nimpls); b++) {
			const struct infer_impl *e = &p->infers[a].inf.impls[b];
			if (strcmp(e->op, impl->op) == 0 && same_func(e->shape_func, impl->shape_func) &&
			    same_func(e->dtype_func, impl->dtype_func))
				return true;
		}
	return false;
}

/* Every registration of the operator's infer functions: InferShape and
 * InferDataType may be registered apart (op_host and the graph plugin). */
void wire_infer(struct wire *w)
{
	const struct opdef_op *op = w->p->op;
	const struct project_model *p = w->p;

	if (!op || op->nparams == 0 || project_launch_form(w->p))
		return;
	if (!project_infer_impl(p, NULL)) {
		/* a layer the operator does not have: said, with what its later owner does */
		diag_pos(w->diag, DIAG_NOTE, w->p->op_file->path, 0, 0,
			 "absent: no IMPL_OP_INFERSHAPE(%s) or IMPL_OP(%s).InferShape in the infer sources (%s); whoever "
			 "registers one sets the shape of '%s' (output %zu) to {" WIRE_BOUND_EXPR "} and its data type to "
			 "ge::DT_INT64",
			 op->name, op->name, project_globs_text(&w->p->policy->infer).s, w->prof, wire_prof_index(w));
		return;
	}
	for (size_t i = 0; i < p->ninfers; i++)
		for (size_t m = 0; m < p->infers[i].inf.nimpls; m++) {
			const struct infer_impl *impl = &p->infers[i].inf.impls[m];
			if (strcmp(impl->op, op->name) != 0 || (!impl->shape_func && !impl->dtype_func) ||
			    registered_before(p, i, m, impl))
				continue;
			wire_infer_reg(w, &p->infers[i], impl);
		}
}

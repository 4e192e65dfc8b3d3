/* wire, torch binding layer: the functions that run the op's EXEC_NPU_CMD
 * and those registered under its torch.ops names (the meta functions), and
 * the schema strings of those names. Mode B: the tensor allocated from the
 * named bound at the top of the function (in scope on every path), passed
 * last to every EXEC_NPU_CMD of the op, returned last from every return, the
 * std::tuple and the schema one longer. Mode A: an optional tensor the caller
 * passes, `Tensor? profiling_data=None` in the schema after its last tensor
 * argument (at the end when an argument without a default follows), the C++
 * parameter at the same position in every registered function, passed last
 * to every EXEC_NPU_CMD of the op. A binding that returns what a
 * torch::autograd::Function returns (`auto r = FooFunction::apply(...)`)
 * has the tensor allocated in the Function's forward() instead (mode B):
 * returned last from there and marked non-differentiable, backward()'s
 * count of gradients one more where it checks one; the binding passes the
 * result on (whole, or its values in order, one more). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "xalloc.h"

static bool null_init(const char *s)
{
	return s && (strstr(s, "nullopt") || strcmp(s, "nullptr") == 0 || strcmp(s, "at::Tensor()") == 0);
}

/* The `->` of the schema string starting at `from`, searching to the end of the statement. */
static uint32_t schema_arrow(const struct src_file *f, uint32_t from)
{
	for (uint32_t i = from; i + 1 < f->len && f->data[i] != ';'; i++)
		if (f->data[i] == '-' && f->data[i + 1] == '>')
			return i;
	return UINT32_MAX;
}

/* At a '"' that ends a string literal and is followed, past blanks, by the
 * '"' of the next one (adjacent literals make one string): the offset after
 * that second '"'; else i itself. */
static uint32_t literal_join(const struct src_file *f, uint32_t i)
{
	uint32_t j = i + 1;

	if (f->data[i] != '"')
		return i;
	while (j < f->len && (f->data[j] == ' ' || f->data[j] == '\t' || f->data[j] == '\n' || f->data[j] == '\r'))
		j++;
	return j < f->len && f->data[j] == '"' ? j + 1 : i;
}

static void schema_returns(struct wire *w, const struct src_file *f, const struct pybind_opname *o)
{
	uint32_t arrow = schema_arrow(f, o->range.start), s, q;

	if (arrow == UINT32_MAX) {
		wire_manual(w, f, o->range.start, o->range.end, "add ', Tensor' as the last returned value of the schema");
		return;
	}
	s = arrow + 2;
	/* blanks, and the joins of a schema written as several literals ("... -> " "(Tensor a, ...") */
	for (uint32_t j; s < f->len && (f->data[s] == ' ' || (j = literal_join(f, s)) != s); s = f->data[s] == ' ' ? s + 1 : j)
		;
	q = s;
	while (q < f->len && f->data[q] != '"')
		q++;
	if (f->data[s] == '(') {
		/* the ')' that closes it, across the literals of the string */
		uint32_t close = UINT32_MAX, j;
		int depth = 0;
		for (uint32_t i = s; i < f->len && f->data[i] != ';' && close == UINT32_MAX; i++) {
			if ((j = literal_join(f, i)) != i) {
				i = j - 1;
				continue;
			}
			if (f->data[i] == '(')
				depth++;
			else if (f->data[i] == ')' && --depth == 0)
				close = i;
		}
		if (close != UINT32_MAX) {
			/* named returns (`Tensor y`) get a named one */
			uint32_t e = close, b;
			char *t;
			while (e > s && (f->data[e - 1] == ' ' || f->data[e - 1] == '"' || f->data[e - 1] == '\n'))
				e--;
			b = e;
			while (b > s && (isalnum((unsigned char)f->data[b - 1]) || f->data[b - 1] == '_'))
				b--;
			t = b > s && b < e && f->data[b - 1] == ' ' && !(e - b == 6 && memcmp(f->data + b, "Tensor", 6) == 0)
				    ? xasprintf(", Tensor %s", w->prof)
				    : xstrdup(", Tensor");
			wire_edit(w, f, close, close, t, "pybind: the schema of '%s' returns one more Tensor", o->name);
			free(t);
			return;
		}
	} else if (q > s) {
		char *t = xasprintf("(%.*s, Tensor)", (int)(q - s), f->data + s);
		wire_edit(w, f, s, q, t, "pybind: the schema of '%s' returns (%.*s, Tensor)", o->name, (int)(q - s),
			  f->data + s);
		free(t);
		return;
	}
	wire_manual(w, f, o->range.start, o->range.end, "add ', Tensor' as the last returned value of the schema");
}

static const char *const bound_defs[][2] = {
		{ "MAX_INFER_GETBLOCKNUM_UB", "constexpr int64_t MAX_INFER_GETBLOCKNUM_UB = 128;  // as in the infer\n" },
		{ "MIX_AIC_1_2_SLOTS_PER_GROUP", "constexpr int64_t MIX_AIC_1_2_SLOTS_PER_GROUP = 3;  // 1 AIC + 2 AIV per group\n" },
		{ "PROF_SIZE_PER_CORE", "constexpr int64_t PROF_SIZE_PER_CORE = 2048;\n" },
};

/* The bound's constants the file does not define (tv_consts_collect), before
 * `before`, as the allocation wire writes uses them all. With `lost`, only
 * when the file uses one it does not define (the definitions lost since the
 * allocation was written): true when it did. */
static bool bound_consts(struct wire *w, const struct src_file *f, uint32_t before, bool lost)
{
	const size_t ndefs = sizeof(bound_defs) / sizeof(bound_defs[0]);
	char buf[512];
	bool used_undefined = false;
	size_t len = 0;
	struct tok_view tv;
	struct tv_consts cs = { 0 };

	tok_view_init(&tv, f->data, f->len);
	tv_consts_collect(&tv, &cs);
	for (size_t i = 0; i < ndefs; i++)
		used_undefined = used_undefined || (!tv_consts_find(&cs, bound_defs[i][0], strlen(bound_defs[i][0])) &&
						    wire_has_word(f, 0, (uint32_t)f->len, bound_defs[i][0]));
	for (size_t i = 0; i < ndefs && (!lost || used_undefined); i++)
		if (!tv_consts_find(&cs, bound_defs[i][0], strlen(bound_defs[i][0])))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s", bound_defs[i][1]);
	tv_consts_release(&cs);
	tok_view_release(&tv);
	if (len) {
		char *t = xasprintf("namespace {\n%s} // namespace\n\n", buf);
		wire_edit(w, f, before, before, t, "pybind: the bound of '%s' named (" WIRE_BOUND_EXPR ")", w->prof);
		free(t);
	}
	return len > 0;
}


/* Where mode A puts the argument in the schema (an index into its arguments),
 * or -1 when the schema cannot be read; *have: it is there already. */
static long schema_slot(const struct wire *w, const struct pybind_schema *sc, bool *have)
{
	long last = -1, at;

	*have = false;
	if (!sc->ok)
		return -1;
	if ((at = pybind_schema_find(sc, w->prof)) >= 0) {
		*have = true;
		return at;
	}
	for (size_t i = 0; i < sc->nargs; i++)
		if (sc->args[i].tensor)
			last = (long)i;
	for (size_t i = (size_t)(last + 1); i < sc->nargs; i++)
		if (!sc->args[i].has_default)
			return (long)sc->nargs;
	return last + 1;
}

/* The schema of the op among the file's names, or NULL. */
static const struct pybind_opname *op_schema(const struct wire *w, const struct pybind_file *pb)
{
	for (size_t o = 0; o < pb->nnames; o++)
		if (pb->names[o].schema && !project_profiling_suffix(pb->names[o].name) &&
		    project_is_op_name(w->p, pb->names[o].name))
			return &pb->names[o];
	return NULL;
}

/* Mode A: the position of the argument in the op's schema, from any binding
 * file (-1: no schema found). */
static long mode_a_slot(struct wire *w)
{
	for (size_t b = 0; b < w->p->npybinds; b++) {
		const struct pybind_opname *o = op_schema(w, &w->p->pybinds[b].pb);
		struct pybind_schema sc;
		bool have;
		long at;
		if (!o)
			continue;
		pybind_schema_read(w->p->pybinds[b].f, o, &sc);
		at = schema_slot(w, &sc, &have);
		pybind_schema_release(&sc);
		if (at >= 0)
			return at;
	}
	return -1;
}

static void schema_optional(struct wire *w, const struct src_file *f, const struct pybind_opname *o)
{
	struct pybind_schema sc;
	bool have;
	long at;

	pybind_schema_read(f, o, &sc);
	at = schema_slot(w, &sc, &have);
	if (at < 0) {
		wire_manual(w, f, o->range.start, o->range.end,
			    "add 'Tensor? %s=None' to the schema after its last tensor argument", w->prof);
	} else if (!have) {
		char *t;
		uint32_t pos;
		if ((size_t)at < sc.nargs) {
			pos = sc.args[at].range.start;
			t = xasprintf("Tensor? %s=None, ", w->prof);
		} else {
			pos = sc.nargs ? sc.args[sc.nargs - 1].range.end : sc.close;
			t = xasprintf("%sTensor? %s=None", sc.nargs ? ", " : "", w->prof);
		}
		wire_edit(w, f, pos, pos, t, "pybind: the schema of '%s' takes 'Tensor? %s=None' (argument %ld)", o->name,
			  w->prof, at + 1);
		free(t);
	}
	pybind_schema_release(&sc);
}

static bool on_own_line(const struct src_file *f, uint32_t at)
{
	uint32_t s = wire_line_start(f, at);

	for (uint32_t i = s; i < at; i++)
		if (f->data[i] != ' ' && f->data[i] != '\t')
			return false;
	return true;
}

/* Inserts parameter text `decl` at index k of function fn's parameters, one
 * per line when the function writes them so. */
static void insert_param(struct wire *w, const struct src_file *f, const struct pybind_func *fn, size_t k,
			 const char *decl, const char *what)
{
	char *t, *ind;

	if (fn->nparams == 0) {
		wire_edit(w, f, fn->params_range.start + 1, fn->params_range.start + 1, decl, "%s", what);
		return;
	}
	if (k < fn->nparams) {
		uint32_t at = fn->params[k].range.start;
		ind = wire_indent_at(f, at);
		t = on_own_line(f, at) ? xasprintf("%s,\n%s", decl, ind) : xasprintf("%s, ", decl);
		wire_edit(w, f, at, at, t, "%s", what);
	} else {
		uint32_t at = fn->params[fn->nparams - 1].range.end;
		ind = wire_indent_at(f, fn->params[fn->nparams - 1].range.start);
		t = on_own_line(f, fn->params[fn->nparams - 1].range.start) ? xasprintf(",\n%s%s", ind, decl)
									     : xasprintf(", %s", decl);
		wire_edit(w, f, at, at, t, "%s", what);
	}
	free(t);
	free(ind);
}

/* The type the file gives its optional tensors, "const c10::optional<at::Tensor> &" by default. */
static char *optional_type(const struct src_file *f, const struct pybind_func *fn)
{
	for (size_t k = 0; k < fn->nparams; k++) {
		const struct pybind_param *q = &fn->params[k];
		if (q->name && strstr(q->type, "optional<") && strstr(q->type, "Tensor")) {
			uint32_t end = q->range.end - (uint32_t)strlen(q->name);
			return xstrndup(f->data + q->range.start, end - q->range.start);
		}
	}
	return xstrdup("const c10::optional<at::Tensor> &");
}

/* The first line of the body of fn: where its own code starts, and its indentation. */
static uint32_t body_top(const struct src_file *f, const struct pybind_func *fn, char **ind)
{
	uint32_t at = fn->body.start + 1, first;

	while (at < f->len && f->data[at] != '\n')
		at++;
	at = at < f->len ? at + 1 : at;
	first = at;
	while (first < fn->body.end && (f->data[first] == ' ' || f->data[first] == '\t' || f->data[first] == '\n'))
		first++;
	*ind = first < fn->body.end - 1 ? wire_indent_at(f, first) : xstrdup("");
	if (!(*ind)[0]) {
		free(*ind);
		*ind = xstrdup("    ");
	}
	return at;
}

static long prof_param_of(const struct wire *w, const struct pybind_func *fn)
{
	for (size_t k = 0; k < fn->nparams; k++)
		if (fn->params[k].name && tv_names_profiling(fn->params[k].name, w->prof))
			return (long)k;
	return -1;
}

/* The first tensor parameter of fn (for the options of a new tensor), or NULL. */
static const char *first_tensor(const struct pybind_func *fn)
{
	for (size_t k = 0; k < fn->nparams; k++)
		if (fn->params[k].tensor && fn->params[k].name && !strstr(fn->params[k].type, "optional") &&
		    !strstr(fn->params[k].type, "List") && !strstr(fn->params[k].type, "vector"))
			return fn->params[k].name;
	return NULL;
}

/* The return type of fn as written ("std::tuple<at::Tensor, at::Tensor> ", "static tensor_list "). */
static char *return_type_text(const struct src_file *f, const struct pybind_func *fn)
{
	return xstrndup(f->data + fn->return_type.start, fn->return_type.end - fn->return_type.start);
}

/* Mode B: the return type of fn one tensor longer (a std::tuple of nmain,
 * or one at::Tensor); a list of tensors (tensor_list, std::vector) stays. */
static void return_type_grows(struct wire *w, const struct src_file *f, const struct pybind_func *fn, size_t nmain)
{
	char *rtype = return_type_text(f, fn);
	bool list = pybind_type_is_tensor_list(rtype);

	free(rtype);
	if (list)
		return;
	if (fn->tuple_arity == (long)nmain) {
		uint32_t gt = fn->return_type.end;
		while (gt > fn->return_type.start && f->data[gt - 1] != '>')
			gt--;
		if (gt > fn->return_type.start)
			wire_edit(w, f, gt - 1, gt - 1, ", at::Tensor", "pybind: %s() returns std::tuple of %zu tensors", fn->name,
				  nmain + 1);
		else
			wire_manual(w, f, fn->return_type.start, fn->return_type.end, "add at::Tensor last to the return type of %s()",
				    fn->name);
	} else if (fn->tuple_arity < 0 && nmain == 1) {
		const char *rt = f->data + fn->return_type.start;
		size_t rl = fn->return_type.end - fn->return_type.start;
		const char *hit = NULL;
		for (size_t i = 0; i + 10 <= rl && !hit; i++)
			if (memcmp(rt + i, "at::Tensor", 10) == 0)
				hit = rt + i;
		if (hit) {
			uint32_t s = (uint32_t)(hit - f->data);
			wire_edit(w, f, s, s + 10, "std::tuple<at::Tensor, at::Tensor>",
				  "pybind: %s() returns std::tuple<at::Tensor, at::Tensor>", fn->name);
		} else {
			wire_manual(w, f, fn->return_type.start, fn->return_type.end,
				    "make %s() return std::tuple<..., at::Tensor> with '%s' last", fn->name, w->prof);
		}
	}
}

/* Mode B: the returns of fn give the profiling tensor last; its std::tuple
 * one longer. A function returning a list of tensors by name (`return outs;`)
 * appends it before the return. */
void wire_mode_b_returns(struct wire *w, const struct src_file *f, const struct pybind_file *pb, long fi)
{
	const struct pybind_func *fn = &pb->funcs[fi];
	size_t nmain = wire_py_outputs(w);
	char *rtype = return_type_text(f, fn);
	bool list = pybind_type_is_tensor_list(rtype);

	free(rtype);
	for (size_t r = 0; r < pb->nreturns; r++) {
		const struct pybind_return *ret = &pb->returns[r];
		bool has = false;
		if (ret->func != fi || ret->elems.n == 0)
			continue;
		for (size_t e = 0; e < ret->elems.n; e++)
			has = has || tv_names_profiling(ret->elems.v[e], w->prof);
		if (has || (ret->elems.n == 1 && pybind_tuple_cat_last(ret->elems.v[0], w->prof)))
			continue;
		if (list && !ret->tuple && ret->elems.n == 1 && tv_text_is_ident(ret->elems.v[0], strlen(ret->elems.v[0]))) {
			uint32_t at = wire_line_start(f, ret->range.start);
			char *ind = wire_indent_at(f, ret->range.start),
			     *t = xasprintf("%s%s.push_back(%s);\n", ind, ret->elems.v[0], w->prof);
			char *last = pybind_last_push(f, fn, ret->elems.v[0], ret->range.start);
			bool pushed = last && tv_names_profiling(last, w->prof);
			free(last);
			if (!pushed)
				wire_edit(w, f, at, at, t, "pybind: %s() appends '%s' to '%s' before it returns it", fn->name,
					  w->prof, ret->elems.v[0]);
			free(t);
			free(ind);
			continue;
		}
		if (!ret->tuple && ret->elems.n == 1 && nmain > 1 && fn->tuple_arity == (long)nmain) {
			/* `return make_outputs(...);` / `return outs;`: a std::tuple of the
			   outputs made elsewhere, the profiling tensor appended to it */
			char *e = xstrndup(f->data + ret->elems.ranges[0].start, ret->elems.ranges[0].end - ret->elems.ranges[0].start);
			char *t = xasprintf("std::tuple_cat(%s, std::make_tuple(%s))", e, w->prof);
			free(e);
			wire_edit(w, f, ret->elems.ranges[0].start, ret->elems.ranges[0].end, t,
				  "pybind: %s() returns its %zu outputs, then '%s'", fn->name, nmain, w->prof);
			free(t);
			continue;
		}
		if (ret->elems.n != nmain) {
			wire_manual(w, f, ret->range.start, ret->range.end,
				    "return '%s' as the last value (this return has %zu values, the op %zu outputs, and the "
				    "returns of the binding do not agree on a count)", w->prof,
				    ret->elems.n, nmain);
			continue;
		}
		if (ret->tuple) {
			char *t = xasprintf(", %s", w->prof);
			wire_edit(w, f, ret->elems.ranges[ret->elems.n - 1].end, ret->elems.ranges[ret->elems.n - 1].end, t,
				  "pybind: %s() returns '%s' last", fn->name, w->prof);
			free(t);
		} else {
			char *t = xasprintf("std::make_tuple(%s, %s)", ret->elems.v[0], w->prof);
			wire_edit(w, f, ret->elems.ranges[0].start, ret->elems.ranges[0].end, t, "pybind: %s() returns (%s, %s)",
				  fn->name, ret->elems.v[0], w->prof);
			free(t);
		}
	}
	return_type_grows(w, f, fn, nmain);
}

void wire_alloc_profiling_at(struct wire *w, const struct src_file *f, const struct pybind_func *fn, bool zeros,
			     bool *consts_done, uint32_t consts_at)
{
	/* mode B: allocated first thing in the body, so it is in scope on every path */
	const char *like = first_tensor(fn);
	char *ind, *t;
	uint32_t at = body_top(f, fn, &ind);

	if (!like) {
		wire_manual(w, f, fn->range.start, fn->params_range.end,
			    "allocate '%s' (at::zeros({" WIRE_BOUND_EXPR "}, ...dtype(at::kLong))) at the top of %s()", w->prof,
			    fn->name);
	} else {
		uint32_t fstart = wire_line_start(f, fn->return_type.end > fn->return_type.start &&
							     fn->return_type.start < fn->range.start
							 ? fn->return_type.start
							 : fn->range.start);
		if (!*consts_done)
			bound_consts(w, f, consts_at != UINT32_MAX ? consts_at : fstart, false);
		*consts_done = true;
		t = xasprintf("%sat::Tensor %s = at::%s(\n%s    {" WIRE_BOUND_EXPR "},\n%s    %s.options().dtype(at::kLong));\n",
			     ind, w->prof, zeros ? "zeros" : "empty", ind, ind, like);
		wire_edit(w, f, at, at, t, "pybind: '%s' allocated at the top of %s(), {%s} int64", w->prof, fn->name,
			  WIRE_BOUND_EXPR);
		free(t);
	}
	free(ind);
}

void wire_alloc_profiling(struct wire *w, const struct src_file *f, const struct pybind_func *fn, bool zeros,
			  bool *consts_done)
{
	wire_alloc_profiling_at(w, f, fn, zeros, consts_done, UINT32_MAX);
}

void wire_bound_kept(struct wire *w, const struct src_file *f, const struct pybind_func *fn, bool *consts_done)
{
	if (!*consts_done)
		*consts_done = bound_consts(w, f,
					    wire_line_start(f, fn->return_type.end > fn->return_type.start &&
								       fn->return_type.start < fn->range.start
								   ? fn->return_type.start
								   : fn->range.start),
					    true);
}

/* Where EXEC_NPU_CMD(api, ...) passes the profiling tensor when the call
 * already has an argument there: the aclnn function (api followed by
 * GetWorkspaceSize, in a file of the project) takes a profiling parameter and
 * the call passes one argument per parameter but the workspace size and the
 * executor. -1 otherwise. */
static long exec_filled_slot(const struct wire *w, const struct pybind_exec *ex)
{
	char *name = xasprintf("%sGetWorkspaceSize", ex->api);
	long slot = -1;

	for (size_t a = 0; slot < 0 && a < w->p->naclnns; a++)
		for (size_t i = 0; slot < 0 && i < w->p->aclnns[a].ac.nfuncs; i++) {
			const struct aclnn_func *fn = &w->p->aclnns[a].ac.funcs[i];
			if (strcmp(fn->name, name) != 0 || fn->nparams < 2 || ex->args.n != fn->nparams - 2)
				continue;
			for (size_t k = 0; k < ex->args.n; k++)
				if (fn->params[k].name && tv_names_profiling(fn->params[k].name, w->prof))
					slot = (long)k;
		}
	free(name);
	return slot;
}

/* One binding function of the op (with its EXEC_NPU_CMD, or a registered
 * meta function). The named bound goes before the function, or at
 * `consts_at` when it is not UINT32_MAX (before the class of a method). */
static void wire_func(struct wire *w, const struct src_file *f, const struct pybind_file *pb, long fi, const char *api,
		      long slot, bool *consts_done, uint32_t consts_at)
{
	const struct pybind_func *fn = &pb->funcs[fi];
	bool execs = false;
	const char *pname = w->prof;
	long have = prof_param_of(w, fn);

	for (size_t x = 0; x < pb->nexecs; x++)
		execs = execs || (pb->execs[x].func == fi && strcmp(pb->execs[x].api, api) == 0);
	if (have >= 0)
		pname = fn->params[have].name;
	if (!w->required && have < 0) {
		char *type = optional_type(f, fn), *decl, *what;
		size_t k = fn->nparams;
		if (slot >= 0 && (size_t)slot <= fn->nparams) {
			k = (size_t)slot;
		} else {
			for (size_t i = 0; i < fn->nparams; i++)
				if (fn->params[i].tensor)
					k = i + 1;
		}
		decl = xasprintf("%s%s%s", type, type[0] && type[strlen(type) - 1] == '&' ? "" : "", w->prof);
		what = xasprintf("pybind: %s() takes '%s%s' (mode A, parameter %zu)", fn->name, type, w->prof, k + 1);
		insert_param(w, f, fn, k, decl, what);
		free(what);
		free(decl);
		free(type);
		if (!execs) {
			char *ind, *t;
			uint32_t at = body_top(f, fn, &ind);
			t = xasprintf("%s(void)%s;  // the meta function only forwards shapes\n", ind, w->prof);
			wire_edit(w, f, at, at, t, "pybind: %s() keeps '%s' (unused otherwise)", fn->name, w->prof);
			free(t);
			free(ind);
		}
	} else if (w->required && !pybind_var_before(pb, fi, w->prof, fn->body.end) && have < 0) {
		wire_alloc_profiling_at(w, f, fn, execs, consts_done, consts_at);
	} else if (w->required && have < 0 && consts_at == UINT32_MAX) {
		wire_bound_kept(w, f, fn, consts_done);
	} else if (w->required && have < 0 && !*consts_done) {
		*consts_done = bound_consts(w, f, consts_at, true);
	}
	/* every EXEC_NPU_CMD of the op in the function, on every path */
	for (size_t x = 0; x < pb->nexecs; x++) {
		const struct pybind_exec *ex = &pb->execs[x];
		bool passed = false;
		char *t;
		if (ex->func != fi || strcmp(ex->api, api) != 0)
			continue;
		for (size_t a = 0; a < ex->args.n; a++)
			if (tv_names_profiling(ex->args.v[a], w->prof)) {
				const struct pybind_var *v = pybind_var_before(pb, ex->func, ex->args.v[a], ex->range.start);
				passed = true;
				if (w->required && v && null_init(v->init))
					wire_manual(w, f, v->range.start, v->range.end,
						    "'%s' is REQUIRED (mode B): allocate it (at::zeros({" WIRE_BOUND_EXPR
						    "}, ...dtype(at::kLong))) instead of passing %s", ex->args.v[a], v->init);
			}
		if (passed)
			continue;
		{
			/* the argument is there already: a null placeholder gets the tensor */
			long k = exec_filled_slot(w, ex);
			if (k >= 0) {
				if (tv_is_null_text(ex->args.v[k]))
					wire_edit(w, f, ex->args.ranges[k].start, ex->args.ranges[k].end, pname,
						  "pybind: %s(%s, ...) passes '%s' as argument %ld, where it passed %s", ex->macro,
						  ex->api, pname, k + 1, ex->args.v[k]);
				else
					wire_manual(w, f, ex->args.ranges[k].start, ex->args.ranges[k].end,
						    "%s(%s, ...) passes '%s' as argument %ld, where the aclnn API takes the profiling "
						    "tensor: pass '%s' there", ex->macro, ex->api, ex->args.v[k], k + 1, pname);
				continue;
			}
		}
		if (ex->args.n == 0) {
			wire_manual(w, f, ex->range.start, ex->range.end, "pass '%s' as the last argument of %s", w->prof, ex->macro);
			continue;
		}
		{
			/* one argument per line: the new one on a line of its own */
			uint32_t prev = ex->args.n > 1 ? ex->args.ranges[ex->args.n - 2].end : ex->api_range.end;
			uint32_t last = ex->args.ranges[ex->args.n - 1].start;
			bool own_line = memchr(f->data + prev, '\n', last - prev) != NULL;
			char *ind = wire_indent_at(f, last);
			t = own_line ? xasprintf(",\n%s%s", ind, pname) : xasprintf(", %s", pname);
			free(ind);
		}
		wire_edit(w, f, ex->args.ranges[ex->args.n - 1].end, ex->args.ranges[ex->args.n - 1].end, t,
			  "pybind: %s(%s, ...) passes '%s' last", ex->macro, ex->api, pname);
		free(t);
	}
	if (w->required)
		wire_mode_b_returns(w, f, pb, fi);
}

/* ---- bindings that return what an autograd Function returns ---- */

/* The Function classes met in this run, and whether their forward() could be wired. */
struct forwards {
	const struct src_file **f;
	long *cls;
	bool *ok;
	size_t n;
};

/* The class ref's forward() wired now (once a run): true when it is wired,
 * false after reporting why it cannot be. */
static bool forward_once(struct wire *w, struct forwards *d, const struct autograd_ref *ref, const char *api);

/* Where a line goes after the statement ending at byte `end`. */
static uint32_t next_line(const struct src_file *f, uint32_t end)
{
	while (end < f->len && f->data[end] != '\n')
		end++;
	return end < f->len ? end + 1 : end;
}

/* forward() returns a list or a std::tuple of tensors, and takes the context
 * first: what wire can extend. Reports and returns false otherwise. */
static bool forward_usable(struct wire *w, const struct autograd_ref *ref)
{
	const struct pybind_autograd *ag = &ref->pb->autograds[ref->cls];
	const struct pybind_func *fn;
	char *rtype;
	bool list;

	if (ag->forward < 0) {
		wire_manual(w, ref->f, ag->range.start, ag->range.end,
			    "the autograd Function %s defines no forward() in its class body: return '%s' last from its forward() "
			    "(allocated there, marked non-differentiable), by hand", ag->name, w->prof);
		return false;
	}
	fn = &ref->pb->funcs[ag->forward];
	rtype = return_type_text(ref->f, fn);
	list = pybind_type_is_tensor_list(rtype);
	free(rtype);
	if (!list && fn->tuple_arity < 0) {
		wire_manual(w, ref->f, fn->return_type.start, fn->return_type.end,
			    "%s::forward() returns one tensor: make it return a tensor_list ({..., %s}, '%s' marked "
			    "non-differentiable) and the binding take the values by index, by hand", ag->name, w->prof, w->prof);
		return false;
	}
	if (fn->nparams == 0 || !fn->params[0].name || !strstr(fn->params[0].type, "AutogradContext")) {
		wire_manual(w, ref->f, fn->params_range.start, fn->params_range.end,
			    "%s::forward() does not take its AutogradContext first: mark '%s' non-differentiable in it by hand",
			    ag->name, w->prof);
		return false;
	}
	return true;
}

/* Mode B in forward() of the Function: the tensor allocated, passed to the
 * op, returned last, marked non-differentiable; backward() checked. */
static void wire_autograd_forward(struct wire *w, const struct autograd_ref *ref, const char *api)
{
	const struct pybind_autograd *ag = &ref->pb->autograds[ref->cls];
	const struct src_file *f = ref->f;
	const struct pybind_file *pb = ref->pb;
	long fi = ag->forward;
	const struct pybind_func *fn = &pb->funcs[fi];
	const struct pybind_var *had = pybind_var_before(pb, fi, w->prof, fn->body.end);
	struct pybind_range call, list;
	size_t nmain = wire_main_outputs(w);
	bool consts_done = false, found;

	wire_func(w, f, pb, fi, api, -1, &consts_done, wire_line_start(f, ag->range.start));
	if (!autograd_marks(f, pb, fi, w->prof, &call, &list, &found)) {
		if (found && list.end > list.start) {
			char *t = xasprintf(", %s", w->prof);
			wire_edit(w, f, list.end, list.end, t, "pybind: %s::forward() marks '%s' non-differentiable too", ag->name,
				  w->prof);
			free(t);
		} else if (found) {
			wire_manual(w, f, call.start, call.end,
				    "mark '%s' non-differentiable here too (mark_non_differentiable keeps the last list it is "
				    "given: pass the outputs and '%s' together)", w->prof, w->prof);
		} else {
			char *ind, *t;
			uint32_t at;
			if (had) {
				at = next_line(f, had->range.end);
				ind = wire_indent_at(f, had->range.start);
			} else {
				at = body_top(f, fn, &ind);
			}
			t = xasprintf("%s%s->mark_non_differentiable({%s});  // autotrace wire: profiling records have no gradient\n",
				     ind, fn->params[0].name, w->prof);
			wire_edit(w, f, at, at, t, "pybind: %s::forward() marks '%s' non-differentiable", ag->name, w->prof);
			free(t);
			free(ind);
		}
	}
	/* backward() receives one gradient more, for the profiling output (zero) */
	if (ag->backward >= 0) {
		const struct pybind_func *b = &pb->funcs[ag->backward];
		struct pybind_range num;
		long value;
		if (b->nparams < 2 || !pybind_type_is_tensor_list(b->params[1].type)) {
			wire_manual(w, f, b->params_range.start, b->params_range.end,
				    "%s::backward() receives one gradient more now (for '%s', zero): take the gradients as a "
				    "tensor_list", ag->name, w->prof);
		} else if (autograd_grad_count(f, pb, ag->backward, &num, &value) && value == (long)nmain) {
			char *t = xasprintf("%zu", nmain + 1);
			wire_edit(w, f, num.start, num.end, t, "pybind: %s::backward() receives %zu gradients (the last, for '%s', "
				  "is zero)", ag->name, nmain + 1, w->prof);
			free(t);
		}
	}
}

/* Notes class ref as met: its index in d, or -1 when it was met before (*ok: how it went). */
static long forward_note(struct forwards *d, const struct autograd_ref *ref, bool *ok)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->f[i] == ref->f && d->cls[i] == ref->cls) {
			*ok = d->ok[i];
			return -1;
		}
	d->f = xrealloc(d->f, (d->n + 1) * sizeof(*d->f));
	d->cls = xrealloc(d->cls, (d->n + 1) * sizeof(*d->cls));
	d->ok = xrealloc(d->ok, (d->n + 1) * sizeof(*d->ok));
	d->f[d->n] = ref->f;
	d->cls[d->n] = ref->cls;
	d->ok[d->n] = false;
	return (long)d->n++;
}

static bool forward_once(struct wire *w, struct forwards *d, const struct autograd_ref *ref, const char *api)
{
	bool ok;
	long k = forward_note(d, ref, &ok);

	if (k < 0)
		return ok;
	d->ok[k] = forward_usable(w, ref);
	if (d->ok[k])
		wire_autograd_forward(w, ref, api);
	return d->ok[k];
}

/* Binding function fi when it applies an autograd Function: the Function's
 * forward() wired, every return passing the result on with the profiling
 * tensor last. False when fi applies none. */
static bool wire_autograd_binding(struct wire *w, const struct src_file *f, const struct pybind_file *pb, long fi,
				  const char *api, struct forwards *done)
{
	const struct pybind_func *fn = &pb->funcs[fi];
	size_t from = 0, nmain = wire_main_outputs(w);
	long a = pybind_apply_next(pb, fi, &from);
	const struct pybind_apply *ap;
	struct autograd_ref ref;

	if (a < 0)
		return false;
	ap = &pb->applies[a];
	if (!project_autograd_find(w->p, f, pb, ap->cls, &w->ag, &ref)) {
		wire_manual(w, f, ap->range.start, ap->range.end,
			    "%s() returns what %s::apply gives, but the autograd Function %s is not in this file, the binding "
			    "files or a header this file includes under the project root: return '%s' last from its forward() "
			    "(allocated there, marked non-differentiable) and from %s(), by hand",
			    fn->name, ap->cls, ap->cls, w->prof, fn->name);
		return true;
	}
	if (!w->required) {
		bool ok;
		if (forward_note(done, &ref, &ok) < 0)
			return true; /* said once */
		wire_manual(w, f, ap->range.start, ap->range.end,
			    "%s() returns what the autograd Function %s returns: wire threads '%s' through it in mode B (allocated "
			    "in its forward(), one more output); say 'profiling \"%s\" required;' in the rules, or pass it to "
			    "forward() and return one more gradient from backward() by hand", fn->name, ap->cls, w->prof, w->prof);
		return true;
	}
	if (!forward_once(w, done, &ref, api))
		return true;
	for (size_t r = 0; r < pb->nreturns; r++) {
		const struct pybind_return *ret = &pb->returns[r];
		struct autograd_return_form form;
		bool has = false;
		if (ret->func != fi)
			continue;
		for (size_t e = 0; e < ret->elems.n; e++)
			has = has || tv_names_profiling(ret->elems.v[e], w->prof);
		autograd_return_of(pb, fi, ret, ap->cls, &form);
		if (has || form.kind == AUTOGRAD_RETURN_WHOLE || (form.kind == AUTOGRAD_RETURN_INDEXED && form.n == nmain + 1)) {
			autograd_return_form_release(&form);
			continue;
		}
		if (form.kind == AUTOGRAD_RETURN_INDEXED && form.n == nmain) {
			char *next = form.get ? xasprintf("std::get<%zu>(%s)", nmain, form.var) : xasprintf("%s[%zu]", form.var, nmain);
			char *t;
			if (ret->tuple) {
				t = xasprintf(", %s", next);
				wire_edit(w, f, ret->elems.ranges[nmain - 1].end, ret->elems.ranges[nmain - 1].end, t,
					  "pybind: %s() returns %s last ('%s')", fn->name, next, w->prof);
			} else {
				t = xasprintf("std::make_tuple(%s, %s)", ret->elems.v[0], next);
				wire_edit(w, f, ret->elems.ranges[0].start, ret->elems.ranges[0].end, t, "pybind: %s() returns (%s, %s)",
					  fn->name, ret->elems.v[0], next);
			}
			free(t);
			free(next);
		} else {
			wire_manual(w, f, ret->range.start, ret->range.end,
				    "return the result of %s::apply whole, or its values in order with '%s' last (%zu of them): "
				    "wire cannot tell what this return gives", ap->cls, w->prof, nmain + 1);
		}
		autograd_return_form_release(&form);
	}
	return_type_grows(w, f, fn, nmain);
	return true;
}

void wire_pybind(struct wire *w)
{
	char *api;
	long slot;
	size_t nfuncs = 0;
	struct forwards done = { NULL, NULL, NULL, 0 };

	if (!w->p->op || w->p->op->nparams == 0 || project_launch_form(w->p))
		return; /* a direct launch: wire_launch.c */
	if (w->p->without_binding) {
		/* the binding lives elsewhere: the aclnn API is where this project ends */
		diag_plain(w->diag, DIAG_NOTE,
			   "%s: whoever calls aclnn%s passes '%s' (an int64 tensor of {" WIRE_BOUND_EXPR "} words) last",
			   w->p->absent_binding ? "the project has no torch binding of the op (absent: aclnn is its top layer)"
						: "the torch binding is left out of this project (without binding)",
			   w->p->op->name, w->prof_camel);
		return;
	}
	api = xasprintf("aclnn%s", w->p->op->name);
	slot = w->required ? -1 : mode_a_slot(w);
	for (size_t i = 0; i < w->p->npybinds; i++) {
		const struct src_file *f = w->p->pybinds[i].f;
		const struct pybind_file *pb = &w->p->pybinds[i].pb;
		bool consts_done = false;
		for (size_t k = 0; k < pb->nfuncs; k++) {
			if (!project_is_bind_func(w->p, pb->funcs[k].name))
				continue;
			nfuncs++;
			/* a Function's forward: wired with the binding that applies it (below, when none does) */
			if (pybind_autograd_of_func(pb, (long)k) >= 0)
				continue;
			if (!wire_autograd_binding(w, f, pb, (long)k, api, &done))
				wire_func(w, f, pb, (long)k, api, slot, &consts_done, UINT32_MAX);
		}
		/* every schema of the op in the file (one per library block or #if arm) */
		for (size_t n = 0; n < pb->nnames; n++) {
			const struct pybind_opname *on = &pb->names[n];
			if (!on->schema || project_profiling_suffix(on->name) || !project_is_op_name(w->p, on->name))
				continue;
			if (w->required && on->nreturns == (long)wire_py_outputs(w))
				schema_returns(w, f, on);
			else if (!w->required)
				schema_optional(w, f, on);
		}
	}
	/* the forward() of a Function that runs the op, applied by no binding found */
	for (size_t i = 0; i < w->p->npybinds; i++) {
		const struct pybind_file *pb = &w->p->pybinds[i].pb;
		for (size_t c = 0; c < pb->nautograds; c++) {
			struct autograd_ref ref = { w->p->pybinds[i].f, pb, (long)c };
			long fwd = pb->autograds[c].forward;
			bool ok;
			if (fwd < 0 || !project_is_bind_func(w->p, pb->funcs[fwd].name))
				continue;
			if (!w->required) {
				if (forward_note(&done, &ref, &ok) < 0)
					continue;
				wire_manual(w, ref.f, pb->funcs[fwd].range.start, pb->funcs[fwd].params_range.end,
					    "the autograd Function %s runs %s: wire threads '%s' through it in mode B (say 'profiling "
					    "\"%s\" required;' in the rules)", pb->autograds[c].name, api, w->prof, w->prof);
			} else {
				forward_once(w, &done, &ref, api);
			}
		}
	}
	free(done.f);
	free(done.cls);
	free(done.ok);
	if (nfuncs == 0) {
		const struct src_file *f = NULL;
		uint32_t s = 0, e = 0;
		if (wire_direct_launch(w, &f, &s, &e)) {
			wire_manual(w, f, s, e,
				    "the binding launches the kernel directly here, not through %s and EXEC_NPU_CMD: pass a '%s' "
				    "tensor ({" WIRE_BOUND_EXPR "} int64) as the kernel's last GM argument, after its outputs, and "
				    "return it (or take it from the caller), by hand", api, w->prof);
			free(api);
			return;
		}
		project_op_anchor(w->p, PROJECT_ANCHOR_API, &f, &s, &e);
		wire_manual(w, f, s, e,
			    "no torch binding runs %s through EXEC_NPU_CMD (looked for %s): the profiling output cannot reach "
			    "Python; pass '%s' last where the binding calls it (or name the binding with the rules' 'pybind'; "
			    "a binding in another repository: leave it out with --without binding or the rules' 'without "
			    "binding;')",
			    api, project_searched_text(w->p).s, w->prof);
	}
	free(api);
}

/* wire, binding side: the hand-written aclnn entry points (op_api / pregen
 * .cpp files and the aclnn_*.h headers they include) and the torch binding
 * (the tensor allocated from the named bound, passed to EXEC_NPU_CMD as a
 * named lvalue, returned last in mode B or taken as an optional argument in
 * mode A, with the schema string to match). */
#include <stdlib.h>
#include <string.h>

#include "path_glob.h"
#include "wire.h"
#include "xalloc.h"

static bool aclnn_of_op(const char *fn, const char *op)
{
	const char *s = fn;
	size_t n = strlen(op);

	if (strncmp(s, "aclnn", 5) != 0)
		return false;
	s += 5;
	if (strncmp(s, "Inner", 5) == 0 && strncmp(s + 5, op, n) == 0)
		s += 5;
	return strncmp(s, op, n) == 0 && strcmp(s + n, "GetWorkspaceSize") == 0;
}

static void wire_aclnn_file(struct wire *w, const struct src_file *f, const struct aclnn_file *ac)
{
	const char *op = w->p->op->name;
	const char *type = "aclTensor *";

	for (size_t i = 0; i < ac->nfuncs; i++) {
		const struct aclnn_func *fn = &ac->funcs[i];
		long last = -1, prof = -1;
		if (!aclnn_of_op(fn->name, op))
			continue;
		for (size_t k = 0; k < fn->nparams; k++) {
			if (fn->params[k].tensor)
				last = (long)k;
			if (fn->params[k].name && tv_names_profiling(fn->params[k].name, w->prof))
				prof = (long)k;
		}
		if (prof < 0) {
			if (last < 0) {
				wire_manual(w, f, fn->name_range.start, fn->name_range.end,
					    "%s has no tensor parameter: add '%s%s' after its last output", fn->name, type,
					    w->prof_camel);
				continue;
			}
			{
				char *t = wire_fmt(", %s%s", type, w->prof_camel);
				wire_edit(w, f, fn->params[last].range.end, fn->params[last].range.end, t,
					  "aclnn: '%s%s' after '%s' in the %s of %s", type, w->prof_camel,
					  fn->params[last].name ? fn->params[last].name : "the last tensor",
					  fn->definition ? "definition" : "declaration", fn->name);
				free(t);
			}
			prof = last + 1;
		}
		/* a definition forwards to aclnnInner*: the argument in the same place */
		for (size_t c = 0; c < fn->ncalls; c++) {
			const struct aclnn_call *call = &fn->calls[c];
			const char *before = prof > 0 && (size_t)prof - 1 < fn->nparams ? fn->params[prof - 1].name : NULL;
			bool passed = false;
			long after = -1;
			if (!aclnn_of_op(call->callee, op))
				continue;
			for (size_t a = 0; a < call->nargs; a++) {
				if (tv_names_profiling(call->args[a], w->prof))
					passed = true;
				if (before && strcmp(call->args[a], before) == 0)
					after = (long)a;
			}
			if (passed)
				continue;
			if (after < 0) {
				wire_manual(w, f, call->range.start, call->range.end, "pass '%s' to %s after the last output",
					    w->prof_camel, call->callee);
				continue;
			}
			{
				char *t = wire_fmt(", %s", w->prof_camel);
				wire_edit(w, f, call->arg_ranges[after].end, call->arg_ranges[after].end, t,
					  "aclnn: %s forwards '%s' to %s", fn->name, w->prof_camel, call->callee);
				free(t);
			}
		}
	}
}

/* The aclnn_*.h headers a .cpp includes from its own directory. */
static void included_headers(struct wire *w, const struct src_file *f, const struct src_file ***out, size_t *n)
{
	const char *s = f->data, *end = f->data + f->len;

	*out = NULL;
	*n = 0;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *q, *r;
		if (!nl)
			nl = end;
		q = s;
		while (q < nl && (*q == ' ' || *q == '\t'))
			q++;
		if ((size_t)(nl - q) > 10 && strncmp(q, "#include", 8) == 0 && (q = memchr(q, '"', (size_t)(nl - q))) &&
		    (r = memchr(q + 1, '"', (size_t)(nl - q - 1)))) {
			char *name = xstrndup(q + 1, (size_t)(r - q - 1)), *dir = xstrdup(f->path), *slash, *path;
			const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
			slash = strrchr(dir, '/');
			if (slash)
				*slash = '\0';
			path = slash ? path_join(dir, name) : xstrdup(name);
			if (strncmp(base, "aclnn", 5) == 0) {
				FILE *t = fopen(path, "r");
				if (t) {
					const struct src_file *h;
					fclose(t);
					h = wire_load(w, path);
					if (h) {
						*out = xrealloc(*out, (*n + 1) * sizeof(**out));
						(*out)[(*n)++] = h;
					}
				}
			}
			free(path);
			free(dir);
			free(name);
		}
		s = nl + 1;
	}
}

void wire_aclnn(struct wire *w)
{
	if (!w->p->op || w->p->op->nparams == 0)
		return;
	for (size_t i = 0; i < w->p->naclnns; i++) {
		const struct src_file **hs;
		size_t nh;
		wire_aclnn_file(w, w->p->aclnns[i].f, &w->p->aclnns[i].ac);
		included_headers(w, w->p->aclnns[i].f, &hs, &nh);
		for (size_t k = 0; k < nh; k++) {
			const struct src_file *h = hs[k];
			struct aclnn_file ac;
			bool seen = false;
			for (size_t j = 0; j < w->nfiles && !seen; j++)
				seen = w->files[j].f == h;
			if (seen)
				continue;
			aclnn_scan(h->data, h->len, &ac);
			wire_aclnn_file(w, h, &ac);
			aclnn_file_release(&ac);
		}
		free(hs);
	}
}

/* ---- pybind ---- */

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

static void schema_returns(struct wire *w, const struct src_file *f, const struct pybind_opname *o)
{
	uint32_t arrow = schema_arrow(f, o->range.start), s, q;

	if (arrow == UINT32_MAX) {
		wire_manual(w, f, o->range.start, o->range.end, "add ', Tensor' as the last returned value of the schema");
		return;
	}
	s = arrow + 2;
	while (s < f->len && f->data[s] == ' ')
		s++;
	q = s;
	while (q < f->len && f->data[q] != '"')
		q++;
	if (f->data[s] == '(') {
		uint32_t close = q;
		while (close > s && f->data[close - 1] != ')')
			close--;
		if (close > s) {
			wire_edit(w, f, close - 1, close - 1, ", Tensor", "pybind: the schema of '%s' returns one more Tensor",
				  o->name);
			return;
		}
	} else if (q > s) {
		char *t = wire_fmt("(%.*s, Tensor)", (int)(q - s), f->data + s);
		wire_edit(w, f, s, q, t, "pybind: the schema of '%s' returns (%.*s, Tensor)", o->name, (int)(q - s),
			  f->data + s);
		free(t);
		return;
	}
	wire_manual(w, f, o->range.start, o->range.end, "add ', Tensor' as the last returned value of the schema");
}

static void schema_optional(struct wire *w, const struct src_file *f, const struct pybind_opname *o)
{
	uint32_t arrow = schema_arrow(f, o->range.start), close;
	char *t;

	if (arrow == UINT32_MAX) {
		wire_manual(w, f, o->range.start, o->range.end, "add 'Tensor? %s=None' as the last argument of the schema",
			    w->prof);
		return;
	}
	close = arrow;
	while (close > o->range.start && f->data[close - 1] != ')')
		close--;
	if (close <= o->range.start) {
		wire_manual(w, f, o->range.start, o->range.end, "add 'Tensor? %s=None' as the last argument of the schema",
			    w->prof);
		return;
	}
	t = wire_fmt(", Tensor? %s=None", w->prof);
	wire_edit(w, f, close - 1, close - 1, t, "pybind: the schema of '%s' takes 'Tensor? %s=None'", o->name, w->prof);
	free(t);
}

static void bound_consts(struct wire *w, const struct src_file *f, uint32_t before)
{
	char buf[512];
	size_t len = 0;

	if (!wire_has_word(f, 0, (uint32_t)f->len, "MAX_INFER_GETBLOCKNUM_UB"))
		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
					"constexpr int64_t MAX_INFER_GETBLOCKNUM_UB = 128;  // as in the infer\n");
	if (!wire_has_word(f, 0, (uint32_t)f->len, "MIX_AIC_1_2_SLOTS_PER_GROUP"))
		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
					"constexpr int64_t MIX_AIC_1_2_SLOTS_PER_GROUP = 3;  // 1 AIC + 2 AIV per group\n");
	if (!wire_has_word(f, 0, (uint32_t)f->len, "PROF_SIZE_PER_CORE"))
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "constexpr int64_t PROF_SIZE_PER_CORE = 2048;\n");
	if (len) {
		char *t = wire_fmt("namespace {\n%s} // namespace\n\n", buf);
		wire_edit(w, f, before, before, t, "pybind: the bound of '%s' named (" WIRE_BOUND_EXPR ")", w->prof);
		free(t);
	}
}

static void wire_pybind_file(struct wire *w, const struct src_file *f, const struct pybind_file *pb)
{
	const char *op = w->p->op->name;
	size_t nmain = wire_main_outputs(w);
	bool returns_done = false, consts_done = false;
	char *api = wire_fmt("aclnn%s", op);

	for (size_t x = 0; x < pb->nexecs; x++) {
		const struct pybind_exec *ex = &pb->execs[x];
		const struct pybind_func *fn = ex->func >= 0 ? &pb->funcs[ex->func] : NULL;
		bool passed = false;
		if (strcmp(ex->api, api) != 0)
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
		if (!fn) {
			if (!passed)
				wire_manual(w, f, ex->range.start, ex->range.end, "pass '%s' as the last argument of %s", w->prof,
					    ex->macro);
			continue;
		}
		if (!passed) {
			uint32_t fstart = wire_line_start(f, fn->return_type.end > fn->return_type.start &&
								     fn->return_type.start < fn->range.start
								 ? fn->return_type.start
								 : fn->range.start);
			char *t;
			if (ex->args.n == 0) {
				wire_manual(w, f, ex->range.start, ex->range.end, "pass '%s' as the last argument of %s", w->prof,
					    ex->macro);
				continue;
			}
			if (w->required) {
				char *ind = wire_indent_at(f, ex->range.start);
				uint32_t at = wire_line_start(f, ex->range.start);
				if (!pybind_var_before(pb, ex->func, w->prof, ex->range.start)) {
					if (!consts_done)
						bound_consts(w, f, fstart);
					consts_done = true;
					t = wire_fmt("%sat::Tensor %s = at::zeros(\n%s    {" WIRE_BOUND_EXPR "},\n"
						     "%s    %s.options().dtype(at::kLong));\n",
						     ind, w->prof, ind, ind, ex->args.v[0]);
					wire_edit(w, f, at, at, t, "pybind: '%s' allocated in %s(), {%s} int64", w->prof, fn->name,
						  WIRE_BOUND_EXPR);
					free(t);
				}
				free(ind);
			} else {
				/* mode A: an optional argument of the binding */
				struct tok_view tv;
				size_t i;
				tok_view_init(&tv, f->data, f->len);
				for (i = tv_at(&tv, fn->range.start); i + 1 < tv.n && tv.v[i].start < fn->body.start; i++)
					if (tv_is(&tv, i, fn->name) && tv_is(&tv, i + 1, "(") && tv.match[i + 1] != TV_NONE)
						break;
				if (i + 1 < tv.n && tv.v[i].start < fn->body.start) {
					size_t close = tv.match[i + 1];
					t = wire_fmt("%sconst c10::optional<at::Tensor> &%s", close > i + 2 ? ", " : "", w->prof);
					wire_edit(w, f, tv.v[close].start, tv.v[close].start, t,
						  "pybind: %s() takes 'const c10::optional<at::Tensor> &%s' (mode A)", fn->name,
						  w->prof);
					free(t);
					for (size_t o = 0; o < pb->nnames; o++)
						if (pb->names[o].schema && !gate_profiling_suffix(pb->names[o].name))
							schema_optional(w, f, &pb->names[o]);
				} else {
					wire_manual(w, f, fn->range.start, fn->range.end,
						    "add 'const c10::optional<at::Tensor> &%s' as the last parameter of %s()", w->prof,
						    fn->name);
				}
				tok_view_release(&tv);
			}
			{
				/* one argument per line: the new one on a line of its own */
				uint32_t prev = ex->args.n > 1 ? ex->args.ranges[ex->args.n - 2].end : ex->api_range.end;
				uint32_t last = ex->args.ranges[ex->args.n - 1].start;
				bool own_line = memchr(f->data + prev, '\n', last - prev) != NULL;
				char *ind = wire_indent_at(f, last);
				t = own_line ? wire_fmt(",\n%s%s", ind, w->prof) : wire_fmt(", %s", w->prof);
				free(ind);
			}
			wire_edit(w, f, ex->args.ranges[ex->args.n - 1].end, ex->args.ranges[ex->args.n - 1].end, t,
				  "pybind: %s passes '%s' last", ex->macro, w->prof);
			free(t);
		}
		if (!w->required || returns_done)
			continue;
		returns_done = true;
		/* mode B: returned last, the return type and the schema one longer */
		for (size_t r = 0; r < pb->nreturns; r++) {
			const struct pybind_return *ret = &pb->returns[r];
			bool has = false;
			if (ret->func != ex->func || ret->elems.n == 0)
				continue;
			for (size_t e = 0; e < ret->elems.n; e++)
				has = has || tv_names_profiling(ret->elems.v[e], w->prof);
			if (has)
				continue;
			if (ret->elems.n != nmain) {
				wire_manual(w, f, ret->range.start, ret->range.end,
					    "return '%s' as the last value (this return has %zu values, the op %zu outputs)",
					    w->prof, ret->elems.n, nmain);
				continue;
			}
			if (ret->tuple) {
				char *t = wire_fmt(", %s", w->prof);
				wire_edit(w, f, ret->elems.ranges[ret->elems.n - 1].end, ret->elems.ranges[ret->elems.n - 1].end,
					  t, "pybind: %s() returns '%s' last", fn->name, w->prof);
				free(t);
			} else {
				char *t = wire_fmt("std::make_tuple(%s, %s)", ret->elems.v[0], w->prof);
				wire_edit(w, f, ret->elems.ranges[0].start, ret->elems.ranges[0].end, t,
					  "pybind: %s() returns (%s, %s)", fn->name, ret->elems.v[0], w->prof);
				free(t);
			}
		}
		if (fn->tuple_arity == (long)nmain) {
			uint32_t gt = fn->return_type.end;
			while (gt > fn->return_type.start && f->data[gt - 1] != '>')
				gt--;
			if (gt > fn->return_type.start)
				wire_edit(w, f, gt - 1, gt - 1, ", at::Tensor", "pybind: %s() returns std::tuple of %zu tensors",
					  fn->name, nmain + 1);
			else
				wire_manual(w, f, fn->return_type.start, fn->return_type.end,
					    "add at::Tensor last to the return type of %s()", fn->name);
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
		for (size_t o = 0; o < pb->nnames; o++)
			if (pb->names[o].schema && pb->names[o].nreturns == (long)nmain &&
			    !gate_profiling_suffix(pb->names[o].name))
				schema_returns(w, f, &pb->names[o]);
	}
	free(api);
}

void wire_pybind(struct wire *w)
{
	bool any = false;
	char *api;

	if (!w->p->op || w->p->op->nparams == 0)
		return;
	api = wire_fmt("aclnn%s", w->p->op->name);
	for (size_t i = 0; i < w->p->npybinds; i++) {
		for (size_t x = 0; x < w->p->pybinds[i].pb.nexecs; x++)
			any = any || strcmp(w->p->pybinds[i].pb.execs[x].api, api) == 0;
		wire_pybind_file(w, w->p->pybinds[i].f, &w->p->pybinds[i].pb);
	}
	if (!any)
		wire_manual(w, NULL, 0, 0, "no EXEC_NPU_CMD(%s, ...) in the pybind sources (%s): pass '%s' there", api,
			    gate_globs_text(&w->p->policy->pybind), w->prof);
	free(api);
}

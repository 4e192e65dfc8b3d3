/* wire, device side: the GM parameter of the __global__ entry and of the
 * kernel class Init (same position: after the outputs, before workspace and
 * tiling), the Init call, the runtime's entry / exit helpers in the entry's
 * body, and the runtime (device/moe_tracing.h) embedded in the base header
 * between the AUTOTRACE-RUNTIME markers -- what device/embed_runtime.sh does. */
#include <stdlib.h>
#include <string.h>

#include "path_glob.h"
#include "wire.h"
#include "xalloc.h"

/* Inserts `decl` as parameter / argument `k` of a list whose items are
 * [starts[i], ends[i]); `n` items. */
static void insert_item(struct wire *w, const struct src_file *f, const uint32_t *starts, const uint32_t *ends, size_t n,
			size_t k, uint32_t empty_at, const char *decl, const char *what)
{
	char *t;

	if (n == 0) {
		wire_edit(w, f, empty_at, empty_at, decl, "%s", what);
		return;
	}
	if (k < n) {
		t = wire_fmt("%s, ", decl);
		wire_edit(w, f, starts[k], starts[k], t, "%s", what);
	} else {
		t = wire_fmt(", %s", decl);
		wire_edit(w, f, ends[n - 1], ends[n - 1], t, "%s", what);
	}
	free(t);
}

static void param_ranges(const struct gate_kparam *v, size_t n, uint32_t **s, uint32_t **e)
{
	*s = xmalloc((n ? n : 1) * sizeof(**s));
	*e = xmalloc((n ? n : 1) * sizeof(**e));
	for (size_t i = 0; i < n; i++) {
		(*s)[i] = v[i].start;
		(*e)[i] = v[i].end;
	}
}

static long prof_param(const struct wire *w, const struct gate_kparam *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].name && tv_names_profiling(v[i].name, w->prof))
			return (long)i;
	return -1;
}

/* After the line holding byte `off` (the start of the next line). */
static uint32_t next_line(const struct src_file *f, uint32_t off)
{
	while (off < f->len && f->data[off] != '\n')
		off++;
	return off < f->len ? off + 1 : off;
}

static void entry_helpers(struct wire *w, const struct gate_kentry *e, const char *pname)
{
	const struct src_file *f = e->file;
	struct tok_view tv;
	size_t open, close, first;
	bool has_return = false;
	uint32_t at;
	char *ind, *t;

	tok_view_init(&tv, f->data, f->len);
	if (wire_body_after(&tv, e->params_end, &open, &close) != 0) {
		wire_manual(w, f, e->params_start, e->params_end,
			    "call MOE_TRACING_KERNEL_BEGIN(%s) at the start of '%s' and MoeTracingKernelEnd() at its end", pname,
			    e->name);
		goto out;
	}
	if (wire_has_word(f, tv.v[open].start, tv.v[close].end, "MOE_TRACING_KERNEL_BEGIN") ||
	    wire_has_word(f, tv.v[open].start, tv.v[close].end, "MOE_TRACING_KERNEL_SCOPE") ||
	    wire_has_word(f, tv.v[open].start, tv.v[close].end, "SetMoeProfilePtr"))
		goto out;
	for (size_t i = open + 1; i < close; i++)
		if (tv_is(&tv, i, "return"))
			has_return = true;
	first = open + 1;
	ind = wire_indent_at(f, tv.v[first].start);
	if (first == close || !ind[0]) {
		free(ind);
		ind = xstrdup("    ");
	}
	at = next_line(f, tv.v[open].start);
	/* after KERNEL_TASK_TYPE_DEFAULT(...); which must stay the first statement */
	if (first < close && strncmp(f->data + tv.v[first].start, "KERNEL_TASK_TYPE", 16) == 0) {
		for (size_t i = first; i < close; i++) {
			if (tv_is(&tv, i, "(") && tv.match[i] != TV_NONE)
				i = tv.match[i];
			else if (tv_is(&tv, i, ";")) {
				at = next_line(f, tv.v[i].start);
				break;
			}
		}
	}
	if (has_return) {
		t = wire_fmt("%sMOE_TRACING_KERNEL_SCOPE(%s);\n", ind, pname);
		wire_edit(w, f, at, at, t, "kernel: MOE_TRACING_KERNEL_SCOPE(%s) in '%s' (it returns early: the scope ends "
			  "the trace on every return)", pname, e->name);
	} else {
		uint32_t end_at = wire_line_start(f, tv.v[close].start);
		bool alone = true;
		for (uint32_t i = end_at; i < tv.v[close].start; i++)
			if (f->data[i] != ' ' && f->data[i] != '\t')
				alone = false;
		t = wire_fmt("%sMOE_TRACING_KERNEL_BEGIN(%s);\n", ind, pname);
		wire_edit(w, f, at, at, t, "kernel: MOE_TRACING_KERNEL_BEGIN(%s) at the start of '%s'", pname, e->name);
		free(t);
		if (alone)
			t = wire_fmt("%sMoeTracingKernelEnd();\n", ind);
		else
			end_at = tv.v[close].start, t = xstrdup(" MoeTracingKernelEnd(); ");
		wire_edit(w, f, end_at, end_at, t, "kernel: MoeTracingKernelEnd() at the end of '%s'", e->name);
	}
	free(t);
	free(ind);
out:
	tok_view_release(&tv);
}

/* `(void)name;` at the start of Init's body, so that -Wunused-parameter stays quiet. */
static void init_use(struct wire *w, const struct gate_kentry *e, const char *pname)
{
	const struct src_file *f = e->init_file;
	struct tok_view tv;
	size_t open, close;

	tok_view_init(&tv, f->data, f->len);
	if (wire_body_after(&tv, e->init_params_end, &open, &close) == 0) {
		char *ind = wire_indent_at(f, tv.v[open + 1].start), *t;
		uint32_t at = next_line(f, tv.v[open].start);
		if (open + 1 == close || !ind[0]) {
			char *outer = wire_indent_at(f, tv.v[open].start);
			free(ind);
			ind = wire_fmt("%s    ", outer);
			free(outer);
		}
		t = wire_fmt("%s(void)%s;  // the runtime records through MOE_TRACING_KERNEL_BEGIN in the entry\n", ind, pname);
		wire_edit(w, f, at, at, t, "kernel: %s keeps '%s' (unused otherwise)", e->init_qualified, pname);
		free(t);
		free(ind);
	}
	tok_view_release(&tv);
}

void wire_kernel(struct wire *w)
{
	struct gate_project *p = w->p;
	const struct opdef_op *op = p->op;
	size_t want;
	char *snake;
	uint32_t done_init[16];
	size_t ndone = 0;

	if (!op || op->nparams == 0)
		return;
	want = op->ninputs + wire_prof_index(w);
	if (!p->kernels_read || p->kernels.n == 0) {
		wire_manual(w, NULL, 0, 0,
			    "no __global__ kernel found under %s: add 'GM_ADDR %s' as parameter %zu of the kernel entry and of "
			    "its class Init", p->kernel_root ? p->kernel_root : "(no kernel directory)", w->prof_camel,
			    want + 1);
		return;
	}
	snake = gate_snake(op->name);
	for (size_t k = 0; k < p->kernels.n; k++) {
		const struct gate_kentry *e = &p->kernels.v[k];
		const char *pname = w->prof_camel;
		long at;
		if (p->kernels.n > 1 && strcmp(e->name, snake) != 0)
			continue;
		at = prof_param(w, e->params, e->nparams);
		if (at >= 0) {
			pname = e->params[at].name;
			if ((size_t)at != want) {
				wire_manual(w, e->file, e->params[at].start, e->params[at].end,
					    "move '%s' to parameter %zu of '%s' (after the outputs, before workspace and "
					    "tiling), and in Init and its call", pname, want + 1, e->name);
				continue;
			}
		} else if (want > e->nparams) {
			wire_manual(w, e->file, e->params_start, e->params_end,
				    "'%s' has %zu parameters but the OpDef has %zu tensors before '%s': add 'GM_ADDR %s' "
				    "after the outputs", e->name, e->nparams, want, w->prof, w->prof_camel);
			continue;
		} else {
			uint32_t *s, *en;
			const char *type = want > 0 && e->params[want - 1].type[0] ? e->params[want - 1].type : "GM_ADDR";
			char *decl = wire_fmt("%s %s", type, pname), *what;
			param_ranges(e->params, e->nparams, &s, &en);
			what = wire_fmt("kernel: '%s %s' is parameter %zu of '%s'", type, pname, want + 1, e->name);
			insert_item(w, e->file, s, en, e->nparams, want, e->params_start + 1, decl, what);
			free(what);
			free(decl);
			free(s);
			free(en);
		}
		if (!e->has_init) {
			wire_manual(w, e->file, e->params_start, e->params_end,
				    "'%s' calls no Init: pass '%s' to the kernel class in the position of the OpDef", e->name,
				    pname);
		} else {
			bool passed = false;
			for (size_t i = 0; i < e->ninit_args; i++)
				if (strcmp(e->init_args[i], pname) == 0)
					passed = true;
			if (!passed) {
				if (want > e->ninit_args) {
					wire_manual(w, e->file, e->init_start, e->init_end, "pass '%s' to Init as argument %zu",
						    pname, want + 1);
				} else {
					char *what = wire_fmt("kernel: the Init call passes '%s' as argument %zu", pname, want + 1);
					insert_item(w, e->file, e->init_arg_start, e->init_arg_end, e->ninit_args, want,
						    e->init_args_start, pname, what);
					free(what);
				}
			}
			if (!e->init_file) {
				wire_manual(w, e->file, e->init_start, e->init_end,
					    "the Init definition was not found under the kernel directory: add 'GM_ADDR %s' as its "
					    "parameter %zu", pname, want + 1);
			} else if (prof_param(w, e->init_params, e->ninit_params) < 0) {
				bool dup = false;
				for (size_t i = 0; i < ndone; i++)
					dup = dup || done_init[i] == e->init_params_start;
				if (!dup && want <= e->ninit_params && ndone < 16) {
					uint32_t *s, *en;
					const char *type = want > 0 && e->init_params[want - 1].type[0] ? e->init_params[want - 1].type
													: "GM_ADDR";
					char *decl = wire_fmt("%s %s", type, pname), *what;
					done_init[ndone++] = e->init_params_start;
					param_ranges(e->init_params, e->ninit_params, &s, &en);
					what = wire_fmt("kernel: '%s %s' is parameter %zu of %s", type, pname, want + 1,
							e->init_qualified);
					insert_item(w, e->init_file, s, en, e->ninit_params, want, e->init_params_start + 1, decl,
						    what);
					init_use(w, e, pname);
					free(what);
					free(decl);
					free(s);
					free(en);
				} else if (!dup) {
					wire_manual(w, e->init_file, e->init_params_start, e->init_params_end,
						    "add 'GM_ADDR %s' as parameter %zu of %s", pname, want + 1, e->init_qualified);
				}
			}
		}
		entry_helpers(w, e, pname);
	}
	free(snake);
}

/* ---- the runtime in the base header ---- */

static const char *line_with(const struct src_file *f, const char *prefix, uint32_t from)
{
	size_t n = strlen(prefix);

	for (uint32_t i = from; i < f->len; i = next_line(f, i)) {
		if (f->len - i >= n && memcmp(f->data + i, prefix, n) == 0)
			return f->data + i;
		if (next_line(f, i) == i)
			break;
	}
	return NULL;
}

void wire_base(struct wire *w)
{
	char **found = NULL;
	size_t n = 0;
	struct src_file *rt;

	if (path_glob(w->opdir, &w->p->policy->base, &found, &n, w->diag) != 0)
		return;
	if (n == 0) {
		wire_manual(w, NULL, 0, 0,
			    "no base header matches the rules' 'base' patterns (%s): embed %s in the header that defines "
			    "ENABLE_MOE_PROFILING, between the AUTOTRACE-RUNTIME-BEGIN / END marker lines",
			    gate_globs_text(&w->p->policy->base), w->runtime_path);
		path_glob_free(found, n);
		return;
	}
	rt = src_file_load(w->runtime_path);
	if (!rt) {
		diag_pos(w->diag, DIAG_ERROR, w->runtime_path, 0, 0, "cannot read the device runtime (set AUTOTRACE_DEVICE_DIR)");
		w->manual++;
		path_glob_free(found, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char *path = path_join(w->opdir, found[i]);
		const struct src_file *f = wire_load(w, path);
		const char *b, *e;
		char *rtext = rt->len && rt->data[rt->len - 1] != '\n' ? wire_fmt("%s\n", rt->data) : xstrdup(rt->data);
		size_t rlen = strlen(rtext);
		free(path);
		if (!f) {
			free(rtext);
			continue;
		}
		b = line_with(f, "// AUTOTRACE-RUNTIME-BEGIN", 0);
		e = line_with(f, WIRE_RUNTIME_END, b ? (uint32_t)(b - f->data) : 0);
		if (b && e) {
			uint32_t from = next_line(f, (uint32_t)(b - f->data)), to = (uint32_t)(e - f->data);
			if (to - from != rlen || memcmp(f->data + from, rtext, rlen) != 0)
				wire_edit(w, f, from, to, rtext, "runtime: the embedded copy of %s refreshed", w->runtime_path);
		} else if (b || line_with(f, WIRE_RUNTIME_END, 0)) {
			wire_manual(w, f, b ? (uint32_t)(b - f->data) : 0, b ? (uint32_t)(b - f->data) + 10 : 0,
				    "the runtime markers are unpaired: keep both '// AUTOTRACE-RUNTIME-BEGIN ...' and '"
				    WIRE_RUNTIME_END "' lines (or neither) and run wire again");
		} else if (wire_has_word(f, 0, (uint32_t)f->len, "SetMoeProfilePtr") ||
			   wire_has_word(f, 0, (uint32_t)f->len, "MoeTracing")) {
			const char *word = wire_has_word(f, 0, (uint32_t)f->len, "SetMoeProfilePtr") ? "SetMoeProfilePtr"
												 : "MoeTracing";
			uint32_t at = 0;
			while (!wire_has_word(f, at, at + (uint32_t)strlen(word), word))
				at++;
			wire_manual(w, f, at, at + (uint32_t)strlen(word),
				    "this header defines a MoeTracing runtime of its own: delete it and run wire again (wire "
				    "embeds autotrace's device/moe_tracing.h between the AUTOTRACE-RUNTIME markers)");
		} else {
			/* before the include guard's #endif, else at the end */
			uint32_t at = (uint32_t)f->len;
			char *t;
			for (uint32_t j = 0; j < f->len; j = next_line(f, j)) {
				if (f->len - j >= 6 && memcmp(f->data + j, "#endif", 6) == 0)
					at = j;
				if (next_line(f, j) == j)
					break;
			}
			t = wire_fmt("%s" WIRE_RUNTIME_BEGIN "\n%s" WIRE_RUNTIME_END "\n%s",
				     at == f->len && f->len && f->data[f->len - 1] != '\n' ? "\n" : "", rtext,
				     at < f->len ? "\n" : "");
			wire_edit(w, f, at, at, t, "runtime: %s embedded between the AUTOTRACE-RUNTIME markers",
				  w->runtime_path);
			free(t);
		}
		free(rtext);
	}
	src_file_free(rt);
	path_glob_free(found, n);
}

/* wire, device side: the GM parameter of the __global__ entry and of the
 * kernel class Init (same position: after the outputs, before workspace and
 * tiling), the Init call, the runtime's entry / exit helpers in the entry's
 * body, and the runtime (device/moe_tracing.h) embedded in the base header
 * between the AUTOTRACE-RUNTIME markers -- what device/embed_runtime.sh does. */
#include <stdlib.h>
#include <string.h>

#include "cxx_scan.h"
#include "kernel_scan.h"
#include "path_glob.h"
#include "path_rel.h"
#include "project_tokens.h"
#include "rule_find.h"
#include "runtime_embed.h"
#include "wire.h"
#include "xalloc.h"

#ifndef DEVICEDIR
#define DEVICEDIR "/usr/local/share/autotrace/device"
#endif

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
		t = xasprintf("%s, ", decl);
		wire_edit(w, f, starts[k], starts[k], t, "%s", what);
	} else {
		t = xasprintf(", %s", decl);
		wire_edit(w, f, ends[n - 1], ends[n - 1], t, "%s", what);
	}
	free(t);
}

static void param_ranges(const struct project_kparam *v, size_t n, uint32_t **s, uint32_t **e)
{
	*s = xmalloc((n ? n : 1) * sizeof(**s));
	*e = xmalloc((n ? n : 1) * sizeof(**e));
	for (size_t i = 0; i < n; i++) {
		(*s)[i] = v[i].start;
		(*e)[i] = v[i].end;
	}
}

static long prof_param(const struct wire *w, const struct project_kparam *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].name && tv_names_profiling(v[i].name, w->prof))
			return (long)i;
	return -1;
}

/* The type of a new GM parameter at position k: the type of the nearest GM
 * parameter before it (so a tiling pointer or a pipe never lends its type),
 * else GM_ADDR. */
static const char *gm_type(const struct project_kparam *v, size_t n, size_t k)
{
	for (size_t i = k < n ? k : n; i-- > 0;)
		if (project_kparam_is_gm(&v[i]))
			return v[i].type;
	return "GM_ADDR";
}

/* After the line holding byte `off` (the start of the next line). */
static uint32_t next_line(const struct src_file *f, uint32_t off)
{
	while (off < f->len && f->data[off] != '\n')
		off++;
	return off < f->len ? off + 1 : off;
}

/* Inserts 'TYPE name' as parameter k of an Init definition or declaration. */
static void add_param(struct wire *w, const struct project_kfunc *fn, size_t k, const char *pname)
{
	uint32_t *s, *e;
	const char *type = gm_type(fn->params, fn->nparams, k);
	char *decl = xasprintf("%s %s", type, pname), *what;

	param_ranges(fn->params, fn->nparams, &s, &e);
	what = xasprintf("kernel: '%s %s' is parameter %zu of %s (%s)", type, pname, k + 1, fn->qualified,
			fn->decl ? "its declaration in the class" : "the definition");
	insert_item(w, fn->file, s, e, fn->nparams, k, fn->params_start + 1, decl, what);
	free(what);
	free(decl);
	free(s);
	free(e);
}

/* `(void)name;` at the start of Init's body, so that -Wunused-parameter stays quiet. */
static void init_use(struct wire *w, const struct project_kfunc *fn, const char *pname)
{
	const struct src_file *f = fn->file;
	struct tok_view tv;
	size_t open, close;

	tok_view_init(&tv, f->data, f->len);
	if (wire_body_after(&tv, fn->params_end, &open, &close) == 0) {
		char *ind = wire_indent_at(f, tv.v[open + 1].start), *t;
		uint32_t at = next_line(f, tv.v[open].start);
		if (open + 1 == close || !ind[0]) {
			char *outer = wire_indent_at(f, tv.v[open].start);
			free(ind);
			ind = xasprintf("%s    ", outer);
			free(outer);
		}
		t = xasprintf("%s(void)%s;  // the runtime records through MOE_TRACING_KERNEL_BEGIN in the entry\n", ind, pname);
		wire_edit(w, f, at, at, t, "kernel: %s keeps '%s' (unused otherwise)", fn->qualified, pname);
		free(t);
		free(ind);
	}
	tok_view_release(&tv);
}

/* Can Init call k take the profiling argument at `pos` through every Init
 * function it reaches (its definition and declaration)? Sets why not. */
static bool call_wireable(struct wire *w, const struct project_kentry *e, const struct project_kcall *k, long pos,
			  const char **why)
{
	const long fns[2] = { k->def, k->decl };

	if (pos < 0) {
		*why = "it passes no argument after the kernel's last output";
		return false;
	}
	if (k->klass_varies) {
		*why = "its object is of another class at each use of its macro";
		return false;
	}
	if (k->other_file) {
		*why = "its Init is called from another function of the kernel too, where the tensor is not at hand";
		return false;
	}
	if (k->def < 0) {
		*why = k->klass ? "its class's Init is not under the kernel directory (a macro parameter?)"
				: "the Init definition it reaches is not under the kernel directory";
		return false;
	}
	for (int j = 0; j < 2; j++) {
		const struct project_kfunc *fn;
		long at;
		if (fns[j] < 0)
			continue;
		fn = &e->funcs[fns[j]];
		at = prof_param(w, fn->params, fn->nparams);
		if (at >= 0 && at != pos) {
			*why = "its Init takes the profiling parameter elsewhere";
			return false;
		}
		if (at < 0 && (size_t)pos > fn->nparams) {
			*why = "its Init has fewer parameters than the call passes before the profiling argument";
			return false;
		}
	}
	return true;
}

/* A set of Init functions (definitions and declarations, by file and
 * place). Entries that are variants of one kernel (per SoC, per build)
 * share their class headers: an Init given the parameter for one entry must
 * be given it once, at one place, by the calls of every entry, or a variant
 * no longer compiles. wire_kernel keeps three: those no call may pass the
 * tensor to (a call reaching one, in some entry, cannot take it), where the
 * calls decided so far pass it, and those already given the parameter. */
struct init_place {
	const char *path;
	uint32_t at;                        /* an Init's parameter list, or a call */
	long pos;                           /* where a call passes it (placed sets) */
};
struct init_set {
	struct init_place *v;
	size_t n, cap;
};

static long init_set_find_at(const struct init_set *b, const char *path, uint32_t at)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->v[i].at == at && strcmp(b->v[i].path, path) == 0)
			return (long)i;
	return -1;
}

static long init_set_find(const struct init_set *b, const struct project_kfunc *fn)
{
	return init_set_find_at(b, fn->file->path, fn->params_start);
}

static bool init_set_has(const struct init_set *b, const struct project_kfunc *fn)
{
	return init_set_find(b, fn) >= 0;
}

/* Adds (path, at) (passed the tensor at pos); true when it was not there. */
static bool init_set_add_at(struct init_set *b, const char *path, uint32_t at, long pos)
{
	if (init_set_find_at(b, path, at) >= 0)
		return false;
	XGROW(b->v, b->cap, b->n + 1);
	b->v[b->n++] = (struct init_place){ path, at, pos };
	return true;
}

static bool init_set_add(struct init_set *b, const struct project_kfunc *fn, long pos)
{
	return init_set_add_at(b, fn->file->path, fn->params_start, pos);
}

static void init_set_free(struct init_set *b)
{
	free(b->v);
}

/* Why each Init call of entry e cannot take the profiling argument (NULL:
 * it can), decided over all its calls before anything is edited, and over
 * the Init functions `blocked` by other entries; outputs_elsewhere[c] when
 * call c does not take the outputs at all. */
static void decide_calls(struct wire *w, const struct project_kentry *e, size_t first, size_t want, const char *pname,
			 const struct init_set *blocked, const char **why, bool *outputs_elsewhere)
{
	long *pos_of = e->nfuncs ? xmalloc(e->nfuncs * sizeof(*pos_of)) : NULL;
	bool *bad = e->nfuncs ? xcalloc(e->nfuncs, sizeof(*bad)) : NULL;
	const char *all = NULL;

	for (size_t i = 0; i < e->nfuncs; i++)
		pos_of[i] = -1;
	for (size_t c = 0; c < e->ncalls; c++) {
		const struct project_kcall *k = &e->calls[c];
		long pos = project_kcall_position(e, k, want), have = project_kcall_arg(k, pname);
		const long fns[2] = { k->def, k->decl };
		why[c] = NULL;
		outputs_elsewhere[c] = false;
		if (have < 0 && !project_kcall_takes_outputs(e, k, first, want)) {
			why[c] = "it does not take the kernel's outputs in their order";
			outputs_elsewhere[c] = true;
		}
		else if (have >= 0 && have != pos)
			why[c] = "it passes the profiling argument elsewhere";
		else
			call_wireable(w, e, k, pos, &why[c]);
		for (int j = 0; j < 2; j++) {
			if (fns[j] < 0)
				continue;
			if (why[c] || (pos_of[fns[j]] >= 0 && pos_of[fns[j]] != pos))
				bad[fns[j]] = true;
			pos_of[fns[j]] = pos;
		}
	}
	/* a call that takes the outputs but cannot be wired (its Init not found,
	   the parameters do not fit) may reach the same Init as another: then no
	   Init is passed the tensor, and every one compiles as it did */
	for (size_t c = 0; c < e->ncalls && !all; c++)
		if (why[c] && !outputs_elsewhere[c])
			all = why[c];
	for (size_t c = 0; c < e->ncalls; c++) {
		const struct project_kcall *k = &e->calls[c];
		const long fns[2] = { k->def, k->decl };
		for (int j = 0; j < 2 && !why[c]; j++)
			if (fns[j] >= 0 && bad[fns[j]])
				why[c] = "another call of the same Init cannot take it at the same place";
		for (int j = 0; j < 2 && !why[c]; j++)
			if (fns[j] >= 0 && init_set_has(blocked, &e->funcs[fns[j]]))
				why[c] = "a call of the same Init in another kernel entry (a variant) cannot take it at the same place";
		if (!why[c] && all)
			why[c] = "another Init call of the kernel cannot take it";
	}
	free(pos_of);
	free(bad);
}

/* The kernel's Init calls take the profiling argument right after the last
 * output, and the Init functions they reach the parameter. The entry records
 * the tensor itself (entry_helpers), so passing it to Init is the class's
 * convenience, never needed: an Init that cannot take it cleanly -- it does
 * not take the outputs in their order (one of several sub-operators the
 * entry runs), its definition is not found, two of its calls would pass it
 * at different places (in this entry or another), its parameters do not fit
 * -- is passed nothing, and neither is any other call of the same Init (a
 * note says why). */
static void wire_calls(struct wire *w, const struct project_kentry *e, size_t first, size_t want, const char *pname,
		       const struct init_set *blocked, struct init_set *edited)
{
	const char **why = e->ncalls ? xcalloc(e->ncalls, sizeof(*why)) : NULL;
	bool *done = e->nfuncs ? xcalloc(e->nfuncs, sizeof(*done)) : NULL;
	bool *outputs_elsewhere = e->ncalls ? xcalloc(e->ncalls, sizeof(*outputs_elsewhere)) : NULL;

	decide_calls(w, e, first, want, pname, blocked, why, outputs_elsewhere);
	for (size_t c = 0; c < e->ncalls; c++) {
		const struct project_kcall *k = &e->calls[c];
		const long fns[2] = { k->def, k->decl };
		long pos = project_kcall_position(e, k, want), have = project_kcall_arg(k, pname);
		if (why[c]) {
			if (have < 0 && outputs_elsewhere[c])
				diag_at(w->diag, DIAG_NOTE, src_loc_make(k->file, k->start, k->end),
					"this Init is not passed '%s': %s (%s ... %s); the entry records it itself", pname,
					why[c], first < e->nparams && e->params[first].name ? e->params[first].name : "?",
					want > 0 && e->params[want - 1].name ? e->params[want - 1].name : "?");
			else if (have < 0)
				diag_at(w->diag, DIAG_NOTE, src_loc_make(k->file, k->start, k->end),
					"this Init is not passed '%s': %s; the entry records it itself", pname, why[c]);
			else
				wire_manual(w, k->file, k->arg_start[have], k->arg_end[have],
					    "this Init call passes '%s' as argument %ld, but %s: pass it right after the "
					    "kernel's last output (argument %ld) or not at all (the entry records it)",
					    pname, have + 1, why[c], pos + 1);
			continue;
		}
		/* once: a macro in a header that variant entries share is one call */
		if (have < 0 && init_set_add_at(edited, k->file->path, k->start, pos)) {
			char *what = xasprintf("kernel: the Init call%s%s passes '%s' as argument %ld", k->macro ? " in macro " : "",
					      k->macro ? k->macro : "", pname, pos + 1);
			insert_item(w, k->file, k->arg_start, k->arg_end, k->nargs, (size_t)pos, k->args_start, pname, what);
			free(what);
		}
		for (int j = 0; j < 2; j++) {
			const struct project_kfunc *fn;
			if (fns[j] < 0 || done[fns[j]])
				continue;
			done[fns[j]] = true;
			fn = &e->funcs[fns[j]];
			/* once, for every entry that reaches it (variants share their headers) */
			if (prof_param(w, fn->params, fn->nparams) >= 0 || !init_set_add(edited, fn, pos))
				continue;
			add_param(w, fn, (size_t)pos, pname);
			if (!fn->decl)
				init_use(w, fn, pname);
		}
	}
	free(why);
	free(done);
	free(outputs_elsewhere);
}

static void entry_helpers(struct wire *w, const struct project_kentry *e, const char *pname)
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
		t = xasprintf("%sMOE_TRACING_KERNEL_SCOPE(%s);\n", ind, pname);
		wire_edit(w, f, at, at, t, "kernel: MOE_TRACING_KERNEL_SCOPE(%s) in '%s' (it returns early: the scope ends "
			  "the trace on every return)", pname, e->name);
	} else {
		uint32_t end_at = wire_line_start(f, tv.v[close].start);
		bool alone = true;
		for (uint32_t i = end_at; i < tv.v[close].start; i++)
			if (f->data[i] != ' ' && f->data[i] != '\t')
				alone = false;
		t = xasprintf("%sMOE_TRACING_KERNEL_BEGIN(%s);\n", ind, pname);
		wire_edit(w, f, at, at, t, "kernel: MOE_TRACING_KERNEL_BEGIN(%s) at the start of '%s'", pname, e->name);
		free(t);
		if (alone)
			t = xasprintf("%sMoeTracingKernelEnd();\n", ind);
		else
			end_at = tv.v[close].start, t = xstrdup(" MoeTracingKernelEnd(); ");
		wire_edit(w, f, end_at, end_at, t, "kernel: MoeTracingKernelEnd() at the end of '%s'", e->name);
	}
	free(t);
	free(ind);
out:
	tok_view_release(&tv);
}


/* The profiling parameter of entry e at `want` (the first output at
 * `first`), passed to its Init calls, handed to the runtime in its body. */
static void wire_entry(struct wire *w, const struct project_kentry *e, size_t first, size_t want, bool launch,
		       const struct init_set *blocked, struct init_set *edited)
{
	const char *pname = w->prof_camel;
	long at = prof_param(w, e->params, e->nparams);

	if (at >= 0) {
		pname = e->params[at].name;
		if ((size_t)at != want) {
			wire_manual(w, e->file, e->params[at].start, e->params[at].end,
				    "move '%s' to parameter %zu of '%s' (after the outputs, before workspace and "
				    "tiling), and in Init and its calls", pname, want + 1, e->name);
			return;
		}
	} else if (want > e->nparams) {
		wire_manual(w, e->file, e->params_start, e->params_end,
			    "'%s' has %zu parameters but the OpDef has %zu tensors before '%s': add 'GM_ADDR %s' "
			    "after the outputs", e->name, e->nparams, want, w->prof, w->prof_camel);
		return;
	} else {
		uint32_t *s, *en;
		const char *type = gm_type(e->params, e->nparams, want);
		char *decl = xasprintf("%s %s", type, pname), *what;
		param_ranges(e->params, e->nparams, &s, &en);
		what = xasprintf("kernel: '%s %s' is parameter %zu of '%s'", type, pname, want + 1, e->name);
		insert_item(w, e->file, s, en, e->nparams, want, e->params_start + 1, decl, what);
		free(what);
		free(decl);
		free(s);
		free(en);
	}
	/* a kernel whose class takes its tensors elsewhere (a params struct, a
	   constructor, Process(...)) or that has no class: the entry records
	   the profiling tensor itself, as for an Init that takes no outputs */
	if (e->ncalls)
		wire_calls(w, e, first, want, pname, blocked, edited);
	else if (!launch)
		diag_pos(w->diag, DIAG_NOTE, e->file->path, src_file_line(e->file, e->params_start), 0,
			 "'%s' calls no kernel class Init with its parameters: the entry records '%s' itself", e->name, pname);
	entry_helpers(w, e, pname);
}

/* True when a direct launch of the operator names entry e. */
static bool launched(const struct project_launch *l, const struct project_kentry *e)
{
	const char *colon = strrchr(e->name, ':');

	for (size_t fi = 0; fi < l->nfiles; fi++)
		for (size_t s = 0; s < l->files[fi].nsites; s++)
			if (strcmp(l->files[fi].sites[s].kernel, colon ? colon + 1 : e->name) == 0)
				return true;
	return false;
}

/* The profiling parameter's name in entry e (its own, or the one wire
 * adds); false when wire_entry stops at it (a manual step). */
static bool entry_pname(const struct wire *w, const struct project_kentry *e, size_t want, const char **pname)
{
	long at = prof_param(w, e->params, e->nparams);

	*pname = at >= 0 ? e->params[at].name : w->prof_camel;
	return at >= 0 ? (size_t)at == want : want <= e->nparams;
}

/* An entry wire_kernel wires, with where its tensor goes. */
struct entry_job {
	const struct project_kentry *e;
	size_t first, want;
	bool launch;
};

/* Blocks, until nothing changes, every Init function that a call of some
 * entry reaches but cannot pass the tensor to (or whose entry stops before
 * its calls, or is not wired at all: another kernel of the directory, one
 * not launched): an entry's calls are decided again with what the others
 * blocked. A call that takes the outputs but whose Init is not known (not
 * found, a different class at each use of its macro) might reach any of
 * them: then every Init of every entry is blocked. */
static void block_shared_inits(struct wire *w, const struct project_kernels *all, const struct entry_job *jobs,
			       size_t njobs, struct init_set *blocked)
{
	bool changed = all->n > 1, unknown = false;

	for (size_t k = 0; k < all->n && changed; k++) {
		const struct project_kentry *e = &all->v[k];
		bool job = false;
		for (size_t j = 0; j < njobs; j++)
			job = job || jobs[j].e == e;
		for (size_t c = 0; c < e->ncalls && !job; c++) {
			if (e->calls[c].def >= 0)
				init_set_add(blocked, &e->funcs[e->calls[c].def], -1);
			if (e->calls[c].decl >= 0)
				init_set_add(blocked, &e->funcs[e->calls[c].decl], -1);
		}
	}
	while (changed) {
		struct init_set placed = { 0 };
		bool unknown_before = unknown;
		changed = false;
		for (size_t j = 0; j < njobs; j++) {
			const struct project_kentry *e = jobs[j].e;
			const char **why = e->ncalls ? xcalloc(e->ncalls, sizeof(*why)) : NULL;
			bool *elsewhere = e->ncalls ? xcalloc(e->ncalls, sizeof(*elsewhere)) : NULL;
			const char *pname;
			bool stops = !entry_pname(w, e, jobs[j].want, &pname);
			if (!stops)
				decide_calls(w, e, jobs[j].first, jobs[j].want, pname, blocked, why, elsewhere);
			for (size_t c = 0; c < e->ncalls; c++) {
				const long fns[2] = { e->calls[c].def, e->calls[c].decl };
				long pos = project_kcall_position(e, &e->calls[c], jobs[j].want);
				if (!stops && why[c] && !elsewhere[c] && fns[0] < 0 && fns[1] < 0)
					unknown = true;
				for (int k = 0; k < 2; k++) {
					const struct project_kfunc *fn = fns[k] >= 0 ? &e->funcs[fns[k]] : NULL;
					long at = fn ? init_set_find(&placed, fn) : -1;
					if (!fn)
						continue;
					/* an Init a call cannot pass it to, or that two entries' calls
					   would give it at two places */
					if (stops || unknown || why[c] || (at >= 0 && placed.v[at].pos != pos))
						changed |= init_set_add(blocked, fn, -1);
					else
						init_set_add(&placed, fn, pos);
				}
			}
			free(why);
			free(elsewhere);
		}
		init_set_free(&placed);
		changed |= unknown && !unknown_before; /* once more: block the entries before it too */
	}
}

void wire_kernel(struct wire *w)
{
	struct project_model *p = w->p;
	const struct opdef_op *op = p->op;
	bool launch = project_launch_form(p);
	size_t want = 0, njobs = 0;
	struct entry_job *jobs;
	struct init_set blocked = { 0 }, edited = { 0 };
	char *snake;

	if (!launch && (!op || op->nparams == 0))
		return;
	if (!launch)
		want = op->ninputs + wire_prof_index(w);
	if (!p->kernels_read || p->kernels.n == 0) {
		wire_manual(w, NULL, 0, 0,
			    "no __global__ kernel found under %s: add 'GM_ADDR %s' as parameter %zu of the kernel entry and of "
			    "its class Init", p->kernel_root ? p->kernel_root : "(no kernel directory)", w->prof_camel,
			    want + 1);
		return;
	}
	snake = op ? project_snake(op->name) : NULL;
	jobs = xcalloc(p->kernels.n, sizeof(*jobs));
	for (size_t k = 0; k < p->kernels.n; k++) {
		const struct project_kentry *e = &p->kernels.v[k];
		if (launch) {
			/* the launch passes the kernel's parameters one for one: the tensor
			   goes after the last GM parameter it passes that is no workspace or tiling */
			if (!launched(&p->launch, e))
				continue;
			want = project_launch_position(e, w->prof);
			jobs[njobs++] = (struct entry_job){ e, want ? want - 1 : 0, want, true };
			continue;
		}
		if (p->kernels.n > 1 && strcmp(e->name, snake) != 0)
			continue;
		jobs[njobs++] = (struct entry_job){ e, op->ninputs, want, false };
	}
	block_shared_inits(w, &p->kernels, jobs, njobs, &blocked);
	for (size_t j = 0; j < njobs; j++)
		wire_entry(w, jobs[j].e, jobs[j].first, jobs[j].want, jobs[j].launch, &blocked, &edited);
	init_set_free(&blocked);
	init_set_free(&edited);
	free(jobs);
	free(snake);
}

/* ---- the runtime in the base header ---- */

/* The runtime text as it is embedded: device/moe_tracing.h, ending in a newline. */
static char *runtime_text(const char *runtime_path, struct diag *diag)
{
	struct src_file *rt = src_file_load(runtime_path);
	char *t;

	if (!rt) {
		diag_pos(diag, DIAG_ERROR, runtime_path, 0, 0, "cannot read the device runtime (set AUTOTRACE_DEVICE_DIR)");
		return NULL;
	}
	t = rt->len && rt->data[rt->len - 1] != '\n' ? xasprintf("%s\n", rt->data) : xstrdup(rt->data);
	src_file_free(rt);
	return t;
}

static void plan_add(struct wire_runtime *r, const char *path, bool create, uint32_t start, uint32_t end, char *text,
		     char *what)
{
	struct wire_runtime_edit *e;

	r->v = xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	e = &r->v[r->n++];
	e->path = xstrdup(path);
	e->create = create;
	e->start = start;
	e->end = end;
	e->text = text;
	e->what = what;
}

/* The runtime in an existing header f: refreshed between the markers (a
 * block apply embedded becomes wire's: its BEGIN line loses apply's tag, so
 * that strip keeps it), embedded where runtime_embed_at says, or refused
 * (0 / -1). */
static int embed_in(struct wire_runtime *r, const struct src_file *f, size_t limit, const char *rtext,
		    const char *runtime_path, struct diag *diag)
{
	size_t rlen = strlen(rtext), b, e;
	int m = runtime_markers(f->data, f->len, &b, &e);

	if (m > 0) {
		uint32_t from = (uint32_t)runtime_next_line(f->data, f->len, b), to = (uint32_t)e;
		char *line = xstrndup(f->data + b, from - b);
		bool tagged = strstr(line, RUNTIME_APPLY_TAG) != NULL;
		free(line);
		if (tagged)
			plan_add(r, f->path, false, (uint32_t)b, to, xasprintf(RUNTIME_BEGIN "\n%s", rtext),
				 xasprintf("runtime: the copy of %s apply embedded is wire's now (strip keeps it)", runtime_path));
		else if (to - from != rlen || memcmp(f->data + from, rtext, rlen) != 0)
			plan_add(r, f->path, false, from, to, xstrdup(rtext),
				 xasprintf("runtime: the embedded copy of %s refreshed", runtime_path));
		return 0;
	}
	if (m < 0) {
		diag_at(diag, DIAG_ERROR, src_loc_make(f, (uint32_t)b, (uint32_t)b + 10),
			"manual step: the runtime markers are unpaired: keep both '" RUNTIME_BEGIN_PREFIX " ...' and '" RUNTIME_END
			"' lines (or neither) and run wire again");
		return -1;
	}
	if (wire_has_word(f, 0, (uint32_t)f->len, "SetMoeProfilePtr") || wire_has_word(f, 0, (uint32_t)f->len, "MoeTracing")) {
		const char *word = wire_has_word(f, 0, (uint32_t)f->len, "SetMoeProfilePtr") ? "SetMoeProfilePtr" : "MoeTracing";
		uint32_t at = 0;
		while (!wire_has_word(f, at, at + (uint32_t)strlen(word), word))
			at++;
		diag_at(diag, DIAG_ERROR, src_loc_make(f, at, at + (uint32_t)strlen(word)),
			"manual step: this header defines a MoeTracing runtime of its own: delete it and run wire again (wire embeds "
			"autotrace's device/moe_tracing.h between the AUTOTRACE-RUNTIME markers)");
		return -1;
	}
	{
		size_t natural = runtime_embed_at(f->data, f->len);
		uint32_t at = (uint32_t)(natural < limit ? natural : limit);
		if (limit < natural)
			diag_at(diag, DIAG_NOTE, src_loc_make(f, at, (uint32_t)runtime_next_line(f->data, f->len, at) - 1),
				"the runtime goes before this line: an #include from here on names a header of the operator "
				"with code (or one including this one back), whose points need the runtime first; a macro "
				"configuring the runtime (ENABLE_MOE_PROFILING, PROF_SIZE_PER_CORE, ...) takes effect only "
				"when defined above it");
		plan_add(r, f->path, false, at, at, runtime_block(rtext, rlen, RUNTIME_BY_WIRE),
			 xasprintf("runtime: %s embedded between the AUTOTRACE-RUNTIME markers", runtime_path));
	}
	return 0;
}

/* The start of the first line of base header bf (at bpath, in the scan)
 * that includes a header of the operator which includes bf back, or which
 * has function bodies (bodies[i] for file i of the scan: apply may put points
 * there, and the #include of bf it then adds is a no-op under bf's include
 * guard -- rms_norm_base.h includes reduce_common.h before its runtime): the
 * runtime must come before it (before the #if group holding it). bf->len
 * when none (a tiling header of structs alone keeps the runtime after it). */
static size_t include_back_at(const struct cxx_scan *scan, const char *bpath, const struct src_file *bf,
			      const bool *bodies, size_t nbodies)
{
	size_t self = cxx_scan_index(scan, bpath), n, open_at[64], depth = 0, guard = 0;
	char *dir = xstrdup(bpath), *slash = strrchr(dir, '/');
	bool first_directive = true;

	if (slash)
		slash[1] = '\0';
	else
		dir[0] = '\0';
	for (size_t p = 0; self != SIZE_MAX && p < bf->len; p = runtime_next_line(bf->data, bf->len, p)) {
		const char *name, *d = bf->data + p, *end = bf->data + bf->len;
		char *rel, *full;
		size_t j, *closure, nc;
		bool back = false;
		while (d < end && (*d == ' ' || *d == '\t'))
			d++;
		/* the #if groups open here: the runtime goes before the outermost
		   (not the include guard), so that every arm sees it */
		if (d < end && *d == '#') {
			bool opens = end - d >= 3 && strncmp(d, "#if", 3) == 0;
			if (first_directive && end - d >= 7 && strncmp(d, "#ifndef", 7) == 0)
				guard = 1;
			first_directive = false;
			if (opens && depth < 64)
				open_at[depth] = p;
			if (opens)
				depth++;
			else if (end - d >= 6 && strncmp(d, "#endif", 6) == 0 && depth)
				depth--;
		}
		name = runtime_quoted_include(bf->data, bf->len, p, &n);
		if (!name)
			continue;
		rel = xasprintf("%s%.*s", dir, (int)n, name);
		full = path_normalize(rel);
		j = cxx_scan_index(scan, full);
		free(rel);
		free(full);
		if (j == SIZE_MAX || j == self)
			continue;
		nc = cxx_scan_closure(scan, j, &closure);
		for (size_t c = 0; c < nc && !back; c++)
			back = closure[c] == self || (closure[c] < nbodies && bodies[closure[c]]);
		free(closure);
		if (back) {
			free(dir);
			return depth > guard && guard < 64 ? open_at[guard] : p;
		}
	}
	free(dir);
	return bf->len;
}

/* `#include "name"` after the last #include of the entry (or at its top). */
static void add_include(struct wire_runtime *r, const struct src_file *f, const char *name)
{
	uint32_t at = 0;

	for (uint32_t j = 0; j < f->len; j = next_line(f, j)) {
		uint32_t k = j;
		while (k < f->len && (f->data[k] == ' ' || f->data[k] == '\t'))
			k++;
		if (f->len - k >= 8 && memcmp(f->data + k, "#include", 8) == 0)
			at = next_line(f, j);
		if (next_line(f, j) == j)
			break;
	}
	plan_add(r, f->path, false, at, at, xasprintf("%s#include \"%s\"\n", at && f->data[at - 1] != '\n' ? "\n" : "", name),
		 xasprintf("runtime: the entry includes %s", name));
}

static bool matches_base(const struct rule_policy *policy, const char *rel_to_opdir)
{
	for (size_t g = 0; g < policy->base.n; g++)
		if (path_glob_match(policy->base.v[g], rel_to_opdir))
			return true;
	return false;
}

const char *wire_runtime_default(void)
{
	static char *path;

	if (!path)
		path = path_join(rule_find_data_dir("AUTOTRACE_DEVICE_DIR", DEVICEDIR, "device"), "moe_tracing.h");
	return path;
}

/* File i of the scan defines the kernel entry `entry` (its name maybe
 * qualified, and but for case and underscores). */
static bool defines_entry(const struct cxx_scan *scan, size_t i, const char *entry)
{
	char *want = tv_name_key(entry);
	bool yes = false;

	for (size_t k = 0; k < cxx_scan_nkernels(scan, i) && !yes; k++) {
		const char *kname = cxx_scan_kernel(scan, i, k), *colon = strrchr(kname, ':');
		char *key = tv_name_key(colon ? colon + 1 : kname);
		yes = strcmp(key, want) == 0;
		free(key);
	}
	free(want);
	return yes;
}

int wire_runtime_plan(const char *opdir, const struct rule_policy *policy, const char *runtime_path,
		      const char *entry, struct wire_runtime *out, struct diag *diag)
{
	struct kernel_scan_opts ko = { .policy = policy, .opdir = opdir };
	struct kernel_scan ks;
	struct cxx_scan *scan;
	struct cxx_unit *u;
	struct diag quiet;
	char *kroot, *rtext;
	char **done = NULL;
	bool *bodies = NULL;
	size_t ndone = 0, entries = 0, nbodies = 0, nbodies_cap = 0;
	int ret = 0;

	memset(out, 0, sizeof(out[0]));
	if (!runtime_path)
		runtime_path = wire_runtime_default();
	kroot = path_join(opdir, policy->kernel.value);
	rtext = runtime_text(runtime_path, diag);
	if (!rtext) {
		free(kroot);
		return -1;
	}
	diag_init_quiet(&quiet);
	if (kernel_scan_open(&ks, &ko, &quiet, &quiet) != 0) {
		diag_plain(diag, DIAG_ERROR, "the kernel directory %s cannot be read: the runtime has no header to go into",
			   kroot);
		ret = -1;
		goto out;
	}
	scan = ks.scan;
	while ((u = cxx_scan_next(scan)) != NULL) {
		bool body = false;
		for (size_t f = 0; f < u->outline->nfuncs && !body; f++)
			body = u->outline->funcs[f].def == CXX_DEF_BODY;
		XGROW(bodies, nbodies_cap, u->index + 1);
		while (nbodies <= u->index)
			bodies[nbodies++] = false;
		bodies[u->index] = body;
		cxx_unit_free(u);
	}
	for (size_t i = 0; i < cxx_scan_nfiles(scan) && ret == 0; i++) {
		size_t *closure, nc;
		const char *base = NULL;
		if (cxx_scan_nkernels(scan, i) == 0 || (entry && !defines_entry(scan, i, entry)))
			continue;
		entries++;
		nc = cxx_scan_closure(scan, i, &closure);
		/* the base header the entry reaches: matching the rules' 'base', or holding the runtime */
		for (size_t c = 0; c < nc && !base; c++) {
			const char *rel = cxx_scan_path(scan, closure[c]);
			char *under = path_join(policy->kernel.value, rel);
			char *full = path_join(kroot, rel);
			struct src_file *f;
			if (matches_base(policy, under))
				base = rel;
			else if ((f = src_file_load(full)) != NULL) {
				size_t mb, me;
				if (runtime_markers(f->data, f->len, &mb, &me) != 0)
					base = rel;
				src_file_free(f);
			}
			free(under);
			free(full);
		}
		{
			const char *entry_rel = cxx_scan_path(scan, i), *kname = cxx_scan_kernel(scan, i, 0);
			char *entry_path = path_join(kroot, entry_rel), *bpath, *bname = NULL;
			const char *colon = strrchr(kname, ':');
			struct src_file *bf, *ef;
			bool seen = false;
			kname = colon ? colon + 1 : kname;
			if (base) {
				bpath = path_join(kroot, base);
			} else {
				/* none: <kernel>_base.h beside the entry, included by it */
				char *dir = xstrdup(entry_rel), *slash = strrchr(dir, '/');
				bname = xasprintf("%s_base.h", kname);
				if (slash)
					slash[1] = '\0';
				else
					dir[0] = '\0';
				{
					char *rel = xasprintf("%s%s", dir, bname);
					bpath = path_join(kroot, rel);
					free(rel);
				}
				free(dir);
			}
			for (size_t d = 0; d < ndone; d++)
				seen = seen || strcmp(done[d], bpath) == 0;
			if (!seen) {
				done = xrealloc(done, (ndone + 1) * sizeof(*done));
				done[ndone++] = xstrdup(bpath);
				if (!out->base)
					out->base = xstrdup(bpath);
				bf = src_file_load(bpath);
				if (bf) {
					if (embed_in(out, bf, include_back_at(scan, bpath, bf, bodies, nbodies), rtext,
						     runtime_path, diag) != 0)
						ret = -1;
					src_file_free(bf);
				} else {
					char *blk = runtime_block(rtext, strlen(rtext), RUNTIME_BY_WIRE);
					plan_add(out, bpath, true, 0, 0, runtime_new_header(bname, blk, RUNTIME_BY_WIRE),
						 xasprintf("runtime: %s created with %s (the entry reaches no base header)", bname,
							  runtime_path));
					free(blk);
				}
			}
			if (bname && ret == 0 && (ef = src_file_load(entry_path)) != NULL) {
				add_include(out, ef, bname);
				src_file_free(ef);
			}
			free(bname);
			free(bpath);
			free(entry_path);
		}
		free(closure);
	}
	if (ret == 0 && entries == 0) {
		if (entry)
			diag_plain(diag, DIAG_ERROR, "no __global__ kernel entry %s under %s: the runtime has no header to go into",
				   entry, kroot);
		else
			diag_plain(diag, DIAG_ERROR, "no __global__ kernel entry under %s: the runtime has no header to go into",
				   kroot);
		ret = -1;
	}
out:
	kernel_scan_close(&ks);
	free(bodies);
	path_glob_free(done, ndone);
	free(rtext);
	free(kroot);
	if (ret != 0)
		wire_runtime_release(out);
	return ret;
}

void wire_runtime_release(struct wire_runtime *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].path);
		free(r->v[i].text);
		free(r->v[i].what);
	}
	free(r->v);
	free(r->base);
	memset(r, 0, sizeof(*r));
}

void wire_base(struct wire *w)
{
	struct wire_runtime r;
	unsigned errors = w->diag->errors;

	if (wire_runtime_plan(w->opdir, w->p->policy, w->runtime_path, w->p->choice.entry, &r, w->diag) != 0) {
		w->manual += w->diag->errors > errors ? w->diag->errors - errors : 1;
		return;
	}
	free(w->base_path);
	w->base_path = r.base ? xstrdup(r.base) : NULL;
	for (size_t i = 0; i < r.n; i++) {
		const struct wire_runtime_edit *e = &r.v[i];
		const struct src_file *f;
		if (e->create) {
			wire_create(w, e->path, e->text, e->what);
			continue;
		}
		f = wire_load(w, e->path);
		if (f)
			wire_edit(w, f, e->start, e->end, e->text, "%s", e->what);
	}
	wire_runtime_release(&r);
}

/* G2 on the device side: the profiling GM parameter of the __global__ entry
 * sits where the OpDef puts the output, and every Init declaration,
 * definition and call takes it in the same place. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "g2_checks.h"
#include "gate_run.h"
#include "path_glob.h"
#include "project_tokens.h"
#include "xalloc.h"

/* After the profiling parameter, only the workspace and tiling may follow
 * among the GM tensors; a tiling pointer, a pipe or a flag is not a tensor
 * output, whatever its name. */
static const struct project_kparam *gm_after(const struct project_kparam *v, size_t n, size_t at)
{
	for (size_t i = at + 1; i < n; i++)
		if (project_kparam_is_gm(&v[i]) && !g2_workspace_like(v[i].name))
			return &v[i];
	return NULL;
}

static long kparam_prof(const struct project_model *p, const struct project_kparam *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tv_names_profiling(v[i].name, p->profiling))
			return (long)i;
	return -1;
}

/* True when the call fills its argument `arg` with the workspace or tiling:
 * by name, or a local of the call's file computed from them (`GM_ADDR s1 =
 * workspace + offset;`). */
static bool workspace_value(const struct project_kcall *call, const char *arg)
{
	struct tok_view tv;
	bool yes = g2_workspace_like(arg);

	if (yes)
		return true;
	tok_view_init(&tv, call->file->data, call->file->len);
	for (size_t i = 1; i + 1 < tv.n && !yes && tv.v[i].start < call->start; i++) {
		if (!tv_is(&tv, i, arg) || !tv_punct(&tv, i + 1, CXX_P_ASSIGN) ||
		    !(tv_ident(&tv, i - 1) || tv_punct(&tv, i - 1, CXX_P_STAR)))
			continue;
		for (size_t k = i + 2; k < tv.n && !tv_punct(&tv, k, CXX_P_SEMI) && !yes; k++)
			if (tv_ident(&tv, k)) {
				char *id = tv_tok_text(&tv, k, false);
				yes = g2_workspace_like(id);
				free(id);
			}
	}
	tok_view_release(&tv);
	return yes;
}

/* The first GM tensor parameter of Init after `at` that is neither named
 * for the workspace or tiling nor given them by the call, or NULL. */
static const struct project_kparam *gm_after_call(const struct project_kentry *e, long first_out, long eat,
						  const struct project_kfunc *fn, const struct project_kcall *call, size_t at)
{
	for (size_t i = at + 1; i < fn->nparams; i++) {
		bool tensor = true;
		if (!project_kparam_is_gm(&fn->params[i]) || g2_workspace_like(fn->params[i].name))
			continue;
		if (i < call->nargs && workspace_value(call, call->args[i]))
			continue;
		/* a GM pointer the entry computes (an HCCL context, a window), one of
		   its own parameters after the profiling one, or one of its inputs (an
		   Init that takes its outputs before some inputs: the profiling tensor
		   right after the last output) is not a tensor output: only the
		   entry's outputs before it are */
		if (i < call->nargs) {
			tensor = false;
			for (long j = first_out; j < eat && !tensor; j++)
				tensor = e->params[j].name && strcmp(call->args[i], e->params[j].name) == 0;
		}
		if (tensor)
			return &fn->params[i];
	}
	return NULL;
}

/* An Init definition or declaration: the profiling parameter where its calls pass it. */
static void check_init_func(struct project_model *p, struct gate_report *r, const struct project_kentry *e, long eat,
			    const struct project_kfunc *fn, long pos, const struct project_kcall *call)
{
	long named = kparam_prof(p, fn->params, fn->nparams);
	const char *what = fn->decl ? "the declaration of" : "";
	const struct project_kparam *next;

	if (named < 0) {
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(fn->file, fn->params_start, fn->params_end),
			 "add 'GM_ADDR profilingData' where the Init calls pass it",
			 "%s%s%s has no profiling parameter, but the call at %s:%zu passes one as argument %ld", what,
			 *what ? " " : "", fn->qualified, call->file->path, src_file_line(call->file, call->start), pos + 1);
		return;
	}
	if (named != pos)
		gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
			 gate_loc_at(fn->file, fn->params[named].start, fn->params[named].end),
			 "order Init's parameters as its calls pass the arguments",
			 "'%s' is parameter %ld of %s%s%s, but the call at %s:%zu passes it as argument %ld",
			 fn->params[named].name, named + 1, what, *what ? " " : "", fn->qualified, call->file->path,
			 src_file_line(call->file, call->start), pos + 1);
	else if ((next = gm_after_call(e, p->op && !project_launch_form(p) ? (long)p->op->ninputs : 0, eat, fn, call,
				       (size_t)named)) != NULL)
		gate_add(r, GATE_RULE_G2_LAST, DIAG_ERROR, gate_loc_at(fn->file, fn->params[named].start, fn->params[named].end),
			 g2_fix_last, "'%s' is not the last tensor parameter of %s%s%s: the GM tensor '%s' follows it",
			 fn->params[named].name, what, *what ? " " : "", fn->qualified, next->name ? next->name : "?");
}

/* ---- the runtime's end of the chain ---- */

/* The calls that hand the profiling tensor to the runtime; `end`: the
 * recording must be ended by MoeTracingKernelEnd() in the same body (the
 * scope forms end themselves, SetMoeProfilePtr records into GM directly). */
static const struct {
	const char *name;
	bool end;
} recorders[] = {
	{ "MOE_TRACING_KERNEL_BEGIN", true }, { "MoeTracingKernelBegin", true }, { "MOE_TRACING_KERNEL_SCOPE", false },
	{ "MoeTracingKernelScope", false },   { "SetMoeProfilePtr", false },
};

struct names {
	char **v;
	size_t n;
};

static bool names_has(const struct names *ns, const struct tok_view *tv, size_t i)
{
	for (size_t k = 0; k < ns->n; k++)
		if (tv_is(tv, i, ns->v[k]))
			return true;
	return false;
}

/* True when tokens [i, j) mention one of the names. */
static bool mentions(const struct tok_view *tv, size_t i, size_t j, const struct names *ns)
{
	for (; i < j; i++)
		if (tv_ident(tv, i) && names_has(ns, tv, i))
			return true;
	return false;
}

/* The locals of body [open, close) computed from the names (`T *base = (T *)(p);`,
 * `auto q = p + off;`), added to them, a few hops deep. */
static void follow_locals(const struct tok_view *tv, size_t open, size_t close, struct names *ns)
{
	for (int round = 0; round < 3; round++)
		for (size_t i = open + 1; i + 1 < close; i++) {
			size_t j = i + 2;
			if (!tv_ident(tv, i) || !tv_punct(tv, i + 1, CXX_P_ASSIGN) || names_has(ns, tv, i))
				continue;
			while (j < close && !tv_punct(tv, j, CXX_P_SEMI))
				j++;
			if (mentions(tv, i + 2, j, ns)) {
				ns->v = xrealloc(ns->v, (ns->n + 1) * sizeof(*ns->v));
				ns->v[ns->n++] = tv_tok_text(tv, i, false);
			}
		}
}

/* The first recorder call in body [open, close) given one of the names, or
 * TV_NONE; its kind in *which. */
static size_t recorder_in(const struct tok_view *tv, size_t open, size_t close, const struct names *ns, size_t *which)
{
	for (size_t i = open + 1; i < close; i++) {
		size_t paren = i + 1;
		if (!tv_ident(tv, i))
			continue;
		for (size_t k = 0; k < sizeof(recorders) / sizeof(recorders[0]); k++) {
			if (!tv_is(tv, i, recorders[k].name))
				continue;
			if (tv_ident(tv, paren)) /* MoeTracingKernelScope scope_(...) */
				paren++;
			if (tv_punct(tv, paren, CXX_P_LPAREN) && tv->match[paren] != TV_NONE &&
			    mentions(tv, paren + 1, tv->match[paren], ns)) {
				*which = k;
				return i;
			}
		}
	}
	return TV_NONE;
}

static bool body_calls(const struct tok_view *tv, size_t open, size_t close, const char *name)
{
	for (size_t i = open + 1; i < close; i++)
		if (tv_is(tv, i, name) && tv_punct(tv, i + 1, CXX_P_LPAREN))
			return true;
	return false;
}

/* The body of the function whose parameter list ends at `params_end` (or
 * whose '{' is at `body_open`): its braces as token indices, or false. */
static bool body_of(const struct tok_view *tv, uint32_t params_end, uint32_t body_open, size_t *open, size_t *close)
{
	size_t i = body_open ? tv_at(tv, body_open) : tv_at(tv, params_end);

	while (i < tv->n && !tv_punct(tv, i, CXX_P_LBRACE)) {
		if (tv_punct(tv, i, CXX_P_SEMI))
			return false;
		i++;
	}
	if (i >= tv->n || tv->match[i] == TV_NONE)
		return false;
	*open = i;
	*close = tv->match[i];
	return true;
}

/* True when `f` defines `name`: `#define name`, or `name(...) {` (a
 * function, a constructor). */
static bool file_defines(const struct src_file *f, const char *name)
{
	size_t n = strlen(name);

	for (const char *s = f->data; (s = strstr(s, name)) != NULL; s += n) {
		const char *b = s, *q = s + n;
		int depth = 0;
		if ((s > f->data && (isalnum((unsigned char)s[-1]) || s[-1] == '_')) || isalnum((unsigned char)*q) || *q == '_')
			continue;
		/* #define name */
		while (b > f->data && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (b - f->data >= 6 && memcmp(b - 6, "define", 6) == 0)
			return true;
		while (*q == ' ' || *q == '\t' || *q == '\n')
			q++;
		if (*q != '(')
			continue;
		for (; *q; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')' && --depth == 0)
				break;
		}
		if (!*q)
			break;
		for (q++; *q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'; q++)
			;
		if (*q == '{' || (*q == ':' && q[1] != ':'))
			return true;
	}
	return false;
}

/* The recorder the kernel uses is defined in what its file includes: the
 * runtime (device/moe_tracing.h, embedded in the base header) is reached. */
static void check_reached(struct gate_report *r, const struct project_model *p, const struct project_kentry *e,
			  const struct src_file *used_in, uint32_t start, uint32_t end, const char *name)
{
	const struct src_file *base = NULL;

	for (size_t i = 0; i < e->nclosure; i++) {
		if (file_defines(e->closure[i], name))
			return;
		/* the rules' base patterns are relative to the operator directory */
		const char *rel = e->closure[i]->path;
		size_t ol = strlen(p->opts->opdir);
		if (strcmp(p->opts->opdir, ".") != 0 && strncmp(rel, p->opts->opdir, ol) == 0 && rel[ol] == '/')
			rel += ol + 1;
		for (size_t g = 0; g < p->policy->base.n && !base; g++)
			if (path_glob_match(p->policy->base.v[g], rel))
				base = e->closure[i];
	}
	if (base)
		gate_add(r, GATE_RULE_G2_RUNTIME, DIAG_ERROR, gate_loc_at(used_in, start, end),
			 "embed the runtime in the base header: device/moe_tracing.h between the AUTOTRACE-RUNTIME "
			 "markers",
			 "%s is used here, but neither the base header %s nor anything else '%s' includes defines it: the "
			 "runtime is not there", name, base->path, e->name);
	else
		gate_add(r, GATE_RULE_G2_RUNTIME, DIAG_ERROR, gate_loc_at(used_in, start, end),
			 "include the operator's base header (with the runtime embedded) in the kernel entry's file",
			 "%s is used here, but nothing '%s' includes defines it (%zu files followed from %s): include the "
			 "header that holds the runtime", name, e->name, e->nclosure, e->file->path);
}

/* Does the function reached through `file` hand `param` to the runtime?
 * TV_NONE when not; else the recorder's token (its kind in *which, the
 * body in *open, *close). */
static size_t hands_over(const struct tok_view *tv, uint32_t params_end, uint32_t body_open, const char *param,
			 size_t *which, size_t *open, size_t *close)
{
	struct names ns = { NULL, 0 };
	size_t at = TV_NONE;

	if (!param || !body_of(tv, params_end, body_open, open, close))
		return TV_NONE;
	ns.v = xmalloc(sizeof(*ns.v));
	ns.v[ns.n++] = xstrdup(param);
	follow_locals(tv, *open, *close, &ns);
	at = recorder_in(tv, *open, *close, &ns, which);
	for (size_t k = 0; k < ns.n; k++)
		free(ns.v[k]);
	free(ns.v);
	return at;
}

/* The entry hands its parameter `at` to the runtime itself. */
static bool entry_records(const struct project_kentry *e, long at)
{
	struct tok_view tv;
	size_t which, open, close;
	bool yes;

	tok_view_init(&tv, e->file->data, e->file->len);
	yes = hands_over(&tv, e->params_end, 0, e->params[at].name, &which, &open, &close) != TV_NONE;
	tok_view_release(&tv);
	return yes;
}

/* The kernel entry hands its profiling parameter to the runtime (itself, or
 * through the Init it passes it to) and, where the recording needs it, ends
 * it; every Init definition that receives the parameter uses it. */
static void check_runtime(struct project_model *p, struct gate_report *r, const struct project_kentry *e, long at)
{
	struct tok_view tv;
	size_t which = 0, open, close, rec;
	const char *pname = e->params[at].name;
	bool handed = false;

	tok_view_init(&tv, e->file->data, e->file->len);
	rec = hands_over(&tv, e->params_end, 0, pname, &which, &open, &close);
	if (rec != TV_NONE) {
		handed = true;
		check_reached(r, p, e, e->file, tv.v[rec].start, tv.v[rec].end, recorders[which].name);
		if (recorders[which].end && !body_calls(&tv, open, close, "MoeTracingKernelEnd"))
			gate_add(r, GATE_RULE_G2_RUNTIME, DIAG_ERROR, gate_loc_at(e->file, tv.v[rec].start, tv.v[rec].end),
				 "end the kernel with MoeTracingKernelEnd(); (or use MOE_TRACING_KERNEL_SCOPE, which ends itself)",
				 "the kernel '%s' starts recording into '%s' with %s but never calls MoeTracingKernelEnd(): its "
				 "slot is never copied to GM", e->name, pname, recorders[which].name);
	}
	tok_view_release(&tv);
	for (size_t c = 0; c < e->ncalls; c++) {
		const struct project_kcall *call = &e->calls[c];
		long ca = project_kcall_arg(call, pname);
		const struct project_kfunc *fn;
		const char *iname;
		if (ca < 0 || call->def < 0)
			continue;
		fn = &e->funcs[call->def];
		if ((size_t)ca >= fn->nparams || !(iname = fn->params[ca].name))
			continue;
		tok_view_init(&tv, fn->file->data, fn->file->len);
		if (body_of(&tv, fn->params_end, fn->body_open, &open, &close)) {
			size_t irec = hands_over(&tv, fn->params_end, fn->body_open, iname, &which, &open, &close);
			if (irec != TV_NONE) {
				handed = true;
				check_reached(r, p, e, fn->file, tv.v[irec].start, tv.v[irec].end, recorders[which].name);
			}
			else if (!mentions(&tv, open + 1, close, &(struct names){ (char **)&iname, 1 }))
				gate_add(r, GATE_RULE_G2_UNUSED, DIAG_ERROR,
					 gate_loc_at(fn->file, fn->params[ca].start, fn->params[ca].end),
					 "use it: hand it to the runtime, keep it, or mark it used with (void)profilingData;",
					 "%s takes '%s' (argument %ld of the call at %s:%zu) but never uses it: an unused "
					 "parameter, a warning (an error with -Werror)", fn->qualified, iname, ca + 1,
					 call->file->path, src_file_line(call->file, call->start));
		}
		tok_view_release(&tv);
	}
	if (!handed)
		gate_add(r, GATE_RULE_G2_RUNTIME, DIAG_ERROR, gate_loc_at(e->file, e->params[at].start, e->params[at].end),
			 "start the recording at the top of the kernel: MOE_TRACING_KERNEL_BEGIN(profilingData); ... "
			 "MoeTracingKernelEnd();",
			 "the kernel '%s' never hands '%s' to the runtime (MOE_TRACING_KERNEL_BEGIN, MOE_TRACING_KERNEL_SCOPE "
			 "or SetMoeProfilePtr, in the kernel or the Init it passes it to): nothing is recorded into it",
			 e->name, pname);
}

static void check_inits(struct project_model *p, struct gate_report *r, const struct project_kentry *e, long at);

void g2_check_kernel(struct project_model *p, struct gate_report *r)
{
	const struct opdef_op *op = p->op;
	long want;
	char *snake;

	if (project_launch_form(p)) {
		g2_check_launch_kernel(p, r);
		return;
	}
	if (!op || p->prof_out < 0)
		return;
	want = (long)op->ninputs + p->prof_out;
	if (!p->kernels_read || p->kernels.n == 0) {
		gate_add(r, GATE_RULE_G2_LAYER, DIAG_ERROR,
			 gate_loc_path(p->kernel_root ? p->kernel_root : p->opts->opdir, 0, 0),
			 "point the rules' 'kernel' directory at the device sources",
			 "no __global__ kernel found under %s", p->kernel_root ? p->kernel_root : "(no kernel directory)");
		return;
	}
	snake = project_snake(op->name);
	for (size_t k = 0; k < p->kernels.n; k++) {
		const struct project_kentry *e = &p->kernels.v[k];
		const struct src_file *f = e->file;
		const struct project_kparam *next;
		long at;
		if (p->kernels.n > 1 && strcmp(e->name, snake) != 0)
			continue;
		at = kparam_prof(p, e->params, e->nparams);
		if (at < 0) {
			char *c = project_camel(p->profiling);
			gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, e->params_start, e->params_end),
				 "add 'GM_ADDR profilingData' after the last output parameter, before workspace and tiling",
				 "the kernel '%s' has no '%s' parameter", e->name, c);
			free(c);
			continue;
		}
		if (!project_kparam_is_gm(&e->params[at]))
			gate_add(r, GATE_RULE_G2_KIND, DIAG_ERROR, gate_loc_at(f, e->params[at].start, e->params[at].end),
				 "declare it 'GM_ADDR profilingData', like the kernel's other tensors",
				 "'%s' is '%s' in the kernel '%s': the profiling output is a GM tensor (GM_ADDR)",
				 e->params[at].name, e->params[at].type ? e->params[at].type : "?", e->name);
		if ((next = gm_after(e->params, e->nparams, (size_t)at)) != NULL)
			gate_add(r, GATE_RULE_G2_LAST, DIAG_ERROR, gate_loc_at(f, e->params[at].start, e->params[at].end),
				 g2_fix_last, "'%s' is not the last tensor parameter of the kernel '%s': the GM tensor '%s' follows it",
				 e->params[at].name, e->name, next->name ? next->name : "?");
		if (at != want)
			g2_relate_opdef(
				gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR, gate_loc_at(f, e->params[at].start, e->params[at].end),
					 "order the kernel parameters as the OpDef: inputs, outputs, profiling_data, workspace, tiling",
					 "'%s' is parameter %ld of the kernel '%s', but the OpDef puts '%s' at %ld (%zu inputs, output %ld)",
					 e->params[at].name, at + 1, e->name, p->profiling, want + 1, op->ninputs, p->prof_out + 1),
				p);
		check_inits(p, r, e, at);
	}
	free(snake);
}

/* Every Init call of entry e, in every branch, passes its profiling
 * parameter `at` where the entry has it, the definition and declaration it
 * reaches take it there; the entry hands it to the runtime. */
static void check_inits(struct project_model *p, struct gate_report *r, const struct project_kentry *e, long at)
{
	bool any_takes = false;

	/* does some Init the calls reach take the tensor? then a call whose Init
	   was not found may reach that one, and must pass it */
	for (size_t c = 0; c < e->ncalls; c++) {
		const struct project_kcall *call = &e->calls[c];
		any_takes = any_takes ||
			    (call->def >= 0 && kparam_prof(p, e->funcs[call->def].params, e->funcs[call->def].nparams) >= 0) ||
			    (call->decl >= 0 && kparam_prof(p, e->funcs[call->decl].params, e->funcs[call->decl].nparams) >= 0);
	}
	for (size_t c = 0; c < e->ncalls; c++) {
		const struct project_kcall *call = &e->calls[c];
		long ca = project_kcall_arg(call, e->params[at].name);
		long after = at > 0 ? project_kcall_arg(call, e->params[at - 1].name) : -1;
		if (ca < 0) {
			bool takes = (call->def >= 0 && kparam_prof(p, e->funcs[call->def].params, e->funcs[call->def].nparams) >= 0) ||
				     (call->decl >= 0 && kparam_prof(p, e->funcs[call->decl].params, e->funcs[call->decl].nparams) >= 0);
			/* an Init that takes no profiling tensor, of an entry that records
			   the tensor itself: nothing to pass, nothing to receive
			   (wire_calls); one not found, when no Init takes it */
			if (!takes && entry_records(e, at) && (call->def >= 0 || call->decl >= 0 || !any_takes))
				continue;
			gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(call->file, call->start, call->end),
				 "pass the kernel's profiling parameter to every Init call, after the last output",
				 "this Init call%s%s%s does not pass '%s'", call->macro ? " (in macro " : "",
				 call->macro ? call->macro : "", call->macro ? ")" : "", e->params[at].name);
			continue;
		}
		if (after >= 0 && ca != after + 1)
			gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
				 gate_loc_at(call->file, call->arg_start[ca], call->arg_end[ca]),
				 "pass it right after the kernel's last output, as the kernel's parameters are ordered",
				 "this Init call passes '%s' as argument %ld, but the kernel takes it right after '%s' "
				 "(argument %ld here)", call->args[ca], ca + 1, call->args[after], after + 1);
		if (call->def >= 0)
			check_init_func(p, r, e, at, &e->funcs[call->def], ca, call);
		if (call->decl >= 0)
			check_init_func(p, r, e, at, &e->funcs[call->decl], ca, call);
	}
	check_runtime(p, r, e, at);
}

/* The kernel a host function launches directly: its profiling parameter,
 * after the GM tensors the launch passes (workspace and tiling may follow),
 * the Init calls and the runtime as for every kernel. The launch's side is
 * g2_binding.c's. */
void g2_check_launch_kernel(struct project_model *p, struct gate_report *r)
{
	const struct project_launch *l = &p->launch;

	for (size_t k = 0; k < p->kernels.n; k++) {
		const struct project_kentry *e = &p->kernels.v[k];
		const struct launch_site *site = NULL;
		const struct launch_file *lf = NULL;
		const struct project_kparam *next;
		long at;
		for (size_t fi = 0; fi < l->nfiles && !site; fi++)
			for (size_t s = 0; s < l->files[fi].nsites && !site; s++)
				if (project_launch_entry(&p->kernels, l->files[fi].sites[s].kernel) == e) {
					site = &l->files[fi].sites[s];
					lf = &l->files[fi];
				}
		if (!site)
			continue;
		at = kparam_prof(p, e->params, e->nparams);
		if (at < 0) {
			char *c = project_camel(p->profiling);
			gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(e->file, e->params_start, e->params_end),
				 "add 'GM_ADDR profilingData' after the GM tensors the launch passes, before workspace and tiling",
				 "the kernel '%s' has no '%s' parameter, but %s:%zu launches it with the profiling tensor the host "
				 "function allocates", e->name, c, lf->f->path, src_file_line(lf->f, site->range.start));
			free(c);
			continue;
		}
		if ((next = gm_after(e->params, e->nparams, (size_t)at)) != NULL)
			gate_add(r, GATE_RULE_G2_LAST, DIAG_ERROR, gate_loc_at(e->file, e->params[at].start, e->params[at].end),
				 g2_fix_last, "'%s' is not the last tensor parameter of the kernel '%s': the GM tensor '%s' follows it",
				 e->params[at].name, e->name, next->name ? next->name : "?");
		check_inits(p, r, e, at);
	}
}

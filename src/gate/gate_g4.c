/* G4: the samples and tests unpack the operator's new arity (or branch on
 * len(outs)), synchronize the device before save_profiling_data in the
 * flow of the same function, and -- when they take a point map / chrome
 * trace option -- run the collector after the spawned ranks have joined. */
#include <stdlib.h>
#include <string.h>

#include "g4_names.h"
#include "gate_run.h"
#include "project_py.h"
#include "project_tokens.h"
#include "xalloc.h"

static struct gate_loc loc_of(const struct src_file *f, struct py_range r)
{
	return gate_loc_at(f, r.start, r.end);
}

static bool arity_ok(const struct project_model *p, size_t n)
{
	long want = p->py_returns;

	return (long)n == want || (!p->required && (long)n == want + 1);
}

static bool has_star(const struct py_assign *a)
{
	for (size_t t = 0; t < a->ntargets; t++)
		if (a->targets[t].starred)
			return true;
	return false;
}

static void report_arity(const struct project_model *p, struct gate_report *r, const struct src_file *f,
			 const struct py_assign *a, const char *opname)
{
	gate_add(r, GATE_RULE_G4_ARITY, DIAG_ERROR, loc_of(f, a->target_range),
		 p->required ? "unpack one more value (`..., profiling_data = ...` or `..., _ = ...`), use "
			       "`*outs, profiling_data = ...`, or branch on len(outs)"
			     : "unpack the values the op returns, or branch on len(outs)",
		 "unpacks %zu values, but %s returns %ld (%s, '%s' last)", a->ntargets, opname, p->py_returns,
		 p->required ? "mode B" : "mode A", p->profiling);
}

/* Calls of the op: their results unpacked to the new arity. */
static void check_calls(struct project_model *p, struct gate_report *r, const struct src_file *f, struct py_module *m)
{
	if (p->py_returns < 0)
		return;
	for (size_t c = 0; c < m->ncalls; c++) {
		const struct py_call *call = &m->calls[c];
		const struct py_assign *a;
		if (!project_is_op_call(p, m, call))
			continue;
		a = project_py_assign_of_call(m, c);
		if (!a)
			continue;
		if (a->unpacks) {
			if (!has_star(a) && !arity_ok(p, a->ntargets))
				report_arity(p, r, f, a, call->name);
			continue;
		}
		if (a->ntargets != 1)
			continue;
		/* outs = op(...): a len(outs) branch, or a later unpacking of outs */
		{
			const char *name = a->targets[0].text;
			int func = m->stmts[a->stmt].func;
			bool branch = false;
			for (size_t k = 0; k < m->ncalls && !branch; k++) {
				const struct py_call *l = &m->calls[k];
				if (strcmp(l->callee_text, "len") == 0 && l->nargs == 1 && m->stmts[l->stmt].func == func &&
				    strcmp(py_text(m, l->args[0].tok_start, l->args[0].tok_end), name) == 0)
					branch = true;
			}
			if (branch)
				continue;
			for (size_t k = 0; k < m->nassigns; k++) {
				const struct py_assign *u = &m->assigns[k];
				if (u->stmt <= a->stmt || m->stmts[u->stmt].func != func || !u->unpacks || has_star(u))
					continue;
				if (strcmp(py_text(m, u->value_tok_start, u->value_tok_end), name) != 0)
					continue;
				if (!arity_ok(p, u->ntargets))
					report_arity(p, r, f, u, call->name);
			}
		}
	}
}

/* Mode B, a tuple result: the op's result used as a tensor, where it is a
 * tuple now -- a method called on the call (`op(...).contiguous()`), or a
 * name holding the whole result (`out = op(...)`, neither unpacked nor
 * branched on len(out)) used as `out.attr` before it is bound again. */
static void check_tensor_uses(struct project_model *p, struct gate_report *r, const struct src_file *f,
			      struct py_module *m)
{
	if (!p->required || p->py_returns < 2)
		return;
	for (size_t c = 0; c < m->ncalls; c++) {
		const struct py_call *call = &m->calls[c];
		const struct py_assign *a;
		size_t t = py_tok_at(m, call->range.end);
		const char *name;
		int func;
		uint32_t until = (uint32_t)f->len;
		if (!project_is_op_call(p, m, call))
			continue;
		if (t < m->ntoks && py_tok_is(m, t, ".") && t + 1 < m->ntoks && m->toks[t + 1].kind == PY_TOK_NAME) {
			gate_add(r, GATE_RULE_G4_ARITY, DIAG_ERROR, gate_loc_at(f, m->toks[t].start, m->toks[t + 1].end),
				 "unpack the result first (`out, profiling_data = op(...)`), then use the tensor",
				 "calls .%s on the result of %s, which returns %ld values in mode B ('%s' last)",
				 py_text(m, t + 1, t + 2), call->name, p->py_returns, p->profiling);
			continue;
		}
		if (!(a = project_py_assign_of_call(m, c)) || a->unpacks || a->ntargets != 1 || a->targets[0].starred)
			continue;
		name = a->targets[0].text;
		func = m->stmts[a->stmt].func;
		if (func != PY_NONE)
			until = m->stmts[func].block.end;
		for (size_t k = 0; k < m->ncalls; k++)
			if (strcmp(m->calls[k].callee_text, "len") == 0 && m->calls[k].nargs == 1 &&
			    m->stmts[m->calls[k].stmt].func == func &&
			    strcmp(py_text(m, m->calls[k].args[0].tok_start, m->calls[k].args[0].tok_end), name) == 0)
				until = 0;
		for (size_t k = 0; k < m->nassigns; k++) {
			const struct py_assign *u = &m->assigns[k];
			if (u->stmt <= a->stmt || m->stmts[u->stmt].func != func)
				continue;
			if (u->unpacks && strcmp(py_text(m, u->value_tok_start, u->value_tok_end), name) == 0)
				until = 0; /* unpacked later: check_calls judges it */
			for (size_t q = 0; q < u->ntargets; q++)
				if (strcmp(u->targets[q].text, name) == 0 && u->value.end < until)
					until = u->value.end;
		}
		for (size_t k = py_tok_at(m, m->stmts[a->stmt].range.end); k + 2 < m->ntoks && m->toks[k].start < until; k++)
			if (m->toks[k].kind == PY_TOK_NAME && strcmp(py_text(m, k, k + 1), name) == 0 && py_tok_is(m, k + 1, ".") &&
			    (k == 0 || !py_tok_is(m, k - 1, "."))) {
				gate_add(r, GATE_RULE_G4_ARITY, DIAG_ERROR, loc_of(f, a->target_range),
					 "unpack it: `out, profiling_data = op(...)` (or `*outs, profiling_data = ...`)",
					 "'%s' holds the %ld values %s returns in mode B ('%s' last), but is used as a tensor at line "
					 "%zu (%s.%s)", name, p->py_returns, call->name, p->profiling,
					 src_file_line(f, m->toks[k].start), name, py_text(m, k + 2, k + 3));
				break;
			}
	}
}

/* The tensor a save writes is the operator's profiling output: in mode A
 * the one a call of the op in the same function is passed (the op writes
 * into it), in mode B one the op's result is unpacked into. A save of
 * anything else saves zeros. Saves in a function without a call of the op
 * (the tensor handed over from elsewhere) are not judged. */
static void check_saved(struct project_model *p, struct gate_report *r, const struct src_file *f, struct py_module *m)
{
	for (size_t c = 0; c < m->ncalls; c++) {
		const struct py_call *save = &m->calls[c];
		const struct py_arg *arg;
		const char *x;
		int func = m->stmts[save->stmt].func;
		bool calls = false, ok = false;
		if (!project_py_is_save(save) || !(arg = project_py_arg(save, "profiling", 0)) ||
		    arg->tok_end != arg->tok_start + 1 || m->toks[arg->tok_start].kind != PY_TOK_NAME)
			continue;
		x = py_text(m, arg->tok_start, arg->tok_end);
		for (size_t k = 0; k < m->ncalls && !ok; k++) {
			const struct py_call *op = &m->calls[k];
			const struct py_assign *a;
			if (!project_is_op_call(p, m, op) || m->stmts[op->stmt].func != func)
				continue;
			calls = true;
			if (!p->required) {
				for (size_t i = 0; i < op->nargs && !ok; i++)
					ok = strcmp(py_text(m, op->args[i].tok_start, op->args[i].tok_end), x) == 0;
				continue;
			}
			/* mode B: x among the targets of op(...) or of a later unpacking of its result */
			if (!(a = project_py_assign_of_call(m, k)))
				continue;
			for (size_t t = 0; t < a->ntargets && !ok; t++)
				ok = strcmp(a->targets[t].text, x) == 0;
			for (size_t u = 0; u < m->nassigns && !ok && a->ntargets == 1; u++) {
				const struct py_assign *v = &m->assigns[u];
				if (m->stmts[v->stmt].func != func ||
				    strcmp(py_text(m, v->value_tok_start, v->value_tok_end), a->targets[0].text) != 0)
					continue;
				for (size_t t = 0; t < v->ntargets && !ok; t++)
					ok = strcmp(v->targets[t].text, x) == 0;
			}
		}
		if (calls && !ok)
			gate_add(r, GATE_RULE_G4_SAVE, DIAG_ERROR, gate_loc_at(f, arg->range.start, arg->range.end),
				 p->required ? "save the last value the operator returns (mode B)"
					     : "pass the tensor to the operator's call: profiling_data=profiling_data (mode A)",
				 p->required ? "saves '%s', which is not a value the call of the operator in this function returns: "
					       "the dump holds no record"
					     : "saves '%s', which no call of the operator in this function is passed (mode A: the "
					       "operator writes into the tensor its caller passes): the dump holds no record",
				 x);
	}
}

/* save_profiling_data after a synchronize that runs on every path to it. */
static void check_saves(struct gate_report *r, const struct src_file *f, struct py_module *m)
{
	for (size_t c = 0; c < m->ncalls; c++) {
		const struct py_call *save = &m->calls[c];
		int func = m->stmts[save->stmt].func, before = PY_NONE, after = PY_NONE;
		if (!project_py_is_save(save))
			continue;
		for (size_t k = 0; k < m->ncalls; k++) {
			const struct py_call *s = &m->calls[k];
			if (!project_py_is_sync(s) || m->stmts[s->stmt].func != func)
				continue;
			if (py_dominates(m, s->stmt, save->stmt)) {
				before = -2;
				break;
			}
			if (s->range.start < save->range.start && before == PY_NONE)
				before = (int)k;
			else if (s->range.start > save->range.start && after == PY_NONE)
				after = (int)k;
		}
		if (before == -2)
			continue;
		if (before >= 0)
			gate_add(r, GATE_RULE_G4_SYNC, DIAG_ERROR, loc_of(f, save->callee),
				 "synchronize on the path that saves: call torch_npu.npu.synchronize() right before saving",
				 "the synchronize at line %zu does not run on every path to save_profiling_data",
				 src_file_line(f, m->calls[before].range.start));
		else if (after >= 0)
			gate_add(r, GATE_RULE_G4_SYNC, DIAG_ERROR, loc_of(f, save->callee),
				 "move torch_npu.npu.synchronize() before save_profiling_data",
				 "save_profiling_data runs before the device is synchronized (the synchronize is at line %zu): "
				 "the profiling tensor may not be written yet",
				 src_file_line(f, m->calls[after].range.start));
		else
			gate_add(r, GATE_RULE_G4_SYNC, DIAG_ERROR, loc_of(f, save->callee),
				 "call torch_npu.npu.synchronize() before save_profiling_data",
				 "save_profiling_data without a device synchronize before it in the same function: the "
				 "profiling tensor may not be written yet");
	}
}

static const struct py_func *func_named(const struct py_module *m, const char *name)
{
	for (size_t i = 0; i < m->nfuncs; i++)
		if (strcmp(m->funcs[i].name, name) == 0)
			return &m->funcs[i];
	return NULL;
}

/* True when `name` is passed as an argument of a call (mp.spawn(run, ...),
 * Process(target=run)). */
static bool passed(struct py_module *m, const char *name)
{
	for (size_t k = 0; k < m->ncalls; k++)
		for (size_t a = 0; a < m->calls[k].nargs; a++)
			if (strcmp(py_text(m, m->calls[k].args[a].tok_start, m->calls[k].args[a].tok_end), name) == 0)
				return true;
	return false;
}

/* Where call `c` really runs from the script's flow: `c` itself when it is
 * in the module body or in a function that spawns, else (a helper like
 * _autotrace_collect()) the call of its function, a few levels up; NULL
 * when its function is never called. */
static const struct py_call *called_from(struct py_module *m, const struct py_call *c)
{
	for (int hop = 0; hop < 4; hop++) {
		int def = m->stmts[c->stmt].func;
		const char *name = NULL;
		const struct py_call *site = NULL;
		bool spawns = false;
		if (def == PY_NONE)
			return c;
		for (size_t k = 0; k < m->ncalls && !spawns; k++)
			spawns = project_py_is_spawn(&m->calls[k]) && m->stmts[m->calls[k].stmt].func == def;
		if (spawns)
			return c;
		for (size_t q = 0; q < m->nfuncs && !name; q++)
			if (m->funcs[q].stmt == def)
				name = m->funcs[q].name;
		for (size_t k = 0; name && k < m->ncalls && !site; k++)
			if (strcmp(m->calls[k].callee_text, name) == 0 && !py_stmt_within(m, m->calls[k].stmt, def))
				site = &m->calls[k];
		if (!site) {
			/* a test function the runner calls (pytest's test_*), a method, a function
			   handed to a call (a spawn's target): as it is */
			if (name && (strncmp(name, "test", 4) == 0 || m->stmts[def].parent != PY_NONE || passed(m, name)))
				return c;
			return NULL;
		}
		c = site;
	}
	return c;
}

/* With --point_map / --chrome_trace: the collector runs after the join. */
static void check_collector(struct gate_report *r, const struct src_file *f, struct py_module *m)
{
	size_t nopt;
	struct project_py_option *opts = project_py_options(m, &nopt);
	const struct project_py_option *trigger = NULL;
	int collector = PY_NONE;

	for (size_t i = 0; i < nopt && !trigger; i++) {
		char *k = tv_name_key(opts[i].dest);
		if (strstr(k, "pointmap") || strstr(k, "chrometrace"))
			trigger = &opts[i];
		free(k);
	}
	if (!trigger) {
		project_py_options_free(opts, nopt);
		return;
	}
	for (size_t c = 0; c < m->ncalls && collector == PY_NONE; c++)
		if (project_py_is_collector(m, &m->calls[c]))
			collector = (int)c;
	if (collector == PY_NONE) {
		gate_add(r, GATE_RULE_G4_COLLECT, DIAG_ERROR, loc_of(f, m->calls[trigger->call].range),
			 "after the spawn has joined: subprocess.run([autotrace, \"collect\", \"--map\", args.point_map, "
			 "\"-o\", chrome_trace, args.profiling_dir], check=True)",
			 "the sample takes --%s but never runs the collector", trigger->dest);
		project_py_options_free(opts, nopt);
		return;
	}
	{
		const struct py_call *col = called_from(m, &m->calls[collector]);
		int cfunc;
		bool spawns = false;
		for (size_t c = 0; c < m->ncalls && !spawns; c++)
			spawns = project_py_is_spawn(&m->calls[c]);
		/* a script that starts no ranks itself (torchrun starts it once per
		   rank): the collector runs after the launcher, as the report says */
		if (!col && !spawns) {
			project_py_options_free(opts, nopt);
			return;
		}
		if (!col) {
			const struct py_call *c0 = &m->calls[collector];
			gate_add(r, GATE_RULE_G4_COLLECT, DIAG_ERROR, loc_of(f, c0->callee),
				 "call the function that collects, after the spawn has joined",
				 "the collector runs in a function the script never calls: the trace is never made");
			project_py_options_free(opts, nopt);
			return;
		}
		cfunc = m->stmts[col->stmt].func;
		for (size_t c = 0; c < m->ncalls; c++) {
			const struct py_call *sp = &m->calls[c];
			const struct py_arg *target;
			if (!project_py_is_spawn(sp))
				continue;
			target = strcmp(sp->name, "Process") == 0 ? project_py_arg(sp, "target", -1) : project_py_arg(sp, "fn", 0);
			if (target && cfunc != PY_NONE) {
				const char *tname = py_text(m, target->tok_start, target->tok_end);
				const struct py_func *tf = func_named(m, tname);
				if (tf && (tf->stmt == cfunc || py_stmt_within(m, col->stmt, tf->stmt))) {
					gate_add(r, GATE_RULE_G4_COLLECT, DIAG_ERROR, loc_of(f, col->callee),
						 "run the collector once, in the parent, after the spawn has joined",
						 "the collector runs in every spawned rank (%s), not after the spawn at line %zu has joined",
						 tname, src_file_line(f, sp->range.start));
					break;
				}
			}
			if (m->stmts[sp->stmt].func != cfunc)
				continue;
			if (!py_dominates(m, project_py_top(m, sp->stmt), col->stmt) &&
			    !(sp->stmt == col->stmt && sp->range.start < col->range.start)) {
				gate_add(r, GATE_RULE_G4_COLLECT, DIAG_ERROR, loc_of(f, col->callee),
					 "run the collector after the spawn has joined (the ranks write their dumps first)",
					 "the collector runs before the spawn at line %zu has joined",
					 src_file_line(f, sp->range.start));
				break;
			}
			if (project_py_spawn_nojoin(m, sp)) {
				bool joined = false;
				for (size_t k = 0; k < m->ncalls && !joined; k++) {
					const struct py_call *j = &m->calls[k];
					if (strcmp(j->name, "join") == 0 && j->range.start > sp->range.start &&
					    j->range.start < col->range.start && m->stmts[j->stmt].func == cfunc)
						joined = true;
				}
				if (!joined) {
					gate_add(r, GATE_RULE_G4_COLLECT, DIAG_ERROR, loc_of(f, col->callee),
						 "join the processes first (join=True, or .join() on each) and then collect",
						 "the collector runs while the processes started at line %zu may still be running",
						 src_file_line(f, sp->range.start));
					break;
				}
			}
		}
	}
	project_py_options_free(opts, nopt);
}

/* A gate of the samples when the rules leave them out of the project: not
 * run, said so (a skip, never a pass). */
void gate_samples_left_out(const struct project_model *p, struct gate_report *r, enum gate_id g)
{
	r->gates[g].run = false;
	free(r->gates[g].note);
	if (p->absent_samples && p->absent_binding)
		r->gates[g].note = xasprintf("absent: no torch binding returns '%s' to Python, so no sample or test can save "
					     "it; whoever binds the op extends the samples that call it (unpack, synchronize, "
					     "save_profiling_data, absolute paths)", p->profiling);
	else if (p->absent_samples)
		r->gates[g].note = xasprintf("absent: no sample or test calls the operator (patterns %s, looked for %s); "
					     "whoever writes one unpacks '%s', synchronizes the device, saves it "
					     "(save_profiling_data) and makes its paths absolute",
					     project_globs_text(&p->policy->samples).s, project_searched_text(p).s, p->profiling);
	else
		r->gates[g].note = xstrdup("the samples are left out of this project (without samples)");
}

void gate_g4(struct project_model *p, struct gate_report *r)
{
	const struct src_file *first_file = NULL;
	const struct py_call *first_call = NULL;
	size_t saves = 0;

	if (p->without_samples) {
		gate_samples_left_out(p, r, GATE_G4);
		return;
	}
	if (p->nsamples == 0) {
		gate_add(r, GATE_RULE_G4_SAVE, DIAG_ERROR, gate_anchor_loc(p, PROJECT_ANCHOR_TORCH_NAME),
			 "extend the existing samples (examples/*_sample.py, test_*.py) or set the rules' 'samples' patterns",
			 "no sample or test calls the operator (patterns %s, looked for %s)", project_globs_text(&p->policy->samples).s,
			 project_searched_text(p).s);
		return;
	}
	for (size_t s = 0; s < p->nsamples; s++) {
		const struct src_file *f = p->samples[s].f;
		struct py_module *m = p->samples[s].py;
		if (m->unclosed != UINT32_MAX)
			gate_add(r, GATE_RULE_G4_SAVE, DIAG_WARNING, gate_loc_at(f, m->unclosed, m->unclosed + 1), NULL,
				 "unclosed %s: the rest of the file is read as well as it can be", m->unclosed_what);
		check_calls(p, r, f, m);
		check_tensor_uses(p, r, f, m);
		check_saves(r, f, m);
		check_saved(p, r, f, m);
		check_collector(r, f, m);
		g4_check_names(p, r, f, m);
		for (size_t c = 0; c < m->ncalls; c++) {
			if (project_py_is_save(&m->calls[c]))
				saves++;
			if (!first_call && project_is_op_call(p, m, &m->calls[c])) {
				first_call = &m->calls[c];
				first_file = f;
			}
		}
	}
	if (saves == 0) {
		if (first_call)
			gate_add(r, GATE_RULE_G4_SAVE, DIAG_ERROR, loc_of(first_file, first_call->callee),
				 "after torch_npu.npu.synchronize(): save_profiling_data(profiling_data, rank, args.profiling_dir)",
				 "no sample saves the profiling output of %s", first_call->name);
		else
			gate_add(r, GATE_RULE_G4_SAVE, DIAG_ERROR, gate_loc_path(p->samples[0].f->path, 0, 0),
				 "call the operator from a sample and save its profiling output",
				 "no sample or test calls %s", p->npy_names ? p->py_names[0] : "the operator");
	}
}

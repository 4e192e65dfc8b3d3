/* wire, Python side (G4, G5): the samples and tests that call the operator
 * take the profiling output (mode B: unpacked by len(outs); mode A: passed
 * as the optional argument), synchronize the device, save it with
 * save_profiling_data, take --profiling_dir / --point_map / --chrome_trace,
 * make them absolute before the spawn and run the collector after the join.
 * A script with an argparse namespace in reach of the call gets the options
 * on its parser; a test without one (pytest style: a class whose methods run
 * the op, workers started with multiprocessing) is switched on by the
 * environment (AUTOTRACE_PROFILING_DIR, AUTOTRACE_POINT_MAP,
 * AUTOTRACE_CHROME_TRACE), made absolute in the parent before the workers
 * start, with a `__main__` block that sets them from the same options.
 * Inserted code is marked with an "autotrace wire" comment. */
#include <stdlib.h>
#include <string.h>

#include "c_ident.h"
#include "project_py.h"
#include "path_glob.h"
#include "path_rel.h"
#include "wire.h"
#include "xalloc.h"

static const char *helper_text =
	"def _autotrace_save_helper():\n"
	"    \"\"\"save_profiling_data of autotrace's device/python (added by autotrace wire): from\n"
	"    $AUTOTRACE_PYTHON_DIR, $AUTOTRACE_DEVICE_DIR/python or the autotrace found on PATH.\"\"\"\n"
	"    import os\n"
	"    import shutil\n"
	"    import sys\n"
	"    dirs = [os.environ.get(\"AUTOTRACE_PYTHON_DIR\")]\n"
	"    if os.environ.get(\"AUTOTRACE_DEVICE_DIR\"):\n"
	"        dirs.append(os.path.join(os.environ[\"AUTOTRACE_DEVICE_DIR\"], \"python\"))\n"
	"    exe = shutil.which(\"autotrace\")\n"
	"    if exe:\n"
	"        top = os.path.dirname(os.path.realpath(exe))\n"
	"        dirs += [os.path.join(top, \"..\", \"share\", \"autotrace\", \"device\", \"python\"),\n"
	"                 os.path.join(top, \"device\", \"python\")]\n"
	"    for d in dirs:\n"
	"        if d and os.path.isfile(os.path.join(d, \"autotrace_save.py\")):\n"
	"            if d not in sys.path:\n"
	"                sys.path.insert(0, d)\n"
	"            break\n"
	"    from autotrace_save import save_profiling_data\n"
	"    return save_profiling_data\n"
	"\n"
	"\n";

static const char *rank_helper_text =
	"def _autotrace_rank():\n"
	"    \"\"\"The rank of this process for its dump: $RANK (torchrun), else 0 (one process; added by\n"
	"    autotrace wire).\"\"\"\n"
	"    import os\n"
	"    return int(os.environ.get(\"RANK\", \"0\"))\n"
	"\n"
	"\n";

static const char *env_helpers_text =
	"# autotrace wire (G4, G5): the profiling of the operator, switched on by the environment:\n"
	"#   AUTOTRACE_PROFILING_DIR  where each rank saves its dump (rankNNN.pt)\n"
	"#   AUTOTRACE_POINT_MAP      point_map.json of the same build: the trace is collected after the ranks\n"
	"#   AUTOTRACE_CHROME_TRACE   the trace to write (default AUTOTRACE_PROFILING_DIR/chrome_trace.json)\n"
	"# (run as a script, --profiling_dir, --point_map and --chrome_trace set them).\n"
	"AUTOTRACE_PROFILING_NUMEL = 128 * 3 * 2048  # MAX_INFER_GETBLOCKNUM_UB * MIX_AIC_1_2_SLOTS_PER_GROUP * PROF_SIZE_PER_CORE\n"
	"\n"
	"\n"
	"def _autotrace_path(name):\n"
	"    \"\"\"The path in environment variable `name`, absolute, or None (added by autotrace wire).\"\"\"\n"
	"    import os\n"
	"    from pathlib import Path\n"
	"    value = os.environ.get(name)\n"
	"    return str(Path(value).expanduser().resolve()) if value else None\n"
	"\n"
	"\n"
	"def _autotrace_absolute_paths():\n"
	"    \"\"\"Makes the profiling paths of the environment absolute, for the ranks to inherit (G5).\"\"\"\n"
	"    import os\n"
	"    for name in (\"AUTOTRACE_PROFILING_DIR\", \"AUTOTRACE_POINT_MAP\", \"AUTOTRACE_CHROME_TRACE\"):\n"
	"        if os.environ.get(name):\n"
	"            os.environ[name] = _autotrace_path(name)\n"
	"\n"
	"\n"
	"def _autotrace_collect():\n"
	"    \"\"\"autotrace collect over the ranks' dumps, once every rank has saved its own (G4).\"\"\"\n"
	"    import shutil\n"
	"    import subprocess\n"
	"    from pathlib import Path\n"
	"    profiling_dir, point_map = _autotrace_path(\"AUTOTRACE_PROFILING_DIR\"), _autotrace_path(\"AUTOTRACE_POINT_MAP\")\n"
	"    if profiling_dir and point_map:\n"
	"        chrome_trace = _autotrace_path(\"AUTOTRACE_CHROME_TRACE\") or str(Path(profiling_dir) / \"chrome_trace.json\")\n"
	"        subprocess.run([shutil.which(\"autotrace\") or \"autotrace\", \"collect\", \"--map\", point_map,\n"
	"                        \"-o\", chrome_trace, profiling_dir], check=True)\n"
	"        print(\"chrome trace: %s\" % chrome_trace)\n"
	"\n"
	"\n";

struct sample {
	struct wire *w;
	const struct src_file *f;
	struct py_module *m;
	char *ns;                 /* the argparse namespace ("args"), or NULL */
	int ns_stmt;              /* its parse_args statement */
	char *parser;             /* the ArgumentParser variable ("p") */
	int last_option;          /* the statement of the last add_argument */
	bool need_path, need_shutil, need_subprocess, need_os;
	bool env;                 /* no namespace in reach: the environment switches it on */
	char *base_rel;           /* the base header from the sample's directory, or NULL */
	/* a call taken out of its statement (hoist_call): the profiling value
	   is bound before that statement, whose line starts at save_at */
	bool save_before;
	uint32_t save_at;
};

static int stmt_of_func(const struct py_module *m, int fn_stmt)
{
	for (size_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].stmt == fn_stmt)
			return (int)i;
	return -1;
}

/* Offset of the line after statement s (its body included). */
static uint32_t after_stmt(const struct sample *s, int st)
{
	const struct py_stmt *t = &s->m->stmts[st];
	uint32_t end = t->block.end > t->range.end ? t->block.end : t->range.end;
	const struct src_file *f = s->f;

	while (end < f->len && f->data[end] != '\n')
		end++;
	return end < f->len ? end + 1 : end;
}

static char *indent_of(const struct sample *s, int st)
{
	return wire_indent_at(s->f, s->m->stmts[st].range.start);
}

static char *range_text(const struct src_file *f, struct py_range r)
{
	return xstrndup(f->data + r.start, r.end - r.start);
}

/* The argparse namespace and parser of the module. */
static void find_cli(struct sample *s)
{
	struct py_module *m = s->m;

	s->ns_stmt = PY_NONE;
	s->last_option = PY_NONE;
	for (size_t a = 0; a < m->nassigns; a++) {
		const struct py_assign *as = &m->assigns[a];
		if (as->call != PY_NONE && strcmp(m->calls[as->call].name, "parse_args") == 0 && as->ntargets == 1 &&
		    !as->unpacks) {
			s->ns = xstrdup(as->targets[0].text);
			s->ns_stmt = as->stmt;
			break;
		}
	}
	for (size_t c = 0; c < m->ncalls; c++) {
		const struct py_call *call = &m->calls[c];
		const char *dot;
		if (strcmp(call->name, "add_argument") != 0)
			continue;
		s->last_option = call->stmt;
		dot = strrchr(call->callee_text, '.');
		free(s->parser);
		s->parser = dot ? xstrndup(call->callee_text, (size_t)(dot - call->callee_text)) : NULL;
	}
}

/* How function `fn_stmt` sees the namespace: a parameter of the same name, or the global. */
static bool ns_visible(const struct sample *s, int fn_stmt)
{
	int k = stmt_of_func(s->m, fn_stmt);

	if (!s->ns)
		return false;
	if (s->m->stmts[s->ns_stmt].func == PY_NONE)
		return true;
	if (k < 0)
		return false;
	for (size_t i = 0; i < s->m->funcs[k].nparams; i++)
		if (strcmp(s->m->funcs[k].params[i], s->ns) == 0)
			return true;
	return false;
}

/* Mode B where the result is not unpacked: a call made for its effect
 * (`op(...)` alone, the op returning nothing before: `profiling_data =
 * op(...)`), a single name (`out = op(...)`: `out, profiling_data = ...`,
 * `*out, profiling_data = ...` for a tuple), or a method called on the
 * result (`out = op(...).contiguous()`: the result unpacked, then `out =
 * out.contiguous()`). Returns the statement after which the tensor is bound,
 * or PY_NONE when the call is none of these (nothing done). */
static int keep_result(struct sample *s, size_t c, const struct py_assign *a, char **prof)
{
	struct wire *w = s->w;
	struct py_module *m = s->m;
	const struct src_file *f = s->f;
	const struct py_call *call = &m->calls[c];
	size_t nmain = wire_py_outputs(w);
	const struct py_stmt *st = &m->stmts[call->stmt];
	char *t;

	for (size_t k = 0; !a && k < m->nassigns; k++)
		if (m->assigns[k].value.start == call->range.start && m->assigns[k].stmt == call->stmt)
			a = &m->assigns[k]; /* out = op(...).method() */
	if (!a) {
		if (nmain != 0 || st->kind != PY_STMT_SIMPLE || st->range.start != call->range.start ||
		    st->range.end != call->range.end)
			return PY_NONE;
		t = xasprintf("%s = ", w->prof);
		wire_edit(w, f, call->range.start, call->range.start, t, "sample: the result of %s kept as '%s'", call->name,
			  w->prof);
		free(t);
		*prof = xstrdup(w->prof);
		return call->stmt;
	}
	if (a->unpacks || a->ntargets != 1 || nmain == 0 || a->value.start != call->range.start || a->targets[0].starred ||
	    (a->value.end != call->range.end && nmain != 1))
		return PY_NONE;
	t = xasprintf(nmain == 1 ? "%s, %s" : "*%s, %s", a->targets[0].text, w->prof);
	wire_edit(w, f, a->target_range.start, a->target_range.end, t, "sample: the result of %s unpacked, '%s' last",
		  call->name, w->prof);
	free(t);
	if (a->value.end != call->range.end) {
		/* op(...).method(): applied to the op's first value once it is unpacked */
		char *ind = indent_of(s, a->stmt), *rest = xstrndup(f->data + call->range.end, a->value.end - call->range.end);
		wire_edit(w, f, call->range.end, a->value.end, "", "sample: %s applied after the unpacking", rest);
		t = xasprintf("\n%s%s = %s%s", ind, a->targets[0].text, a->targets[0].text, rest);
		wire_edit(w, f, a->value.end, a->value.end, t, "sample: %s = %s%s", a->targets[0].text, a->targets[0].text,
			  rest);
		free(t);
		free(ind);
		free(rest);
	}
	*prof = xstrdup(w->prof);
	return a->stmt;
}

/* The words that make taking a call out of its statement change what runs:
 * a lambda or comprehension binds its names, a conditional expression or
 * a boolean operator may skip it, := and yield bind or suspend. */
static bool hoist_unsafe(const struct src_file *f, uint32_t from, uint32_t to)
{
	static const char *const words[] = { "lambda", "for", "if", "and", "or", "yield", "await" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (wire_has_word(f, from, to, words[i]))
			return true;
	for (uint32_t i = from; i + 1 < to; i++)
		if (f->data[i] == ':' && f->data[i + 1] == '=')
			return true;
	return false;
}

/* Mode B, a call inside a larger statement (`return op(...)`, `out =
 * (op(...).float().cpu())`, `check(op(...))`): the call is taken out
 * into a statement of its own just before, its result unpacked with the
 * profiling value last, and the statement uses the outputs as before:
 *     _autotrace_out = op(...)
 *     _autotrace_out, profiling_data = _autotrace_out       (one output)
 *     *_autotrace_out, profiling_data = _autotrace_out      (several:
 *     _autotrace_out = tuple(_autotrace_out)                 a tuple again)
 *     return _autotrace_out
 * Only where nothing in the statement makes the call conditional or binds
 * its names (hoist_unsafe). Returns the statement, PY_NONE when not done. */
static int hoist_call(struct sample *s, size_t c, char **prof)
{
	struct wire *w = s->w;
	const struct src_file *f = s->f;
	const struct py_call *call = &s->m->calls[c];
	const struct py_stmt *st = &s->m->stmts[call->stmt];
	size_t nmain = wire_py_outputs(w);
	const char *out = "_autotrace_out";
	char *ind, *t, *callt;
	uint32_t at;

	if (nmain == 0 || (st->kind != PY_STMT_SIMPLE && st->kind != PY_STMT_RETURN) ||
	    hoist_unsafe(f, st->range.start, call->range.start) || hoist_unsafe(f, call->range.end, st->range.end) ||
	    wire_has_word(f, 0, (uint32_t)f->len, out))
		return PY_NONE;
	ind = indent_of(s, call->stmt);
	at = wire_line_start(f, st->range.start);
	callt = range_text(f, call->range);
	t = nmain == 1 ? xasprintf("%s%s = %s  # autotrace wire: '%s' comes last\n%s%s, %s = %s\n", ind, out, callt, w->prof,
				   ind, out, w->prof, out)
		       : xasprintf("%s%s = %s  # autotrace wire: '%s' comes last\n%s*%s, %s = %s\n%s%s = tuple(%s)\n", ind,
				   out, callt, w->prof, ind, out, w->prof, out, ind, out, out);
	wire_edit(w, f, at, at, t, "sample: %s taken out of its statement, '%s' last", call->name, w->prof);
	wire_edit(w, f, call->range.start, call->range.end, out, "sample: the statement uses %s's outputs", call->name);
	free(t);
	free(callt);
	free(ind);
	s->save_before = true;
	s->save_at = at;
	*prof = xstrdup(w->prof);
	return call->stmt;
}

/* The profiling value after the op call `c`: mode B unpacking. Returns the
 * statement after which it is bound (PY_NONE when it cannot be done). */
static int unpack_mode_b(struct sample *s, size_t c, char **prof)
{
	struct wire *w = s->w;
	struct py_module *m = s->m;
	const struct src_file *f = s->f;
	const struct py_assign *a = project_py_assign_of_call(m, c);
	size_t nmain = wire_py_outputs(w);
	int func;

	*prof = NULL;
	if (!a) {
		int kept = keep_result(s, c, a, prof);
		if (kept == PY_NONE)
			kept = hoist_call(s, c, prof);
		if (kept == PY_NONE)
			wire_manual(w, f, m->calls[c].range.start, m->calls[c].range.end,
				    "keep the result of this call and take '%s' as its last value", w->prof);
		return kept;
	}
	func = m->stmts[a->stmt].func;
	if (a->unpacks) {
		bool star = false;
		for (size_t t = 0; t < a->ntargets; t++)
			star = star || a->targets[t].starred;
		if (star) {
			const struct py_target *last = &a->targets[a->ntargets - 1];
			if (last->starred) {
				wire_manual(w, f, a->target_range.start, a->target_range.end,
					    "unpack '%s' as the last value: `*outs, %s = ...`", w->prof, w->prof);
				return PY_NONE;
			}
			if (strcmp(last->text, "_") == 0) {
				wire_edit(w, f, last->range.start, last->range.end, w->prof,
					  "sample: the last value of %s is kept as '%s'", m->calls[c].name, w->prof);
				*prof = xstrdup(w->prof);
			} else {
				*prof = xstrdup(last->text);
			}
			return a->stmt;
		}
		if (a->ntargets == nmain + 1) {
			*prof = xstrdup(a->targets[a->ntargets - 1].text);
			return a->stmt;
		}
		if (a->ntargets == nmain) {
			char *ind = indent_of(s, a->stmt), *targets = range_text(f, a->target_range),
			     *value = range_text(f, a->value), *t;
			const char *outs = wire_has_word(f, 0, (uint32_t)f->len, "outs") ? "op_outs" : "outs";
			t = xasprintf("%s = %s\n"
				     "%sif len(%s) == %zu:  # autotrace wire: '%s' comes last\n"
				     "%s    %s, %s = %s\n"
				     "%selse:\n"
				     "%s    (%s), %s = %s, None",
				     outs, value, ind, outs, nmain + 1, w->prof, ind, targets, w->prof, outs, ind, ind,
				     nmain == 1 ? "" : targets, w->prof, outs);
			if (nmain == 1) {
				free(t);
				t = xasprintf("%s = %s\n"
					     "%sif len(%s) == 2:  # autotrace wire: '%s' comes last\n"
					     "%s    %s, %s = %s\n"
					     "%selse:\n"
					     "%s    %s, %s = %s, None",
					     outs, value, ind, outs, w->prof, ind, targets, w->prof, outs, ind, ind, targets,
					     w->prof, outs);
			}
			wire_edit(w, f, m->stmts[a->stmt].range.start, m->stmts[a->stmt].range.end, t,
				  "sample: the result of %s unpacked by len(%s), '%s' last", m->calls[c].name, outs, w->prof);
			free(t);
			free(ind);
			free(targets);
			free(value);
			*prof = xstrdup(w->prof);
			return a->stmt;
		}
		wire_manual(w, f, a->target_range.start, a->target_range.end,
			    "this unpacks %zu values but the op has %zu outputs: take '%s' as the last of %zu", a->ntargets,
			    nmain, w->prof, nmain + 1);
		return PY_NONE;
	}
	/* outs = op(...): a len(outs) branch, or a later unpacking of outs */
	{
		const char *name = a->targets[0].text;
		for (size_t k = 0; k < m->nassigns; k++) {
			const struct py_assign *u = &m->assigns[k];
			if (u->stmt <= a->stmt || m->stmts[u->stmt].func != func || !u->unpacks)
				continue;
			if (strcmp(py_text(m, u->value_tok_start, u->value_tok_end), name) != 0)
				continue;
			if (u->ntargets == nmain + 1) {
				*prof = xstrdup(u->targets[u->ntargets - 1].text);
				return project_py_top(m, u->stmt);
			}
		}
		for (size_t k = 0; k < m->nassigns; k++) {
			const struct py_assign *u = &m->assigns[k];
			char *ind, *targets, *t;
			if (u->stmt <= a->stmt || m->stmts[u->stmt].func != func || !u->unpacks || u->ntargets != nmain)
				continue;
			if (strcmp(py_text(m, u->value_tok_start, u->value_tok_end), name) != 0)
				continue;
			ind = indent_of(s, u->stmt);
			targets = range_text(f, u->target_range);
			t = xasprintf("if len(%s) == %zu:  # autotrace wire: '%s' comes last\n"
				     "%s    %s, %s = %s\n"
				     "%selse:\n"
				     "%s    %s%s%s, %s = %s, None",
				     name, nmain + 1, w->prof, ind, targets, w->prof, name, ind, ind, nmain == 1 ? "" : "(",
				     targets, nmain == 1 ? "" : ")", w->prof, name);
			wire_edit(w, f, m->stmts[u->stmt].range.start, m->stmts[u->stmt].range.end, t,
				  "sample: %s unpacked by len(%s), '%s' last", name, name, w->prof);
			free(t);
			free(ind);
			free(targets);
			*prof = xstrdup(w->prof);
			return u->stmt;
		}
	}
	{
		int kept = keep_result(s, c, a, prof);
		if (kept != PY_NONE)
			return kept;
	}
	wire_manual(w, f, a->target_range.start, a->target_range.end,
		    "take '%s' as the last value of %s (branch on len(%s))", w->prof, m->calls[c].name,
		    a->targets[0].text);
	return PY_NONE;
}

/* `name=value` as the last argument of the call, in its style: a line of its
 * own (after a trailing comma) when its arguments are one per line. */
static void add_kwarg(struct sample *s, const struct py_call *call, const char *name, const char *value)
{
	const struct src_file *f = s->f;
	char *t;
	uint32_t at;

	if (call->nargs == 0) {
		t = xasprintf("%s=%s", name, value);
		at = call->args_range.end;
	} else {
		const struct py_arg *last = &call->args[call->nargs - 1];
		uint32_t ls = wire_line_start(f, last->range.start), after = last->range.end, k = after;
		bool own_line = true;
		for (uint32_t i = ls; i < last->range.start; i++)
			own_line = own_line && (f->data[i] == ' ' || f->data[i] == '\t');
		while (k < call->args_range.end && (f->data[k] == ' ' || f->data[k] == '\t'))
			k++;
		if (own_line) {
			char *ind = wire_indent_at(f, last->range.start);
			if (k < call->args_range.end && f->data[k] == ',') {
				at = k + 1;
				t = xasprintf("\n%s%s=%s,", ind, name, value);
			} else {
				at = after;
				t = xasprintf(",\n%s%s=%s", ind, name, value);
			}
			free(ind);
		} else {
			at = after;
			t = xasprintf(", %s=%s", name, value);
		}
	}
	wire_edit(s->w, f, at, at, t, "sample: %s gets %s=%s", call->name, name, value);
	free(t);
}

/* The device of the op's tensors: `x.device` of its first tensor argument
 * given by name, else a variable named `device` in the function. */
static char *call_device(struct sample *s, const struct py_call *call)
{
	struct py_module *m = s->m;
	int fs = m->stmts[call->stmt].func;

	for (size_t a = 0; a < call->nargs; a++) {
		const struct py_arg *g = &call->args[a];
		if (!g->star && !g->dstar && g->tok_end == g->tok_start + 1 && m->toks[g->tok_start].kind == PY_TOK_NAME &&
		    !py_tok_is(m, g->tok_start, "None") && !py_tok_is(m, g->tok_start, "True") &&
		    !py_tok_is(m, g->tok_start, "False"))
			return xasprintf("%s.device", py_text(m, g->tok_start, g->tok_end));
	}
	if (wire_has_word(s->f, m->stmts[fs == PY_NONE ? call->stmt : fs].block.start, call->range.start, "device"))
		return xstrdup("device");
	return NULL;
}

/* Mode A: pass a profiling tensor as the optional argument, allocated when
 * profiling is asked for (the --profiling_dir option, or the environment). */
static int pass_mode_a(struct sample *s, size_t c, char **prof)
{
	struct wire *w = s->w;
	struct py_module *m = s->m;
	const struct py_call *call = &m->calls[c];
	int st = project_py_top(m, call->stmt);
	char *ind, *dev, *t, *cond;

	*prof = NULL;
	for (size_t a = 0; a < call->nargs; a++)
		if (call->args[a].keyword && strcmp(call->args[a].keyword, w->prof) == 0) {
			*prof = range_text(s->f, call->args[a].value);
			return st;
		}
	dev = call_device(s, call);
	if (!dev) {
		wire_manual(w, s->f, call->range.start, call->range.end,
			    "pass %s=torch.zeros(%d, dtype=torch.int64, device=...) to %s when profiling (mode A)", w->prof,
			    128 * 3 * 2048, call->name);
		return PY_NONE;
	}
	cond = s->env ? xstrdup("_autotrace_path(\"AUTOTRACE_PROFILING_DIR\")") : xasprintf("%s.profiling_dir", s->ns);
	ind = indent_of(s, st);
	t = xasprintf("# autotrace wire (mode A): the optional profiling output, when profiling is asked for\n"
		     "%s%s = None\n"
		     "%sif %s:\n"
		     "%s    %s = torch.zeros(%s, dtype=torch.int64, device=%s)\n%s",
		     ind, w->prof, ind, cond, ind, w->prof, s->env ? "AUTOTRACE_PROFILING_NUMEL" : "128 * 3 * 2048", dev, ind);
	wire_edit(w, s->f, m->stmts[st].range.start, m->stmts[st].range.start, t,
		  "sample: '%s' allocated before %s (mode A)", w->prof, call->name);
	free(t);
	add_kwarg(s, call, w->prof, w->prof);
	free(ind);
	free(dev);
	free(cond);
	*prof = xstrdup(w->prof);
	return st;
}

static bool module_imports(const struct sample *s, const char *what)
{
	for (size_t i = 0; i < s->m->nstmts; i++) {
		const struct py_stmt *t = &s->m->stmts[i];
		size_t n = strlen(what);
		if (t->parent != PY_NONE || t->kind != PY_STMT_SIMPLE)
			continue;
		if (t->range.end - t->range.start >= n && strncmp(s->f->data + t->range.start, what, n) == 0)
			return true;
	}
	return false;
}

/* A top-level `import torch`, `import torch.npu` or `import x, torch`: the
 * name torch bound (not `import torch as th`, `import torch.multiprocessing
 * as mp`, `import torchvision`, which the prefix "import torch" also starts). */
static bool module_binds_torch(const struct sample *s)
{
	for (size_t i = 0; i < s->m->nstmts; i++) {
		const struct py_stmt *t = &s->m->stmts[i];
		const char *p = s->f->data + t->range.start, *end = s->f->data + t->range.end;
		if (t->parent != PY_NONE || t->kind != PY_STMT_SIMPLE || end - p < 7 || strncmp(p, "import ", 7) != 0)
			continue;
		for (p += 7; p < end;) {
			const char *item, *comma;
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			item = p;
			for (comma = item; comma < end && *comma != ',' && *comma != '\n' && *comma != '#'; comma++)
				;
			if (comma - item >= 5 && strncmp(item, "torch", 5) == 0 && (item + 5 == comma || !c_ident_char(item[5]))) {
				bool as = false;
				for (const char *q = item + 5; q + 3 < comma && !as; q++)
					as = q[0] == ' ' && q[1] == 'a' && q[2] == 's' && (q[3] == ' ' || q[3] == '\t');
				if (!as)
					return true;
			}
			if (comma >= end || *comma != ',')
				break;
			p = comma + 1;
		}
	}
	return false;
}

/* Adds the imports the inserted code uses, after the module's last import. */
static void add_imports(struct sample *s)
{
	char buf[160];
	size_t len = 0;
	int last = PY_NONE;

	if (s->need_os && !module_imports(s, "import os"))
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "import os\n");
	if (s->need_shutil && !module_imports(s, "import shutil"))
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "import shutil\n");
	if (s->need_subprocess && !module_imports(s, "import subprocess"))
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "import subprocess\n");
	if (s->need_path && !module_imports(s, "from pathlib import Path"))
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "from pathlib import Path\n");
	if (!len)
		return;
	for (size_t i = 0; i < s->m->nstmts; i++) {
		const struct py_stmt *t = &s->m->stmts[i];
		const char *d = s->f->data + t->range.start;
		if (t->parent == PY_NONE && t->kind == PY_STMT_SIMPLE &&
		    (strncmp(d, "import ", 7) == 0 || strncmp(d, "from ", 5) == 0))
			last = (int)i;
	}
	{
		uint32_t at = last == PY_NONE ? 0 : after_stmt(s, last);
		wire_edit(s->w, s->f, at, at, buf, "sample: imports for the inserted code");
	}
}

/* The statements of function fn_stmt (or the module) mention `a` and `b` together. */
static bool stmt_mentions(const struct sample *s, int fn_stmt, const char *a, const char *b)
{
	for (size_t i = 0; i < s->m->nstmts; i++) {
		const struct py_stmt *t = &s->m->stmts[i];
		uint32_t from = t->range.start, to = t->block.end > t->range.end ? t->block.end : t->range.end;
		if (t->func != fn_stmt || (int)i == fn_stmt)
			continue;
		if (!wire_has_word(s->f, from, to, a))
			continue;
		for (uint32_t k = from; k + strlen(b) <= to; k++)
			if (memcmp(s->f->data + k, b, strlen(b)) == 0)
				return true;
	}
	return false;
}

static void wire_cli(struct sample *s)
{
	static const char *opts[][2] = {
		{ "profiling_dir", "write the profiling dumps (rankNNN.pt) here" },
		{ "point_map", "point_map.json of the same build: run autotrace collect after the ranks" },
		{ "chrome_trace", "the trace to write (default PROFILING_DIR/chrome_trace.json)" },
	};
	struct wire *w = s->w;
	struct py_module *m = s->m;
	struct project_py_option *have;
	size_t nhave;
	int main_fn = m->stmts[s->ns_stmt].func;
	char missing[3] = { 0, 0, 0 };
	size_t nmiss = 0, nres = 0;
	char names[128] = "";

	have = project_py_options(m, &nhave);
	for (size_t k = 0; k < 3; k++) {
		bool found = false;
		for (size_t i = 0; i < nhave; i++)
			found = found || strcmp(have[i].dest, opts[k][0]) == 0;
		if (!found) {
			missing[k] = 1;
			nmiss++;
		}
	}
	project_py_options_free(have, nhave);
	if (nmiss) {
		if (s->last_option == PY_NONE || !s->parser) {
			wire_manual(w, s->f, m->stmts[s->ns_stmt].range.start, m->stmts[s->ns_stmt].range.end,
				    "add the options --profiling_dir, --point_map and --chrome_trace to the argument parser");
		} else {
			char *ind = indent_of(s, s->last_option), *t = xstrdup("");
			for (size_t k = 0; k < 3; k++) {
				char *u;
				if (!missing[k])
					continue;
				u = xasprintf("%s%s%s.add_argument(\"--%s\", help=\"%s\")\n", t, ind, s->parser, opts[k][0],
					     opts[k][1]);
				free(t);
				t = u;
			}
			wire_edit(w, s->f, after_stmt(s, s->last_option), after_stmt(s, s->last_option), t,
				  "sample: %zu option%s of the profiling paths", nmiss, nmiss == 1 ? "" : "s");
			free(t);
			free(ind);
		}
	}
	/* G5: absolute before the spawn */
	for (size_t k = 0; k < 3; k++) {
		if (stmt_mentions(s, main_fn, opts[k][0], "resolve()") || stmt_mentions(s, main_fn, opts[k][0], "abspath("))
			continue;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s\"%s\"", nres ? ", " : "", opts[k][0]);
		nres++;
	}
	if (nres) {
		char *ind = indent_of(s, s->ns_stmt), *t;
		uint32_t at = after_stmt(s, s->ns_stmt);
		t = xasprintf("%s# autotrace wire (G5): the profiling paths absolute before the ranks are spawned\n"
			     "%sfor _name in (%s%s):\n"
			     "%s    if getattr(%s, _name, None):\n"
			     "%s        setattr(%s, _name, str(Path(getattr(%s, _name)).expanduser().resolve()))\n",
			     ind, ind, names, nres == 1 ? "," : "", ind, s->ns, ind, s->ns, s->ns);
		wire_edit(w, s->f, at, at, t, "sample: %s made absolute after %s is parsed (G5)", names, s->ns);
		s->need_path = true;
		free(t);
		free(ind);
	}
}

static void wire_collector(struct sample *s)
{
	struct wire *w = s->w;
	struct py_module *m = s->m;
	int main_fn = m->stmts[s->ns_stmt].func;
	int spawn = PY_NONE;

	for (size_t c = 0; c < m->ncalls; c++)
		if (project_py_is_collector(m, &m->calls[c]))
			return;
	for (size_t c = 0; c < m->ncalls; c++)
		if (project_py_is_spawn(&m->calls[c]) && m->stmts[m->calls[c].stmt].func == main_fn) {
			spawn = (int)c;
			break;
		}
	if (spawn == PY_NONE) {
		wire_manual(w, s->f, m->stmts[s->ns_stmt].range.start, m->stmts[s->ns_stmt].range.end,
			    "after the ranks have run: subprocess.run([\"autotrace\", \"collect\", \"--map\", %s.point_map, "
			    "\"-o\", chrome_trace, %s.profiling_dir], check=True)", s->ns, s->ns);
		return;
	}
	if (project_py_spawn_nojoin(m, &m->calls[spawn])) {
		wire_manual(w, s->f, m->calls[spawn].range.start, m->calls[spawn].range.end,
			    "join the spawned processes, then run autotrace collect on %s.profiling_dir", s->ns);
		return;
	}
	{
		int st = project_py_top(m, m->calls[spawn].stmt);
		char *ind = indent_of(s, st), *t;
		uint32_t at = after_stmt(s, st);
		const char *ns = s->ns;
		t = xasprintf("\n%s# autotrace wire (G4): the trace, once every rank has saved its dump\n"
			     "%sif %s.profiling_dir and %s.point_map:\n"
			     "%s    chrome_trace = %s.chrome_trace or str(Path(%s.profiling_dir) / \"chrome_trace.json\")\n"
			     "%s    subprocess.run([shutil.which(\"autotrace\") or \"autotrace\", \"collect\", \"--map\", %s.point_map,\n"
			     "%s                    \"-o\", chrome_trace, %s.profiling_dir], check=True)\n"
			     "%s    print(\"chrome trace: %%s\" %% chrome_trace)\n",
			     ind, ind, ns, ns, ind, ns, ns, ind, ns, ind, ns, ind);
		wire_edit(w, s->f, at, at, t, "sample: autotrace collect after the spawn has joined (G4)");
		free(t);
		free(ind);
		s->need_path = s->need_shutil = s->need_subprocess = true;
	}
}

/* True when the module starts processes (multiprocessing spawn, Process). */
static bool starts_processes(const struct py_module *m)
{
	for (size_t k = 0; k < m->ncalls; k++)
		if (project_py_is_spawn(&m->calls[k]))
			return true;
	return false;
}

static bool module_defines(const struct sample *s, const char *name)
{
	for (size_t i = 0; i < s->m->nfuncs; i++)
		if (strcmp(s->m->funcs[i].name, name) == 0)
			return true;
	return false;
}

/* `, base_h_path=...`: the operator's base header from the sample's own
 * directory, so that save_profiling_data refuses a build without profiling. */
static char *base_h_arg(struct sample *s)
{
	char *sdir = xstrdup(s->f->path), *slash = strrchr(sdir, '/'), *sabs, *bdir, *bslash, *babs, *full, *rel, *t;
	const char *bbase;

	if (slash)
		*slash = '\0';
	sabs = path_absolute(slash ? sdir : ".");
	bdir = xstrdup(s->w->base_path);
	bslash = strrchr(bdir, '/');
	bbase = bslash ? bslash + 1 : s->w->base_path;
	if (bslash)
		*bslash = '\0';
	babs = path_absolute(bslash ? bdir : ".");
	if (!sabs || !babs) {
		free(sabs);
		free(babs);
		free(sdir);
		free(bdir);
		return xstrdup("");
	}
	full = path_join(babs, bbase);
	rel = path_relative(sabs, full);
	t = xasprintf(", base_h_path=str(Path(__file__).resolve().parent / \"%s\")", rel);
	s->need_path = true;
	free(full);
	free(rel);
	free(sabs);
	free(babs);
	free(sdir);
	free(bdir);
	return t;
}

/* The first top-level statement of a kind that starts the module's code
 * (def, class, decorator), where helpers go; the end of the file when none. */
static uint32_t helpers_at(const struct sample *s)
{
	for (size_t i = 0; i < s->m->nstmts; i++)
		if (s->m->stmts[i].parent == PY_NONE &&
		    (s->m->stmts[i].kind == PY_STMT_DEF || s->m->stmts[i].kind == PY_STMT_DECORATOR ||
		     s->m->stmts[i].kind == PY_STMT_CLASS))
			return wire_line_start(s->f, s->m->stmts[i].range.start);
	return (uint32_t)s->f->len;
}

/* The module's `if __name__ == "__main__":` statement, or PY_NONE. */
static int main_block(const struct sample *s)
{
	for (size_t i = 0; i < s->m->nstmts; i++)
		if (s->m->stmts[i].parent == PY_NONE && s->m->stmts[i].kind == PY_STMT_IF &&
		    wire_has_word(s->f, s->m->stmts[i].range.start, s->m->stmts[i].range.end, "__name__"))
			return (int)i;
	return PY_NONE;
}

/* Env flow: in each function that starts the ranks, the paths made absolute
 * before the spawn and the collector after the join. Returns the function
 * that spawns (the driver), or NULL. */
static const struct py_func *wire_env_driver(struct sample *s)
{
	struct wire *w = s->w;
	struct py_module *m = s->m;
	const struct py_func *driver = NULL;
	int done = PY_NONE;

	for (size_t c = 0; c < m->ncalls; c++) {
		const struct py_call *sp = &m->calls[c];
		int fn = m->stmts[sp->stmt].func, top = project_py_top(m, sp->stmt), joined = PY_NONE;
		char *ind, *t;
		if (!project_py_is_spawn(sp) || fn == done)
			continue;
		done = fn;
		if (stmt_of_func(m, fn) >= 0 && !driver)
			driver = &m->funcs[stmt_of_func(m, fn)];
		ind = indent_of(s, top);
		t = xasprintf("%s_autotrace_absolute_paths()  # autotrace wire (G5): absolute before the ranks start\n", ind);
		wire_edit(w, s->f, wire_line_start(s->f, m->stmts[top].range.start), wire_line_start(s->f, m->stmts[top].range.start),
			  t, "sample: the profiling paths made absolute before the ranks start (G5)");
		free(t);
		/* after the statement that joins them (or the spawn itself, when it joins) */
		if (!project_py_spawn_nojoin(m, sp)) {
			joined = top;
		} else {
			for (size_t k = 0; k < m->ncalls; k++)
				if (strcmp(m->calls[k].name, "join") == 0 && m->calls[k].range.start > sp->range.start &&
				    m->stmts[m->calls[k].stmt].func == fn)
					joined = project_py_top(m, m->calls[k].stmt);
		}
		if (joined == PY_NONE) {
			wire_manual(w, s->f, sp->range.start, sp->range.end,
				    "join the processes started here, then call _autotrace_collect() to collect the trace");
		} else {
			t = xasprintf("%s_autotrace_collect()  # autotrace wire (G4): the trace, once every rank has saved its dump\n",
				     ind);
			wire_edit(w, s->f, after_stmt(s, joined), after_stmt(s, joined), t,
				  "sample: autotrace collect after the ranks have joined (G4)");
			free(t);
		}
		free(ind);
	}
	return driver;
}

/* Env flow: the options that set the environment, on the module's parser,
 * or in a `__main__` block that runs the driver. */
static void wire_env_cli(struct sample *s, const struct py_func *driver)
{
	struct wire *w = s->w;
	static const char *export_fmt =
		"%s# autotrace wire: the profiling options, for the tests that read them from the environment\n"
		"%sfor _name in (\"profiling_dir\", \"point_map\", \"chrome_trace\"):\n"
		"%s    if getattr(%s, _name, None):\n"
		"%s        os.environ[\"AUTOTRACE_\" + _name.upper()] = str(Path(getattr(%s, _name)).expanduser().resolve())\n";
	char *t;

	s->need_os = s->need_path = true;
	if (s->ns) {
		char *ind = indent_of(s, s->ns_stmt);
		wire_cli(s);
		t = xasprintf(export_fmt, ind, ind, ind, s->ns, ind, s->ns);
		wire_edit(w, s->f, after_stmt(s, s->ns_stmt), after_stmt(s, s->ns_stmt), t,
			  "sample: --profiling_dir, --point_map, --chrome_trace passed on in the environment");
		free(t);
		free(ind);
		return;
	}
	if (main_block(s) != PY_NONE)
		return; /* the environment alone switches it on; the block is the user's */
	if (!driver) {
		/* a test run by its runner (pytest): nothing to start it from; the
		   environment switches the saving on, which is how it is run */
		diag_pos(w->diag, DIAG_NOTE, s->f->path, 0, 0,
			 "this test is run by its runner and starts no ranks of its own: run it with "
			 "AUTOTRACE_PROFILING_DIR=DIR (and AUTOTRACE_POINT_MAP=MAP) in the environment to save the dumps");
		return;
	}
	{
		bool args = false;
		for (size_t i = 0; i < driver->nparams; i++)
			args = args || strcmp(driver->params[i], "self") == 0;
		t = xasprintf("%s\n\n"
			     "if __name__ == \"__main__\":\n"
			     "    # autotrace wire: python3 %s --profiling_dir DIR [--point_map MAP] [--chrome_trace FILE]\n"
			     "    import argparse\n"
			     "    _parser = argparse.ArgumentParser()\n"
			     "    _parser.add_argument(\"--profiling_dir\", help=\"write the profiling dumps (rankNNN.pt) here\")\n"
			     "    _parser.add_argument(\"--point_map\", help=\"point_map.json of the same build: collect the trace after the ranks\")\n"
			     "    _parser.add_argument(\"--chrome_trace\", help=\"the trace to write (default PROFILING_DIR/chrome_trace.json)\")\n"
			     "    _args = _parser.parse_args()\n"
			     "    for _name in (\"profiling_dir\", \"point_map\", \"chrome_trace\"):\n"
			     "        if getattr(_args, _name, None):\n"
			     "            setattr(_args, _name, str(Path(getattr(_args, _name)).expanduser().resolve()))\n"
			     "            os.environ[\"AUTOTRACE_\" + _name.upper()] = getattr(_args, _name)\n"
			     "    %s%s()\n",
			     s->f->len && s->f->data[s->f->len - 1] != '\n' ? "\n" : "",
			     strrchr(s->f->path, '/') ? strrchr(s->f->path, '/') + 1 : s->f->path, args ? "# " : "",
			     driver->name);
		wire_edit(w, s->f, (uint32_t)s->f->len, (uint32_t)s->f->len, t,
			  "sample: a __main__ block runs %s() with --profiling_dir / --point_map / --chrome_trace", driver->name);
		free(t);
	}
}

/* Mode B: the other calls of the op whose result the sample keeps take the
 * new arity too (one call saves the tensor; a result left unused needs
 * nothing). */
static void other_calls(struct sample *s, long saved)
{
	for (size_t c = 0; c < s->m->ncalls; c++) {
		const struct py_call *call = &s->m->calls[c];
		const struct py_stmt *st = &s->m->stmts[call->stmt];
		char *prof = NULL;
		if ((long)c == saved || !project_is_op_call(s->w->p, s->m, call) ||
		    (st->range.start == call->range.start && st->range.end == call->range.end))
			continue;
		unpack_mode_b(s, c, &prof);
		free(prof);
	}
}

/* Wires one sample; returns true when it saves (already or now). */
static bool wire_sample(struct wire *w, const struct project_sample *gs)
{
	struct sample s;
	struct py_module *m = gs->py;
	bool saves = false, calls = false, added_save = false, own_rank = false;
	long saved_call = -1;

	memset(&s, 0, sizeof(s));
	s.w = w;
	s.f = gs->f;
	s.m = m;
	find_cli(&s);
	for (size_t c = 0; c < m->ncalls; c++) {
		saves = saves || project_py_is_save(&m->calls[c]);
		calls = calls || project_is_op_call(w->p, m, &m->calls[c]);
	}
	if (!calls)
		goto out;
	for (size_t c = 0; c < m->ncalls && !saves; c++) {
		const struct py_call *call = &m->calls[c];
		char *prof = NULL, *dir, *base_arg;
		int after, func = m->stmts[call->stmt].func, sync = PY_NONE;
		struct project_py_value rank = { NULL, PY_SRC_PARAM }, world = { NULL, PY_SRC_PARAM };
		const char *rank_ns, *npu;
		if (!project_is_op_call(w->p, m, call))
			continue;
		/* an argparse namespace in reach takes the options; else the environment */
		s.env = !s.ns || !ns_visible(&s, func);
		s.save_before = false;
		after = w->required ? unpack_mode_b(&s, c, &prof) : pass_mode_a(&s, c, &prof);
		if (after == PY_NONE)
			continue;
		dir = s.env ? xstrdup("_autotrace_path(\"AUTOTRACE_PROFILING_DIR\")") : xasprintf("%s.profiling_dir", s.ns);
		/* the namespace in reach for the rank (args.local_rank): visible, or parsed in this function before */
		rank_ns = s.ns && (ns_visible(&s, func) || (m->stmts[s.ns_stmt].func == func &&
							    m->stmts[s.ns_stmt].range.end <= call->range.start))
				  ? s.ns
				  : NULL;
		if (!project_py_rank(m, func, call->range.start, rank_ns, &rank) && !starts_processes(m)) {
			/* one process (a unittest, a plain script): torchrun's RANK, else 0 */
			rank.expr = xstrdup("_autotrace_rank()");
			rank.from = PY_SRC_ONE;
			own_rank = true;
		}
		if (!rank.expr) {
			wire_manual(w, s.f, call->range.start, call->range.end,
				    "after a device synchronize: save_profiling_data(%s, <rank>, %s) -- wire finds no rank here: no "
				    "parameter, local, self attribute, variable of an enclosing function, command-line option or "
				    "module global named rank, rank_id, rank_idx, global_rank(_id), local_rank(_id) or the like, "
				    "none set from dist.get_rank() or os.environ[\"RANK\"], no process index a spawn passes, and the "
				    "script does not call torch.distributed.init_process_group", prof, dir);
			free(dir);
			free(prof);
			break;
		}
		if (!project_py_world_size(m, func, call->range.start, rank_ns, &world))
			world.expr = NULL;
		for (size_t k = 0; k < m->ncalls && !s.save_before; k++)
			if (project_py_is_sync(&m->calls[k]) && m->stmts[m->calls[k].stmt].func == func &&
			    m->calls[k].stmt > after) {
				sync = project_py_top(m, m->calls[k].stmt);
				break;
			}
		/* the device's synchronize: torch_npu's, or torch.npu (which torch_npu
		   adds once loaded: the op call itself needs it) where only torch is named */
		npu = wire_has_word(s.f, 0, (uint32_t)s.f->len, "torch_npu") ? "torch_npu.npu"
		      : module_binds_torch(&s)				     ? "torch.npu"
									     : NULL;
		if (sync == PY_NONE && !npu) {
			wire_manual(w, s.f, call->range.start, call->range.end,
				    "synchronize the device after this call, then save '%s' with save_profiling_data", prof);
			free(dir);
			free(prof);
			project_py_value_release(&rank);
			project_py_value_release(&world);
			break;
		}
		base_arg = w->base_path ? base_h_arg(&s) : xstrdup("");
		{
			int anchor = sync != PY_NONE ? sync : s.save_before ? after : project_py_top(m, after);
			char *ind = indent_of(&s, anchor), *t, *syncs;
			uint32_t at = s.save_before ? s.save_at : after_stmt(&s, anchor);
			syncs = sync == PY_NONE ? xasprintf("%s%s.synchronize()  # autotrace wire: the profiling "
							   "tensor is written when the kernel ends\n", ind, npu)
						: xstrdup("");
			t = xasprintf("%s%s# autotrace wire (G4): save the profiling output once the device has synchronized\n"
				     "%sif %s:\n"
				     "%s    if %s is None:\n"
				     "%s        raise SystemExit(\"rank %%d: the operator returned no %s\" %% %s)\n"
				     "%s    save_profiling_data = _autotrace_save_helper()\n"
				     "%s    save_profiling_data(%s, %s, %s%s)\n",
				     syncs, ind, ind, dir, ind, prof, ind, w->prof, rank.expr, ind, ind, prof, rank.expr, dir, base_arg);
			wire_edit(w, s.f, at, at, t, "sample: %s%ssave_profiling_data(%s, %s, %s) (the rank: %s, %s; the world size: %s%s%s)",
				  sync == PY_NONE ? npu : "", sync == PY_NONE ? ".synchronize(), then " : "", prof, rank.expr, dir, rank.expr,
				  project_py_source_text(rank.from), world.expr ? world.expr : "not in reach",
				  world.expr ? ", " : "", world.expr ? project_py_source_text(world.from) : "");
			free(t);
			free(syncs);
			free(ind);
			added_save = saves = true;
			saved_call = (long)c;
		}
		free(base_arg);
		free(dir);
		free(prof);
		project_py_value_release(&rank);
		project_py_value_release(&world);
	}
	if (added_save && w->required)
		other_calls(&s, saved_call);
	if (added_save) {
		uint32_t at = helpers_at(&s);
		if (s.env && !module_defines(&s, "_autotrace_path"))
			wire_edit(w, s.f, at, at, env_helpers_text,
				  "sample: _autotrace_path(), _autotrace_absolute_paths(), _autotrace_collect() (profiling by "
				  "the environment)");
		if (!module_defines(&s, "_autotrace_save_helper"))
			wire_edit(w, s.f, at, at, helper_text, "sample: _autotrace_save_helper() finds save_profiling_data");
		if (own_rank && !module_defines(&s, "_autotrace_rank"))
			wire_edit(w, s.f, at, at, rank_helper_text, "sample: _autotrace_rank() ($RANK, else 0: one process)");
	}
	if (added_save && s.env) {
		wire_env_cli(&s, wire_env_driver(&s));
	} else if (s.ns && (added_save || saves)) {
		wire_cli(&s);
		wire_collector(&s);
	}
	add_imports(&s);
out:
	free(s.ns);
	free(s.parser);
	free(s.base_rel);
	return saves;
}

void wire_samples(struct wire *w)
{
	bool saves = false;
	unsigned manual0 = w->manual;

	if ((!w->p->op || w->p->op->nparams == 0) && !project_launch_form(w->p))
		return;
	if (w->p->without_samples) {
		diag_plain(w->diag, DIAG_NOTE,
			   "%s: the one that runs the operator saves '%s' with save_profiling_data after a device synchronize",
			   w->p->absent_samples && w->p->absent_binding
				   ? "no torch binding returns it to Python, so no sample can take it (absent)"
			   : w->p->absent_samples ? "no sample or test of the project calls the operator (absent)"
						  : "the samples are left out of this project (without samples)",
			   w->prof);
		return;
	}
	for (size_t i = 0; i < w->p->nsamples; i++)
		if (wire_sample(w, &w->p->samples[i]))
			saves = true;
	if (!saves && w->manual == manual0) {
		const struct src_file *f = NULL;
		uint32_t s = 0, e = 0;
		project_op_anchor(w->p, PROJECT_ANCHOR_TORCH_NAME, &f, &s, &e);
		wire_manual(w, f, s, e,
			    "no sample or test calls %s (patterns %s, looked for %s): extend one that runs the operator to "
			    "save '%s' with save_profiling_data after a device synchronize (or name it with the rules' 'samples'; "
			    "samples in another repository: leave them out with --without samples or the rules' 'without "
			    "samples;')",
			    w->p->npy_names ? w->p->py_names[0] : "the operator", project_globs_text(&w->p->policy->samples).s,
			    project_searched_text(w->p).s, w->prof);
	}
}

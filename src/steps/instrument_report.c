/* The closing report of `autotrace instrument`, as the field's checklist
 * asks for it: every gate satisfied or not (reason, next step),
 * the files changed, the point tree, the check result, the layer-by-layer G2
 * alignment, the hook and where point_map.json will be written, the samples
 * that synchronize and save, and the collect command with this project's
 * paths. One cJSON object; the text form is printed from it. */
#include <stdlib.h>
#include <string.h>

#include "project_cmdline.h"
#include "project_py.h"
#include "gate_run.h"
#include "project_tokens.h"
#include "hook_block.h"
#include "hook_setup.h"
#include "instrument.h"
#include "path_glob.h"
#include "plan.h"
#include "path_rel.h"
#include "sh_eval.h"
#include "sh_word.h"
#include "strbuf.h"
#include "xalloc.h"

/* A staged path as the user writes the real one. */
static char *disp(const struct instrument_run *run, const char *staged)
{
	char *real = run->to_real(run->ctx, staged), *d;

	if (!real)
		return xstrdup(staged);
	d = path_display_from(run->real_cwd, real);
	free(real);
	return d;
}

/* The same, absolute. */
static char *real_abs(const struct instrument_run *run, const char *staged)
{
	char *real = run->to_real(run->ctx, staged);

	if (!real)
		real = path_absolute(staged);
	return real ? real : xstrdup(staged);
}

static void add_str_owned(cJSON *o, const char *key, char *s)
{
	if (s)
		cJSON_AddStringToObject(o, key, s);
	else
		cJSON_AddNullToObject(o, key);
	free(s);
}

static char *where(const struct instrument_run *run, const struct src_file *f, uint32_t off)
{
	char *d = disp(run, f->path), *w = xasprintf("%s:%zu", d, src_file_line(f, off));

	free(d);
	return w;
}

/* A step's one line: the one made from its result, or for a step that
 * stopped without one, its first error; NULL for a step not run. */
static char *step_summary(const struct instrument_step *st)
{
	if (!st->ran)
		return NULL;
	if (st->summary)
		return xstrdup(st->summary);
	return xstrdup(st->stop != INSTRUMENT_STOP_NONE && st->error ? st->error : "");
}

static const char *stop_name(enum instrument_stop s)
{
	switch (s) {
	case INSTRUMENT_STOP_NONE: return NULL;
	case INSTRUMENT_STOP_FINDINGS: return "findings";
	case INSTRUMENT_STOP_INPUT: return "bad input";
	default: return "internal error";
	}
}

/* ---- gates ---- */

/* The first error of gate g about the sources, else (machine true) the first
 * about this machine (G1.tool: the build's tools), else NULL. */
static const struct gate_finding *first_error(const struct gate_report *r, enum gate_id g, bool *machine)
{
	const struct gate_finding *m = NULL;

	for (size_t i = 0; i < r->n; i++)
		if (gate_rule_gate(r->v[i].rule) == g && r->v[i].level == DIAG_ERROR) {
			if (gate_finding_about_sources(&r->v[i])) {
				*machine = false;
				return &r->v[i];
			}
			if (!m)
				m = &r->v[i];
		}
	*machine = m != NULL;
	return m;
}

/* The command that gets a stopped step past its stop, when there is one:
 * hook install stopped because the project's build script cannot be told
 * (two equally near): wire and apply now, the hook once a person names the
 * script. NULL otherwise: the messages say what to do. (A layer the project
 * does not have -- binding, samples, build script -- is absent, never a
 * stop: project_model.h.) */
static char *step_next(const struct instrument_run *run, int step)
{
	const struct project_model *p = run->project;
	char *qo, *t = NULL, *opts;

	if (!p || (!p->op && !project_launch_form(p)))
		return NULL;
	qo = sh_quote(run->opdir);
	if (step == INSTRUMENT_HOOK && !run->script) {
		char *ao = project_cmd_options(p->opts, false);
		opts = project_cmd_options(p->opts, true);
		t = xasprintf("autotrace wire%s %s && autotrace apply%s %s", opts, qo, ao, qo);
		free(opts);
		free(ao);
	}
	free(qo);
	return t;
}

/* The build script's command line as gate G3 runs it (in OPDIR): into the
 * directory the script starts in, the script from there, then <NAME> for
 * each argument it takes (*nargs of them: the user's to give). NULL: none. */
static char *build_command(const struct instrument_run *run, const struct sh_start *start, size_t *nargs_out)
{
	char *script, *opdir, *from, *rel, **args = NULL, *q;
	struct src_file *f;
	struct sh_script sh;
	size_t nargs = 0;
	struct strbuf b = { 0 };

	if (!run->script)
		return NULL;
	script = real_abs(run, run->script);
	if (run->opdir[0] == '/') {
		opdir = path_normalize(run->opdir);
	} else {
		char *j = path_join(run->real_cwd, run->opdir);
		opdir = path_normalize(j);
		free(j);
	}
	from = start ? real_abs(run, start->dir) : xstrdup(opdir);
	if (strcmp(from, opdir) != 0) {
		rel = path_relative(opdir, from);
		q = sh_quote(rel);
		strbuf_puts(&b, "cd ");
		strbuf_puts(&b, q);
		strbuf_puts(&b, " && ");
		free(q);
		free(rel);
	}
	rel = path_relative(from, script);
	q = sh_quote(rel);
	strbuf_puts(&b, "bash ");
	strbuf_puts(&b, q);
	free(q);
	free(rel);
	if ((f = src_file_load(run->script)) != NULL) {
		sh_scan(f->data, f->len, &sh);
		nargs = sh_eval_arguments(f, &sh, &args);
		sh_script_release(&sh);
		src_file_free(f);
	}
	*nargs_out = nargs;
	for (size_t i = 0; i < nargs; i++) {
		strbuf_puts(&b, " <");
		strbuf_puts(&b, args[i]);
		strbuf_puts(&b, ">");
		free(args[i]);
	}
	free(args);
	free(from);
	free(opdir);
	free(script);
	return strbuf_take(&b);
}

static void add_gates(cJSON *rep, const struct instrument_run *run, const struct sh_start *start)
{
	cJSON *gates = cJSON_AddArrayToObject(rep, "gates");

	for (int g = 0; g < GATE_COUNT; g++) {
		cJSON *o = cJSON_CreateObject();
		bool machine = false;
		const struct gate_finding *fd = run->gates ? first_error(run->gates, (enum gate_id)g, &machine) : NULL;
		cJSON_AddStringToObject(o, "id", gate_name((enum gate_id)g));
		cJSON_AddStringToObject(o, "title", gate_title((enum gate_id)g));
		if (gate_def((enum gate_id)g)->phase == GATE_BUILDS) {
			/* a command only when nothing in it is the user's to fill in */
			size_t nargs = 0;
			char *cmd = build_command(run, start, &nargs), *qc = cmd ? sh_quote(cmd) : NULL;
			char *qo = sh_quote(run->opdir);
			cJSON_AddStringToObject(o, "status", "not checked");
			cJSON_AddStringToObject(o, "reason", "instrument does not run the team's build (static checks are not a build)");
			if (cmd && nargs == 0) {
				add_str_owned(o, "next_step", xasprintf("autotrace gate --build-cmd %s %s", qc, qo));
			} else {
				cJSON_AddNullToObject(o, "next_step");
				add_str_owned(o, "hint",
					      cmd ? xasprintf("autotrace gate --build-cmd %s %s, with the %zu argument%s the "
							      "script takes in place of <...>",
							      qc, qo, nargs, nargs == 1 ? "" : "s")
						  : xasprintf("autotrace gate --build-cmd CMD %s, CMD being the team's build "
							      "command (no build script was found to name)",
							      qo));
			}
			free(cmd);
			free(qc);
			free(qo);
		} else if (!run->gates) {
			cJSON_AddStringToObject(o, "status", "not checked");
			cJSON_AddStringToObject(o, "reason", "the staged project could not be read");
			cJSON_AddNullToObject(o, "next_step");
		} else if (run->gates->gates[g].status == GATE_SKIPPED) {
			/* the rules leave its layer out (without samples): said, never passed */
			cJSON_AddStringToObject(o, "status", "not checked");
			cJSON_AddStringToObject(o, "reason", run->gates->gates[g].note ? run->gates->gates[g].note : "skipped");
			cJSON_AddNullToObject(o, "next_step");
		} else if (!fd) {
			/* what was compared is satisfied; a half not yet verifiable says so */
			cJSON_AddStringToObject(o, "status", "satisfied");
			if (run->gates->gates[g].note)
				cJSON_AddStringToObject(o, "reason", run->gates->gates[g].note);
			else
				cJSON_AddNullToObject(o, "reason");
			cJSON_AddNullToObject(o, "next_step");
		} else {
			char *at = NULL, *next;
			if (fd->loc.path) {
				char *d = disp(run, fd->loc.path);
				at = fd->loc.line ? xasprintf("%s:%zu: ", d, fd->loc.line) : xasprintf("%s: ", d);
				free(d);
			}
			/* the sources hold, this machine cannot build them yet */
			cJSON_AddStringToObject(o, "status", machine ? "satisfied in the sources, not on this machine"
								     : "not satisfied");
			add_str_owned(o, "reason", xasprintf("%s%s", at ? at : "", fd->message));
			/* a job stopped before writing: the gates of the sources wait on the
			   stopped step, whose next step (a command) is theirs too */
			next = g != GATE_G1 && run->stopped_at >= 0 ? step_next(run, run->stopped_at) : NULL;
			if (next)
				add_str_owned(o, "next_step", next);
			else if (fd->fix)
				cJSON_AddStringToObject(o, "next_step", fd->fix);
			else
				cJSON_AddNullToObject(o, "next_step");
			if (fd->hint && !next)
				cJSON_AddStringToObject(o, "hint", fd->hint);
			free(at);
		}
		if (!cJSON_HasObjectItem(o, "hint"))
			cJSON_AddNullToObject(o, "hint");
		cJSON_AddItemToArray(gates, o);
	}
}

/* ---- the G2 alignment, layer by layer ---- */

/* Is a G2 error located in this file? */
static bool g2_error_in(const struct instrument_run *run, const char *path)
{
	if (!run->gates)
		return false;
	for (size_t i = 0; i < run->gates->n; i++) {
		const struct gate_finding *fd = &run->gates->v[i];
		if (gate_rule_gate(fd->rule) == GATE_G2 && fd->level == DIAG_ERROR && fd->loc.path &&
		    strcmp(fd->loc.path, path) == 0)
			return true;
	}
	return false;
}

/* A row of the G2 table. Its status: "ok" (compared and aligned), "NO"
 * (compared, not aligned), "absent" (a layer the project does not have),
 * "left out" (the rules or --without leave it out); "aligned" is true for
 * "ok" only. */
static void add_row_status(cJSON *rows, const char *layer, char *at, char *what, const char *status)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "layer", layer);
	add_str_owned(o, "where", at);
	add_str_owned(o, "what", what);
	cJSON_AddBoolToObject(o, "aligned", strcmp(status, "ok") == 0);
	cJSON_AddStringToObject(o, "status", status);
	cJSON_AddItemToArray(rows, o);
}

static void add_row(cJSON *rows, const char *layer, char *at, char *what, bool ok)
{
	add_row_status(rows, layer, at, what, ok ? "ok" : "NO");
}

static const char *param_type_text(enum opdef_param_type t)
{
	return opdef_param_type_name(t);
}

/* Where the op's outputs are declared besides its this-> chains: "" or
 * " (on OpAICoreConfig 'c')", "; per SoC also OpAICoreConfig 'a', 'b'"
 * (newly allocated; G2 checks each, the row's status says whether they hold). */
static char *configs_text(const struct opdef_op *op)
{
	char *s = op->from_config >= 0 ? xasprintf(" (on OpAICoreConfig '%s')", op->configs[op->from_config].var)
				       : xstrdup("");
	size_t n = 0;

	for (size_t c = 0; c < op->nconfigs; c++) {
		char *t;
		if ((long)c == op->from_config || op->configs[c].noutputs == 0)
			continue;
		t = xasprintf("%s%s'%s'", s, n++ ? ", " : "; per SoC also OpAICoreConfig ", op->configs[c].var);
		free(s);
		s = t;
	}
	return s;
}

static void rows_host(cJSON *rows, const struct instrument_run *run, const struct project_model *p)
{
	const struct opdef_op *op = p->op;
	long k;

	if (!op) {
		add_row(rows, "op_host", NULL, xstrdup("no OpDef found"), false);
		return;
	}
	k = p->prof_out >= 0 ? opdef_output(op, (size_t)p->prof_out) : -1;
	if (k < 0) {
		add_row(rows, "op_host", where(run, p->op_file, op->body.start), xasprintf("'%s' has no output '%s'", op->name, p->profiling),
			false);
		return;
	}
	{
		const struct opdef_param *q = &op->params[k];
		long prev = p->prof_out > 0 ? opdef_output(op, (size_t)p->prof_out - 1) : -1;
		char *configs = configs_text(op);
		add_row(rows, "op_host", where(run, p->op_file, q->chain.start),
			xasprintf("output %ld of %zu%s%s%s, %s, INT64 x%zu%s", p->prof_out + 1, op->noutputs,
				  prev >= 0 ? " (after '" : "", prev >= 0 ? op->params[prev].name : "", prev >= 0 ? "')" : "",
				  param_type_text(q->type), q->ndtypes, configs),
			!g2_error_in(run, p->op_file->path));
		free(configs);
	}
}

static void rows_infer(cJSON *rows, const struct instrument_run *run, const struct project_model *p)
{
	if (p->op && !project_infer_impl(p, NULL)) {
		add_row_status(rows, "infer", NULL,
			       xasprintf("no InferShape registered for '%s' (%s): whoever registers one sets '%s'",
					 p->op->name, project_globs_text(&p->policy->infer).s, p->profiling),
			       "absent");
		return;
	}
	for (size_t i = 0; i < p->ninfers; i++) {
		const struct infer_file *inf = &p->infers[i].inf;
		const struct infer_use *shape = NULL, *dtype = NULL;
		for (size_t u = 0; u < inf->nuses; u++)
			if (inf->uses[u].index == p->prof_out && p->prof_out >= 0) {
				if (inf->uses[u].kind == INFER_SHAPE && !shape)
					shape = &inf->uses[u];
				else if (inf->uses[u].kind != INFER_SHAPE && !dtype)
					dtype = &inf->uses[u];
			}
		if (!shape && !dtype)
			continue;
		add_row(rows, "infer", where(run, p->infers[i].f, shape ? shape->call.start : dtype->call.start),
			xasprintf("output %ld (%s): shape %s, data type %s", p->prof_out, (shape ? shape : dtype)->index_text,
				  shape ? "set" : "not set", dtype ? (dtype->dtype ? dtype->dtype : "set") : "not set"),
			!g2_error_in(run, p->infers[i].f->path));
		return;
	}
	if (p->prof_out < 0)
		add_row(rows, "infer", NULL, xasprintf("no InferShape / InferDataType of '%s' (not an output of the OpDef)",
						       p->profiling), false);
	else
		add_row(rows, "infer", NULL, xasprintf("no InferShape / InferDataType of output %ld", p->prof_out), false);
}

/* Tiling describes the outputs when it reads them by index. */
static void rows_tiling(cJSON *rows, const struct instrument_run *run, const struct project_model *p)
{
	static const char *const calls[] = { "GetOutputShape", "GetOutputDesc", "GetOutputTensor" };
	char **found = NULL;
	size_t n = 0, reads = 0;
	struct rule_strlist globs = { NULL, 0, { NULL, 0, 0 } };
	struct diag quiet;
	char *first = NULL;

	diag_init_quiet(&quiet);
	rule_strlist_add(&globs, "op_host/**/*tiling*.cpp");
	rule_strlist_add(&globs, "op_host/*tiling*.cpp");
	if (path_glob(p->opts->opdir, globs.v, globs.n, &found, &n, &quiet) == 0)
		for (size_t i = 0; i < n; i++) {
			char *path = path_join(p->opts->opdir, found[i]);
			struct src_file *f = src_file_load(path);
			for (size_t k = 0; f && k < 3; k++) {
				const char *s = f->data;
				while ((s = strstr(s, calls[k])) != NULL) {
					reads++;
					if (!first)
						first = where(run, f, (uint32_t)(s - f->data));
					s += strlen(calls[k]);
				}
			}
			if (!first && f)
				first = disp(run, path);
			src_file_free(f);
			free(path);
		}
	if (n == 0)
		add_row(rows, "tiling", NULL, xstrdup("no tiling source (op_host/*tiling*.cpp)"), true);
	else if (reads == 0)
		add_row(rows, "tiling", first, xstrdup("does not describe the outputs (no GetOutput* reads): nothing to align"),
			true);
	else
		add_row(rows, "tiling", first,
			xasprintf("reads outputs by index (%zu calls): the profiling output comes last, so the indices of "
				  "the outputs before it are unchanged", reads),
			true);
	path_glob_free(found, n);
	rule_strlist_clear(&globs);
}

static void rows_kernel(cJSON *rows, const struct instrument_run *run, const struct project_model *p)
{
	if (!p->kernels_read || p->kernels.n == 0) {
		add_row(rows, "kernel entry", NULL, xstrdup("no __global__ kernel"), false);
		return;
	}
	for (size_t k = 0; k < p->kernels.n; k++) {
		const struct project_kentry *e = &p->kernels.v[k];
		long at = -1;
		if (p->choice.entry && strcmp(e->name, p->choice.entry) != 0)
			continue; /* another operator's entry */
		for (size_t i = 0; i < e->nparams; i++)
			if (tv_names_profiling(e->params[i].name, p->profiling))
				at = (long)i;
		if (at < 0)
			continue;
		add_row(rows, "kernel entry", where(run, e->file, e->params[at].start),
			xasprintf("'%s' is parameter %ld of %zu of %s (after '%s')", e->params[at].name, at + 1, e->nparams,
				  e->name, at > 0 && e->params[at - 1].name ? e->params[at - 1].name : "?"),
			!g2_error_in(run, e->file->path));
		for (size_t c = 0; c < e->ncalls; c++) {
			const struct project_kcall *call = &e->calls[c];
			long ca = project_kcall_arg(call, e->params[at].name);
			char *fns = xstrdup("");
			for (int j = 0; j < 2; j++) {
				long fi = j ? call->decl : call->def;
				char *w, *t;
				if (fi < 0)
					continue;
				w = where(run, e->funcs[fi].file, e->funcs[fi].params_start);
				t = xasprintf("%s%s %s %s", fns, *fns ? "," : "", e->funcs[fi].decl ? "declaration" : "definition", w);
				free(fns);
				free(w);
				fns = t;
			}
			add_row(rows, "Init", where(run, call->file, call->start),
				ca >= 0 ? xasprintf("the call%s%s passes it as argument %ld;%s", call->macro ? " in " : "",
						    call->macro ? call->macro : "", ca + 1, fns)
					: xasprintf("the call does not pass it;%s", fns),
				ca >= 0 && !g2_error_in(run, call->file->path));
			free(fns);
		}
	}
}

static void rows_aclnn(cJSON *rows, const struct instrument_run *run, const struct project_model *p)
{
	size_t rows0 = (size_t)cJSON_GetArraySize(rows);

	for (size_t a = 0; a < p->naclnns; a++) {
		const struct aclnn_file *ac = &p->aclnns[a].ac;
		for (size_t i = 0; i < ac->nfuncs; i++) {
			const struct aclnn_func *fn = &ac->funcs[i];
			long at = -1;
			if (!strstr(fn->name, p->op ? p->op->name : "\x01"))
				continue;
			for (size_t k = 0; k < fn->nparams; k++)
				if (tv_names_profiling(fn->params[k].name, p->profiling))
					at = (long)k;
			add_row(rows, "aclnn", where(run, p->aclnns[a].f, at >= 0 ? fn->params[at].range.start : fn->name_range.start),
				at >= 0 ? xasprintf("%s of %s: parameter %ld (after '%s')%s", fn->definition ? "definition" : "declaration",
						    fn->name, at + 1, at > 0 && fn->params[at - 1].name ? fn->params[at - 1].name : "?",
						    fn->ncalls ? ", forwarded to its callee" : "")
					: xasprintf("%s has no profiling parameter", fn->name),
				at >= 0 && !g2_error_in(run, p->aclnns[a].f->path));
		}
	}
	if ((size_t)cJSON_GetArraySize(rows) == rows0)
		add_row(rows, "aclnn", NULL, xstrdup("no hand-written aclnn API: the generated one follows the OpDef"), true);
}

/* A direct launch: the layers it has not. */
static void rows_launch_host(cJSON *rows)
{
	add_row(rows, "op_host", NULL, xstrdup("a direct launch: no OpDef layer (an OpDef beside it describes the tiling context)"),
		true);
	add_row(rows, "infer", NULL, xstrdup("a direct launch: no InferShape (the host function allocates the tensor)"), true);
	add_row(rows, "aclnn", NULL, xstrdup("a direct launch: no aclnn API"), true);
}

/* A direct launch: the launch, the host functions' returns, the schemas, the declarations. */
static void rows_launch(cJSON *rows, const struct instrument_run *run, const struct project_model *p)
{
	const struct project_launch *l = &p->launch;

	for (size_t fi = 0; fi < l->nfiles; fi++)
		for (size_t s = 0; s < l->files[fi].nsites; s++) {
			const struct launch_site *st = &l->files[fi].sites[s];
			long at = -1;
			for (size_t a = 0; a < st->args.n && at < 0; a++) {
				char *id = project_launch_prof_ident(st->args.v[a], p->profiling);
				at = id ? (long)a : -1;
				free(id);
			}
			add_row(rows, "launch", where(run, l->files[fi].f, st->range.start),
				at >= 0 ? xasprintf("%s passes '%s' to '%s' as argument %ld of %zu", st->via, p->profiling, st->kernel,
						    at + 1, st->args.n)
					: xasprintf("%s does not pass '%s' to '%s'", st->via, p->profiling, st->kernel),
				at >= 0 && !g2_error_in(run, l->files[fi].f->path));
		}
	for (size_t k = 0; k < l->nfuncs; k++) {
		const struct pybind_func *pf = project_launch_pf(l, &l->funcs[k]);
		const struct src_file *f = l->files[l->funcs[k].file].f;
		add_row(rows, l->funcs[k].launches ? "binding" : "binding meta", where(run, f, pf->range.start),
			l->funcs[k].returns_prof ? xasprintf("%s() returns '%s' last (%ld value%s)", pf->name, p->profiling,
							     l->funcs[k].arity, l->funcs[k].arity == 1 ? "" : "s")
						 : xasprintf("%s() does not return '%s'", pf->name, p->profiling),
			l->funcs[k].returns_prof && !g2_error_in(run, f->path));
	}
	for (size_t d = 0; d < l->ndecls; d++) {
		const struct src_file *f = l->files[l->decls[d].file].f;
		add_row(rows, "binding declaration", where(run, f, l->decls[d].name.start),
			xasprintf("%s() declared to return %ld values", l->decls[d].func, l->decls[d].arity),
			!g2_error_in(run, f->path));
	}
	for (size_t s = 0; s < l->nschemas; s++) {
		const struct launch_file *lf = &l->files[l->schemas[s].file];
		const struct pybind_opname *o = &lf->pb.names[l->schemas[s].name];
		add_row(rows, "binding schema", where(run, lf->f, o->range.start),
			xasprintf("'%s' returns %ld value%s, '%s' last", o->name, l->schemas[s].nreturns,
				  l->schemas[s].nreturns == 1 ? "" : "s", p->profiling),
			!g2_error_in(run, lf->f->path));
	}
	if (l->nnames == 0)
		add_row(rows, "binding", NULL, xstrdup("no m.impl or m.def registers the host function"), false);
}

static void rows_binding(cJSON *rows, const struct instrument_run *run, const struct project_model *p)
{
	char *api = p->op ? xasprintf("aclnn%s", p->op->name) : xstrdup("");
	size_t rows0 = (size_t)cJSON_GetArraySize(rows);

	for (size_t b = 0; b < p->npybinds; b++) {
		const struct src_file *f = p->pybinds[b].f;
		const struct pybind_file *pb = &p->pybinds[b].pb;
		bool ok = !g2_error_in(run, f->path);
		for (size_t k = 0; k < pb->nfuncs; k++) {
			const struct pybind_func *pf = &pb->funcs[k];
			long at = -1;
			bool execs = false;
			if (!project_is_bind_func(p, pf->name))
				continue;
			for (size_t i = 0; i < pf->nparams; i++)
				if (tv_names_profiling(pf->params[i].name, p->profiling))
					at = (long)i;
			for (size_t x = 0; x < pb->nexecs; x++)
				execs = execs || (pb->execs[x].func == (long)k && strcmp(pb->execs[x].api, api) == 0);
			if (p->required) {
				/* what its returns say, read: never "ok" for what was not compared */
				size_t nret = 0, last = 0, unread = 0;
				for (size_t r = 0; r < pb->nreturns; r++) {
					const struct pybind_list *el = &pb->returns[r].elems;
					bool names = el->n && tv_names_profiling(el->v[el->n - 1], p->profiling);
					if (pb->returns[r].func != (long)k)
						continue;
					/* `return out;` of a value built before: not read here */
					if (!pb->returns[r].tuple && !names) {
						unread++;
						continue;
					}
					nret++;
					last += names;
				}
				if (nret && last == nret && !unread)
					add_row(rows, execs ? "binding" : "binding meta", where(run, f, pf->range.start),
						xasprintf("%s() returns '%s' last (%zu return%s read)", pf->name, p->profiling,
							  nret, nret == 1 ? "" : "s"),
						ok);
				else if (nret)
					add_row(rows, execs ? "binding" : "binding meta", where(run, f, pf->range.start),
						xasprintf("%s(): %zu of its %zu returns do not end with '%s'", pf->name,
							  nret - last, nret, p->profiling),
						false);
				else
					add_row_status(rows, execs ? "binding" : "binding meta", where(run, f, pf->range.start),
						       xasprintf("%s(): no return read, '%s' not verified", pf->name,
								 p->profiling),
						       ok ? "not verified" : "NO");
			} else {
				add_row(rows, execs ? "binding" : "binding meta", where(run, f, pf->range.start),
					at >= 0 ? xasprintf("%s() takes '%s' as parameter %ld of %zu", pf->name, p->profiling,
							    at + 1, pf->nparams)
						: xasprintf("%s() has no '%s' parameter", pf->name, p->profiling),
					ok && at >= 0);
			}
		}
		for (size_t x = 0; x < pb->nexecs; x++) {
			const struct pybind_exec *ex = &pb->execs[x];
			if (strcmp(ex->api, api) != 0)
				continue;
			add_row(rows, "binding", where(run, f, ex->range.start),
				xasprintf("%s(%s, ...) passes %s last (argument %zu)", ex->macro, ex->api,
					  ex->args.n ? ex->args.v[ex->args.n - 1] : "nothing", ex->args.n),
				ok);
		}
		for (size_t o = 0; o < pb->nnames; o++) {
			const struct pybind_opname *on = &pb->names[o];
			struct pybind_schema sc;
			long at;
			if (!on->schema || !project_is_op_name(p, on->name))
				continue;
			pybind_schema_read(f, on, &sc);
			at = pybind_schema_find(&sc, p->profiling);
			add_row(rows, "binding schema", where(run, f, on->range.start),
				p->required ? xasprintf("'%s' returns %ld values, '%s' last", on->name, on->nreturns, p->profiling)
					    : at >= 0 ? xasprintf("'%s' takes 'Tensor? %s=None' as argument %ld", on->name, p->profiling, at + 1)
						      : xasprintf("'%s' does not take '%s'", on->name, p->profiling),
				ok);
			pybind_schema_release(&sc);
		}
	}
	if ((size_t)cJSON_GetArraySize(rows) == rows0 && p->absent_binding)
		add_row_status(rows, "binding", NULL,
			       xasprintf("no torch binding runs %s: aclnn is the top layer; a binding written later passes '%s' last",
					 api, p->profiling),
			       "absent");
	else if ((size_t)cJSON_GetArraySize(rows) == rows0 && p->without_binding)
		add_row_status(rows, "binding", NULL, xstrdup("left out (without binding)"), "left out");
	else if ((size_t)cJSON_GetArraySize(rows) == rows0)
		add_row(rows, "binding", NULL, xstrdup("no torch binding runs the op"), false);
	free(api);
}

/* ---- samples ---- */

static bool takes_option(struct py_module *m, const char *dest)
{
	size_t n;
	struct project_py_option *o = project_py_options(m, &n);
	bool yes = false;

	for (size_t i = 0; i < n; i++)
		yes = yes || strcmp(o[i].dest, dest) == 0;
	project_py_options_free(o, n);
	return yes;
}

static void add_samples(cJSON *rep, cJSON *rows, const struct instrument_run *run, const struct project_model *p,
			const char *map, const char *prof)
{
	cJSON *arr = cJSON_AddArrayToObject(rep, "samples");
	/* the commands print paths as words: pasted into a shell, each is one, literal */
	char *qp = sh_quote(prof), *qm = map ? sh_quote(map) : NULL;

	if (p->without_samples) {
		/* left out or absent: said, never "ok", never "NO" */
		add_row_status(rows, "samples", NULL,
			       xstrdup(p->absent_binding && p->absent_samples
					       ? "no binding returns the profiling output to Python: whoever binds the op "
						 "extends the samples"
				       : p->absent_samples ? "no sample or test calls the operator: whoever writes one saves "
							     "the profiling output"
							   : "left out (without samples)"),
			       p->absent_samples ? "absent" : "left out");
		free(qp);
		free(qm);
		return;
	}
	for (size_t s = 0; s < p->nsamples; s++) {
		const struct src_file *f = p->samples[s].f;
		struct py_module *m = p->samples[s].py;
		const struct py_call *save = NULL, *sync = NULL;
		cJSON *o = cJSON_CreateObject();
		char *abs = real_abs(run, f->path), *qa = sh_quote(abs);
		bool options = takes_option(m, "profiling_dir"), env = strstr(f->data, "AUTOTRACE_PROFILING_DIR") != NULL;
		for (size_t c = 0; c < m->ncalls; c++) {
			if (!save && project_py_is_save(&m->calls[c]))
				save = &m->calls[c];
			if (project_py_is_sync(&m->calls[c]) && (!save || m->calls[c].range.start < save->range.start))
				sync = &m->calls[c];
		}
		add_str_owned(o, "path", disp(run, f->path));
		if (sync)
			cJSON_AddNumberToObject(o, "synchronize_line", (double)src_file_line(f, sync->range.start));
		else
			cJSON_AddNullToObject(o, "synchronize_line");
		if (save)
			cJSON_AddNumberToObject(o, "save_line", (double)src_file_line(f, save->range.start));
		else
			cJSON_AddNullToObject(o, "save_line");
		cJSON_AddStringToObject(o, "profiling_by", options ? "options" : env ? "environment" : "none");
		if (options)
			add_str_owned(o, "run", xasprintf("python3 %s --profiling_dir %s%s%s", qa, qp, map ? " --point_map " : "",
							   map ? qm : ""));
		else if (env)
			add_str_owned(o, "run", xasprintf("AUTOTRACE_PROFILING_DIR=%s%s%s python3 -m pytest %s", qp,
							   map ? " AUTOTRACE_POINT_MAP=" : "", map ? qm : "", qa));
		else
			cJSON_AddNullToObject(o, "run");
		free(qa);
		cJSON_AddItemToArray(arr, o);
		add_row(rows, "samples", where(run, f, save ? save->range.start : 0),
			save ? xasprintf("synchronize%s then save_profiling_data (line %zu); profiling by %s",
					 sync ? "" : " (none found)", src_file_line(f, save->range.start),
					 options ? "--profiling_dir" : env ? "AUTOTRACE_PROFILING_DIR" : "?")
			     : xstrdup("does not save the profiling output"),
			save && sync);
		free(abs);
	}
	if (p->nsamples == 0)
		add_row(rows, "samples", NULL, xstrdup("no sample or test calls the operator"), false);
	free(qp);
	free(qm);
}

/* ---- the hook ---- */

/* Fills "hook" and returns the absolute (real) path of the point map, or NULL. */
static char *add_hook(cJSON *rep, const struct instrument_run *run, const struct project_model *p,
		      const struct hook_setup *hs)
{
	cJSON *o = cJSON_AddObjectToObject(rep, "hook");
	struct src_file *f = run->script ? src_file_load(run->script) : NULL;
	struct hook_found b;
	struct diag quiet;
	char *map = NULL;

	(void)p;
	diag_init_quiet(&quiet);
	add_str_owned(o, "script", run->script ? disp(run, run->script) : NULL);
	if (hs) {
		/* where the script is taken to start, and why: its relative cds are followed from there */
		cJSON *st = cJSON_AddObjectToObject(o, "start");
		add_str_owned(st, "dir", disp(run, hs->start.dir));
		cJSON_AddStringToObject(st, "why", hs->start.why);
	}
	if (!f || !hs || hook_find_block(f, &b, &quiet) != 0 || !b.present) {
		cJSON_AddNullToObject(o, "line");
		cJSON_AddNullToObject(o, "form");
		cJSON_AddNullToObject(o, "point_map");
		goto out;
	}
	{
		size_t len;
		char *text = hook_text_without(f, &b, &len);
		struct src_file *clean = src_file_from_buffer(f->path, text, len);
		struct sh_script sh;
		struct hook_place place;
		free(text);
		sh_scan(clean->data, clean->len, &sh);
		cJSON_AddNumberToObject(o, "line", (double)src_file_line(f, b.start_mark));
		if (hook_find_place(clean, &sh, &hs->ctx, &place, &quiet) == 0) {
			char *tree;
			cJSON_AddStringToObject(o, "form", place.in_place ? "in place" : "copy");
			cJSON_AddStringToObject(o, "tree", place.dest);
			if (place.tree_why)
				cJSON_AddStringToObject(o, "tree_why", place.tree_why);
			cJSON_AddBoolToObject(o, "tree_from_start", place.from_start);
			add_str_owned(o, "anchor", xasprintf("%s line %zu", place.in_place ? "before the build step at" : "after the copy at",
							     src_file_line(f, sh.cmds[place.in_place ? place.build_cmd : place.copy_cmd].start)));
			tree = hook_tree_path(clean, &sh, &place, &hs->ctx);
			if (tree) {
				char *staged = path_join(tree, "point_map.json");
				map = run->to_real(run->ctx, staged);
				if (!map)
					map = xstrdup(staged);
				free(staged);
				cJSON_AddStringToObject(o, "point_map", map);
			} else {
				add_str_owned(o, "point_map", xasprintf("%s/point_map.json (as the build script computes it)",
									 place.dest));
			}
			free(tree);
			hook_place_release(&place);
		} else {
			cJSON_AddNullToObject(o, "form");
			cJSON_AddNullToObject(o, "point_map");
		}
		sh_script_release(&sh);
		src_file_free(clean);
	}
out:
	src_file_free(f);
	return map;
}

/* ---- the point tree ---- */

/* A thin plan (fewer than 3 distinct labels over both core types: the root
 * and little else) says so, with what the planner could not follow: calls
 * of names the kernel sources define that it could not tell a call reaches
 * (a macro, a callback, an object of an unknown class), calls of names
 * defined nowhere in them (a library or a macro it does not see), and the
 * points the rules merged or skipped. "thin" is null otherwise. */
/* A plan the fallback rules made (plan.h: the rules alone planned a thin
 * one): what the rules gave and what timed the rest; null otherwise. */
static void add_fallback(cJSON *t, const struct instrument_run *run)
{
	const cJSON *fb = run->plan ? cJSON_GetObjectItemCaseSensitive(run->plan, "fallback") : NULL;
	const char *rules = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(fb, "rules")), *base;
	const cJSON *density = run->plan ? cJSON_GetObjectItemCaseSensitive(run->plan, "density") : NULL;
	double aic = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(fb, "aic")),
	       aiv = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(fb, "aiv")),
	       after = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(density, "aic")) +
		       cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(density, "aiv"));

	if (!rules) {
		cJSON_AddNullToObject(t, "fallback");
		return;
	}
	base = strrchr(rules, '/');
	if (after < PLAN_THIN_LABELS) {
		/* the fallback walked too, and found as little: said as such, not as timed */
		add_str_owned(t, "fallback",
			      xasprintf("the rules time nothing below the root here (%g distinct label%s on AIC, %g on "
					"AIV), and the fallback rules (%s) time little more: what they would time is not "
					"reached from the root (see 'thin' for what the walk could not follow)",
					aic, aic == 1 ? "" : "s", aiv, base ? base + 1 : rules));
		return;
	}
	add_str_owned(t, "fallback",
		      xasprintf("the rules time nothing below the root here (%g distinct label%s on AIC, %g on AIV): the "
				"functions near the root are timed by the fallback rules (%s); a rules file naming the "
				"operator's stages (see autotrace-rules(5)) gives them labels of its own",
				aic, aic == 1 ? "" : "s", aiv, base ? base + 1 : rules));
}

static void add_thin(cJSON *t, const struct instrument_run *run, int merged, int skipped)
{
	const cJSON *density = run->plan ? cJSON_GetObjectItemCaseSensitive(run->plan, "density") : NULL;
	const cJSON *unres = run->plan ? cJSON_GetObjectItemCaseSensitive(run->plan, "unresolved") : NULL, *u;
	double labels = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(density, "aic")) +
			cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(density, "aiv"));
	bool fallback = run->plan && cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(run->plan, "fallback"));
	struct strbuf here = { 0 }, lib = { 0 };
	size_t nhere = 0, nlib = 0;

	if (!density || labels >= PLAN_THIN_LABELS) {
		cJSON_AddNullToObject(t, "thin");
		return;
	}
	cJSON_ArrayForEach(u, unres)
	{
		bool in = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(u, "defined_in_sources"));
		struct strbuf *b = in ? &here : &lib;
		size_t *n = in ? &nhere : &nlib;
		if ((*n)++ < 6) {
			if (b->n)
				strbuf_puts(b, ", ");
			strbuf_puts(b, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(u, "callee")));
		}
	}
	add_str_owned(t, "thin",
		      xasprintf("%g distinct label%s over AIC and AIV: the rules%s time little below the root here "
				"(%d merged, %d skipped by the rules)%s%s%s%s%s%s; a rules file naming the operator's "
				"stages (function /RE/ \"LABEL\" steps \"LABEL\", see autotrace-rules(5)) gives it more",
				labels, labels == 1 ? "" : "s", fallback ? ", and the fallback rules after them," : "",
				merged, skipped,
				nhere ? "; calls not followed (a macro, a callback, an object of a class it could not "
					"tell): "
				      : "",
				nhere ? here.s : "", nhere > 6 ? ", ..." : "",
				nlib ? "; calls of names defined nowhere in the kernel sources (a library, a macro it "
				       "does not see): "
				     : "",
				nlib ? lib.s : "", nlib > 6 ? ", ..." : ""));
	strbuf_release(&here);
	strbuf_release(&lib);
}

static void add_tree(cJSON *rep, const struct instrument_run *run)
{
	const char *opdir = run->project ? run->project->opts->opdir : NULL;
	cJSON *t = cJSON_AddObjectToObject(rep, "point_tree"), *pts = cJSON_AddArrayToObject(t, "points");
	const cJSON *points = run->plan ? cJSON_GetObjectItemCaseSensitive(run->plan, "points") : NULL;
	const cJSON *density = run->plan ? cJSON_GetObjectItemCaseSensitive(run->plan, "density") : NULL;
	int folded = 0, merged = 0, skipped = 0;
	const cJSON *pt;

	cJSON_ArrayForEach(pt, points)
	{
		const char *fate = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(pt, "fate"));
		if (!fate)
			continue;
		if (strcmp(fate, "folded") == 0)
			folded++;
		else if (strcmp(fate, "merged") == 0)
			merged++;
		else if (strcmp(fate, "skipped") == 0)
			skipped++;
		if (strcmp(fate, "insert") == 0 || strcmp(fate, "present") == 0 || strcmp(fate, "folded") == 0) {
			cJSON *o = cJSON_CreateObject();
			static const char *const keys[] = { "label", "kind", "file", "core", "index" };
			for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
				const cJSON *v = cJSON_GetObjectItemCaseSensitive(pt, keys[k]);
				if (!cJSON_IsString(v))
					continue;
				if (strcmp(keys[k], "file") == 0 && opdir) {
					/* the plan names files from the operator directory; the report, from the cwd */
					char *staged = path_join(opdir, v->valuestring);
					add_str_owned(o, "file", disp(run, staged));
					free(staged);
				} else {
					cJSON_AddStringToObject(o, keys[k], v->valuestring);
				}
			}
			cJSON_AddNumberToObject(o, "line", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(pt, "line")));
			cJSON_AddNumberToObject(o, "depth", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(pt, "depth")));
			cJSON_AddBoolToObject(o, "folded", strcmp(fate, "folded") == 0);
			cJSON_AddItemToArray(pts, o);
		}
	}
	cJSON_AddNumberToObject(t, "folded", folded);
	cJSON_AddNumberToObject(t, "merged", merged);
	cJSON_AddNumberToObject(t, "skipped", skipped);
	add_thin(t, run, merged, skipped);
	add_fallback(t, run);
	if (density) {
		const cJSON *aic = cJSON_GetObjectItemCaseSensitive(density, "aic"), *aiv = cJSON_GetObjectItemCaseSensitive(density, "aiv");
		cJSON *lab = cJSON_AddObjectToObject(t, "labels");
		cJSON_AddNumberToObject(lab, "aic", cJSON_GetNumberValue(aic));
		cJSON_AddNumberToObject(lab, "aiv", cJSON_GetNumberValue(aiv));
	}
	if (!run->plan)
		cJSON_AddStringToObject(t, "note", "the plan could not be made");
}

cJSON *instrument_report(const struct instrument_run *run)
{
	cJSON *rep = cJSON_CreateObject(), *steps, *files, *rows;
	const struct project_model *p = run->project;
	char *map = NULL, *prof;
	const char *result;
	struct hook_setup hs;
	bool have_hs = false;

	if (p && run->script) {
		struct hook_invocation inv = { p->opts->rules, run->script, p->opts->tree, p->opts->opdir };
		struct diag quiet;
		diag_init_quiet(&quiet);
		have_hs = hook_setup_init(&hs, &inv, p->policy, &quiet) == 0;
	}

	cJSON_AddStringToObject(rep, "operator", run->opdir);
	if (p) {
		cJSON *root = cJSON_AddObjectToObject(rep, "project_root");
		char *rr = run->to_real(run->ctx, p->root.abs);
		add_str_owned(root, "path", rr ? path_display_from(run->real_cwd, rr) : xstrdup(p->root.path));
		free(rr);
		cJSON_AddStringToObject(root, "found_by", run->root_how ? run->root_how : "");
		cJSON_AddStringToObject(rep, "mode", p->required ? "B" : "A");
		if (p->mode_reason)
			cJSON_AddStringToObject(rep, "mode_reason", p->mode_reason);
	}
	cJSON_AddBoolToObject(rep, "dry_run", run->dry_run);
	result = run->stopped_at >= 0 ? "stopped" : run->nfiles ? (run->dry_run ? "would change" : "changed") : "nothing to change";
	cJSON_AddStringToObject(rep, "result", result);
	if (run->stopped_at >= 0)
		cJSON_AddStringToObject(rep, "stopped_at", run->steps[run->stopped_at].name);
	else
		cJSON_AddNullToObject(rep, "stopped_at");
	steps = cJSON_AddArrayToObject(rep, "steps");
	for (int i = 0; i < INSTRUMENT_NSTEPS; i++) {
		const struct instrument_step *st = &run->steps[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", st->name ? st->name : "");
		cJSON_AddStringToObject(o, "status", !st->ran ? "not run" : st->stop == INSTRUMENT_STOP_NONE ? "done" : "stopped");
		add_str_owned(o, "stopped_by", st->ran && stop_name(st->stop) ? xstrdup(stop_name(st->stop)) : NULL);
		add_str_owned(o, "summary", step_summary(st));
		add_str_owned(o, "next_step", run->stopped_at == i ? step_next(run, i) : NULL);
		cJSON_AddItemToArray(steps, o);
	}
	files = cJSON_AddArrayToObject(rep, "files");
	for (size_t i = 0; i < run->nfiles; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "path", run->files[i].path);
		cJSON_AddBoolToObject(o, "created", run->files[i].created);
		cJSON_AddItemToArray(files, o);
	}
	add_tree(rep, run);
	{
		cJSON *chk = cJSON_AddObjectToObject(rep, "check");
		const struct instrument_step *st = &run->steps[INSTRUMENT_CHECK];
		cJSON_AddStringToObject(chk, "status", !st->ran ? "not run" : st->stop == INSTRUMENT_STOP_NONE ? "passed" : "failed");
		add_str_owned(chk, "summary", step_summary(st));
	}
	add_gates(rep, run, have_hs ? &hs.start : NULL);
	rows = cJSON_AddArrayToObject(rep, "alignment");
	if (p) {
		map = add_hook(rep, run, p, have_hs ? &hs : NULL);
		{
			char *od = real_abs(run, p->opts->opdir), *norm = path_normalize(od);
			prof = path_join(norm, "profiling");
			free(norm);
			free(od);
		}
		if (project_launch_form(p)) {
			rows_launch_host(rows);
			rows_tiling(rows, run, p);
			rows_kernel(rows, run, p);
			rows_launch(rows, run, p);
		} else {
			rows_host(rows, run, p);
			rows_infer(rows, run, p);
			rows_tiling(rows, run, p);
			rows_kernel(rows, run, p);
			rows_aclnn(rows, run, p);
			rows_binding(rows, run, p);
		}
		add_samples(rep, rows, run, p, map, prof);
		{
			char *trace = path_join(prof, "chrome_trace.json"), *qm = map ? sh_quote(map) : NULL;
			char *qt = sh_quote(trace), *qp = sh_quote(prof);
			add_str_owned(rep, "collect",
				      xasprintf("autotrace collect --map %s -o %s %s", qm ? qm : "<point_map.json of the build>",
						qt, qp));
			free(qm);
			free(qt);
			free(qp);
			free(trace);
		}
		free(prof);
	}
	{
		/* one operator of several: its own journal */
		const char *op = run->project ? run->project->choice.journal : NULL;
		char *qop = op ? sh_quote(op) : NULL, *qo = sh_quote(run->opdir);
		add_str_owned(rep, "undo", run->nfiles && !run->dry_run ? xasprintf("autotrace instrument --undo%s%s %s", op ? " --op " : "",
										    op ? qop : "", qo)
									: NULL);
		free(qop);
		free(qo);
	}
	free(map);
	if (have_hs)
		hook_setup_release(&hs);
	return rep;
}

/* ---- text ---- */

static const char *jstr(const cJSON *o, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));

	return s ? s : "";
}

static void report_text(FILE *out, const void *r);

/* The report rendered whole, then written with every control character of
 * the tree's strings (a file name holding ESC) shown as \xNN. */
void instrument_report_text(FILE *out, const cJSON *r)
{
	diag_put_rendered(out, report_text, r);
}

static void report_text(FILE *out, const void *report)
{
	const cJSON *r = report;
	const cJSON *x, *t = cJSON_GetObjectItemCaseSensitive(r, "point_tree");
	const cJSON *hook = cJSON_GetObjectItemCaseSensitive(r, "hook");

	fprintf(out, "instrument %s: %s%s%s\n", jstr(r, "operator"), jstr(r, "result"),
		cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r, "stopped_at")) ? " at " : "",
		cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r, "stopped_at")) ? jstr(r, "stopped_at") : "");
	if (cJSON_GetObjectItemCaseSensitive(r, "project_root"))
		fprintf(out, "  project root %s (%s); mode %s: %s\n",
			jstr(cJSON_GetObjectItemCaseSensitive(r, "project_root"), "path"),
			jstr(cJSON_GetObjectItemCaseSensitive(r, "project_root"), "found_by"), jstr(r, "mode"), jstr(r, "mode_reason"));
	fprintf(out, "\nsteps\n");
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(r, "steps"))
	{
		fprintf(out, "  %-13s %-8s %s\n", jstr(x, "name"), jstr(x, "status"), jstr(x, "summary"));
		if (*jstr(x, "next_step"))
			fprintf(out, "      next: %s\n", jstr(x, "next_step"));
	}

	fprintf(out, "\ngates\n");
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(r, "gates"))
	{
		fprintf(out, "  %s %s: %s\n", jstr(x, "id"), jstr(x, "status"), jstr(x, "title"));
		if (*jstr(x, "reason"))
			fprintf(out, "       why: %s\n", jstr(x, "reason"));
		if (*jstr(x, "hint"))
			fprintf(out, "      hint: %s\n", jstr(x, "hint"));
		if (*jstr(x, "next_step"))
			fprintf(out, "      next: %s\n", jstr(x, "next_step"));
	}

	if (strcmp(jstr(r, "result"), "stopped") == 0 && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "files")))
		fprintf(out, "\nfiles: nothing changed (stopped at %s; see the messages above); these %d would change\n",
			jstr(r, "stopped_at"), cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "files")));
	else if (strcmp(jstr(r, "result"), "stopped") == 0)
		fprintf(out, "\nfiles: nothing changed (stopped at %s; see the messages above)\n", jstr(r, "stopped_at"));
	else if (strcmp(jstr(r, "result"), "nothing to change") == 0)
		fprintf(out, "\nfiles: nothing to change\n");
	else
		fprintf(out, "\nfiles %s (%d)\n", strcmp(jstr(r, "result"), "changed") == 0 ? "changed" : "to change",
			cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "files")));
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(r, "files"))
		fprintf(out, "  %s%s\n", jstr(x, "path"),
			cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(x, "created")) ? "  (created)" : "");

	if (t) {
		const cJSON *lab = cJSON_GetObjectItemCaseSensitive(t, "labels");
		fprintf(out, "\npoint tree");
		if (lab)
			fprintf(out, " (%g labels on AIC, %g on AIV)", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(lab, "aic")),
				cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(lab, "aiv")));
		fprintf(out, "\n");
		cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(t, "points"))
		{
			int depth = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(x, "depth"));
			fprintf(out, "  %*sL%d %s  (%s %s:%g, %s%s%s)%s\n", 2 * (depth > 0 ? depth - 1 : 0), "", depth,
				jstr(x, "label"), jstr(x, "kind"), jstr(x, "file"),
				cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(x, "line")), jstr(x, "core"),
				*jstr(x, "index") ? ", index " : "", jstr(x, "index"),
				cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(x, "folded")) ? "  folded into its L7 ancestor" : "");
		}
		fprintf(out, "  %g merged into their callers, %g folded, %g skipped (see autotrace plan)\n",
			cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(t, "merged")),
			cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(t, "folded")),
			cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(t, "skipped")));
		if (*jstr(t, "fallback"))
			fprintf(out, "  fallback: %s\n", jstr(t, "fallback"));
		if (*jstr(t, "thin"))
			fprintf(out, "  thin: %s\n", jstr(t, "thin"));
	}
	x = cJSON_GetObjectItemCaseSensitive(r, "check");
	if (jstr(x, "summary")[0])
		fprintf(out, "\ncheck %s: %s\n", jstr(x, "status"), jstr(x, "summary"));
	else
		fprintf(out, "\ncheck %s\n", jstr(x, "status"));

	fprintf(out, "\nG2 alignment (profiling_data last)\n");
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(r, "alignment"))
		fprintf(out, "  %-14s %-3s %s%s%s\n", jstr(x, "layer"),
			*jstr(x, "status") ? jstr(x, "status")
			: cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(x, "aligned")) ? "ok" : "NO", jstr(x, "what"),
			*jstr(x, "where") ? "  at " : "", jstr(x, "where"));

	if (hook) {
		fprintf(out, "\nhook\n");
		if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(hook, "line")))
			fprintf(out, "  %s:%g (%s, %s), preprocessing %s\n", jstr(hook, "script"),
				cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(hook, "line")), jstr(hook, "form"),
				jstr(hook, "anchor"), jstr(hook, "tree"));
		else
			fprintf(out, "  none installed%s%s\n", *jstr(hook, "script") ? " in " : "", jstr(hook, "script"));
		if (*jstr(hook, "tree_why"))
			fprintf(out, "  tree %s: %s\n", jstr(hook, "tree"), jstr(hook, "tree_why"));
		if (cJSON_GetObjectItemCaseSensitive(hook, "start"))
			fprintf(out, "  starts in %s (%s)\n",
				jstr(cJSON_GetObjectItemCaseSensitive(hook, "start"), "dir"),
				jstr(cJSON_GetObjectItemCaseSensitive(hook, "start"), "why"));
		if (*jstr(hook, "point_map"))
			fprintf(out, "  point_map.json: %s\n", jstr(hook, "point_map"));
	}
	fprintf(out, "\nsamples\n");
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(r, "samples"))
	{
		const cJSON *sl = cJSON_GetObjectItemCaseSensitive(x, "save_line"), *yl = cJSON_GetObjectItemCaseSensitive(x, "synchronize_line");
		if (cJSON_IsNumber(sl) && cJSON_IsNumber(yl))
			fprintf(out, "  %s: synchronize (line %g) then save_profiling_data (line %g); profiling by %s\n",
				jstr(x, "path"), cJSON_GetNumberValue(yl), cJSON_GetNumberValue(sl), jstr(x, "profiling_by"));
		else if (cJSON_IsNumber(sl))
			fprintf(out, "  %s: save_profiling_data (line %g) without a synchronize before it; profiling by %s\n",
				jstr(x, "path"), cJSON_GetNumberValue(sl), jstr(x, "profiling_by"));
		else
			fprintf(out, "  %s: does not save the profiling output\n", jstr(x, "path"));
		if (*jstr(x, "run"))
			fprintf(out, "    run: %s\n", jstr(x, "run"));
	}
	if (*jstr(r, "collect"))
		fprintf(out, "\ncollect\n  %s\n", jstr(r, "collect"));
	if (*jstr(r, "undo"))
		fprintf(out, "\nundo\n  %s\n", jstr(r, "undo"));
}

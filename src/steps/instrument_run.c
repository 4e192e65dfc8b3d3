/* instrument_run: the whole job on one operator -- wire, apply, hook
 * install, check called in order as library steps on the staging copy
 * (instrument_stage.h), their typed results made into the report's lines,
 * the changed files written back together (instrument.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "apply_run.h"
#include "check_run.h"
#include "gate_run.h"
#include "hook_run.h"
#include "instrument.h"
#include "instrument_stage.h"
#include "path_glob.h"
#include "path_rel.h"
#include "plan.h"
#include "project_ops.h"
#include "project_root.h"
#include "sh_word.h"
#include "strbuf.h"
#include "undo_journal.h"
#include "wire.h"
#include "xalloc.h"

/* ---- the steps, each a library call; its line from its result ---- */

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static enum instrument_stop step_wire(const struct instrument_opts *o, const char *opdir, char **summary,
				      struct diag *diag)
{
	struct wire_run_opts wo = { opdir, o->rules, o->op, o->without, false };
	struct wire_run_result r;
	enum instrument_stop stop = INSTRUMENT_STOP_NONE;

	if (wire_run(&wo, &r, diag) != 0)
		stop = r.internal ? INSTRUMENT_STOP_INTERNAL : INSTRUMENT_STOP_INPUT;
	else if (r.nfiles == 0)
		*summary = xasprintf("wire: nothing to change in %s", opdir);
	else
		*summary = xasprintf("wire: %zu edit%s in %zu file%s (mode %s, '%s' last)", r.nedits, plural(r.nedits),
				     r.nfiles, plural(r.nfiles), r.w.required ? "B" : "A", r.w.prof);
	if (stop == INSTRUMENT_STOP_NONE && r.manual) {
		free(*summary);
		*summary = xasprintf("wire: %u manual step%s left", r.manual, plural(r.manual));
		stop = INSTRUMENT_STOP_FINDINGS;
	}
	wire_run_release(&r);
	return stop;
}

static enum instrument_stop step_apply(const struct instrument_opts *o, const char *opdir, char **summary,
				       struct diag *diag)
{
	struct apply_opts ao = { opdir, o->rules, o->op, NULL, APPLY_WRITE };
	struct apply_result r;
	enum instrument_stop stop = INSTRUMENT_STOP_NONE;

	if (apply_run(&ao, &r, diag) != 0)
		stop = r.internal ? INSTRUMENT_STOP_INTERNAL : INSTRUMENT_STOP_INPUT;
	else
		*summary = xasprintf("apply: %u point%s in %zu file%s%s%s", r.points, plural(r.points), r.nfiles,
				     plural(r.nfiles), r.runtime.path ? "; the trace point runtime " : "",
				     !r.runtime.path ? "" : r.runtime.created ? "created" : "embedded");
	apply_result_release(&r);
	return stop;
}

static enum instrument_stop step_hook(const struct instrument_opts *o, const char *opdir, char **summary,
				      struct diag *diag)
{
	/* the build script's hook serves every operator of the directory: no --op */
	struct hook_opts ho = { .rules = o->rules, .opdir = opdir, .script = o->script, .tree = o->tree,
				.replace = o->replace };
	struct hook_session s;
	struct hook_install_result r;
	enum instrument_stop stop = INSTRUMENT_STOP_INPUT;

	if (o->build_absent) {
		/* a project with no build script of the operator: the hook's layer is
		   absent, said with what its later owner does, never a stop */
		char *q = sh_quote(opdir);
		*summary = xasprintf("hook install: absent: no build script of the operator; whoever builds these "
				     "sources runs 'autotrace preprocess' on the copy it compiles (once there is a "
				     "script: autotrace hook install --script FILE %s)", q);
		free(q);
		return INSTRUMENT_STOP_NONE;
	}
	memset(&r, 0, sizeof(r));
	if (hook_session_open(&s, &ho, diag) == 0 && hook_install_run(&s, &ho, &r, diag) == 0) {
		const char *done = r.done == HOOK_MOVED ? "moved" : "installed";
		if (r.done == HOOK_ALREADY)
			*summary = xasprintf("%s: the G1 hook is already installed %s line %zu", s.script,
					     r.in_place ? "before" : "after", r.in_place ? r.build_line : r.copy_line);
		else if (r.in_place)
			*summary = xasprintf("%s: %s the G1 hook before the build step at line %zu (it preprocesses %s in place)",
					     s.script, done, r.build_line, r.dest);
		else
			*summary = xasprintf("%s: %s the G1 hook after line %zu (copy into %s), before the build step at line %zu",
					     s.script, done, r.copy_line, r.dest, r.build_line);
		stop = INSTRUMENT_STOP_NONE;
	}
	hook_install_result_release(&r);
	hook_session_close(&s);
	return stop;
}

static enum instrument_stop step_check(const struct instrument_opts *o, const char *opdir, char **summary,
				       struct diag *diag)
{
	struct check_opts co = { .rules = o->rules, .opdir = opdir, .op = o->op };
	struct check_result r;

	if (check_run(&co, &r, diag) != 0)
		return INSTRUMENT_STOP_INPUT;
	*summary = xasprintf("check: %zu file%s, %zu point%s: %u error%s", r.nfiles, plural(r.nfiles), r.npoints,
			     plural(r.npoints), r.errors, plural(r.errors));
	return r.clean ? INSTRUMENT_STOP_NONE : INSTRUMENT_STOP_FINDINGS;
}

typedef enum instrument_stop (*step_fn)(const struct instrument_opts *o, const char *opdir, char **summary,
					 struct diag *diag);

/* The steps in order; the first that stops ends the job. */
static enum instrument_stop do_steps(struct instrument_run *run, const char *opdir, const struct instrument_opts *o,
				     struct diag *diag)
{
	static const char *const names[INSTRUMENT_NSTEPS] = { "wire", "apply", "hook install", "check", "gates" };
	static const step_fn fns[INSTRUMENT_GATES] = { step_wire, step_apply, step_hook, step_check };

	for (int i = 0; i < INSTRUMENT_NSTEPS; i++)
		run->steps[i].name = names[i];
	for (int i = 0; i < INSTRUMENT_GATES; i++) {
		struct instrument_step *st = &run->steps[i];
		diag->first_error[0] = '\0';
		st->stop = fns[i](o, opdir, &st->summary, diag);
		st->ran = true;
		if (diag->first_error[0])
			st->error = xstrdup(diag->first_error);
		if (st->stop != INSTRUMENT_STOP_NONE) {
			run->stopped_at = i;
			return st->stop;
		}
	}
	return INSTRUMENT_STOP_NONE;
}

/* ---- not an operator ---- */

/* A directory with no OpDef, no kernel entry and no direct launch is not an
 * operator: refused (exit 2) with the operators found below it (the
 * directories that hold the rules' kernel directory), nothing planned. */
static bool not_an_operator(const char *opdir, const struct project_model *p, struct diag *diag)
{
	const char *kdir = p->policy->kernel.value;
	size_t klen = strlen(kdir), n = 0, nops = 0;
	char **files = NULL, **ops = NULL;
	struct diag quiet;

	if (p->op || project_launch_form(p) || (p->kernels_read && p->kernels.n))
		return false;
	diag_init_quiet(&quiet);
	if (path_walk(opdir, &files, &n, &quiet) == 0)
		for (size_t i = 0; i < n; i++) {
			/* ".../OP/<kernel dir>/file": OP, once (the walk is sorted) */
			for (const char *c = files[i]; (c = strstr(c, kdir)) != NULL; c += klen) {
				size_t at = (size_t)(c - files[i]);
				if (at == 0)
					break; /* its own kernel directory, which holds no kernel: not one below it */
				if (c[-1] == '/' && c[klen] == '/') {
					char *op = xstrndup(files[i], at - 1);
					if (nops && strcmp(ops[nops - 1], op) == 0) {
						free(op);
					} else {
						ops = xrealloc(ops, (nops + 1) * sizeof(*ops));
						ops[nops++] = op;
					}
					break;
				}
			}
		}
	if (nops)
		diag_plain(diag, DIAG_ERROR,
			   "instrument: %s is not an operator directory (no OpDef under its op_host, no kernel under %s/%s, no "
			   "direct launch); %zu operator director%s below it: run instrument on one of them",
			   opdir, opdir, kdir, nops, nops == 1 ? "y is" : "ies are");
	else
		diag_plain(diag, DIAG_ERROR,
			   "instrument: %s is not an operator directory (no OpDef under its op_host, no kernel under %s/%s, "
			   "no direct launch), and no directory below it holds %s/",
			   opdir, opdir, kdir, kdir);
	for (size_t i = 0; i < nops && i < 30; i++) {
		char *d = path_join(opdir, ops[i]);
		diag_pos(diag, DIAG_NOTE, d, 0, 0, "an operator directory (it holds %s/)", kdir);
		free(d);
	}
	if (nops > 30)
		diag_plain(diag, DIAG_NOTE, "... and %zu more", nops - 30);
	for (size_t i = 0; i < nops; i++)
		free(ops[i]);
	free(ops);
	path_glob_free(files, n);
	return true;
}

/* ---- what the report is made of ---- */

/* The point tree: the plan's JSON form, of the tree as it is at opdir. */
static cJSON *plan_of(const char *opdir, const struct instrument_opts *o)
{
	struct rule_cache cache = { NULL, NULL };
	struct project_op_choice choice = { NULL, NULL, NULL, 0, -1, -1 };
	const struct rule_policy *p;
	struct plan *pl = NULL;
	struct diag quiet;
	cJSON *j = NULL;

	diag_init_quiet(&quiet);
	p = rule_cache_get(&cache, o->rules, opdir, &quiet);
	if (p && project_op_select(opdir, p, o->op, &choice, &quiet) == 0 &&
	    (pl = plan_build(p, opdir, choice.entry, &quiet)) != NULL && !pl->errors)
		j = plan_json(pl);
	plan_free(pl);
	project_op_choice_release(&choice);
	rule_cache_release(&cache);
	return j;
}

/* The gates of the project at opdir but those that run the team's build. */
static void run_gates(struct instrument_run *run, struct project_opts *go, const char *opdir,
		      const struct instrument_opts *o, const char *script)
{
	struct diag quiet;

	diag_init_quiet(&quiet);
	memset(go, 0, sizeof(*go));
	go->opdir = opdir;
	go->rules = o->rules;
	go->op = o->op;
	go->script = script;
	go->tree = o->tree;
	go->without = o->without;
	run->project = project_load(go, &quiet);
	if (run->project) {
		struct gate_report *r = gate_report_new(opdir);
		for (int g = 0; g < GATE_COUNT; g++)
			if (gate_def((enum gate_id)g)->phase == GATE_BUILDS) {
				r->gates[g].run = false;
				r->gates[g].note = xstrdup("instrument does not run the build");
			}
		gate_run(run->project, r);
		run->gates = r;
	}
}

/* The last step: the gates instrument runs, on the result. Every one that
 * ran must hold; one that does not stops the job before anything is
 * written (exit 1), its first error the step's. */
static enum instrument_stop step_gates(struct instrument_run *run, struct diag *diag)
{
	struct instrument_step *st = &run->steps[INSTRUMENT_GATES];
	struct strbuf held = { 0 }, failed = { 0 };
	const struct gate_finding *first = NULL;

	st->ran = true;
	if (!run->gates) {
		st->stop = INSTRUMENT_STOP_INTERNAL;
		st->summary = xstrdup("gates: the staged project could not be read");
		run->stopped_at = INSTRUMENT_GATES;
		return st->stop;
	}
	gate_settle(run->gates);
	for (int g = 0; g < GATE_COUNT; g++) {
		struct strbuf *b;
		bool fails = false;
		if (!run->gates->gates[g].run)
			continue;
		/* a finding about this machine is for whoever builds here */
		for (size_t i = 0; i < run->gates->n; i++)
			fails = fails || (gate_rule_gate(run->gates->v[i].rule) == (enum gate_id)g &&
					  gate_finding_about_sources(&run->gates->v[i]));
		b = fails ? &failed : &held;
		if (b->n)
			strbuf_puts(b, ", ");
		strbuf_puts(b, gate_name((enum gate_id)g));
	}
	for (size_t i = 0; i < run->gates->n; i++) {
		const struct gate_finding *fd = &run->gates->v[i];
		char *real, *shown;
		if (!gate_finding_about_sources(fd) || !run->gates->gates[gate_rule_gate(fd->rule)].run)
			continue;
		if (!first)
			first = fd;
		/* said where the user's file is, as the steps say theirs */
		real = fd->loc.path ? run->to_real(run->ctx, fd->loc.path) : NULL;
		shown = real ? path_display_from(run->real_cwd, real) : fd->loc.path ? xstrdup(fd->loc.path) : NULL;
		if (shown)
			diag_pos(diag, DIAG_ERROR, shown, fd->loc.line, fd->loc.col, "[%s] %s", gate_rule_id(fd->rule),
				 fd->message);
		else
			diag_plain(diag, DIAG_ERROR, "[%s] %s", gate_rule_id(fd->rule), fd->message);
		free(real);
		free(shown);
	}
	if (failed.n) {
		st->stop = INSTRUMENT_STOP_FINDINGS;
		st->summary = xasprintf("gates: %s not satisfied on the result%s%s: nothing written", failed.s,
					held.n ? "; held: " : "", held.n ? held.s : "");
		if (first)
			st->error = xstrdup(first->message);
		run->stopped_at = INSTRUMENT_GATES;
	} else {
		st->stop = INSTRUMENT_STOP_NONE;
		st->summary = xasprintf("gates: %s hold on the result", held.n ? held.s : "none ran");
	}
	strbuf_release(&held);
	strbuf_release(&failed);
	return st->stop;
}

/* A stopped job reports on the real tree: its paths are the real ones. */
static char *identity_path(const void *ctx, const char *path)
{
	(void)ctx;
	(void)path;
	return NULL;
}

/* The build script as the steps saw it in the staging copy. */
static char *staged_script(const struct stage *st, const struct project_model *real, const char *given, const char *found)
{
	struct project_root r;
	struct diag quiet;
	char *sp = NULL;

	if (given)
		return xstrdup(given);
	if (!found)
		return NULL;
	diag_init_quiet(&quiet);
	if (project_root_find(st->opdir, real->policy, &r, &quiet) == 0) {
		if (project_build_script(&r, &real->policy->build, &sp, &quiet) != 0)
			sp = NULL;
		project_root_release(&r);
	}
	return sp;
}

static int write_changes(const char *opdir, const char *top, const char *journal, struct stage_change *c, size_t n,
			 struct diag *diag)
{
	const char **paths = xcalloc(n + 1, sizeof(*paths)), **texts = xcalloc(n + 1, sizeof(*texts));
	const struct src_file **origs = xcalloc(n + 1, sizeof(*origs));
	size_t *lens = xcalloc(n + 1, sizeof(*lens));
	int rc;

	for (size_t i = 0; i < n; i++) {
		paths[i] = c[i].display;
		texts[i] = c[i].now->data;
		lens[i] = c[i].now->len;
		origs[i] = c[i].orig;
	}
	rc = undo_journal_write(opdir, top, journal, "instrument", paths, origs, texts, lens, n, diag);
	free(paths);
	free(texts);
	free(origs);
	free(lens);
	return rc;
}

static void run_release(struct instrument_run *run)
{
	for (int i = 0; i < INSTRUMENT_NSTEPS; i++) {
		free(run->steps[i].summary);
		free(run->steps[i].error);
	}
	for (size_t i = 0; i < run->nfiles; i++)
		free(run->files[i].path);
	free(run->files);
	cJSON_Delete(run->plan);
	gate_report_free(run->gates);
	project_free(run->project);
	free((char *)run->script);
}

int instrument_run(const struct instrument_opts *given, struct instrument_outcome *out, struct diag *diag)
{
	struct instrument_opts o = *given;
	const char *opdir = given->opdir;
	struct project_opts lo, go;
	struct project_model *real = NULL;
	struct stage st;
	struct instrument_run run;
	struct stage_change *ch = NULL;
	size_t nch = 0;
	char *rules_abs = NULL, *script_real = NULL, *script_staged = NULL, *journal = NULL;
	int rc = -1;
	struct stat sb;
	bool entered = false;

	memset(out, 0, sizeof(*out));
	out->stop = INSTRUMENT_STOP_INPUT;
	memset(&st, 0, sizeof(st));
	st.saved_cwd = -1;
	memset(&run, 0, sizeof(run));
	run.opdir = opdir;
	run.dry_run = o.dry_run;
	run.stopped_at = -1;
	if (stat(opdir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		diag_plain(diag, DIAG_ERROR, "instrument: %s is not a directory", opdir);
		return -1;
	}
	if (o.rules) {
		rules_abs = path_absolute(o.rules);
		if (!rules_abs) {
			diag_plain(diag, DIAG_ERROR, "instrument: cannot read the rules file %s: %s", o.rules, strerror(errno));
			return -1;
		}
		o.rules = rules_abs;
	}
	/* what the steps may touch, read in the real tree */
	memset(&lo, 0, sizeof(lo));
	lo.opdir = opdir;
	lo.rules = o.rules;
	lo.op = o.op;
	lo.without = o.without;
	real = project_load(&lo, diag);
	if (!real || not_an_operator(opdir, real, diag))
		goto out;
	if (o.script) {
		script_real = xstrdup(o.script);
	} else {
		struct diag quiet;
		diag_init_quiet(&quiet);
		/* none at all: the hook's layer is absent (read here, in the real tree:
		   the staging copy holds only the files the steps may touch) */
		if (project_build_script_or_absent(&real->root, &real->policy->build, &script_real, &o.build_absent,
						   &quiet) != 0)
			script_real = NULL; /* hook install says why, in order */
	}
	if (stage_open(&st, opdir, &real->root, diag) != 0 || stage_project_files(&st, real, script_real, diag) != 0)
		goto out;
	if (o.script) {
		script_staged = stage_path(&st, o.script);
		o.script = script_staged ? script_staged : o.script;
	}
	run.to_real = stage_to_real;
	run.ctx = &st;
	run.real_cwd = st.real_cwd;
	run.root_how = project_root_how_text(real->root.how);
	if (stage_enter(&st, diag) != 0)
		goto out;
	entered = true;
	out->stop = do_steps(&run, st.opdir, &o, diag);
	if (out->stop == INSTRUMENT_STOP_NONE) {
		/* the result, seen in the staging copy: its plan, its gates, its changes */
		run.plan = plan_of(st.opdir, &o);
		run.script = staged_script(&st, real, o.script, script_real);
		run_gates(&run, &go, st.opdir, &o, run.script);
		out->stop = step_gates(&run, diag);
		if (stage_find_changes(&st, &ch, &nch, diag) != 0) {
			out->stop = INSTRUMENT_STOP_INTERNAL;
			goto out;
		}
		run.files = nch ? xcalloc(nch, sizeof(*run.files)) : NULL;
		for (size_t i = 0; i < nch; i++) {
			run.files[i].path = xstrdup(ch[i].display);
			run.files[i].created = ch[i].orig == NULL;
		}
		run.nfiles = nch;
		out->report = instrument_report(&run);
	}
	stage_leave(&st);
	entered = false;
	if (run.stopped_at == INSTRUMENT_GATES || out->stop == INSTRUMENT_STOP_NONE) {
		/* done: written (unless a dry run); the result fails a gate: its
		   report (of the staged result) says which, the changes are shown,
		   none written */
		if (out->stop == INSTRUMENT_STOP_NONE && !o.dry_run && nch &&
		    (journal = project_op_journal(&real->choice, INSTRUMENT_UNDO_NAME)) &&
		    write_changes(opdir, real->root.abs, journal, ch, nch, diag) != 0) {
			/* said why; nothing changed, no report of a job not done */
			out->stop = INSTRUMENT_STOP_INPUT;
			cJSON_Delete(out->report);
			out->report = NULL;
			goto out;
		}
		out->changes = nch ? xcalloc(nch, sizeof(*out->changes)) : NULL;
		for (size_t i = 0; i < nch; i++)
			out->changes[i] = (struct instrument_change){ ch[i].display, ch[i].orig, ch[i].now };
		out->nchanges = nch;
		out->own = ch;
		ch = NULL;
		nch = 0;
	} else {
		/* stopped, nothing changed: the report of the real tree as it stands */
		run.to_real = identity_path;
		run.plan = plan_of(opdir, &o);
		run.script = script_real ? xstrdup(script_real) : NULL;
		run_gates(&run, &go, opdir, &o, run.script);
		out->report = instrument_report(&run);
	}
	rc = 0;
out:
	if (entered)
		stage_leave(&st);
	run_release(&run);
	stage_changes_free(ch, nch);
	stage_close(&st);
	project_free(real);
	free(rules_abs);
	free(script_real);
	free(script_staged);
	free(journal);
	return rc;
}

void instrument_outcome_release(struct instrument_outcome *out)
{
	cJSON_Delete(out->report);
	stage_changes_free(out->own, out->nchanges);
	free(out->changes);
	memset(out, 0, sizeof(*out));
}

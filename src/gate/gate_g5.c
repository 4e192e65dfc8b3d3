/* G5: the profiling dir, chrome trace and point map values that cross a
 * spawn (multiprocessing.spawn and the like) are made absolute before it.
 * A relative flow is reported where it crosses the spawn, with where the
 * value comes from (the option, the assignment) as the related location. */
#include <stdlib.h>
#include <string.h>

#include "g5_env.h"
#include "gate_run.h"
#include "project_py.h"
#include "xalloc.h"

struct g5 {
	struct project_model *p;
	struct gate_report *r;
	const struct src_file *f;
	struct py_module *m;
	struct project_py_option *opts;
	size_t nopt;
};

static const char *why =
	"save_profiling_data joins a relative directory to its own module's folder, and the ranks may not share the "
	"parent's working directory";

/* Is `name` an argparse namespace (name = <...>.parse_args(...))? */
static bool is_namespace(struct g5 *g, const char *name)
{
	for (size_t a = 0; a < g->m->nassigns; a++) {
		const struct py_assign *as = &g->m->assigns[a];
		if (as->ntargets == 1 && !as->unpacks && strcmp(as->targets[0].text, name) == 0 && as->call != PY_NONE &&
		    strcmp(g->m->calls[as->call].name, "parse_args") == 0)
			return true;
	}
	return false;
}

static const struct project_py_option *option(struct g5 *g, const char *dest)
{
	for (size_t i = 0; i < g->nopt; i++)
		if (strcmp(g->opts[i].dest, dest) == 0)
			return &g->opts[i];
	return NULL;
}

/* Is a statement that makes `ns.dest` absolute before spawn `sp`? Returns
 * 1 before, 2 only after (its line in *line), 0 none. */
static int made_absolute(struct g5 *g, const char *ns, const char *dest, const struct py_call *sp, size_t *line)
{
	struct py_module *m = g->m;
	size_t n = strlen(ns) + strlen(dest) + 2;
	char *attr = xmalloc(n);
	int found = 0;

	snprintf(attr, n, "%s.%s", ns, dest);
	for (size_t a = 0; a < m->nassigns && found != 1; a++) {
		const struct py_assign *as = &m->assigns[a];
		if (as->ntargets != 1 || strcmp(as->targets[0].text, attr) != 0 ||
		    !project_py_abs_expr(m, as->value_tok_start, as->value_tok_end))
			continue;
		if (py_dominates(m, project_py_top(m, as->stmt), sp->stmt)) {
			found = 1;
		} else if (as->value.start > sp->range.start && !found) {
			found = 2;
			*line = src_file_line(g->f, as->value.start);
		}
	}
	/* for name in ("profiling_dir", ...): setattr(ns, name, <absolute>) */
	for (size_t c = 0; c < m->ncalls && found != 1; c++) {
		const struct py_call *s = &m->calls[c];
		bool names = false;
		if (strcmp(s->callee_text, "setattr") != 0 || s->nargs < 3 ||
		    strcmp(py_text(m, s->args[0].tok_start, s->args[0].tok_end), ns) != 0 ||
		    !project_py_abs_expr(m, s->args[2].tok_start, s->args[2].tok_end))
			continue;
		{
			char *lit = py_string_value(m, s->args[1].tok_start);
			if (lit && s->args[1].tok_end == s->args[1].tok_start + 1 && strcmp(lit, dest) == 0)
				names = true;
			free(lit);
		}
		for (int st = m->stmts[s->stmt].parent; !names && st != PY_NONE; st = m->stmts[st].parent) {
			if (m->stmts[st].kind != PY_STMT_FOR)
				continue;
			for (size_t t = m->stmts[st].tok_start; t < m->stmts[st].tok_end && !names; t++) {
				char *lit = py_string_value(m, t);
				if (lit && strcmp(lit, dest) == 0)
					names = true;
				free(lit);
			}
		}
		if (!names)
			continue;
		if (py_dominates(m, project_py_top(m, s->stmt), sp->stmt)) {
			found = 1;
		} else if (s->range.start > sp->range.start && !found) {
			found = 2;
			*line = src_file_line(g->f, s->range.start);
		}
	}
	free(attr);
	return found;
}

static void check_option(struct g5 *g, const char *ns, const char *dest, const struct py_call *sp, struct py_range at)
{
	const struct project_py_option *o = option(g, dest);
	size_t line = 0, fn = strlen(ns) * 2 + strlen(dest) * 2 + 64;
	char *fix;
	int how;
	struct gate_finding *fd;

	if (o) {
		const struct py_arg *type = project_py_arg(&g->m->calls[o->call], "type", -1);
		if (type && project_py_abs_expr(g->m, type->tok_start, type->tok_end))
			return;
	}
	how = made_absolute(g, ns, dest, sp, &line);
	if (how == 1)
		return;
	fix = xmalloc(fn);
	snprintf(fix, fn, "before the spawn: %s.%s = str(Path(%s.%s).expanduser().resolve())", ns, dest, ns, dest);
	if (how == 2)
		fd = gate_add(g->r, GATE_RULE_G5_RELATIVE, DIAG_ERROR, gate_loc_at(g->f, at.start, at.end), fix,
			      "%s.%s crosses the spawn at line %zu before it is made absolute (line %zu, after the spawn)", ns,
			      dest, src_file_line(g->f, sp->range.start), line);
	else
		fd = gate_add(g->r, GATE_RULE_G5_RELATIVE, DIAG_ERROR, gate_loc_at(g->f, at.start, at.end), fix,
			      "%s.%s crosses the spawn at line %zu as given on the command line, maybe relative: %s", ns, dest,
			      src_file_line(g->f, sp->range.start), why);
	if (o)
		gate_relate(fd, gate_loc_at(g->f, g->m->calls[o->call].range.start, g->m->calls[o->call].range.end),
			    "the value of %s.%s comes from here", ns, dest);
	free(fix);
}

/* A plain variable crossing the spawn: its last assignment before it. */
static void check_variable(struct g5 *g, const char *name, const struct py_call *sp, struct py_range at)
{
	struct py_module *m = g->m;
	const struct py_assign *last = NULL;
	int func = m->stmts[sp->stmt].func;
	struct gate_finding *fd;
	size_t fn = strlen(name) * 2 + 64;
	char *fix;

	for (size_t a = 0; a < m->nassigns; a++) {
		const struct py_assign *as = &m->assigns[a];
		if (as->ntargets == 1 && !as->unpacks && strcmp(as->targets[0].text, name) == 0 &&
		    as->value.start < sp->range.start && m->stmts[as->stmt].func == func)
			last = as;
	}
	if (!last || project_py_abs_expr(m, last->value_tok_start, last->value_tok_end))
		return;
	/* v = ns.dest: the option's own flow */
	if (last->value_tok_end == last->value_tok_start + 3 && py_tok_is(m, last->value_tok_start + 1, ".")) {
		const char *ns = py_text(m, last->value_tok_start, last->value_tok_start + 1);
		const char *dest = py_text(m, last->value_tok_start + 2, last->value_tok_start + 3);
		if (is_namespace(g, ns)) {
			check_option(g, ns, dest, sp, at);
			return;
		}
	}
	fix = xmalloc(fn);
	snprintf(fix, fn, "before the spawn: %s = str(Path(%s).expanduser().resolve())", name, name);
	fd = gate_add(g->r, GATE_RULE_G5_RELATIVE, DIAG_ERROR, gate_loc_at(g->f, at.start, at.end), fix,
		      "%s crosses the spawn at line %zu without being made absolute: %s", name,
		      src_file_line(g->f, sp->range.start), why);
	gate_relate(fd, gate_loc_at(g->f, last->value.start, last->value.end), "the value of %s comes from here", name);
	free(fix);
}

static void check_spawn(struct g5 *g, const struct py_call *sp)
{
	struct py_module *m = g->m;
	const struct py_arg *a = project_py_arg(sp, "args", strcmp(sp->name, "Process") == 0 ? -1 : 1);
	size_t i, j, from;

	if (!a || a->tok_start >= a->tok_end)
		return;
	i = a->tok_start;
	j = a->tok_end;
	if ((py_tok_is(m, i, "(") || py_tok_is(m, i, "[")) && m->match[i] == j - 1) {
		i++;
		j--;
	}
	from = i;
	for (size_t k = i; k <= j; k++) {
		struct py_range at;
		if (k < j && m->match[k] != (size_t)-1 && m->match[k] > k) {
			k = m->match[k];
			continue;
		}
		if (k < j && !py_tok_is(m, k, ","))
			continue;
		if (from < k) {
			at.start = m->toks[from].start;
			at.end = m->toks[k - 1].end;
			if (k == from + 1 && m->toks[from].kind == PY_TOK_NAME) {
				const char *name = py_text(m, from, k);
				if (is_namespace(g, name)) {
					for (size_t o = 0; o < g->nopt; o++)
						if (project_py_path_name(g->opts[o].dest))
							check_option(g, name, g->opts[o].dest, sp, at);
				} else if (project_py_path_name(name)) {
					check_variable(g, name, sp, at);
				}
			} else if (k == from + 3 && py_tok_is(m, from + 1, ".") && m->toks[from].kind == PY_TOK_NAME) {
				const char *ns = py_text(m, from, from + 1), *dest = py_text(m, from + 2, from + 3);
				if (is_namespace(g, ns) && project_py_path_name(dest))
					check_option(g, ns, dest, sp, at);
			}
		}
		from = k + 1;
	}
}

void gate_g5(struct project_model *p, struct gate_report *r)
{
	if (p->without_samples) {
		gate_samples_left_out(p, r, GATE_G5);
		return;
	}
	if (p->nsamples == 0)
		gate_add(r, GATE_RULE_G5_RELATIVE, DIAG_ERROR, gate_anchor_loc(p, PROJECT_ANCHOR_TORCH_NAME),
			 "extend the samples or tests that run the operator (G4), then make their paths absolute",
			 "no sample or test calls the operator (looked for %s): no profiling path to check",
			 project_searched_text(p).s);
	for (size_t s = 0; s < p->nsamples; s++) {
		struct g5 g = { p, r, p->samples[s].f, p->samples[s].py, NULL, 0 };
		g.opts = project_py_options(g.m, &g.nopt);
		for (size_t c = 0; c < g.m->ncalls; c++)
			if (project_py_is_spawn(&g.m->calls[c])) {
				check_spawn(&g, &g.m->calls[c]);
				g5_check_env(r, g.f, g.m, &g.m->calls[c]);
			}
		project_py_options_free(g.opts, g.nopt);
	}
}

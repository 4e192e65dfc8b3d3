/* wire, aclnn layer: the hand-written aclnn entry points (op_api / pregen
 * .cpp files and the aclnn_*.h headers they include): the profiling tensor
 * after the last tensor parameter, in the type the file writes, and passed on
 * by every forwarding call where its callee takes it. A call of
 * aclnnInner<Op>GetWorkspaceSize with no declaration in sight follows the
 * declaration the build generates from the OpDef (project_aclnn_gen.h):
 * checked against it, the profiling tensor after the last output. */
#include <stdlib.h>
#include <string.h>

#include "path_glob.h"
#include "project_aclnn_gen.h"
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

/* The parameter's type as the file writes it ("const aclTensor* ", "aclTensor *"). */
static char *written_type(const struct src_file *f, const struct aclnn_param *p)
{
	uint32_t end = p->range.end;

	if (p->name && end - p->range.start >= strlen(p->name))
		end -= (uint32_t)strlen(p->name);
	return xstrndup(f->data + p->range.start, end - p->range.start);
}

/* The profiling parameter of an aclnn function: its index, else where it goes
 * (after the last tensor), as *at; returns true when it is there already. */
static bool aclnn_prof_at(const struct wire *w, const struct aclnn_func *fn, long *at)
{
	long last = -1;

	for (size_t k = 0; k < fn->nparams; k++) {
		if (fn->params[k].name && tv_names_profiling(fn->params[k].name, w->prof)) {
			*at = (long)k;
			return true;
		}
		if (fn->params[k].tensor)
			last = (long)k;
	}
	*at = last < 0 ? -1 : last + 1;
	return false;
}

/* The declaration or definition of `name` among the aclnn files read. */
static const struct aclnn_func *aclnn_decl(const struct wire *w, const char *name, const struct aclnn_file *extra)
{
	for (size_t i = 0; extra && i < extra->nfuncs; i++)
		if (strcmp(extra->funcs[i].name, name) == 0)
			return &extra->funcs[i];
	for (size_t a = 0; a < w->p->naclnns; a++)
		for (size_t i = 0; i < w->p->aclnns[a].ac.nfuncs; i++)
			if (strcmp(w->p->aclnns[a].ac.funcs[i].name, name) == 0)
				return &w->p->aclnns[a].ac.funcs[i];
	return NULL;
}

/* A forwarding call of the op's aclnnInner API that no file declares: the
 * generated declaration says where the profiling tensor goes, *at, and
 * whether the call already passes an argument there (*filled); false after
 * reporting a call that does not match it. */
static bool generated_prof_at(struct wire *w, const struct src_file *f, const struct aclnn_func *fn,
			      const struct aclnn_call *call, long *at, bool *filled)
{
	struct aclnn_gen g;
	struct aclnn_gen_match m;
	bool ok;

	aclnn_gen_inner(w->p->op, w->prof, &g);
	aclnn_gen_match(&g, fn, call, w->prof, &m);
	ok = m.ok;
	if (!ok) {
		char *params = aclnn_gen_params_text(&g);
		struct aclnn_range r = m.bad_arg < call->nargs ? call->arg_ranges[m.bad_arg] : call->range;
		wire_manual(w, f, r.start, r.end,
			    "%s: no declaration of %s is in sight, so the one the build generates from the OpDef '%s' decides "
			    "-- %s(%s); make this call pass its arguments in that order (or declare the function as the "
			    "project builds it)", m.why, call->callee, w->p->op->name, call->callee, params);
		free(params);
	} else {
		*at = (long)m.prof_at;
		*filled = m.has_prof;
	}
	aclnn_gen_match_release(&m);
	aclnn_gen_release(&g);
	return ok;
}

static void wire_aclnn_file(struct wire *w, const struct src_file *f, const struct aclnn_file *ac)
{
	const char *op = w->p->op->name;

	for (size_t i = 0; i < ac->nfuncs; i++) {
		const struct aclnn_func *fn = &ac->funcs[i];
		long at;
		bool has;
		const char *pname = w->prof_camel;
		if (!aclnn_of_op(fn->name, op))
			continue;
		has = aclnn_prof_at(w, fn, &at);
		if (has) {
			pname = fn->params[at].name;
		} else if (at < 0) {
			wire_manual(w, f, fn->name_range.start, fn->name_range.end,
				    "%s has no tensor parameter: add 'aclTensor *%s' after its last output", fn->name, w->prof_camel);
			continue;
		} else {
			const struct aclnn_param *last = &fn->params[at - 1];
			char *type = written_type(f, last), *t = xasprintf(", %s%s", type, w->prof_camel);
			wire_edit(w, f, last->range.end, last->range.end, t, "aclnn: '%s%s' after '%s' in the %s of %s", type,
				  w->prof_camel, last->name ? last->name : "the last tensor", fn->definition ? "definition" : "declaration",
				  fn->name);
			free(t);
			free(type);
		}
		/* a definition forwards to aclnnInner*: the argument where the callee takes it */
		for (size_t c = 0; c < fn->ncalls; c++) {
			const struct aclnn_call *call = &fn->calls[c];
			const struct aclnn_func *callee;
			long cat = -1;
			bool passed = false, filled = false;
			if (!aclnn_of_op(call->callee, op))
				continue;
			for (size_t a = 0; a < call->nargs; a++)
				passed = passed || tv_names_profiling(call->args[a], w->prof);
			if (passed)
				continue;
			callee = aclnn_decl(w, call->callee, ac);
			if (callee) {
				if (aclnn_prof_at(w, callee, &cat))
					filled = call->nargs == callee->nparams;
			} else if (aclnn_gen_is_inner(call->callee, op) && !generated_prof_at(w, f, fn, call, &cat, &filled)) {
				continue;
			}
			if (filled && cat >= 0 && (size_t)cat < call->nargs) {
				/* the call has the argument already: a null placeholder gets the
				   tensor, anything else is the user's to say */
				const struct aclnn_range *r = &call->arg_ranges[cat];
				if (tv_is_null_text(call->args[cat]))
					wire_edit(w, f, r->start, r->end, pname, "aclnn: %s passes '%s' to %s as argument %ld, where it "
						  "passed %s", fn->name, pname, call->callee, cat + 1, call->args[cat]);
				else
					wire_manual(w, f, r->start, r->end,
						    "%s passes '%s' as argument %ld of %s, where it takes the profiling tensor: pass "
						    "'%s' there", fn->name, call->args[cat], cat + 1, call->callee, pname);
				continue;
			}
			if (cat < 0 || (size_t)cat > call->nargs) {
				wire_manual(w, f, call->range.start, call->range.end,
					    "pass '%s' to %s where its declaration takes the profiling tensor (after the last output)",
					    pname, call->callee);
				continue;
			}
			{
				uint32_t pos = (size_t)cat < call->nargs ? call->arg_ranges[cat].start : call->arg_ranges[cat - 1].end;
				uint32_t ls = wire_line_start(f, pos);
				bool own_line = (size_t)cat < call->nargs && cat > 0;
				char *t, *ind = wire_indent_at(f, pos);
				/* one argument per line: the new one on a line of its own */
				for (uint32_t k = ls; own_line && k < pos; k++)
					own_line = f->data[k] == ' ' || f->data[k] == '\t';
				if (own_line)
					t = xasprintf("%s,\n%s", pname, ind);
				else
					t = (size_t)cat < call->nargs ? xasprintf("%s, ", pname) : xasprintf(", %s", pname);
				free(ind);
				wire_edit(w, f, pos, pos, t, "aclnn: %s forwards '%s' to %s as argument %ld%s", fn->name, pname,
					  call->callee, cat + 1, callee ? "" : " (its generated declaration, from the OpDef)");
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
			project_aclnn(h->data, h->len, &ac);
			wire_aclnn_file(w, h, &ac);
			aclnn_file_release(&ac);
		}
		free(hs);
	}
}

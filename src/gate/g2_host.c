/* G2 on the op_host side: the OpDef (and each OpAICoreConfig of it that
 * declares outputs) declares the profiling output last,
 * REQUIRED/OPTIONAL as the mode says, int64; infer sets its shape (1-D, from
 * a named bound) and data type on every path. */
#include <stdlib.h>
#include <string.h>

#include "g2_checks.h"
#include "gate_run.h"
#include "project_tokens.h"
#include "xalloc.h"

/* One declaration of the op's inputs and outputs: the OpDef's own chains,
 * or those of one OpAICoreConfig variable (a per-SoC override). */
struct decl_list {
	char *owner;                  /* "'Foo'", "the OpAICoreConfig 'c' of 'Foo'" */
	char *subject;                /* "the OpDef of 'Foo'", "the OpAICoreConfig 'c' of 'Foo' (ascend310p)" */
	char *head;                   /* what its chains start with: "this->", "c." */
	const struct opdef_param *params;
	size_t nparams, noutputs;
	long last_output;
	bool config;                  /* a per-SoC override, held to the OpDef's position */
};

static void decl_list_release(struct decl_list *d)
{
	free(d->owner);
	free(d->subject);
	free(d->head);
}

/* The profiling output of d: there, an output, last, at the OpDef's
 * position (a config), REQUIRED/OPTIONAL as the mode says, int64. */
static void check_decl_list(struct project_model *p, struct gate_report *r, const struct src_file *f,
			    const struct opdef_op *op, const struct decl_list *d)
{
	long prof = -1, k = 0, nout_after = 0;

	for (size_t i = 0; i < d->nparams; i++) {
		const struct opdef_param *q = &d->params[i];
		if (!tv_names_profiling(q->name, p->profiling))
			continue;
		if (!q->output) {
			char *hint = xasprintf("declare it with %sOutput(...)", d->head);
			gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, q->chain.start, q->chain.start + 10), hint,
				 "'%s' is declared as an input of %s; it must be an output", q->name, d->owner);
			free(hint);
			continue;
		}
		prof = (long)i;
	}
	if (prof < 0) {
		uint32_t at = d->last_output >= 0 ? d->params[d->last_output].chain.start : op->body.start;
		uint32_t end = d->last_output >= 0 ? d->params[d->last_output].chain.end : op->body.start + 1;
		char *hint;
		if (d->noutputs == 0 && op->body.end == 0) {
			at = d->params[0].chain.start;
			end = d->params[0].chain.end;
		}
		if (d->config || op->from_config >= 0)
			hint = xasprintf("after its last Output chain add: %sOutput(\"%s\").ParamType(%s).DataType({ge::DT_INT64, ...})"
					 ".Format({ge::FORMAT_ND, ...}); with as many entries as its other outputs' lists",
					 d->head, p->profiling, p->required ? "REQUIRED" : "OPTIONAL");
		else
			hint = xasprintf("after the last Output chain add: %sOutput(\"profiling_data\").ParamType(REQUIRED)"
					 ".DataType({ge::DT_INT64}).Format({ge::FORMAT_ND});", d->head);
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, at, end), hint, "%s has no output '%s'",
			 d->subject, p->profiling);
		free(hint);
		return;
	}
	for (size_t i = (size_t)prof + 1; i < d->nparams; i++)
		if (d->params[i].output) {
			if (nout_after++ == 0) {
				const struct opdef_param *q = &d->params[prof];
				gate_add(r, GATE_RULE_G2_LAST, DIAG_ERROR, gate_loc_at(f, q->name_lit.start, q->name_lit.end),
					 g2_fix_last, "'%s' is not the last output of %s: '%s' follows it (line %zu)", q->name,
					 d->owner, d->params[i].name, src_file_line(f, d->params[i].chain.start));
			}
		}
	for (size_t i = 0; i < (size_t)prof; i++)
		if (d->params[i].output)
			k++;
	{
		const struct opdef_param *q = &d->params[prof];
		enum opdef_param_type want = p->required ? OPDEF_REQUIRED : OPDEF_OPTIONAL;
		char *who = d->config ? xasprintf("'%s' of %s", q->name, d->owner) : xasprintf("'%s'", q->name);
		if (d->config && nout_after == 0 && p->op && p->prof_out >= 0 && k != p->prof_out) {
			struct gate_finding *fd = gate_add(
				r, GATE_RULE_G2_POSITION, DIAG_ERROR, gate_loc_at(f, q->name_lit.start, q->name_lit.end),
				"declare in the config the outputs of the OpDef, in its order, then the profiling output",
				"%s is its output %ld, but the OpDef of '%s' puts it at output %ld", who, k + 1, op->name,
				p->prof_out + 1);
			g2_relate_opdef(fd, p);
		}
		if (q->type != want)
			gate_add(r, GATE_RULE_G2_MODE, DIAG_ERROR,
				 q->type == OPDEF_UNSET ? gate_loc_at(f, q->name_lit.start, q->name_lit.end)
							: gate_loc_at(f, q->type_arg.start, q->type_arg.end),
				 p->required ? "use .ParamType(REQUIRED), or say 'profiling \"...\" optional;' in the rules (mode A)"
					     : "use .ParamType(OPTIONAL), or say 'profiling \"...\" required;' in the rules (mode B)",
				 "%s is %s, but the rules say %s (mode %s)", who,
				 q->type == OPDEF_UNSET ? "without a ParamType" : opdef_param_type_name(q->type),
				 p->required ? "required" : "optional", p->required ? "B" : "A");
		for (size_t t = 0; t < q->ndtypes; t++)
			if (!strstr(q->dtypes[t], "DT_INT64")) {
				gate_add(r, GATE_RULE_G2_DTYPE, DIAG_ERROR, gate_loc_at(f, q->chain.start, q->chain.end),
					 "use .DataType({ge::DT_INT64})", "%s has data type %s; profiling records are int64", who,
					 q->dtypes[t]);
				break;
			}
		free(who);
	}
}

/* "ascend310p, ascend910b" (newly allocated; "" when it is registered nowhere in sight). */
static char *socs_text(const struct opdef_config *c)
{
	size_t cap = 1;
	char *s;

	for (size_t i = 0; i < c->nsocs; i++)
		cap += strlen(c->socs[i]) + 2;
	s = xmalloc(cap);
	s[0] = '\0';
	for (size_t i = 0; i < c->nsocs; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, c->socs[i]);
	}
	return s;
}

void g2_check_opdef(struct project_model *p, struct gate_report *r)
{
	bool any = false;

	if (project_launch_form(p))
		return; /* a direct launch: an OpDef there describes the tiling context, no layer (g2_binding.c) */

	for (size_t h = 0; h < p->nhosts; h++) {
		const struct src_file *f = p->hosts[h].f;
		for (size_t o = 0; o < p->hosts[h].od.nops; o++) {
			const struct opdef_op *op = &p->hosts[h].od.ops[o];
			struct decl_list d;
			if (op->name[0] && project_profiling_suffix(op->name)) {
				struct opdef_range at = op->class_name.end > op->class_name.start ? op->class_name : op->op_add;
				gate_add(r, GATE_RULE_G2_NAME, DIAG_ERROR, gate_loc_at(f, at.start, at.end),
					 "keep one operator: add the profiling output to the original op under its own name",
					 "'%s' looks like a second operator for profiling; profiling is an extra output of the same op",
					 op->name);
			}
			if (op->nparams == 0 || (p->op && p->op->name[0] && strcmp(op->name, p->op->name) != 0))
				continue; /* (another operator of the directory: not this run's) */
			any = true;
			/* its own list: the this-> chains, or the config they were read from */
			memset(&d, 0, sizeof(d));
			d.owner = xasprintf("'%s'", op->name);
			d.subject = xasprintf("the OpDef of '%s'", op->name);
			d.head = op->from_config >= 0 ? xasprintf("%s.", op->configs[op->from_config].var) : xstrdup("this->");
			d.params = op->params;
			d.nparams = op->nparams;
			d.noutputs = op->noutputs;
			d.last_output = op->last_output;
			check_decl_list(p, r, f, op, &d);
			decl_list_release(&d);
			/* each other config that declares outputs: the SoCs it is
			   registered for take the op's outputs from it */
			for (size_t c = 0; c < op->nconfigs; c++) {
				const struct opdef_config *cfg = &op->configs[c];
				char *socs;
				if ((long)c == op->from_config || cfg->noutputs == 0)
					continue;
				socs = socs_text(cfg);
				d.owner = xasprintf("the OpAICoreConfig '%s' of '%s'", cfg->var, op->name);
				d.subject = xasprintf("%s%s%s%s", d.owner, socs[0] ? " (" : "", socs, socs[0] ? ")" : "");
				d.head = xasprintf("%s.", cfg->var);
				d.params = cfg->params;
				d.nparams = cfg->nparams;
				d.noutputs = cfg->noutputs;
				d.last_output = cfg->last_output;
				d.config = true;
				check_decl_list(p, r, f, op, &d);
				decl_list_release(&d);
				free(socs);
			}
		}
	}
	if (!any)
		gate_add(r, GATE_RULE_G2_LAYER, DIAG_ERROR, gate_loc_path(NULL, 0, 0),
			 "point the rules' 'host' patterns at the OpDef sources",
			 "no OpDef (this->Input/Output chains, or those of an OpAICoreConfig) in the files matching %s",
			 project_globs_text(&p->policy->host).s);
}

/* Where the operator's registration naming an InferShape (InferDataType)
 * function is: the finding that the function never sets the output points
 * there (they may be registered apart, op_host and the graph plugin). */
static struct gate_loc registration_loc(const struct project_model *p, enum infer_use_kind kind)
{
	const struct project_infer *file;
	const struct infer_impl *impl = project_infer_registration(p, kind, &file);

	return impl ? gate_loc_at(file->f, impl->range.start, impl->range.end) : gate_loc_path(p->infers[0].f->path, 0, 0);
}

static bool names_prof_const(const char *text)
{
	char *k = tv_name_key(text);
	bool yes = strstr(k, "prof") != NULL;

	free(k);
	return yes;
}

void g2_check_infer(struct project_model *p, struct gate_report *r)
{
	const struct opdef_op *op = p->op;
	long want = p->prof_out;
	bool shape = false, dtype = false, any = false, misplaced = false;
	const struct infer_impl *reg;

	if (!op || want < 0 || project_launch_form(p))
		return;
	reg = project_infer_impl(p, NULL);
	if (!reg) {
		/* a layer the operator does not have: absent, not passed */
		gate_add(r, GATE_RULE_G2_LAYER, DIAG_NOTE, gate_loc_path(p->op_file ? p->op_file->path : NULL, 0, 0), NULL,
			 "absent: no infer source (%s) registers InferShape for '%s': not checked; whoever registers one "
			 "sets the shape and data type of '%s' (output %ld)",
			 project_globs_text(&p->policy->infer).s, op->name, p->profiling, want);
		return;
	}
	for (size_t i = 0; i < p->ninfers; i++) {
		const struct src_file *f = p->infers[i].f;
		const struct infer_file *inf = &p->infers[i].inf;
		const struct infer_impl *impl = NULL;
		bool named = false;
		for (size_t m = 0; m < inf->nimpls; m++)
			if (strcmp(inf->impls[m].op, op->name) == 0)
				impl = &inf->impls[m];
		/* a constant named for profiling says which index infer means */
		for (size_t u = 0; u < inf->nuses; u++)
			if (infer_impl_has(impl, inf->uses[u].func) && names_prof_const(inf->uses[u].index_text))
				named = true;
		for (size_t u = 0; u < inf->nuses; u++) {
			const struct infer_use *use = &inf->uses[u];
			const char *what = use->kind == INFER_SHAPE ? "GetOutputShape" : "SetOutputDataType";
			if (!infer_impl_has(impl, use->func))
				continue;
			any = true;
			if (use->index >= (long)op->noutputs) {
				gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
					 gate_loc_at(f, use->index_arg.start, use->index_arg.end),
					 "index the outputs as the OpDef declares them",
					 "%s(%s) is output %ld, but the OpDef of '%s' has %zu outputs", what, use->index_text,
					 use->index, op->name, op->noutputs);
				continue;
			}
			if (use->index >= 0 && use->index != want && names_prof_const(use->index_text)) {
				misplaced = true;
				gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
					 gate_loc_at(f, use->index_arg.start, use->index_arg.end),
					 "give the constant the position of the profiling output in the OpDef",
					 "%s is %ld, but '%s' is output %ld of '%s'", use->index_text, use->index,
					 p->profiling, want, op->name);
				continue;
			}
			if (use->index != want || (named && !names_prof_const(use->index_text)))
				continue;
			if (use->kind == INFER_SHAPE) {
				bool set = false, cond_only = true;
				const struct infer_dim *cond_dim = NULL;
				shape = true;
				if (use->conditional)
					gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR, gate_loc_at(f, use->call.start, use->call.end),
						 "set the profiling shape on every path, like the main outputs'",
						 "the shape of '%s' is taken inside a condition in %s()", p->profiling,
						 use->func);
				for (size_t d = 0; use->var && d < inf->ndims; d++) {
					const struct infer_dim *dim = &inf->dims[d];
					if (strcmp(dim->var, use->var) != 0 || strcmp(dim->func, use->func) != 0)
						continue;
					if (dim->is_num) {
						if (dim->has_value && dim->value != 1)
							gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR,
								 gate_loc_at(f, dim->expr_range.start, dim->expr_range.end),
								 "use SetDimNum(1): one int64 vector of all slots",
								 "'%s' has %lld dimensions; the profiling tensor is 1-D", p->profiling,
								 (long long)dim->value);
						continue;
					}
					if (dim->dim > 0)
						continue;
					set = true;
					if (!dim->conditional)
						cond_only = false;
					else if (!cond_dim)
						cond_dim = dim;
					if (dim->runtime_call)
						gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR,
							 gate_loc_at(f, dim->expr_range.start, dim->expr_range.end),
							 "size it from a named upper bound: MAX_INFER_GETBLOCKNUM_UB * SLOTS_PER_GROUP * PROF_SIZE_PER_CORE",
							 "the size of '%s' is computed at run time (%s): infer cannot know the core count, "
							 "size it from an upper bound", p->profiling, dim->runtime_call);
					else if (dim->literal)
						gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR,
							 gate_loc_at(f, dim->expr_range.start, dim->expr_range.end),
							 "name the bound: constexpr int64_t MAX_INFER_GETBLOCKNUM_UB = 128; and use it",
							 "the size of '%s' hard-codes %s (a core count?): use a named upper bound",
							 p->profiling, dim->literal);
					else if (!dim->named)
						gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR,
							 gate_loc_at(f, dim->expr_range.start, dim->expr_range.end),
							 "size it from named constants: MAX_INFER_GETBLOCKNUM_UB * SLOTS_PER_GROUP * PROF_SIZE_PER_CORE",
							 "the size of '%s' (%s) is not built from named bounds", p->profiling,
							 dim->expr);
				}
				if (!set)
					gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR, gate_loc_at(f, use->call.start, use->call.end),
						 "set it: SetDimNum(1); SetDim(0, MAX_INFER_GETBLOCKNUM_UB * SLOTS * PROF_SIZE_PER_CORE);",
						 "the shape of '%s' is taken but its size is never set", p->profiling);
				else if (cond_only && !use->conditional)
					gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR, gate_loc_at(f, cond_dim->call.start, cond_dim->call.end),
						 "set the profiling shape on every path, like the main outputs'",
						 "the size of '%s' is set only inside a condition", p->profiling);
			} else {
				dtype = true;
				if (use->conditional)
					gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR, gate_loc_at(f, use->call.start, use->call.end),
						 "set the profiling data type on every path",
						 "the data type of '%s' is set inside a condition in %s()", p->profiling,
						 use->func);
				if (use->dtype && !strstr(use->dtype, "DT_INT64"))
					gate_add(r, GATE_RULE_G2_DTYPE, DIAG_ERROR, gate_loc_at(f, use->call.start, use->call.end),
						 "use ge::DT_INT64", "the data type of '%s' is set to %s; profiling records are int64",
						 p->profiling, use->dtype);
			}
		}
	}
	if (!any) {
		gate_add(r, GATE_RULE_G2_LAYER, DIAG_ERROR, gate_loc_path(p->infers[0].f->path, 0, 0),
			 "point the rules' 'infer' patterns at the InferShape / InferDataType source",
			 "no GetOutputShape / SetOutputDataType in the infer sources of '%s'", op->name);
		return;
	}
	if (misplaced)
		return;
	/* a half no registration names is absent (InferShape and InferDataType
	   may be registered apart: op_host and the graph plugin) */
	if (!project_infer_registration(p, INFER_SHAPE, NULL))
		shape = true;
	if (!project_infer_registration(p, INFER_DTYPE, NULL))
		dtype = true;
	if (!shape)
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, registration_loc(p, INFER_SHAPE),
			 "in InferShape: GetOutputShape(OUTPUT_PROFILING_DATA)->SetDimNum(1) and SetDim(0, <named bound>)",
			 "InferShape never sets the shape of '%s' (output %ld)", p->profiling, want);
	if (!dtype)
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, registration_loc(p, INFER_DTYPE),
			 "in InferDataType: SetOutputDataType(OUTPUT_PROFILING_DATA, ge::DT_INT64)",
			 "InferDataType never sets the data type of '%s' (output %ld)", p->profiling, want);
}

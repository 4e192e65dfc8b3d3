/* wire's graph-prototype layer: the operator's REG_OP (op_graph/<op>_proto.h,
 * the rules' `graph` patterns), which graph mode reads instead of the OpDef,
 * gets the profiling output where the OpDef has it:
 *
 *   REG_OP(MoeOp)
 *       .INPUT(x, TensorType({DT_FLOAT16}))
 *       .OUTPUT(y, TensorType({DT_FLOAT16}))
 *       .OUTPUT(profiling_data, TensorType({DT_INT64}))     <- added
 *       .ATTR(k, Int, 1)
 *       .OP_END_FACTORY_REG(MoeOp)
 *
 * A project with no prototype of the operator has no such layer: nothing to
 * do (G2 says it is absent). */
#include <string.h>

#include "wire.h"
#include "xalloc.h"

#define GRAPH_PROF_TYPE "TensorType({DT_INT64})"

static const struct graph_op *find_reg_op(const struct project_model *p, const char *name,
					   const struct src_file **file)
{
	for (size_t i = 0; i < p->ngraphs; i++) {
		const struct graph_op *g = graph_find(&p->graphs[i].g, name);
		if (g) {
			*file = p->graphs[i].f;
			return g;
		}
	}
	return NULL;
}

/* The call after which the output goes, and the text that adds it there. */
static void add_output(struct wire *w, const struct src_file *f, const struct graph_op *g, const struct graph_io *after)
{
	char *text;

	if (after->line_first && after->rest_blank) {
		/* a line of its own, indented as the call before it */
		text = xasprintf("%.*s.OUTPUT(%s, " GRAPH_PROF_TYPE ")\n", (int)(after->start - after->indent_start),
				 f->data + after->indent_start, w->prof);
		wire_edit(w, f, after->line_end, after->line_end, text, "graph prototype: REG_OP(%s) outputs '%s'", g->name,
			  w->prof);
	} else {
		text = xasprintf(" .OUTPUT(%s, " GRAPH_PROF_TYPE ")", w->prof);
		wire_edit(w, f, after->end, after->end, text, "graph prototype: REG_OP(%s) outputs '%s'", g->name, w->prof);
	}
	free(text);
}

void wire_graph(struct wire *w)
{
	const struct opdef_op *op = w->p->op;
	const struct graph_op *g;
	const struct src_file *f = NULL;
	size_t want;

	if (!op || !op->name[0] || project_launch_form(w->p))
		return;
	g = find_reg_op(w->p, op->name, &f);
	if (!g)
		return;
	/* the OpDef's position of the output: where it is, else after its last output */
	want = w->p->prof_out >= 0 ? (size_t)w->p->prof_out : op->noutputs;
	for (size_t k = 0, out = 0; k < g->nio; k++) {
		const struct graph_io *io = &g->io[k];
		if (!io->output)
			continue;
		if (tv_names_profiling(io->name, w->prof)) {
			if (out != want)
				wire_manual(w, f, io->start, io->end,
					    "REG_OP(%s) declares '%s' as output %zu, the OpDef as output %zu: move this .OUTPUT "
					    "to that place", g->name, io->name, out + 1, want + 1);
			else if (!strstr(io->type, "DT_INT64"))
				wire_manual(w, f, io->start, io->end,
					    "make the type of '%s' in REG_OP(%s) " GRAPH_PROF_TYPE " (it is %s)", io->name,
					    g->name, io->type[0] ? io->type : "missing");
			return;
		}
		out++;
	}
	if (g->noutputs != want) {
		const struct graph_io *at = g->last_output >= 0 ? &g->io[g->last_output] : NULL;
		wire_manual(w, f, at ? at->start : g->name_start, at ? at->end : g->name_end,
			    "REG_OP(%s) declares %zu outputs, the OpDef %zu before '%s': add .OUTPUT(%s, " GRAPH_PROF_TYPE
			    ") as its output %zu by hand, as the OpDef has it",
			    g->name, g->noutputs, want, w->prof, w->prof, want + 1);
		return;
	}
	if (g->last_output >= 0)
		add_output(w, f, g, &g->io[g->last_output]);
	else if (g->last_input >= 0)
		add_output(w, f, g, &g->io[g->last_input]);
	else
		wire_manual(w, f, g->name_start, g->name_end,
			    "REG_OP(%s) declares no input or output: add .OUTPUT(%s, " GRAPH_PROF_TYPE ") to it by hand",
			    g->name, w->prof);
}

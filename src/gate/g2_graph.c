/* G2 on the graph prototype: the operator's REG_OP (op_graph/<op>_proto.h),
 * which graph mode reads instead of the OpDef, declares the profiling output
 * at the OpDef's position among its outputs, as a DT_INT64 tensor. An
 * operator whose directory holds no REG_OP of it has no such layer. */
#include <string.h>

#include "g2_checks.h"
#include "gate_run.h"

static void check_one(const struct project_model *p, const struct src_file *f, const struct graph_op *g,
		      struct gate_report *r)
{
	size_t want = (size_t)p->prof_out, out;
	long k = graph_prof_io(g, p->profiling, &out);

	if (k >= 0) {
		const struct graph_io *io = &g->io[k];
		if (!io->output) {
			gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, io->start, io->end),
				 "declare it with .OUTPUT(...)", "'%s' is an input of REG_OP(%s); it must be an output",
				 io->name, g->name);
			return;
		}
		if (out != want)
			g2_relate_opdef(gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR, gate_loc_at(f, io->start, io->end),
						 "declare the outputs of REG_OP in the OpDef's order",
						 "'%s' is output %zu of REG_OP(%s), but the OpDef puts it at %zu", io->name,
						 out + 1, g->name, want + 1),
					p);
		if (!strstr(io->type, "DT_INT64"))
			gate_add(r, GATE_RULE_G2_DTYPE, DIAG_ERROR, gate_loc_at(f, io->start, io->end),
				 "declare it .OUTPUT(profiling_data, TensorType({DT_INT64}))",
				 "'%s' has type %s in REG_OP(%s); profiling records are int64", io->name,
				 io->type[0] ? io->type : "(none)", g->name);
		return;
	}
	{
		const struct graph_io *at = g->last_output >= 0 ? &g->io[g->last_output] : NULL;
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR,
			 gate_loc_at(f, at ? at->start : g->name_start, at ? at->end : g->name_end),
			 "after its last .OUTPUT add: .OUTPUT(profiling_data, TensorType({DT_INT64}))",
			 "the graph prototype REG_OP(%s) has no output '%s' (graph mode reads it, not the OpDef)", g->name,
			 p->profiling);
	}
}

void g2_check_graph(struct project_model *p, struct gate_report *r)
{
	const struct opdef_op *op = p->op;

	if (!op || !op->name[0] || p->prof_out < 0 || project_launch_form(p))
		return;
	for (size_t i = 0; i < p->ngraphs; i++) {
		const struct graph_op *g = graph_find(&p->graphs[i].g, op->name);
		if (g)
			check_one(p, p->graphs[i].f, g, r);
	}
}

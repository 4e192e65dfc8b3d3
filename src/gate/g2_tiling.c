/* G2 on tiling: the op_host tiling of the operator reads outputs by index
 * (context->GetOutputShape(OUTPUT_Y)); every index it reads is one the
 * OpDef declares, and an output count it takes (GetComputeNodeOutputNum)
 * now counts the profiling output too. The profiling output comes last, so
 * the indices of the outputs before it are unchanged. */
#include <stdlib.h>
#include <string.h>

#include "g2_checks.h"
#include "g2_scope.h"
#include "gate_run.h"
#include "project_tokens.h"
#include "xalloc.h"

static const char *const reads[] = { "GetOutputShape", "GetOutputDesc", "GetOutputTensor", "GetOutput" };
static const char *const counts[] = { "GetComputeNodeOutputNum", "GetOutputsNum" };

static bool in(const char *const *v, size_t n, const struct tok_view *tv, size_t i)
{
	for (size_t k = 0; k < n; k++)
		if (tv_is(tv, i, v[k]))
			return true;
	return false;
}

static void check_file(const struct project_model *p, struct gate_report *r, const struct src_file *f)
{
	const struct opdef_op *op = p->op;
	struct tok_view tv;
	struct tv_consts consts = { NULL, 0, 0 };

	tok_view_init(&tv, f->data, f->len);
	tv_consts_collect(&tv, &consts);
	for (size_t i = 0; i + 1 < tv.n; i++) {
		int64_t v;
		size_t close;
		if (!tv_ident(&tv, i) || !tv_punct(&tv, i + 1, CXX_P_LPAREN) || (close = tv.match[i + 1]) == TV_NONE)
			continue;
		if (in(counts, sizeof(counts) / sizeof(counts[0]), &tv, i)) {
			gate_add(r, GATE_RULE_G2_POSITION, DIAG_WARNING, gate_loc_at(f, tv.v[i].start, tv.v[i + 1].end), NULL,
				 "the tiling counts the outputs of '%s': the count now includes '%s' (the last one); a loop "
				 "over them or \"the last output\" reaches it", op->name, p->profiling);
			continue;
		}
		if (!in(reads, sizeof(reads) / sizeof(reads[0]), &tv, i) || close == i + 2)
			continue;
		if (tv_eval(&tv, i + 2, close, &consts, &v) != 0 || v < 0)
			continue;
		if ((size_t)v >= op->noutputs) {
			char *idx = tv_text(&tv, i + 2, close);
			struct gate_finding *fd = gate_add(
				r, GATE_RULE_G2_POSITION, DIAG_ERROR, gate_loc_at(f, tv.v[i + 2].start, tv.v[close - 1].end),
				"index the outputs as the OpDef declares them (the profiling output is the last one)",
				"the tiling reads output %lld (%s), but the OpDef of '%s' has %zu outputs", (long long)v, idx,
				op->name, op->noutputs);
			free(idx);
			g2_relate_opdef(fd, p);
		}
	}
	tv_consts_release(&consts);
	tok_view_release(&tv);
}

void g2_check_tiling(const struct g2_scope *s, struct gate_report *r)
{
	if (!s->view.op || s->view.prof_out < 0)
		return;
	for (size_t i = 0; i < s->ntilings; i++)
		check_file(&s->view, r, s->tilings[i]);
}

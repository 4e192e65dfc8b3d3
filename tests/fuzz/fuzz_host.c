/* Fuzz target for the host-side C++ readers of wire and G2: the OpDef reader
 * (project_opdef, attributes too), the aclnn reader (project_aclnn, locals
 * too) with every call lined up against the generated aclnnInner list of
 * every op (project_aclnn_gen), and the binding reader (project_pybind) with
 * the autograd Function facts (project_autograd) of every class, apply call
 * and return; nothing may read outside the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "project_aclnn.h"
#include "project_aclnn_gen.h"
#include "project_autograd.h"
#include "project_opdef.h"
#include "project_pybind.h"
#include "src_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void autograd_facts(const struct src_file *f, const struct pybind_file *pb)
{
	for (size_t c = 0; c < pb->nautograds; c++) {
		const struct pybind_autograd *ag = &pb->autograds[c];
		struct pybind_range call, list, num;
		bool found;
		long value;
		if (ag->forward >= 0)
			(void)autograd_marks(f, pb, ag->forward, "profiling_data", &call, &list, &found);
		if (ag->backward >= 0)
			(void)autograd_grad_count(f, pb, ag->backward, &num, &value);
	}
	for (size_t a = 0; a < pb->napplies; a++)
		for (size_t r = 0; r < pb->nreturns; r++) {
			struct autograd_return_form form;
			if (pb->returns[r].func != pb->applies[a].func)
				continue;
			autograd_return_of(pb, pb->applies[a].func, &pb->returns[r], pb->applies[a].cls, &form);
			autograd_return_form_release(&form);
		}
	for (size_t r = 0; r < pb->nreturns; r++)
		if (pb->returns[r].func >= 0 && pb->returns[r].elems.n == 1)
			free(pybind_last_push(f, &pb->funcs[pb->returns[r].func], pb->returns[r].elems.v[0],
					      pb->returns[r].range.start));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct src_file *f = src_file_from_buffer("fuzz.cpp", (const char *)data, size);
	struct opdef_file od;
	struct aclnn_file ac;
	struct pybind_file pb;

	project_opdef(f->data, f->len, &od);
	project_aclnn(f->data, f->len, &ac);
	for (size_t o = 0; o < od.nops; o++) {
		struct aclnn_gen g;
		char *text;
		aclnn_gen_inner(&od.ops[o], "profiling_data", &g);
		text = aclnn_gen_params_text(&g);
		free(text);
		for (size_t i = 0; i < ac.nfuncs; i++)
			for (size_t c = 0; c < ac.funcs[i].ncalls; c++) {
				struct aclnn_gen_match m;
				aclnn_gen_match(&g, &ac.funcs[i], &ac.funcs[i].calls[c], "profiling_data", &m);
				aclnn_gen_match_release(&m);
			}
		aclnn_gen_release(&g);
	}
	project_pybind(f, &pb);
	autograd_facts(f, &pb);
	pybind_file_release(&pb);
	aclnn_file_release(&ac);
	opdef_file_release(&od);
	src_file_free(f);
	return 0;
}

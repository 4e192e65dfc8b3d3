/* The checks of G2, one file per layer pair (g2_host.c: OpDef and infer;
 * g2_graph.c: the graph prototype (REG_OP); g2_tiling.c: the tiling's output reads;
 * g2_kernel.c: the kernel entry, Init and the runtime; g2_aclnn.c: the aclnn
 * API; g2_binding.c: the torch binding, its registrations and schema;
 * g2_autograd.c: bindings returning an autograd Function's results;
 * g2_calls.c: the calls of the op in samples and tests), over G2's own view
 * of the project (g2_scope.h), and the helpers they share (gate_g2.c). */
#ifndef AUTOTRACE_G2_CHECKS_H
#define AUTOTRACE_G2_CHECKS_H

#include <stdbool.h>

#include "gate.h"
#include "project_model.h"

/* The fix of every "not the last output" finding. */
extern const char *const g2_fix_last;

/* A workspace or tiling parameter, which may follow the profiling tensor. */
bool g2_workspace_like(const char *name);
/* Attaches the OpDef's declaration of the profiling output to finding `fd`
 * as its related location: the other end of a position mismatch. */
void g2_relate_opdef(struct gate_finding *fd, const struct project_model *p);
/* The index of aclnn function fn's parameter named for the profiling output, or -1. */
long g2_aclnn_prof_param(const struct aclnn_func *fn, const char *prof);

void g2_check_opdef(struct project_model *p, struct gate_report *r);
void g2_check_infer(struct project_model *p, struct gate_report *r);
void g2_check_graph(struct project_model *p, struct gate_report *r);
void g2_check_kernel(struct project_model *p, struct gate_report *r);
void g2_check_aclnn(struct project_model *p, struct gate_report *r);
void g2_check_binding(struct project_model *p, struct gate_report *r);
void g2_check_autograd(struct project_model *p, struct gate_report *r);
/* Mode B: every return of binding function fi gives the profiling tensor last. */
void g2_check_returns(struct project_model *p, struct gate_report *r, const struct src_file *f,
		      const struct pybind_file *pb, long fi);
void g2_check_calls(struct project_model *p, struct gate_report *r);
struct g2_scope;
void g2_check_tiling(const struct g2_scope *s, struct gate_report *r);
void g2_check_decls(const struct g2_scope *s, struct gate_report *r);
void g2_check_fakes(const struct g2_scope *s, struct gate_report *r);
/* The direct-launch form (project_launch.h): the launch against the kernel
 * (g2_binding.c), the launched kernel's parameter, Init and runtime (g2_kernel.c). */
void g2_check_launch(struct project_model *p, struct gate_report *r);
void g2_check_launch_kernel(struct project_model *p, struct gate_report *r);

#endif

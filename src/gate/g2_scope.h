/* Where G2 looks: every file of the project that names the operator, found
 * by G2 itself, never taken from what wire or the project model found.
 *
 * The operator's names are its own: the OpDef class, the aclnn API
 * (aclnn<Op>GetWorkspaceSize, aclnnInner<Op>...), the kernel entry; then the
 * binding functions that run that API (EXEC_NPU_CMD) or launch that kernel
 * (EXEC_KERNEL_CMD, ACLRT_LAUNCH_KERNEL, <<<...>>>), the torch.ops names
 * registered with those functions, and the functions registered under those
 * names (meta / fake implementations, other dispatch keys), to a fixed point.
 * Each C/C++ and Python file under the project root is read once per round
 * and kept when it names one of them: the OpDef and infer sources in the
 * operator directory whatever their file names; the aclnn sources there or
 * outside every operator's op_host/op_kernel (a shared include directory;
 * another operator's op_host holding the same API is a copy, not this
 * operator's); bindings, registrations and samples anywhere under the root
 * (other operators' directories included: a binding shared by several
 * operators lives in any of them). Build trees (a directory holding CMakeCache.txt, build_out/) and
 * hidden directories are not read: they hold copies.
 *
 * The scope is a project_model whose layer arrays are G2's own (hosts,
 * infers, aclnns, pybinds, samples, the torch.ops names and binding
 * functions); the rules, root, mode and kernel outline are the model's
 * (borrowed). g2_scope_release frees what the scope owns. */
#ifndef AUTOTRACE_G2_SCOPE_H
#define AUTOTRACE_G2_SCOPE_H

#include <stddef.h>

#include "diag.h"
#include "project_decls.h"
#include "project_model.h"
#include "project_py_fake.h"

struct g2_scope {
	struct project_model view;
	struct src_file **tilings; /* the operator's tiling sources (IMPL_OP_OPTILING, or a *tiling* file naming it) */
	size_t ntilings;
	/* Python implementations registered for the torch.ops names (fake / meta) */
	struct g2_fakes { struct src_file *f; struct py_module *m; struct py_fake *v; size_t n; } *fakes;
	size_t nfakes;
	/* declarations of the binding functions (headers, forward declarations) */
	struct g2_decls { struct src_file *f; struct project_decls d; } *decls;
	size_t ndecls;
	char **paths;          /* every file read into a layer, as the model's paths are written */
	size_t npaths;
};

/* Finds the operator's files under p's project root. Returns 0 (a layer
 * found nowhere is left empty: G2 reports it), or -1 after reporting a root
 * that cannot be read. */
int g2_scope_load(const struct project_model *p, struct g2_scope *s, struct diag *diag);
void g2_scope_release(struct g2_scope *s);

#endif

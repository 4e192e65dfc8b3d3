/* The kernel side of the profiling output, from the C++ outline of the
 * kernel tree: each __global__ entry's parameter list; every kernel class
 * `Init` call it makes (one per tiling key or template branch in real
 * entries, and those inside a macro the entry expands), with the class of
 * the object it is called on; and, for each call, the `Init` definition it
 * reaches and the class body's declaration of it (an out-of-class definition
 * has both). Ranges are byte offsets into the files, which the struct owns,
 * for messages and for editors (wire inserts a GM_ADDR parameter / argument
 * at them).
 *
 * Ownership: project_kernels owns the files and strings; project_kernels_release
 * frees them. */
#ifndef AUTOTRACE_PROJECT_KERNEL_H
#define AUTOTRACE_PROJECT_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "rule_policy.h"
#include "src_file.h"

struct project_kparam {
	char *type;                 /* "GM_ADDR" */
	char *name;                 /* NULL when unnamed */
	uint32_t start, end;
};

/* True when a parameter type is a GM tensor (GM_ADDR, a __gm__ pointer). */
bool project_kparam_is_gm(const struct project_kparam *p);

/* An Init definition, or the declaration of one in its class body. */
struct project_kfunc {
	const struct src_file *file;
	char *qualified;                     /* "ns::Kernel::Init" */
	bool decl;                           /* a declaration (no body) */
	struct project_kparam *params;
	size_t nparams;
	uint32_t params_start, params_end;   /* the parentheses included */
	uint32_t body_open;                  /* definitions: the '{' */
};

/* An Init call of the entry. */
struct project_kcall {
	const struct src_file *file;         /* the entry's, or the macro's file */
	char *object;                        /* "op", or NULL */
	char *klass;                         /* the class of the object when found ("Kernel"), or NULL */
	char *macro;                         /* the macro that holds it, or NULL */
	bool klass_varies;                   /* in a macro whose parameter names the object's class,
						a different class at each use of the macro */
	const struct src_file *other_file;   /* a call of the same Init from another function of the
						kernel sources (not the entry), or NULL */
	uint32_t other_at;
	char **args;
	uint32_t *arg_start, *arg_end;
	size_t nargs;
	uint32_t start, end;                 /* callee to ')' */
	uint32_t args_start, args_end;       /* inside the parentheses */
	long def, decl;                      /* indices into the entry's funcs, or -1 */
};

struct project_kentry {
	char *name;                          /* the __global__ function */
	const struct src_file *file;         /* path: OPDIR/KERNEL/rel */
	struct project_kparam *params;
	size_t nparams;
	uint32_t params_start, params_end;   /* the parentheses included */
	struct project_kcall *calls;            /* every Init call, in source order */
	size_t ncalls;
	struct project_kfunc *funcs;            /* the definitions and declarations they reach, each once */
	size_t nfuncs;
	const struct src_file **closure;        /* the entry's file and what it includes, transitively */
	size_t nclosure;
};

struct project_kernels {
	struct project_kentry *v;
	size_t n;
	struct src_file **files;             /* owned */
	size_t nfiles;
	size_t nsources;                     /* C/C++ files read */
};

/* Reads every source under the kernel directory of `opdir` (a path as the
 * user should see it, e.g. "op") and the includes it follows, scanned as
 * the rules say (kernel_scan.h). Returns 0, or -1 after reporting a root
 * that cannot be read. Code the scanner cannot follow is passed over
 * silently. */
int project_kernels_read(const struct rule_policy *policy, const char *opdir, struct project_kernels *out,
			 struct diag *diag);
void project_kernels_release(struct project_kernels *k);

/* The index of call c's argument that passes the entry's parameter `name`, or -1. */
long project_kcall_arg(const struct project_kcall *c, const char *name);

/* Where Init call c takes the profiling argument, the entry's parameter
 * `want`: right after the argument that passes the entry's last output
 * (Init's arguments need not mirror the entry's parameters), else at the
 * entry's position; -1 when neither fits. */
long project_kcall_position(const struct project_kentry *e, const struct project_kcall *c, size_t want);

/* Does Init call c take the entry's outputs [first, want) in their order,
 * each once, with a place for the profiling argument? One that does not
 * (one of several sub-operators the entry runs, each with its own tensors)
 * is not where the outputs are recorded: wire passes it nothing, the entry
 * records the profiling tensor itself, and G2 asks nothing of it. */
bool project_kcall_takes_outputs(const struct project_kentry *e, const struct project_kcall *c, size_t first,
				 size_t want);

#endif

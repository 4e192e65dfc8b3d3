/* The kernel side of the profiling output, from the C++ outline of the
 * kernel tree: each __global__ entry's parameter list, the kernel class
 * `Init` call in its body (object, arguments with ranges) and the `Init`
 * definition it reaches (parameters with ranges). Ranges are byte offsets
 * into the files, which the struct owns, for messages and for editors
 * (wire inserts a GM_ADDR parameter / argument at them).
 *
 * Ownership: gate_kernels owns the files and strings; gate_kernels_release
 * frees them. */
#ifndef AUTOTRACE_GATE_KERNEL_H
#define AUTOTRACE_GATE_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "src_file.h"

struct gate_kparam {
	char *type;                 /* "GM_ADDR" */
	char *name;                 /* NULL when unnamed */
	uint32_t start, end;
};

struct gate_kentry {
	char *name;                          /* the __global__ function */
	const struct src_file *file;         /* path: OPDIR/KERNEL/rel */
	struct gate_kparam *params;
	size_t nparams;
	uint32_t params_start, params_end;   /* the parentheses included */
	/* the Init call in the entry's body (the first one), if any */
	bool has_init;
	char *init_object;                   /* "op", or NULL */
	char **init_args;
	uint32_t *init_arg_start, *init_arg_end;
	size_t ninit_args;
	uint32_t init_start, init_end;       /* callee to ')' */
	uint32_t init_args_start, init_args_end; /* inside the parentheses */
	/* the Init definition: the one in the tree with as many parameters */
	const struct src_file *init_file;    /* NULL when not found */
	char *init_qualified;
	struct gate_kparam *init_params;
	size_t ninit_params;
	uint32_t init_params_start, init_params_end;
};

struct gate_kernels {
	struct gate_kentry *v;
	size_t n;
	struct src_file **files;             /* owned */
	size_t nfiles;
	size_t nsources;                     /* C/C++ files read */
};

/* Reads every source under `kernel_root` (a path as the user should see it,
 * e.g. "op/op_kernel") and the includes it follows. Returns 0, or -1 after
 * reporting a root that cannot be read. Code the scanner cannot follow is
 * passed over silently. */
int gate_kernels_read(const char *kernel_root, struct gate_kernels *out, struct diag *diag);
void gate_kernels_release(struct gate_kernels *k);

#endif

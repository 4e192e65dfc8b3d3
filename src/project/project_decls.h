/* Declarations (prototypes) of named functions in a C++ file:
 *
 *   std::tuple<at::Tensor, at::Tensor> foo(const at::Tensor &x, int64_t n);
 *   HOST_API void bar(const at::Tensor &a, at::Tensor &c);
 *
 * outside every function body, with their parameters and return type, so
 * that a binding function's header declaration can be held against its
 * definition (the outline reads definitions only). Ranges are byte offsets
 * into the file.
 *
 * Ownership: project_decls owns everything in it. */
#ifndef AUTOTRACE_PROJECT_DECLS_H
#define AUTOTRACE_PROJECT_DECLS_H

#include <stddef.h>
#include <stdint.h>

#include "project_pybind.h"
#include "src_file.h"

struct project_decl {
	char *name;                   /* as asked for */
	struct pybind_range range;    /* the return type's start to the ';' */
	struct pybind_range return_type;
	struct pybind_range params_range; /* the parentheses included */
	struct pybind_param *params;
	size_t nparams;
	long tuple_arity;             /* std::tuple<...> return: its count; -1 otherwise */
	char *return_text;            /* the return type as written, spaces normalised */
};

struct project_decls {
	struct project_decl *v;
	size_t n;
};

/* The declarations in `f` of any of the `nnames` functions. */
void project_decls_read(const struct src_file *f, char *const *names, size_t nnames, struct project_decls *out);
void project_decls_release(struct project_decls *d);

#endif

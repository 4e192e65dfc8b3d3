/* Reader of aclnn entry points in pregen / op_api files:
 *
 *   aclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *x, aclTensor *y,
 *       aclTensor *profilingData, uint64_t *workspaceSize, aclOpExecutor **executor);
 *
 * declarations (`extern`, in headers) and definitions (with a body), with
 * their parameters, the aclnn*GetWorkspaceSize calls a definition makes
 * (the forwarding call to aclnnInnerFooGetWorkspaceSize) and the local
 * variables it declares (`bool transB = false;`: what its calls pass). Ranges are byte
 * offsets into the text, for messages and for editors.
 *
 * Ownership: aclnn_file owns everything in it. */
#ifndef AUTOTRACE_PROJECT_ACLNN_H
#define AUTOTRACE_PROJECT_ACLNN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct aclnn_range {
	uint32_t start, end;
};

struct aclnn_param {
	char *type;                   /* "const aclTensor *", "uint64_t *" */
	char *name;                   /* NULL when unnamed */
	struct aclnn_range range;
	bool tensor;                  /* aclTensor or aclTensorList */
	bool output;                  /* a tensor that is not const */
};

struct aclnn_call {
	char *callee;
	struct aclnn_range range;      /* callee to ')' */
	struct aclnn_range args_range; /* inside the parentheses */
	char **args;                   /* as written */
	struct aclnn_range *arg_ranges;
	size_t nargs;
};

struct aclnn_func {
	char *name;
	bool definition;              /* has a body */
	struct aclnn_range range;     /* the name to the ';' or the body's '}' */
	struct aclnn_range name_range;
	struct aclnn_range params_range; /* the parentheses included */
	struct aclnn_param *params;
	size_t nparams;
	struct aclnn_call *calls;     /* GetWorkspaceSize calls in the body */
	size_t ncalls;
	struct aclnn_param *locals;   /* `T name = ...;` / `T name;` in the body (tensor / output as for parameters) */
	size_t nlocals;
};

/* The reader's API has the shape of every project reader's (project_opdef.h
 * ...): a file struct, the read, its release, an index helper. */
struct aclnn_file {
	struct aclnn_func *funcs;
	size_t nfuncs;
};

/* Reads every aclnn*GetWorkspaceSize declaration and definition. */
void project_aclnn(const char *data, size_t len, struct aclnn_file *out);
void aclnn_file_release(struct aclnn_file *f);

/* Index among the tensor parameters of parameter `k`, or -1 when it is not one. */
long aclnn_tensor_index(const struct aclnn_func *fn, size_t k);

#endif

/* The aclnnInner API the CANN build generates from an OpDef (build_out/
 * autogen/aclnn_<op>.h), for projects whose hand-written aclnn_<op>.cpp calls
 * it with no declaration of its own in sight:
 *
 *   aclnnStatus aclnnInnerFooGetWorkspaceSize(const aclTensor *x,
 *       const aclTensorList *w, const aclTensor *biasOptional,  // inputs, DYNAMIC as lists
 *       const char *group, int64_t epWorldSize, bool transB,      // attributes, in order
 *       const aclTensor *y, const aclTensor *profilingDataOptional, // outputs
 *       uint64_t *workspaceSize, aclOpExecutor **executor);
 *
 * Names are the OpDef's in camelCase, OPTIONAL tensors with the suffix
 * "Optional"; attribute types by their type method (Int int64_t, Float
 * double, Bool bool, String const char *, ListInt / ListFloat / ListBool
 * const aclIntArray / aclFloatArray / aclBoolArray *; another method is
 * written "(Method)" and any argument fits it). The list is the OpDef as
 * it is read: with the profiling output when the OpDef has it.
 *
 * aclnn_gen_match says how a call lines up with the list (the count, the
 * kinds of the arguments the caller declares, their names), for wire (where
 * the profiling argument goes) and G2 (that it is there).
 *
 * Ownership: aclnn_gen owns its texts. */
#ifndef AUTOTRACE_PROJECT_ACLNN_GEN_H
#define AUTOTRACE_PROJECT_ACLNN_GEN_H

#include <stdbool.h>
#include <stddef.h>

#include "project_aclnn.h"
#include "project_opdef.h"

enum aclnn_gen_role { ACLNN_GEN_INPUT, ACLNN_GEN_ATTR, ACLNN_GEN_OUTPUT, ACLNN_GEN_WORKSPACE, ACLNN_GEN_EXECUTOR };

/* What an argument may be, for the order check. */
enum aclnn_gen_class {
	ACLNN_CLASS_ANY,              /* unknown: matches anything */
	ACLNN_CLASS_TENSOR,           /* aclTensor * */
	ACLNN_CLASS_TENSOR_LIST,      /* aclTensorList * */
	ACLNN_CLASS_ARRAY,            /* aclIntArray / aclFloatArray / aclBoolArray * */
	ACLNN_CLASS_STRING,           /* char * */
	ACLNN_CLASS_SCALAR,           /* int64_t, double, bool */
	ACLNN_CLASS_WORKSPACE,        /* uint64_t * */
	ACLNN_CLASS_EXECUTOR,         /* aclOpExecutor ** */
};

struct aclnn_gen_param {
	enum aclnn_gen_role role;
	enum aclnn_gen_class cls;
	char *name;                   /* "expertTokenNums", "biasOptional" */
	char *type;                   /* "const aclTensor *" */
	const char *opdef_name;       /* the OpDef's name (borrowed), NULL for workspaceSize / executor */
};

struct aclnn_gen {
	char *name;                   /* "aclnnInnerFooGetWorkspaceSize" */
	struct aclnn_gen_param *v;
	size_t n;
	long prof;                    /* index of the profiling output in v, -1 when the OpDef has none */
	size_t after_outputs;         /* index in v right after the last output (where workspaceSize is) */
};

/* True when `fn` is aclnnInner<op>GetWorkspaceSize. */
bool aclnn_gen_is_inner(const char *fn, const char *op);

/* The generated parameter list of op's aclnnInner<Op>GetWorkspaceSize;
 * `prof` names the profiling output. */
void aclnn_gen_inner(const struct opdef_op *op, const char *prof, struct aclnn_gen *out);
void aclnn_gen_release(struct aclnn_gen *g);
/* "const aclTensor *x, ..., aclOpExecutor **executor" (newly allocated), for messages. */
char *aclnn_gen_params_text(const struct aclnn_gen *g);

/* How `call` (made in the body of `caller`) lines up with the list g. */
struct aclnn_gen_match {
	bool ok;                      /* count and order agree */
	bool has_prof;                /* the call passes the profiling tensor (at g's position) */
	size_t prof_at;               /* the argument index where it is or goes */
	char *why;                    /* !ok: what differs, a sentence (newly allocated) */
	size_t bad_arg;               /* !ok: the argument it is about, or call->nargs for the count */
};

/* `profiling` names the profiling output (its arguments are recognised by name).
 * The match is computed for the list with the profiling output after the
 * last output whether or not the OpDef has it yet (wire adds it). */
void aclnn_gen_match(const struct aclnn_gen *g, const struct aclnn_func *caller, const struct aclnn_call *call,
		     const char *profiling, struct aclnn_gen_match *out);
void aclnn_gen_match_release(struct aclnn_gen_match *m);

/* The class of a C type as written ("const aclTensor*", "int64_t"). */
enum aclnn_gen_class aclnn_gen_class_of(const char *type);

#endif

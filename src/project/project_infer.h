/* Reader of op_host InferShape / InferDataType code:
 *
 *   gert::Shape *profShape = context->GetOutputShape(OUTPUT_PROFILING_DATA);
 *   profShape->SetDimNum(1);
 *   profShape->SetDim(0, MAX_INFER_GETBLOCKNUM_UB * SLOTS * PROF_SIZE_PER_CORE);
 *   context->SetOutputDataType(OUTPUT_PROFILING_DATA, ge::DT_INT64);
 *   IMPL_OP_INFERSHAPE(Op).InferShape(f).InferDataType(g);   (or IMPL_OP(Op).InferShape(f)...)
 *
 * Output indices are resolved through the file's constants (constexpr,
 * const, enum, #define); each use says whether it runs unconditionally
 * (not inside an if, loop or switch of its function). Ranges are byte
 * offsets into the file, for messages and for editors.
 *
 * Ownership: infer_file owns everything in it. */
#ifndef AUTOTRACE_PROJECT_INFER_H
#define AUTOTRACE_PROJECT_INFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "src_file.h"

struct infer_range {
	uint32_t start, end;
};

enum infer_use_kind { INFER_SHAPE, INFER_DTYPE };

/* context->GetOutputShape(i) or context->SetOutputDataType(i, t). */
struct infer_use {
	enum infer_use_kind kind;
	long index;                 /* resolved; -1 when not a constant */
	char *index_text;           /* as written */
	struct infer_range call;    /* callee to ')' */
	struct infer_range index_arg;
	char *dtype;                /* SetOutputDataType: the type argument as written */
	char *var;                  /* GetOutputShape: the variable it initialises, or NULL */
	bool conditional;
	char *func;                 /* the enclosing function */
};

/* var->SetDimNum(n), var->SetDim(i, e), var->AppendDim(e). */
struct infer_dim {
	char *var;
	bool is_num;                /* SetDimNum */
	long dim;                   /* SetDim: the dimension index; AppendDim: -1 */
	char *expr;                 /* the value (SetDimNum: the count) as written */
	struct infer_range call, expr_range;
	bool conditional;
	bool has_value;
	int64_t value;              /* when has_value */
	bool named;                 /* the value names at least one constant */
	char *literal;              /* the first integer literal in 4..255 (a core count?), or NULL */
	char *runtime_call;         /* a call in the value (GetBlockNum(), ...), or NULL */
	char *func;
};

/* IMPL_OP_INFERSHAPE(Op).InferShape(f).InferDataType(g) */
struct infer_impl {
	char *op;
	char *shape_func, *dtype_func;  /* NULL when absent */
	struct infer_range range;
};

/* What the reader found in one infer source, arrays by kind. */
struct infer_file {
	struct infer_use *uses;
	size_t nuses;
	struct infer_dim *dims;
	size_t ndims;
	struct infer_impl *impls;
	size_t nimpls;
};

/* Reads `f`. Never fails. */
void project_infer(const struct src_file *f, struct infer_file *out);
void infer_file_release(struct infer_file *i);

/* True when `func` is one of the functions `impl` registers (or impl is NULL). */
bool infer_impl_has(const struct infer_impl *impl, const char *func);

#endif

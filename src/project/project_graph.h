/* Reader of an operator's graph prototype (op_graph/<op>_proto.h), which
 * graph mode reads instead of the OpDef:
 *
 *   REG_OP(MoeOp)
 *       .INPUT(x, TensorType({DT_FLOAT16, DT_BF16}))
 *       .OPTIONAL_INPUT(bias, TensorType({DT_FLOAT}))
 *       .DYNAMIC_INPUT(weights, TensorType({DT_INT8}))
 *       .OUTPUT(y, TensorType({DT_FLOAT16, DT_BF16}))
 *       .DYNAMIC_OUTPUT(ys, TensorType({DT_FLOAT}))
 *       .ATTR(group, String, "")
 *       .REQUIRED_ATTR(k, Int)
 *       .OP_END_FACTORY_REG(MoeOp)
 *
 * For each REG_OP: its name, its inputs and outputs in order (attributes,
 * DATATYPE and the like aside), each with its kind, its name, its type
 * argument as written and where the call lies, and where an editor adds an
 * output after the last one. Ranges are byte offsets into the text.
 *
 * Ownership: graph_file owns everything in it. */
#ifndef AUTOTRACE_PROJECT_GRAPH_H
#define AUTOTRACE_PROJECT_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct graph_io {
	char *kind;                   /* "INPUT", "OPTIONAL_INPUT", "DYNAMIC_INPUT", "OUTPUT", "DYNAMIC_OUTPUT", ... */
	bool output;
	char *name;                   /* the first argument */
	char *type;                   /* the second argument as written ("TensorType({DT_INT64})"), "" when none */
	uint32_t start, end;          /* the '.' to the closing ')' */
	bool line_first;              /* the call is the first thing on its line */
	uint32_t indent_start;        /* its line's start (for the indentation), when line_first */
	bool rest_blank;              /* only blanks or a // comment follow it on its line */
	uint32_t line_end;            /* just past that line's newline (the end of the text when none) */
};

struct graph_op {
	char *name;
	uint32_t name_start, name_end;  /* the REG_OP argument */
	struct graph_io *io;
	size_t nio;
	size_t ninputs, noutputs;
	long last_output;             /* index into io[], -1 when none */
	long last_input;
};

struct graph_file {
	struct graph_op *ops;
	size_t nops;
};

/* Reads every REG_OP of the text. Never fails: what it cannot read is left out. */
void project_graph(const char *data, size_t len, struct graph_file *out);
void graph_file_release(struct graph_file *g);

/* The REG_OP named `name`, or NULL. */
const struct graph_op *graph_find(const struct graph_file *g, const char *name);

/* The io index of the first input or output named for the profiling output
 * `prof` (tv_names_profiling), or -1; *outputs_before gets the number of
 * outputs declared before it. */
long graph_prof_io(const struct graph_op *op, const char *prof, size_t *outputs_before);

/* The io index of output number `k` (0-based among the outputs), or -1. */
long graph_output(const struct graph_op *op, size_t k);

#endif

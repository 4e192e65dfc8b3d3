/* Reader of op_host OpDef definitions (CANN custom operators):
 *
 *   class Foo : public OpDef { public: explicit Foo(const char *name) : OpDef(name) {
 *       this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
 *       this->Output("y")
 *           .ParamType(REQUIRED) ...;
 *   } };
 *   OP_ADD(Foo);
 *
 * For each OpDef class: its inputs and outputs in order, with ParamType,
 * DataType and Format lists, and the byte ranges an editor needs (the whole
 * chain, the name literal, the ParamType argument, the insertion point after
 * the last Output chain), and its attributes (`this->Attr("n").AttrType(OPTIONAL).Int(0);`)
 * in order, which the generated aclnn API takes between the inputs and the
 * outputs. Several classes and OP_ADDs per file are fine.
 * Chains outside an OpDef class belong to the file's only OP_ADD if there is
 * exactly one, else to an op with an empty name; chains in a member function
 * defined outside its class (`Foo::Foo(...) : OpDef(name) { ... }`) are the class's.
 *
 * Inputs and outputs may also be declared on a variable `OpAICoreConfig V;`
 * (in the constructor or a member function), registered per SoC by
 * `this->AICore().AddConfig("ascend310p", V)`:
 *
 *   OpAICoreConfig config_310p;
 *   config_310p.Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
 *   config_310p.Output("y").ParamType(REQUIRED)...;
 *
 * Each such variable that declares any is one opdef_config of its op, with
 * the same per-parameter data; a variable that declares a parameter again
 * (registered for one SoC, then declared anew for another: AddConfig copies
 * what it holds) is one opdef_config per round. An op with this-> chains
 * keeps them as its own and its configs are per-SoC overrides; an op
 * without any takes the inputs and outputs of its first config
 * (from_config), copied into params. Comments are no tokens: code commented
 * out is not read.
 *
 * Ownership: opdef_file owns everything in it; it borrows nothing (ranges are
 * offsets into the text it was given). */
#ifndef AUTOTRACE_PROJECT_OPDEF_H
#define AUTOTRACE_PROJECT_OPDEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum opdef_param_type { OPDEF_UNSET, OPDEF_REQUIRED, OPDEF_OPTIONAL, OPDEF_DYNAMIC, OPDEF_OTHER };

struct opdef_range {
	uint32_t start, end;
};

struct opdef_param {
	bool output;                  /* Output(...) rather than Input(...) */
	char *name;                   /* the literal's text, unescaped only of its quotes */
	enum opdef_param_type type;
	char **dtypes;                /* DataType({...}) entries as written, "ge::DT_INT64" */
	size_t ndtypes;
	char **formats;               /* Format({...}) entries */
	size_t nformats;
	struct opdef_range chain;     /* `this` (or V, or Input/Output) to the ';' included */
	struct opdef_range name_lit;  /* the string literal, quotes included */
	struct opdef_range type_arg;  /* inside ParamType(...); zero-width at the chain's ';' when absent */
	uint32_t line_start;          /* start of the line holding the chain's first token */
	uint32_t line_end;            /* just past the newline after the ';' */
};

/* An attribute: `this->Attr("group").AttrType(REQUIRED).String();`. */
struct opdef_attr {
	char *name;                   /* the literal's text */
	char *kind;                   /* the type method: "Int", "Float", "Bool", "String", "ListInt", ...; "" when none */
	bool optional;                /* AttrType(OPTIONAL) */
	struct opdef_range chain;     /* `this` (or Attr) to the ';' included */
};

/* An OpAICoreConfig variable that declares inputs or outputs (one round of
 * them). The fields from params on mean what the op's of the same names
 * mean, for its V. chains. */
struct opdef_config {
	char *var;                    /* the variable's name */
	struct opdef_range decl;      /* the name where `OpAICoreConfig V` declares it */
	char **socs;                  /* the SoCs of its AddConfig("soc", V) calls after its chains, as written */
	size_t nsocs;
	struct opdef_param *params;
	size_t nparams;
	size_t ninputs, noutputs;
	long last_input, last_output;
	uint32_t after_last_output;
};

struct opdef_op {
	char *name;                   /* the class name ("" when unknown) */
	struct opdef_range class_name;/* zero-width when not in a class */
	struct opdef_range body;      /* the class body, braces included; zero-width when none */
	struct opdef_param *params;   /* in source order, inputs and outputs mixed as written */
	size_t nparams;
	size_t ninputs, noutputs;
	struct opdef_attr *attrs;     /* in source order */
	size_t nattrs;
	long last_input, last_output; /* indices in params, or -1 */
	uint32_t after_last_output;   /* insertion point: line_end of the last Output chain */
	bool registered;              /* OP_ADD(name) seen in the file */
	struct opdef_range op_add;    /* the OP_ADD(...) call; zero-width when absent */
	struct opdef_config *configs; /* in the order of their first chains */
	size_t nconfigs;
	long from_config;             /* the config params was copied from (no this-> chains), or -1 */
};

/* The reader's API has the shape of every project reader's (project_aclnn.h
 * ...): a file struct, the read, its release, an index helper. */
struct opdef_file {
	struct opdef_op *ops;
	size_t nops;
};

/* Reads the OpDefs of `len` bytes of C++ text. Never fails; an op appears
 * when it has a chain or an OP_ADD. */
void project_opdef(const char *data, size_t len, struct opdef_file *out);
void opdef_file_release(struct opdef_file *f);

/* Index in op->params of the `k`th output (0-based), or -1. */
long opdef_output(const struct opdef_op *op, size_t k);
/* Position among the outputs of the output named `name`, or -1. */
long opdef_output_index(const struct opdef_op *op, const char *name);

const char *opdef_param_type_name(enum opdef_param_type t);

#endif

/* The model of an operator project that gate, wire and instrument read: the
 * rules, the files each layer's globs find, read once by the layer readers
 * (OpDef, infer, kernel, aclnn, pybind, Python samples), and the operator
 * facts they share (outputs, the profiling output's position, the torch.ops
 * names, the arity a Python call returns). Owned by the struct;
 * project_free releases everything. */
#ifndef AUTOTRACE_PROJECT_MODEL_H
#define AUTOTRACE_PROJECT_MODEL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "project_tokens.h"
#include "project_aclnn.h"
#include "diag.h"
#include "project_root.h"
#include "project_kernel.h"
#include "project_launch.h"
#include "project_graph.h"
#include "project_infer.h"
#include "project_opdef.h"
#include "project_ops.h"
#include "py_scan.h"
#include "project_pybind.h"
#include "rule_policy.h"
#include "src_file.h"

struct project_opts {
	const char *opdir;
	const char *rules;
	const char *script;           /* --script: the build script for G1 */
	const char *build_cmd;        /* --build-cmd: G3 */
	const char *build_log;        /* --build-log: where G3 keeps the log */
	const char *point_map;        /* --point-map: G1's stale check on this map only */
	const char *op;               /* --op: the operator of a directory holding several */
	const char *tree;             /* --tree: G1's tree, as the build script writes it (hook_setup.h) */
	const char *without;          /* --without binding,samples: layers outside this project */
};

struct project_infer { struct src_file *f; struct infer_file inf; };
struct project_graph { struct src_file *f; struct graph_file g; };
struct project_aclnn { struct src_file *f; struct aclnn_file ac; };
struct project_pybind { struct src_file *f; struct pybind_file pb; };
struct project_sample { struct src_file *f; struct py_module *py; };

/* Where a project-level layer was found. */
enum project_where { PROJECT_WHERE_NONE, PROJECT_WHERE_OPDIR, PROJECT_WHERE_ROOT };

struct project_model {
	const struct project_opts *opts;
	struct rule_policy *policy;
	const char *profiling;        /* the profiling output's name (policy) */
	bool required;                /* mode B (the rules' mode, or what `auto` decided) */
	const char *mode_reason;      /* why, when the rules say auto (static text) */
	struct project_root root;
	enum project_where aclnn_where, pybind_where, samples_where;
	/* the binding functions of the op: those that run its EXEC_NPU_CMD, and
	   those registered under its torch.ops names (meta functions) */
	char **bind_funcs;
	size_t nbind_funcs;

	struct project_host *hosts; size_t nhosts;
	struct project_infer *infers; size_t ninfers;
	struct project_graph *graphs; size_t ngraphs;  /* graph prototypes (REG_OP), the rules' `graph` */
	struct project_aclnn *aclnns; size_t naclnns;
	struct project_pybind *pybinds; size_t npybinds;
	struct project_sample *samples; size_t nsamples;
	struct project_kernels kernels;
	bool kernels_read;
	/* layers outside this project (the rules' `without`, or --without): not
	   looked for, not wired, reported as left out by G2, G4, G5 */
	bool without_binding, without_samples;
	/* layers the project does not have: no torch binding anywhere in it runs
	   the op, no sample or test calls it. Left out as `without` leaves them
	   (without_* set too), reported as absent with what their later owner
	   must do: never a stop, never a pass */
	bool absent_binding, absent_samples;
	char *kernel_root;

	/* the operator: the one chosen (project_ops.h), in a directory of one the
	   first OpDef op with the profiling output (else the first op) */
	struct project_op_choice choice;
	const struct opdef_op *op;
	const struct src_file *op_file;
	long prof_out;                /* its position among the outputs, -1 when absent */
	char **py_names;              /* torch.ops names: schema and impl names, else snake_case(op) */
	size_t npy_names;
	long py_returns;              /* values a Python call returns (mode B: outputs), -1 unknown */
	/* the values the binding that runs the op returns before the profiling
	   tensor, read from its return statements (a binding of an in-place op
	   returns fewer values than the OpDef has outputs, one that runs several
	   ops more); -1 when there is no such binding or its returns disagree:
	   then the OpDef's outputs are the Python arity */
	long py_main;
	/* the direct-launch form (project_launch.h): read when no aclnn API and no
	   EXEC_NPU_CMD binding of the operator are found */
	struct project_launch launch;
};

/* Loads the rules and every layer's files. The operator-level layers
 * (kernel, base, host, infer) come from the operator directory; the
 * project-level ones (aclnn, pybind, samples) from the operator directory
 * when it holds files of the layer that belong to this operator, else from
 * under the project root (other operators' directories aside). A file belongs
 * to the operator when it names its aclnn API (aclnn), runs it through
 * EXEC_NPU_CMD or registers its torch.ops name (pybind), or calls that name
 * (samples; under the project root, the scripts whose file name holds the
 * operator's name when there are such). With `profiling ... auto;` the mode
 * follows the binding: A when the caller passes the outputs in (every value
 * the binding returns is one of its parameters), else B. NULL after
 * reporting a problem with the rules or the operator directory (exit 2). */
struct project_model *project_load(const struct project_opts *opts, struct diag *diag);
void project_free(struct project_model *p);
/* Parses a --without list ("binding", "samples", "binding,samples"): 0 with
 * the flags set, or -1 after reporting what is not a layer (exit 2). */
int project_without_parse(const char *list, bool *binding, bool *samples, struct diag *diag);

/* Frees the layers' files and readings only (hosts, infers, aclnns, pybinds,
 * samples, the torch.ops names and binding functions): for a view that
 * borrows the rest of another model (G2's scope). */
void project_free_layers(struct project_model *p);

/* True when the operator is a direct launch: a host function launches its
 * kernel entry, and no aclnn API or EXEC_NPU_CMD binding runs it. The
 * kernel's position of the profiling tensor then comes from the launch, an
 * OpDef there (one with no infer and no aclnn describes the tiling context)
 * and infer are not layers of the chain, and mode B (auto) is the default. */
bool project_launch_form(const struct project_model *p);
/* The torch.ops names of a direct launch (p->launch.names) become the op's
 * (py_names), when the launch has any. */
void project_launch_names(struct project_model *p);

/* The InferShape registration of the operator (IMPL_OP_INFERSHAPE(Op) or
 * IMPL_OP(Op).InferShape...) and, in *file, the infer source that holds it;
 * NULL when no infer source registers one: the layer is absent (the graph
 * prototype or the framework infers the outputs), and its InferShape /
 * InferDataType halves are absent where the registration names none. */
const struct infer_impl *project_infer_impl(const struct project_model *p, const struct project_infer **file);
/* The first registration of the operator, in any infer source, that names
 * an InferShape (INFER_SHAPE) or InferDataType (INFER_DTYPE) function, and
 * in *file (when not NULL) its source; NULL when none does. */
const struct infer_impl *project_infer_registration(const struct project_model *p, enum infer_use_kind kind,
						    const struct project_infer **file);

/* Reads `path` as a sample of the operator: true, with its file and scan in
 * *out (owned by the caller), when it calls one of p->py_names. */
bool project_sample_read(const struct project_model *p, const char *path, struct project_sample *out);

/* The file that stands for the operator where a finding has no file of its
 * own: the rules file read from the operator directory, else the OpDef
 * source, else the first kernel entry; NULL when there is none (borrowed). */
const char *project_anchor(const struct project_model *p);

/* A text for a message, returned by value: it lives until the end of the
 * full expression that prints it (room for two paths and the words around
 * them). */
struct project_text {
	char s[2 * PATH_MAX + 256];
};

/* "the operator directory" / "the project root DIR (how it was found)" for
 * messages about where a layer was looked for. */
struct project_text project_where_text(const struct project_model *p, enum project_where w);
/* Where a layer that was not found was looked for. */
struct project_text project_searched_text(const struct project_model *p);

/* True when `name` is one of the op's torch.ops names. */
bool project_is_op_name(const struct project_model *p, const char *name);

/* True when `name` is one of the op's binding functions. */
bool project_is_bind_func(const struct project_model *p, const char *name);

/* Where a finding about a layer that is not found points: for the binding,
 * the op's public aclnn API (its declaration), else its OpDef; for the
 * samples, the op's torch.ops schema, else the same. False when there is
 * nothing to point at. */
enum project_anchor_kind { PROJECT_ANCHOR_API, PROJECT_ANCHOR_TORCH_NAME };
bool project_op_anchor(const struct project_model *p, enum project_anchor_kind kind, const struct src_file **f, uint32_t *start,
		    uint32_t *end);

/* The globs of a layer joined by ", ", for messages (", ..." when they do
 * not fit). */
struct project_text project_globs_text(const struct rule_strlist *l);


/* True when the Python call of module m names the operator (one of
 * p->py_names), and is not a bare name of a function m defines itself or
 * imports from a module not torch's (a Python wrapper or kernel named as the
 * op). */
bool project_is_op_call(const struct project_model *p, const struct py_module *m, const struct py_call *c);

/* True when the name ends like a second operator for profiling
 * (_profiling, _with_profiling, Profiling, WithProfiling). */
bool project_profiling_suffix(const char *name);

#endif

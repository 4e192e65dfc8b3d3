/* The direct-launch form of an operator (issue 21, case 7): no OpDef and no
 * aclnn API stand between Python and the kernel; a host function launches
 * its __global__ entry itself and is registered as the torch.ops function:
 *
 *   HOST_API void bmt(const at::Tensor &a, at::Tensor &c) {
 *       EXEC_KERNEL_CMD(bmt, blockDim, a, c, tiling);          // a launch macro
 *       ACLRT_LAUNCH_KERNEL(bmt)(blockDim, stream, a, c, tiling);
 *       bmt<<<blockDim, nullptr, stream>>>(a, c, tiling);
 *   }
 *   m.def("bmt(Tensor a, Tensor(a!) c) -> ()");                // the schema
 *   m.impl("bmt", TORCH_FN(ns::bmt));                         // &ns::bmt, a lambda calling it
 *
 * The launch forms are ACLRT_LAUNCH_KERNEL(k)(blockDim, stream, args...),
 * k<<<blockDim, l2ctrl, stream>>>(args...), and every function-like macro
 * whose replacement launches its kernel parameter through one of them or
 * through another such macro (found where it is defined under the root, to
 * a fixed point). EXEC_KERNEL_CMD(k, blockDim, args...) of the torch_npu
 * projects is one, known also where its definition is not under the root.
 * A launch counts when it names one of the operator's kernel entries; its
 * kernel arguments are the entry's parameters, one for one.
 *
 * The operator's identity: the kernel entry, the host functions that launch
 * it, the torch.ops names registered with them (m.impl / m.def with the
 * function: TORCH_FN(ns::f), &ns::f, a lambda calling f), the schemas of
 * those names, the other functions registered under them (meta functions),
 * and the declarations of those functions anywhere under the root. A file
 * that registers a function it neither defines nor declares, whose
 * declaration is found nowhere under the root, keeps the quoted #includes
 * that resolve to no file under the root: where the declaration must be.
 *
 * Ownership: project_launch owns its files and strings;
 * project_launch_release frees them. */
#ifndef AUTOTRACE_PROJECT_LAUNCH_H
#define AUTOTRACE_PROJECT_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "project_kernel.h"
#include "project_pybind.h"
#include "src_file.h"

enum launch_kind { LAUNCH_ACLRT, LAUNCH_CHEVRON, LAUNCH_MACRO };

/* A macro that launches the kernel its argument names. */
struct launch_macro {
	char *name;
	size_t kernel;                /* the argument naming the kernel */
	long first;                   /* the kernel's arguments: from this argument on; -1: not told apart */
	bool variadic;                /* `...`: it takes one more argument as it is */
	size_t nparams;               /* its named parameters */
	char *path;                   /* where it is defined; NULL: EXEC_KERNEL_CMD, defined nowhere here */
	uint32_t at;
	size_t line;
};

struct launch_site {
	enum launch_kind kind;
	char *via;                    /* "EXEC_KERNEL_CMD", "ACLRT_LAUNCH_KERNEL", "<<<>>>" */
	char *kernel;                 /* the entry it launches (the last name component) */
	struct pybind_range range;    /* the launch, to its last ')' */
	struct pybind_list args;      /* the kernel's arguments (block dim and stream aside) */
	uint32_t tail;                /* where a first kernel argument goes when there is none */
	bool unknown;                 /* a macro whose kernel arguments are not told apart */
	long macro;                   /* LAUNCH_MACRO: index into macros[] */
	size_t nmacro_args;           /* LAUNCH_MACRO: the arguments of the macro call */
	long func;                    /* the host function: index into the file's pb.funcs, -1 */
};

struct launch_file {
	struct src_file *f;
	struct pybind_file pb;
	struct launch_site *sites;
	size_t nsites;
	char **missing;               /* quoted #includes resolved by no file under the root */
	struct pybind_range *missing_at;
	size_t nmissing;
};

/* A host function (it launches the kernel) or a function registered under
 * one of its torch.ops names (a meta function). */
struct launch_func {
	size_t file;                  /* files[] */
	long index;                   /* files[file].pb.funcs[] */
	bool launches;
	long arity;                   /* the values its return type gives: void 0, std::tuple<...> n, else 1 */
	bool ref;                     /* a reference type (at::Tensor &) that is no tuple */
	bool returns_prof;            /* a return gives the profiling tensor last */
	bool returns_missing;         /* no return at all, though its type gives values and the
	                                 profiling tensor is allocated in it: wired, but the
	                                 return lost (returns_prof is set too) */
};

/* m.impl("name", fn) or m.def("schema", fn) of one of the functions. */
struct launch_reg {
	size_t file;
	char *name;                   /* the torch.ops name */
	struct pybind_range at;       /* its string literal */
	char *func;                   /* the function registered, or the one a lambda calls */
	bool lambda;
	struct pybind_range lambda_ret; /* a lambda's trailing return type (after ->), zero width when none */
	uint32_t lambda_params_end;   /* after its ')' */
	struct pybind_range call;     /* lambda: the call of func in its body */
	bool call_returned;           /* `return func(...);` */
	bool call_statement;          /* `func(...);`, the lambda returning nothing else */
};

/* A schema (m.def) of one of the torch.ops names. */
struct launch_schema {
	size_t file;
	long name;                    /* files[file].pb.names[] */
	long nreturns;                /* `-> ()` 0, `-> T` 1, `-> (A, B)` 2; -1 unread */
	struct pybind_range returns;  /* after `->` to the end of the returns (in the literal) */
};

/* A declaration (no body) of one of the functions. */
struct launch_decl {
	size_t file;
	char *func;
	struct pybind_range type;     /* from the declaration's first token to its name */
	struct pybind_range name;
	long arity;
	bool ref;
};

struct project_launch {
	struct launch_macro *macros;
	size_t nmacros;
	struct launch_file *files;
	size_t nfiles;
	struct launch_func *funcs;
	size_t nfuncs;
	char **names;                 /* the torch.ops names */
	size_t nnames;
	struct launch_reg *regs;
	size_t nregs;
	struct launch_schema *schemas;
	size_t nschemas;
	struct launch_decl *decls;
	size_t ndecls;
	size_t nsites;
	long nmain;                   /* the values the op returns without the profiling tensor, -1 unknown */
	char **paths;                 /* every file the reading depends on (macros, includes too) */
	size_t npaths;
};

/* Reads the launches of the kernel entries `entries` in the C/C++ files
 * `paths` (the project's, device code aside), and what registers them.
 * `profiling`: the profiling output's name (a function already wired
 * returns it). Never fails: what it cannot read is left out. */
void project_launch_read(struct project_launch *out, char *const *paths, size_t npaths, char *const *entries,
			 size_t nentries, const char *profiling);
/* The same over files read already (borrowed; their paths as the reading's). */
void project_launch_read_files(struct project_launch *out, struct src_file *const *files, size_t nfiles,
			       char *const *entries, size_t nentries, const char *profiling);
void project_launch_release(struct project_launch *l);

/* The values host function `func` returns without the profiling tensor: the
 * definition's own (a directory of two launched operators has one host
 * function each, returning what its own op does), else nmain. */
long project_launch_main_of(const struct project_launch *l, const char *func);

/* The kernel entry a launch names, or NULL. */
const struct project_kentry *project_launch_entry(const struct project_kernels *k, const char *kernel);

/* Where the kernel takes the profiling tensor: its parameter named for it,
 * else after its last GM parameter that is not a workspace or tiling. */
size_t project_launch_position(const struct project_kentry *e, const char *profiling);

/* The return arity of a C++ return type as written ("void" 0, "std::tuple<A, B>" 2,
 * else 1), and whether it is a plain reference. */
long project_launch_arity(const char *type, size_t len, bool *ref);

/* The finding for a registration `reg` whose function is declared in no file
 * under the root `root` (its file's missing includes are read): the message,
 * newly allocated, and where it points (the first include not found). */
char *project_launch_missing(const struct project_launch *l, const struct launch_reg *reg, const char *root,
			     const char *profiling, struct pybind_range *at);

/* The identifier of a launch argument's text that names the profiling
 * tensor (`profiling_data`, `profiling_data.data_ptr()`, `(uint8_t
 * *)profilingData.data_ptr()`), newly allocated, or NULL. */
char *project_launch_prof_ident(const char *arg, const char *profiling);

/* The function record's pybind function. */
const struct pybind_func *project_launch_pf(const struct project_launch *l, const struct launch_func *fn);

#endif

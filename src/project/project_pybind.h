/* Reader of the torch binding of an operator (pybind / torch library files):
 *
 *   std::tuple<at::Tensor, at::Tensor> foo(const at::Tensor &x) {
 *       at::Tensor profiling_data = at::zeros(...);
 *       EXEC_NPU_CMD(aclnnFoo, x, y,
 *                    profiling_data);             // the name may be on the next line
 *       return std::make_tuple(y, profiling_data);
 *   }
 *   m.def("foo(Tensor x) -> (Tensor, Tensor)");
 *
 * The EXEC_NPU_CMD* calls with their argument ranges, the returned tuples,
 * the variables' initialisers (to see a c10::nullopt behind a name) and the
 * schema strings / m.impl names (the torch.ops names). Bindings that return
 * what a torch::autograd::Function returns:
 *
 *   struct FooFunction : public torch::autograd::Function<FooFunction> {
 *       static tensor_list forward(AutogradContext *ctx, const at::Tensor &x) { ... return {y, z}; }
 *       static tensor_list backward(AutogradContext *ctx, tensor_list grads) { ... }
 *   };
 *   std::tuple<at::Tensor, at::Tensor> foo(const at::Tensor &x) { auto r = FooFunction::apply(x); ... }
 *
 * give the Function classes (with their forward / backward), the `X::apply(`
 * calls and the `#include "..."` names (where a Function class may be).
 * Ranges are byte offsets into the file, for messages and for editors.
 *
 * Ownership: pybind_file owns everything in it. */
#ifndef AUTOTRACE_PROJECT_PYBIND_H
#define AUTOTRACE_PROJECT_PYBIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "src_file.h"

struct pybind_range {
	uint32_t start, end;
};

struct pybind_list {
	char **v;                     /* texts as written */
	struct pybind_range *ranges;
	size_t n;
};

struct pybind_exec {
	char *macro;                  /* "EXEC_NPU_CMD", "EXEC_NPU_CMD_EXT", ... */
	char *api;                    /* "aclnnFoo" */
	struct pybind_range range;    /* macro name to ')' */
	struct pybind_range api_range;
	struct pybind_range args_range; /* after the api's comma to before ')' */
	struct pybind_list args;      /* without the api */
	long func;                    /* index into funcs, or -1 */
};

struct pybind_return {
	struct pybind_range range;    /* `return` to ';' */
	struct pybind_range list_range; /* inside make_tuple( ) / { } / tie( ) */
	struct pybind_list elems;     /* tuple elements; one element for a plain value */
	bool tuple;
	long func;
};

struct pybind_var {
	char *name;
	char *init;                   /* the initialiser or assigned value as written */
	struct pybind_range range;    /* the statement */
	long func;
};

struct pybind_param {
	char *type;                   /* "const at::Tensor &", "c10::optional<at::Tensor> const &" */
	char *name;                   /* NULL when unnamed */
	struct pybind_range range;
	bool tensor;                  /* an at::Tensor, optional tensor or tensor list */
};

struct pybind_func {
	char *name;
	char *scope;                  /* the innermost enclosing class ("FooFunction"), "" when none */
	struct pybind_range range, body;
	long tuple_arity;             /* std::tuple<...> return type: its count; -1 otherwise */
	struct pybind_range return_type; /* the prefix before the name */
	struct pybind_range params_range; /* the parentheses included */
	struct pybind_param *params;
	size_t nparams;
};

/* A pybind11 keyword annotation of m.def: py::arg("name") [= default]. */
struct pybind_pyarg {
	char *name;
	struct pybind_range range;    /* py::arg(...) to the end of its default */
	bool has_default;
};

/* A schema (m.def("name(...) -> ...")), an implementation (m.impl("name",
 * ...)) or a pybind11 function (m.def("name", &fn, "doc", py::arg("x"), ...),
 * which is both: its name and its callable). */
struct pybind_opname {
	char *name;
	struct pybind_range range;    /* the string literal */
	bool schema;                  /* from m.def of a torch schema */
	long nreturns;                /* schema: the number of returned values, -1 unknown */
	char *impl_fn;                /* m.impl("name", ..., &ns::fn) or pybind11's m.def: "fn"; NULL otherwise */
	bool pybind11;                /* m.def("name", callable, ...) of a pybind11 module */
	struct pybind_pyarg *pyargs;  /* pybind11: its py::arg annotations, in order */
	size_t npyargs;
	uint32_t call_end;            /* pybind11: the offset of the def call's ')' */
};

/* A class deriving from torch::autograd::Function<itself>. */
struct pybind_autograd {
	char *name;                   /* "FooFunction" */
	struct pybind_range range;    /* `struct` to the closing '}' */
	long forward, backward;       /* its static methods defined in the class (indices into funcs), or -1 */
};

/* `X::apply(...)` in a function. */
struct pybind_apply {
	char *cls;                    /* "FooFunction" (the last component before ::apply) */
	struct pybind_range range;    /* `X` to ')' */
	long func;
};

/* What the reader found in one binding source, arrays by kind. */
struct pybind_file {
	struct pybind_func *funcs;
	size_t nfuncs;
	struct pybind_exec *execs;
	size_t nexecs;
	struct pybind_return *returns;
	size_t nreturns;
	struct pybind_var *vars;
	size_t nvars;
	struct pybind_opname *names;
	size_t nnames;
	struct pybind_autograd *autograds;
	size_t nautograds;
	struct pybind_apply *applies;
	size_t napplies;
	char **includes;              /* `#include "name"` names, as written */
	size_t nincludes;
};

void project_pybind(const struct src_file *f, struct pybind_file *out);
void pybind_file_release(struct pybind_file *p);

/* The arguments of a schema string, located in the source: the literal may be
 * written in pieces ("a(Tensor x, " "int n) -> Tensor"). */
struct pybind_schema_arg {
	char *type;                   /* "Tensor", "Tensor?", "Tensor[]", "int" */
	char *name;
	bool has_default;
	bool tensor;                  /* Tensor, Tensor?, Tensor!, Tensor[] ... */
	struct pybind_range range;    /* in the file */
};

struct pybind_schema {
	struct pybind_schema_arg *args;
	size_t nargs;
	uint32_t close;               /* the offset of the ')' ending the arguments */
	bool ok;                      /* the string could be read */
};

/* Reads the arguments of schema `o` (o->schema) from the file's text. */
void pybind_schema_read(const struct src_file *f, const struct pybind_opname *o, struct pybind_schema *out);
void pybind_schema_release(struct pybind_schema *s);
/* The index of the argument named `name`, or -1. */
long pybind_schema_find(const struct pybind_schema *s, const char *name);

/* The function named `name` (the last component), or -1. */
long pybind_func_named(const struct pybind_file *p, const char *name);

/* The Function class named `name` (the last component), or -1. */
long pybind_autograd_named(const struct pybind_file *p, const char *name);
/* The autograd Function class whose method fn is, or -1. */
long pybind_autograd_of_func(const struct pybind_file *p, long fn);
/* The `X::apply(...)` calls of function `fn`: the first at or after index
 * *from of p->applies, or -1 (set *from past it to find the next). */
long pybind_apply_next(const struct pybind_file *p, long fn, size_t *from);

/* True when a C++ type is a list of tensors a function can return
 * (tensor_list, variable_list, std::vector<at::Tensor>). */
bool pybind_type_is_tensor_list(const char *type);

/* True when a C++ parameter type is a tensor of the binding (at::Tensor,
 * c10::optional<at::Tensor>, at::TensorList, std::vector<at::Tensor>). */
bool pybind_type_is_tensor(const char *type);

/* The argument of the last `name.push_back(...)` / `name.emplace_back(...)`
 * in function fn before byte `before`, as written (newly allocated), or NULL. */
char *pybind_last_push(const struct src_file *f, const struct pybind_func *fn, const char *name, uint32_t before);

/* The initialiser of `name` in function `func` last set before `before`, or NULL. */
const struct pybind_var *pybind_var_before(const struct pybind_file *p, long func, const char *name,
					   uint32_t before);

/* Is `expr` (a returned value, as written without spaces)
 * `std::tuple_cat(X, std::make_tuple(..., NAME))` whose last value names the
 * profiling output? (wire's form of a return of outputs made elsewhere.) */
bool pybind_tuple_cat_last(const char *expr, const char *profiling);

#endif

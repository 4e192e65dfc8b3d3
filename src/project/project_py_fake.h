/* Python implementations registered for a torch.ops name: fake / meta /
 * abstract functions (torch.library.register_fake("ns::op"),
 * impl_abstract, torch.library.impl(..., "Meta")) written as decorators, and
 * functions handed to a registering call with the name among its strings
 * (lib.impl("op", op_meta, "Meta"), register_meta_if_necessary("ns", "op",
 * op_meta)). Such a function receives the schema's arguments and returns
 * what the schema returns, so it follows the profiling output like the C++
 * meta functions do.
 *
 * Ownership: the caller frees the array (project_py_fakes_free). */
#ifndef AUTOTRACE_PROJECT_PY_FAKE_H
#define AUTOTRACE_PROJECT_PY_FAKE_H

#include <stdbool.h>
#include <stddef.h>

#include "py_scan.h"

struct py_fake {
	int func;                     /* index in m->funcs */
	struct py_range at;           /* the decorator or the registering call */
	const char *name;             /* the torch.ops name it is registered for (one of the names asked) */
};

/* The functions of `m` registered for one of the `n` names (a string that is
 * the name, or ends in "::name" / "::name.overload"). */
size_t project_py_fakes(struct py_module *m, char *const *names, size_t n, struct py_fake **out);
void project_py_fakes_free(struct py_fake *v);

/* The values return statement `s` gives, counted when it is a tuple or list
 * written out (`return a, b` / `return (a, b)`): their number and, in *last,
 * the token after the last value; -1 when it returns one expression, or one
 * of the values is unpacked (`return (*outs, t)`). */
long project_py_return_arity(const struct py_module *m, int s, size_t *last);

/* True when def `f`'s parameter list takes any keyword (**kwargs) or any
 * more positionals (*args). */
bool project_py_takes_rest(const struct py_module *m, const struct py_func *f);

#endif

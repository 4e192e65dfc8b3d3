/* The torch::autograd::Function a binding applies (`auto r = FooFunction::apply(x);`):
 * found in the binding's own file, in the other binding files of the
 * project, or in a header the binding file includes (`#include "name"`,
 * resolved from the file's directory and each directory above it up to the
 * project root; a header outside the project root is never read). With it,
 * what wire and G2 need of the form: how each return of the binding gives
 * apply's result back, what forward() returns and whether it marks the
 * profiling tensor non-differentiable, and how backward() counts its
 * gradients.
 *
 * Ownership: struct autograd_cache owns the headers it reads (their
 * src_file and pybind_file) until autograd_cache_release; the references
 * it hands out borrow from it or from the model. */
#ifndef AUTOTRACE_PROJECT_AUTOGRAD_H
#define AUTOTRACE_PROJECT_AUTOGRAD_H

#include <stdbool.h>
#include <stddef.h>

#include "project_model.h"
#include "project_pybind.h"
#include "src_file.h"

struct autograd_cache {
	struct src_file **files;
	struct pybind_file *pbs;
	size_t n;
};

void autograd_cache_release(struct autograd_cache *c);

/* A Function class: the file it is in and its index in that file's autograds. */
struct autograd_ref {
	const struct src_file *f;
	const struct pybind_file *pb;
	long cls;
};

/* The Function class `name` applied in binding file (bf, bpb); false when
 * it is nowhere in reach. */
bool project_autograd_find(const struct project_model *p, const struct src_file *bf, const struct pybind_file *bpb,
			   const char *name, struct autograd_cache *cache, struct autograd_ref *out);

/* The functions of binding file (f, pb) that apply an autograd Function
 * whose forward() runs EXEC_NPU_CMD(api, ...), the Function found as
 * project_autograd_find finds it: each one's name is passed to
 * add(name, ctx). Returns how many. */
size_t project_autograd_appliers(const struct project_model *p, const struct src_file *f, const struct pybind_file *pb,
				 const char *api, struct autograd_cache *cache, void (*add)(const char *name, void *ctx),
				 void *ctx);

/* How a return of a binding gives back the result of apply. */
enum autograd_return {
	AUTOGRAD_RETURN_WHOLE,        /* `return r;` / `return X::apply(...);`: whatever forward returns */
	AUTOGRAD_RETURN_INDEXED,      /* `return {r[0], r[1]};`, make_tuple(std::get<0>(r), ...): the first n, in order */
	AUTOGRAD_RETURN_OTHER,        /* anything else */
};

struct autograd_return_form {
	enum autograd_return kind;
	char *var;                    /* INDEXED: the result's name ("r") */
	bool get;                     /* INDEXED: std::get<i>(r) rather than r[i] */
	size_t n;                     /* INDEXED: how many */
};

/* The form of return `ret` of binding function fi, whose apply calls are of
 * the class `cls` (its result stored in a variable, or returned directly). */
void autograd_return_of(const struct pybind_file *pb, long fi, const struct pybind_return *ret, const char *cls,
			struct autograd_return_form *out);
void autograd_return_form_release(struct autograd_return_form *r);

/* The `ctx->mark_non_differentiable(...)` calls of forward() (fi in pb,
 * whose text is f): true when one of them names `name`. *found: there is
 * one; *call is the first's range, *list the inside of its braced argument
 * (`{a, b}`; zero-width at the '(' when the argument is not braced). */
bool autograd_marks(const struct src_file *f, const struct pybind_file *pb, long fi, const char *name,
		    struct pybind_range *call, struct pybind_range *list, bool *found);

/* In backward() (fi), a comparison of the gradients' count with a number
 * (`grads.size() == 2`, `!=`, TORCH_CHECK(...)): the number's range and
 * value; false when there is none. */
bool autograd_grad_count(const struct src_file *f, const struct pybind_file *pb, long fi, struct pybind_range *num,
			 long *value);

#endif

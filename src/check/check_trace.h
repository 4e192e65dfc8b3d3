/* `autotrace check`: static validation of trace points before a build. The
 * checks are split by what they read (gate G1 runs them all):
 *   check_pairing.c  B/E pairing along the control flow of each function
 *   check_points.c   MoeTracing / TRACE_POINT shapes, label naming, scope of
 *                    the extra arguments
 *   check_source.c   bracket balance, #if/#endif pairing, profiling guards
 *   check_runtime.c  each file using MoeTracing reaches its definition
 *   check_gm.c       kernel GM parameters against the op_host declarations
 * Every check reports to a struct diag and returns the number of errors it
 * found; none of them owns or keeps what it is given. */
#ifndef AUTOTRACE_CHECK_TRACE_H
#define AUTOTRACE_CHECK_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "cxx_outline.h"
#include "diag.h"
#include "rule_policy.h"

/* B/E pairing in every function (and lambda) body of `ol`: every path that
 * enters a B leaves through its E, points nest strictly, nothing is closed
 * twice or opened twice. Points whose label or event is malformed are left
 * to check_points. */
unsigned check_pairing(const struct cxx_outline *ol, struct diag *diag);

/* Label naming policy settings for check_points. */
struct check_label_policy {
	const struct rule_root *roots; /* the root labels (L1) */
	size_t nroots;
	int depth;          /* the most words a label may have; 0: no limit */
};

/* The shapes of MoeTracing calls and TRACE_POINT uses, label naming, and the
 * extra arguments' scope, in every function and macro body of `ol`. Counts
 * the points seen with the root label into *root_seen. */
unsigned check_points(const struct cxx_outline *ol, const struct check_label_policy *lp, size_t *root_seen,
		      struct diag *diag);

/* Bracket balance over the chosen #if branches, #if/#elif/#else/#endif
 * pairing, and that no `#if ENABLE_MOE_PROFILING` branch opens or closes a
 * bracket it does not also close or open. */
unsigned check_source(const struct cxx_outline *ol, struct diag *diag);

/* True when `ol` defines MoeTracing (a function or a macro of that name). */
bool check_defines_runtime(const struct cxx_outline *ol);

/* True when `ol` calls MoeTracing or uses TRACE_POINT in code; *first gets
 * the range of the first such use. */
bool check_uses_runtime(const struct cxx_outline *ol, struct cxx_range *first);

/* Kernel GM parameters against op_host `this->Input/Output` declarations,
 * files named relative to `opdir`. `kernels` are the outlines holding
 * __global__ functions. `op`: the declarations of that OpDef class only,
 * and of several kernels the one named as its snake_case; NULL: every
 * declaration read, every kernel. */
unsigned check_gm_params(const char *opdir, const struct rule_policy *p, const char *op,
			 struct cxx_outline *const *kernels, size_t nkernels, struct diag *diag);

#endif

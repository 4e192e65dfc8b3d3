/* The operators of an operator directory, and the one a command works on.
 *
 * The standard custom-operator project keeps several operators side by side
 * in one op_host/ + op_kernel/: op_host/add_custom.cpp (OpDef, tiling, infer)
 * beside op_host/mul_custom.cpp, op_kernel/add_custom.cpp beside
 * op_kernel/mul_custom.cpp; or op_host/<op>_def.cpp + <op>_infer.cpp (or
 * _proto.cpp, _infershape.cpp) + <op>_tiling.cpp per operator; or one infer
 * source for all of them. The operators are the OpDef classes of the rules'
 * host files, each at the file:line of its class name (else of its OP_ADD),
 * each named by its class name or that name's snake_case, which is also the
 * name of its kernel entry (the __global__ of op_kernel/<snake>.cpp).
 *
 * The one a command works on: `--op NAME`, else the rules' `name "NAME";`
 * (operator section), else the only one. Several and none named, a name that
 * matches none, or --op and the rules naming two different operators: exit 2
 * with the list, and a "did you mean" — never a silent pick. A directory with
 * no OpDef (a kernel tree alone) has no list: a name given there selects a
 * kernel entry of that name, which the planner checks.
 *
 * Ownership: the choice owns its strings; project_op_choice_release frees
 * them. project_hosts_load's array and files are the caller's
 * (project_hosts_free). */
#ifndef AUTOTRACE_PROJECT_OPS_H
#define AUTOTRACE_PROJECT_OPS_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "project_opdef.h"
#include "rule_policy.h"
#include "src_file.h"

/* An op_host source and the OpDefs it holds. */
struct project_host { struct src_file *f; struct opdef_file od; };

/* Loads the files of `globs` under opdir (0, or -1 after reporting a bad
 * pattern; an unreadable file is reported and left out). */
int project_layer_load(const char *opdir, const struct rule_strlist *globs, struct src_file ***files, size_t *n,
		       struct diag *diag);

/* The rules' host files with their OpDefs read. 0 or -1 (reported). */
int project_hosts_load(const char *opdir, const struct rule_policy *p, struct project_host **hosts, size_t *n,
		       struct diag *diag);
void project_hosts_free(struct project_host *hosts, size_t n);

struct project_op_choice {
	char *name;           /* the OpDef class (NAME as given in a directory with no
			       * OpDef); NULL: none named, the directory has at most one */
	char *entry;          /* the kernel entry to plan, the class's snake_case (NAME as
			       * given without OpDef); NULL: every entry, as in a directory
			       * of one operator */
	char *journal;        /* the operator's suffix of the undo journals ("NAME.<entry>"):
			       * set when the directory holds several operators, else NULL */
	size_t count;         /* the OpDef operators of the directory */
	long host, op;        /* the chosen OpDef: hosts[host].od.ops[op]; -1 when none */
};

/* Chooses among the OpDefs of `hosts` (see above): `want` is --op (NULL
 * when not given), the rules' name comes from `p`. 0, or -1 after reporting
 * (exit 2). */
int project_op_choose(const struct project_host *hosts, size_t nhosts, const char *opdir, const struct rule_policy *p,
		      const char *want, struct project_op_choice *out, struct diag *diag);

/* project_hosts_load, then project_op_choose, for the commands that read the
 * kernel side only (plan, apply, strip, check). 0 or -1 (reported). */
int project_op_select(const char *opdir, const struct rule_policy *p, const char *want, struct project_op_choice *out,
		      struct diag *diag);
void project_op_choice_release(struct project_op_choice *c);

/* The undo journal of command family `base` ("instrument-undo") for the
 * choice: base itself, or "base.<entry>" (newly allocated). */
char *project_op_journal(const struct project_op_choice *c, const char *base);

#endif

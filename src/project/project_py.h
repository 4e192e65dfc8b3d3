/* What G4 and G5 recognise in a scanned Python sample: spawns, device
 * synchronizes, saves, collector runs, argparse namespaces and their path
 * options, expressions that make a path absolute. */
#ifndef AUTOTRACE_PROJECT_PY_H
#define AUTOTRACE_PROJECT_PY_H

#include <stdbool.h>
#include <stdint.h>

#include "py_scan.h"

/* mp.spawn / torch.multiprocessing.spawn / multiprocessing.Process / start_processes */
bool project_py_is_spawn(const struct py_call *c);
bool project_py_is_sync(const struct py_call *c);
bool project_py_is_save(const struct py_call *c);
/* subprocess/os.system running "... collect ..." / trace_collector, or a collect*() call */
bool project_py_is_collector(struct py_module *m, const struct py_call *c);
/* The spawn's `join` is False. */
bool project_py_spawn_nojoin(struct py_module *m, const struct py_call *c);

/* An expression (tokens [i, j)) that yields an absolute path:
 * .resolve(), os.path.abspath(), os.path.realpath(), .absolute(). */
bool project_py_abs_expr(const struct py_module *m, size_t i, size_t j);

/* A name that holds a profiling dir, chrome trace or point map path. */
bool project_py_path_name(const char *name);

/* An add_argument option: its dest ("profiling_dir" for --profiling-dir). */
struct project_py_option {
	char *dest;
	int call;                     /* the add_argument call */
};
/* The options of the module (caller frees with project_py_options_free). */
struct project_py_option *project_py_options(struct py_module *m, size_t *n);
void project_py_options_free(struct project_py_option *o, size_t n);

/* The argument `keyword` of call c, else positional `pos` (-1: none). */
const struct py_arg *project_py_arg(const struct py_call *c, const char *keyword, int pos);

/* The assignment whose value is call c of the module, or NULL. */
const struct py_assign *project_py_assign_of_call(const struct py_module *m, size_t c);

/* The rank (or the world size) the code of function fn_stmt (PY_NONE: the
 * module) has at byte `before`, looked for in this order, the first place
 * that has one deciding, and in one place the best name:
 *   1 a parameter, 2 a local set before `before`, 3 an attribute of self (in
 *   a method), 4 a parameter or local of an enclosing function, 5 an option
 *   of the argparse namespace `ns` (NULL: none in reach), 6 a module global,
 *   7 a local set from torch.distributed (get_rank() / get_world_size()) or
 *   the environment (RANK, LOCAL_RANK / WORLD_SIZE, LOCAL_WORLD_SIZE);
 *   for the rank, 8 the first parameter of a function a spawn runs; then
 *   9 torch.distributed itself when the script calls init_process_group.
 * The names: rank, rank_id, rank_idx, rank_index, with a prefix global_,
 * world_, my_, cur_, current_, this_, local_, ep_, tp_, dp_, pp_ (in this
 * order of preference), any spelling (rankId, localRank), proc_id last;
 * world_size with the prefixes "", global_, ep_, tp_, dp_, pp_, local_, then
 * nranks, num_ranks, nprocs, num_procs, num_processes, nproc. */
enum project_py_source {
	PY_SRC_PARAM, PY_SRC_LOCAL, PY_SRC_SELF, PY_SRC_ENCLOSING, PY_SRC_OPTION, PY_SRC_GLOBAL, PY_SRC_CALL,
	PY_SRC_SPAWN, PY_SRC_DIST,
	PY_SRC_ONE,                   /* none: the script runs one rank, _autotrace_rank() ($RANK, else 0) */
};
struct project_py_value {
	char *expr;                   /* "rank", "self.global_rank_id", "args.local_rank", "dist.get_rank()" */
	enum project_py_source from;
};
bool project_py_rank(struct py_module *m, int fn_stmt, uint32_t before, const char *ns, struct project_py_value *out);
bool project_py_world_size(struct py_module *m, int fn_stmt, uint32_t before, const char *ns,
			   struct project_py_value *out);
void project_py_value_release(struct project_py_value *v);
/* "a parameter", "an attribute of self", ... for messages. */
const char *project_py_source_text(enum project_py_source s);

/* The statement of `s`'s flow directly in its function (or module) body. */
int project_py_top(const struct py_module *m, int s);

#endif

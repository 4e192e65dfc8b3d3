/* What G4 and G5 recognise in a scanned Python sample: spawns, device
 * synchronizes, saves, collector runs, argparse namespaces and their path
 * options, expressions that make a path absolute. */
#ifndef AUTOTRACE_PROJECT_PY_H
#define AUTOTRACE_PROJECT_PY_H

#include <stdbool.h>

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

/* The statement of `s`'s flow directly in its function (or module) body. */
int project_py_top(const struct py_module *m, int s);

#endif

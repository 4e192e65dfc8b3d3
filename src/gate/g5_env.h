/* G5's check of the profiling paths a spawn passes through the environment (g5_env.c). */
#ifndef AUTOTRACE_G5_ENV_H
#define AUTOTRACE_G5_ENV_H

#include "gate.h"
#include "py_scan.h"
#include "src_file.h"

/* When the script reads a profiling path from an environment variable, a
 * statement on every path to spawn `sp` makes it absolute; else a G5 finding
 * at the spawn. */
void g5_check_env(struct gate_report *r, const struct src_file *f, struct py_module *m, const struct py_call *sp);

#endif

/* The options of a project's command line, written back as shell words, so
 * that a next step or a fix printed for the user runs on the same operator
 * with the same rules as the command that printed it. */
#ifndef AUTOTRACE_PROJECT_CMDLINE_H
#define AUTOTRACE_PROJECT_CMDLINE_H

#include <stdbool.h>

#include "project_model.h"

/* " --without L --rules R --op N" for those that were given (--without only
 * when `without`), each value quoted by sh_quote; "" when none. Newly
 * allocated. */
char *project_cmd_options(const struct project_opts *o, bool without);

#endif

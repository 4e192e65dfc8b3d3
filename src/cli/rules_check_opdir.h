/* `autotrace rules check OPDIR` (rules_check_opdir.c). */
#ifndef AUTOTRACE_RULES_CHECK_OPDIR_H
#define AUTOTRACE_RULES_CHECK_OPDIR_H

#include "diag.h"

/* Loads and checks the rules of operator directory `opdir` (`rules`, or as
 * plan finds them), prints "RULES: ok (...)", plans the operator without
 * output and warns at each rule of its own files that matches nothing or is
 * always overridden. EXIT_OK when there are only warnings, EXIT_BAD_INPUT
 * for bad rules, sources that cannot be planned, or none. */
int rules_check_opdir(const char *opdir, const char *rules, struct diag *diag);

#endif

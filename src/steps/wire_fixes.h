/* The fix gate offers for the findings wire would fix (wire_fixes.c). */
#ifndef AUTOTRACE_WIRE_FIXES_H
#define AUTOTRACE_WIRE_FIXES_H

#include "gate.h"
#include "project_model.h"

/* Plans wire over the project gate checked (its opdir, rules, --op and
 * --without; messages kept quiet) and gives each G2 / G4 / G5 error located
 * in a file the plan changes, and without a fix yet, the fix
 * `autotrace wire [options] OPDIR`. Nothing when wire would leave manual
 * steps or change nothing. */
void wire_offer_fixes(struct gate_report *r, const struct project_opts *gate_opts);

#endif

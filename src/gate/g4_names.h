/* G4's check that the save and collect code of a sample can run (g4_names.c). */
#ifndef AUTOTRACE_G4_NAMES_H
#define AUTOTRACE_G4_NAMES_H

#include "gate.h"
#include "project_model.h"
#include "py_scan.h"
#include "src_file.h"

/* Adds a G4.names finding for each name the save / collector statements of
 * `m` start from, and each name a call of the operator reads, that the
 * script never binds where that code can see it; and for each path option
 * read from the parsed arguments that the parser does not declare. */
void g4_check_names(const struct project_model *p, struct gate_report *r, const struct src_file *f,
		    struct py_module *m);

#endif

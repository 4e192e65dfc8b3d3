/* The gates themselves: each reads what it needs of the project and adds
 * findings to the report. G3 runs the build; the others only read. */
#ifndef AUTOTRACE_GATE_RUN_H
#define AUTOTRACE_GATE_RUN_H

#include "gate.h"
#include "gate_project.h"

void gate_g1(struct gate_project *p, struct gate_report *r);
void gate_g2(struct gate_project *p, struct gate_report *r);
void gate_g3(struct gate_project *p, struct gate_report *r);
void gate_g4(struct gate_project *p, struct gate_report *r);
void gate_g5(struct gate_project *p, struct gate_report *r);

#endif

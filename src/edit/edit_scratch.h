/* Scratch writes: while instrument's steps run in its staging copy, what
 * they write is thrown away or written back later by a batch of its own,
 * so nothing written then needs to reach the disk: no fsync of files,
 * journals or directories. instrument_stage.c turns it on at stage_enter
 * and off at stage_leave; every writer of this floor asks it. */
#ifndef AUTOTRACE_EDIT_SCRATCH_H
#define AUTOTRACE_EDIT_SCRATCH_H

#include <stdbool.h>

void edit_scratch_set(bool on);
bool edit_scratch(void);

#endif

// Base header of the test operator: the trace point runtime, and the tiling
// key test the entry's arms use.
#pragma once
#include <kernel_operator.h>
#include <moe_tracing.h>

#ifndef TILING_KEY_IS
#define TILING_KEY_IS(k) ((k) == 1)
#endif

#pragma once
#include "moe_tiling_gen.h"
#define ENABLE_MOE_PROFILING 1
#define PROF_SIZE_PER_CORE 2048

// Constants shared by the MoeDistributeDispatchGmm kernel headers, and the profiling runtime;
// it includes a helper header with code of its own (apply may put points there, and include this
// header from it: a no-op under this include guard, so the runtime must come first).
#ifndef MOE_DISTRIBUTE_DISPATCH_GMM_BASE_H
#define MOE_DISTRIBUTE_DISPATCH_GMM_BASE_H

#include "kernel_operator.h"
#include "moe_distribute_dispatch_gmm_tiling.h"
#include "moe_reduce_helpers.h"

// Cross-core flags between the cube core and its two vector cores (ids 0..9; 10 is profiling's).
constexpr uint16_t FLAG_WINDOW_READY = 0;   // AIV send -> AIV recv (mode 1)
constexpr uint16_t FLAG_DISPATCH_DONE = 1;  // both AIV -> AIC: tokens of a group are in the window
constexpr uint16_t FLAG_GMM1_DONE = 2;      // AIC -> both AIV: GMM1 of a group is in workspace
constexpr uint16_t FLAG_ACT_DONE = 3;       // both AIV -> AIC: epilogue of a group is done
constexpr uint16_t FLAG_GMM2_DONE = 4;      // AIC -> both AIV: GMM2 of a group is done

constexpr uint32_t SEND_SUB_BLOCK = 0;      // AIV sub-block 0 sends tokens, sub-block 1 receives
constexpr uint32_t BASE_M = 16;
constexpr uint32_t BASE_N = 16;
constexpr uint32_t BASE_K = 16;

// Profiling: 1 records trace points into profiling_data, 0 compiles them away (rebuild the kernel).
#ifndef ENABLE_MOE_PROFILING
#define ENABLE_MOE_PROFILING 1
#endif
#ifndef PROF_SIZE_PER_CORE
#define PROF_SIZE_PER_CORE 2048
#endif

#endif

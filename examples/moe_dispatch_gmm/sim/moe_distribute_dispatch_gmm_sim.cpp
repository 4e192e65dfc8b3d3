// Host-simulation stand-in for aclnnMoeDistributeDispatchGmm: computes the tiling, allocates the
// workspace and launches the kernel on simulated cores. Loaded by examples/npu_sim.py (ctypes).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "kernel_operator.h"
#include "op_host/moe_distribute_dispatch_gmm_tiling.h"
#include "op_kernel/moe_distribute_dispatch_gmm_base.h"

extern "C" __global__ __aicore__ void moe_distribute_dispatch_gmm(
    GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight1, GM_ADDR weight2, GM_ADDR scale, GM_ADDR y,
    GM_ADDR expertTokenNums, GM_ADDR profilingData, GM_ADDR workspace, GM_ADDR tiling);

// Returns 0, or a negative error: -1 bad shape, -2 profiling_data too small, -3 launch failed.
extern "C" int aclnn_sim_moe_distribute_dispatch_gmm(
    const float *x, const int32_t *expertIds, const float *weight1, const float *weight2,
    const float *scale, float *y, int64_t *expertTokenNums, int64_t *profilingData,
    int64_t profilingWords, uint32_t tokenNum, uint32_t hiddenSize, uint32_t interSize,
    uint32_t expertNum, uint32_t aicNum)
{
    MoeDistributeDispatchGmmTilingData tiling;
    if (!ComputeMoeDistributeDispatchGmmTiling(tokenNum, hiddenSize, interSize, expertNum, aicNum,
                                               tiling)) {
        return -1;
    }
    if (profilingWords < (int64_t)tiling.blockDim * 3 * PROF_SIZE_PER_CORE) {
        std::fprintf(stderr, "aclnn_sim: profiling_data has %lld words, %lld needed\n",
                     (long long)profilingWords, (long long)tiling.blockDim * 3 * PROF_SIZE_PER_CORE);
        return -2;
    }
    std::vector<uint8_t> workspace(tiling.workspaceSize);
    int rc = sim_launch(moe_distribute_dispatch_gmm, tiling.blockDim, (GM_ADDR)x, (GM_ADDR)expertIds,
                        (GM_ADDR)weight1, (GM_ADDR)weight2, (GM_ADDR)scale, (GM_ADDR)y,
                        (GM_ADDR)expertTokenNums, (GM_ADDR)profilingData, (GM_ADDR)workspace.data(),
                        (GM_ADDR)&tiling);
    return rc == 0 ? 0 : -3;
}

// Block count the launch uses for these shapes (the sample sizes profiling groups from it).
extern "C" int aclnn_sim_moe_distribute_dispatch_gmm_block_dim(uint32_t expertNum, uint32_t aicNum)
{
    return (int)(expertNum < aicNum ? expertNum : aicNum);
}

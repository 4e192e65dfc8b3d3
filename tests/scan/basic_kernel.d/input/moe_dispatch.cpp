/*
 * Copyright (c) 2024 Huawei Technologies Co., Ltd.
 */
#include "kernel_operator.h"
#include "moe_dispatch.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void
moe_dispatch(GM_ADDR x, GM_ADDR expertIds, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    MoeDispatch<half> op;
    op.Init(x, expertIds, y, workspace, &tilingData);
    op.Process();
}

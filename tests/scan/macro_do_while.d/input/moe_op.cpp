#include "kernel_operator.h"

#define INVOKE_MOE_OP(templateClass, ...)                 \
    do {                                                 \
        templateClass<__VA_ARGS__> op;                   \
        op.Init(x, expertIds, y, workspace, &tilingData); \
        op.Process();                                    \
    } while (0)

#define TILING_KEY_IS(k) (tilingKey == (k))

extern "C" __global__ __aicore__ void moe_op(GM_ADDR x, GM_ADDR expertIds, GM_ADDR y,
                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        INVOKE_MOE_OP(MoeOp, half, false);
    } else if (TILING_KEY_IS(2)) {
        INVOKE_MOE_OP(MoeOp, bfloat16_t, true);
    }
}

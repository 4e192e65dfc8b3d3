// InferShape and the graph prototype of MoeDistributeDispatchGmm in one source.
#include "register/op_impl_registry.h"

namespace ops {
constexpr size_t INPUT_X = 0;
constexpr size_t INPUT_WEIGHT1 = 2;
constexpr size_t OUTPUT_Y = 0;
constexpr size_t OUTPUT_EXPERT_TOKEN_NUMS = 1;

constexpr size_t OUTPUT_PROFILING_DATA = 2;
constexpr int64_t MAX_INFER_GETBLOCKNUM_UB = 128;  // infer has no GetBlockNum()
constexpr int64_t MIX_AIC_1_2_SUBBLOCK_NUM = 2;
constexpr int64_t MIX_AIC_1_2_SLOTS_PER_GROUP = 1 + MIX_AIC_1_2_SUBBLOCK_NUM;
constexpr int64_t PROF_SIZE_PER_CORE = 2048;

static ge::graphStatus InferShapeMoeDistributeDispatchGmm(gert::InferShapeContext *context)
{
    gert::Shape *profilingDataShape = context->GetOutputShape(OUTPUT_PROFILING_DATA);
    if (profilingDataShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    profilingDataShape->SetDimNum(1);
    profilingDataShape->SetDim(0, MAX_INFER_GETBLOCKNUM_UB * MIX_AIC_1_2_SLOTS_PER_GROUP * PROF_SIZE_PER_CORE);
    const gert::Shape *xShape = context->GetInputShape(INPUT_X);
    const gert::Shape *w1Shape = context->GetInputShape(INPUT_WEIGHT1);
    gert::Shape *yShape = context->GetOutputShape(OUTPUT_Y);
    gert::Shape *numsShape = context->GetOutputShape(OUTPUT_EXPERT_TOKEN_NUMS);
    if (xShape == nullptr || w1Shape == nullptr || yShape == nullptr || numsShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    *yShape = *xShape;
    numsShape->SetDimNum(1);
    numsShape->SetDim(0, w1Shape->GetDim(0));
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_INFERSHAPE(MoeDistributeDispatchGmm).InferShape(InferShapeMoeDistributeDispatchGmm);
} // namespace ops

namespace ge {
REG_OP(MoeDistributeDispatchGmm)
    .INPUT(x, TensorType({DT_FLOAT}))
    .INPUT(expert_ids, TensorType({DT_INT32}))
    .INPUT(weight1, TensorType({DT_FLOAT}))
    .INPUT(weight2, TensorType({DT_FLOAT}))
    .INPUT(scale, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(expert_token_nums, TensorType({DT_INT64}))
    .OUTPUT(profiling_data, TensorType({DT_INT64}))
    .OP_END_FACTORY_REG(MoeDistributeDispatchGmm)
} // namespace ge

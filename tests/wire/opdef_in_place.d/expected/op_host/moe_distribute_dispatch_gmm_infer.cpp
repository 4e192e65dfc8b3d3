// InferShape / InferDataType of MoeDistributeDispatchGmm, an in-place operator: it declares no
// output (the kernel writes the inputs y and expert_token_nums), so there is nothing to infer.
#include "register/op_impl_registry.h"

namespace ops {
constexpr size_t OUTPUT_PROFILING_DATA = 0;
constexpr int64_t MAX_INFER_GETBLOCKNUM_UB = 128;  // infer has no GetBlockNum()
constexpr int64_t MIX_AIC_1_2_SUBBLOCK_NUM = 2;
constexpr int64_t MIX_AIC_1_2_SLOTS_PER_GROUP = 1 + MIX_AIC_1_2_SUBBLOCK_NUM;
constexpr int64_t PROF_SIZE_PER_CORE = 2048;

static ge::graphStatus InferShapeMoeDistributeDispatchGmm(gert::InferShapeContext *context)
{
    gert::Shape *profilingDataShape = context->GetOutputShape(OUTPUT_PROFILING_DATA);
    if (profilingDataShape == nullptr) {
        return ge::GRAPH_SUCCESS;
    }
    profilingDataShape->SetDimNum(1);
    profilingDataShape->SetDim(0, MAX_INFER_GETBLOCKNUM_UB * MIX_AIC_1_2_SLOTS_PER_GROUP * PROF_SIZE_PER_CORE);
    (void)context;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus InferDataTypeMoeDistributeDispatchGmm(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(OUTPUT_PROFILING_DATA, ge::DT_INT64);
    (void)context;
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_INFERSHAPE(MoeDistributeDispatchGmm)
    .InferShape(InferShapeMoeDistributeDispatchGmm)
    .InferDataType(InferDataTypeMoeDistributeDispatchGmm);
} // namespace ops

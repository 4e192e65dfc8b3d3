// The graph plugin of MoeDistributeDispatchGmm: its InferDataType.
#include "register/op_impl_registry.h"

namespace ops {
static constexpr int64_t IDX_0 = 0;
static constexpr int64_t IDX_1 = 1;

static ge::graphStatus InferDataTypeMoeDistributeDispatchGmm(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(IDX_0, context->GetInputDataType(IDX_0));
    context->SetOutputDataType(IDX_1, ge::DT_INT64);
    return ge::GRAPH_SUCCESS;
}

IMPL_OP(MoeDistributeDispatchGmm).InferDataType(InferDataTypeMoeDistributeDispatchGmm);
} // namespace ops

// InferShape / InferDataType of MoeDistributeDispatchGmm, an in-place operator: it declares no
// output (the kernel writes the inputs y and expert_token_nums), so there is nothing to infer.
#include "register/op_impl_registry.h"

namespace ops {
static ge::graphStatus InferShapeMoeDistributeDispatchGmm(gert::InferShapeContext *context)
{
    (void)context;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus InferDataTypeMoeDistributeDispatchGmm(gert::InferDataTypeContext *context)
{
    (void)context;
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_INFERSHAPE(MoeDistributeDispatchGmm)
    .InferShape(InferShapeMoeDistributeDispatchGmm)
    .InferDataType(InferDataTypeMoeDistributeDispatchGmm);
} // namespace ops

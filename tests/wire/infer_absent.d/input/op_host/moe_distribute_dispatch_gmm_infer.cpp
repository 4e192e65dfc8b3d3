// InferShape of MoeDistributeCombine, the operator that follows MoeDistributeDispatchGmm in the
// layer; MoeDistributeDispatchGmm itself registers no InferShape (it runs in eager mode only).
#include "register/op_impl_registry.h"

namespace ops {
constexpr size_t INPUT_EXPAND_X = 0;
constexpr size_t OUTPUT_X = 0;

static ge::graphStatus InferShapeMoeDistributeCombine(gert::InferShapeContext *context)
{
    const gert::Shape *expandXShape = context->GetInputShape(INPUT_EXPAND_X);
    gert::Shape *xShape = context->GetOutputShape(OUTPUT_X);
    if (expandXShape == nullptr || xShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    *xShape = *expandXShape;
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_INFERSHAPE(MoeDistributeCombine).InferShape(InferShapeMoeDistributeCombine);
} // namespace ops

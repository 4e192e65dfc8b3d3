// The graph prototype of MoeDistributeDispatchGmm: graph mode reads it instead
// of the OpDef. Its last output's type spans two lines and carries a comment.
#ifndef MOE_DISTRIBUTE_DISPATCH_GMM_PROTO_H
#define MOE_DISTRIBUTE_DISPATCH_GMM_PROTO_H

#include "graph/operator_reg.h"

namespace ge {
REG_OP(MoeDistributeDispatchGmm)
    .INPUT(x, TensorType({DT_FLOAT}))
    .INPUT(expert_ids, TensorType({DT_INT32}))
    .INPUT(weight1, TensorType({DT_FLOAT}))
    .INPUT(weight2, TensorType({DT_FLOAT}))
    .OPTIONAL_INPUT(scale, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(expert_token_nums,
            TensorType({DT_INT64}))  // tokens per local expert
    .OUTPUT(profiling_data, TensorType({DT_INT64}))
    .REQUIRED_ATTR(group_ep, String)
    .ATTR(ep_world_size, Int, 8)
    .OP_END_FACTORY_REG(MoeDistributeDispatchGmm)

/* another operator's prototype in the same header: not this run's */
REG_OP(MoeCombine)
    .INPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(z, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(MoeCombine)
} // namespace ge

#endif

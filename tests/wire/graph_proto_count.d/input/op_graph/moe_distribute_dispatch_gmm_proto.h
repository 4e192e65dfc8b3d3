// A prototype that lags the OpDef: one output where the OpDef has two. Where
// the profiling output would go is not wire's to guess.
#include "graph/operator_reg.h"

namespace ge {
REG_OP(MoeDistributeDispatchGmm)
    .INPUT(x, TensorType({DT_FLOAT}))
    .INPUT(expert_ids, TensorType({DT_INT32}))
    .INPUT(weight1, TensorType({DT_FLOAT}))
    .INPUT(weight2, TensorType({DT_FLOAT}))
    .INPUT(scale, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(MoeDistributeDispatchGmm)
} // namespace ge

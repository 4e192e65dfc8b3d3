// A prototype written on few lines, its last output dynamic.
#include "graph/operator_reg.h"

namespace ge {
REG_OP(MoeDistributeDispatchGmm).INPUT(x, TensorType({DT_FLOAT})).INPUT(expert_ids, TensorType({DT_INT32}))
    .INPUT(weight1, TensorType({DT_FLOAT})).INPUT(weight2, TensorType({DT_FLOAT})).INPUT(scale, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT})).DYNAMIC_OUTPUT(expert_token_nums, TensorType({DT_INT64})).OP_END_FACTORY_REG(MoeDistributeDispatchGmm)
} // namespace ge

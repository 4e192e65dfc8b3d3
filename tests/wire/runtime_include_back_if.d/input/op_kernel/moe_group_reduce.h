// A helper of the kernel, included by the base header and including it back: its point needs
// the runtime, which the base header must therefore declare before it includes this file.
#ifndef MOE_GROUP_REDUCE_H
#define MOE_GROUP_REDUCE_H
#include "kernel_operator.h"
#include "moe_distribute_dispatch_gmm_base.h"

__aicore__ inline void GroupReduce(uint32_t groupIdx)
{
    MoeTracing(TRACE_POINT("group-reduce", "B"), groupIdx);
    MoeTracing(TRACE_POINT("group-reduce", "E"), groupIdx);
}
#endif

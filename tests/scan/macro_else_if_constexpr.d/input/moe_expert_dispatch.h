#pragma once
// 宏展开为 else if constexpr 分支, 被使用 30 次
#define DISPATCH_EXPERT_CASE(K)                        \
    else if constexpr (kExpertPerRank == (K)) {        \
        ProcessExperts<K>(params, workspace);          \
        MoeTracing(TRACE_POINT("expert-case", "B"), K); \
    }

template <uint32_t kExpertPerRank>
__aicore__ inline void DispatchByExpertCount(Params const &params, GM_ADDR workspace)
{
    if constexpr (kExpertPerRank == 0) {
        return;
    }
    DISPATCH_EXPERT_CASE(1)
    DISPATCH_EXPERT_CASE(2)
    DISPATCH_EXPERT_CASE(3)
    DISPATCH_EXPERT_CASE(4)
    DISPATCH_EXPERT_CASE(5)
    DISPATCH_EXPERT_CASE(6)
    DISPATCH_EXPERT_CASE(7)
    DISPATCH_EXPERT_CASE(8)
    DISPATCH_EXPERT_CASE(9)
    DISPATCH_EXPERT_CASE(10)
    DISPATCH_EXPERT_CASE(11)
    DISPATCH_EXPERT_CASE(12)
    DISPATCH_EXPERT_CASE(13)
    DISPATCH_EXPERT_CASE(14)
    DISPATCH_EXPERT_CASE(15)
    DISPATCH_EXPERT_CASE(16)
    DISPATCH_EXPERT_CASE(17)
    DISPATCH_EXPERT_CASE(18)
    DISPATCH_EXPERT_CASE(19)
    DISPATCH_EXPERT_CASE(20)
    DISPATCH_EXPERT_CASE(21)
    DISPATCH_EXPERT_CASE(22)
    DISPATCH_EXPERT_CASE(23)
    DISPATCH_EXPERT_CASE(24)
    DISPATCH_EXPERT_CASE(25)
    DISPATCH_EXPERT_CASE(26)
    DISPATCH_EXPERT_CASE(27)
    DISPATCH_EXPERT_CASE(28)
    DISPATCH_EXPERT_CASE(29)
    DISPATCH_EXPERT_CASE(30)
    else {
        ProcessExpertsDynamic(params, workspace);
    }
    Finish(params);
}

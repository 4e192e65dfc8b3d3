// Test epilogues: one class template, a partial specialisation per dispatch
// policy. `using E = Epilogue<PolicyB<int32_t>>;` picks the PolicyB one;
// the PolicyA one is not reached.
#pragma once
#include "op_base.h"

template <class T>
struct PolicyA {
    using Element = T;
};

template <class T>
struct PolicyB {
    using Element = T;
};

template <class Policy>
struct Epilogue;

template <class T>
struct Epilogue<PolicyA<T>> {
    __aicore__ inline void operator()(uint32_t rows)
    {
        AscendC::SyncAll<false>();
        done_ = rows;
    }
    uint32_t done_ = 0;
};

template <class T>
struct Epilogue<PolicyB<T>> {
    __aicore__ inline void operator()(uint32_t rows)
    {
        MoeTracing(TRACE_POINT("processing epilogue", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(2);
        done_ = rows * 2;
        MoeTracing(TRACE_POINT("processing epilogue", "E")); // autotrace
    }
    uint32_t done_ = 0;
};

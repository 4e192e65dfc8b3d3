// Test stages: each is constructed by one form in the operator, and its
// constructor waits for the other core type (Dispatcher's has a function
// rule of its own, Combiner's is defined out of its class). Decoy has the
// same shape and is only pointed to and referred to: it must not be
// reached. Plain and Empty have no constructor written: making them is no
// call, nor a call of a function defined nowhere.
#pragma once
#include "op_base.h"

namespace stages {

class Dispatcher {
public:
    __aicore__ inline explicit Dispatcher(GM_ADDR x) : x_(x)
    {
        MoeTracing(TRACE_POINT("processing dispatcher", "B")); // autotrace
        MoeTracing(TRACE_POINT("processing dispatcher cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("processing dispatcher cross-core-wait-flag", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing dispatcher", "E")); // autotrace
    }

private:
    GM_ADDR x_;
};

class Gather {
public:
    __aicore__ inline Gather(GM_ADDR x, uint32_t n) : x_(x), n_(n)
    {
        MoeTracing(TRACE_POINT("processing gather cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(2);
        MoeTracing(TRACE_POINT("processing gather cross-core-wait-flag", "E")); // autotrace
    }

private:
    GM_ADDR x_;
    uint32_t n_;
};

class Pipeline {
public:
    __aicore__ inline Pipeline()
    {
        MoeTracing(TRACE_POINT("processing pipeline cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(3);
        MoeTracing(TRACE_POINT("processing pipeline cross-core-wait-flag", "E")); // autotrace
    }
};

class Combiner {
public:
    __aicore__ inline Combiner(GM_ADDR x);

private:
    GM_ADDR x_;
};

__aicore__ inline Combiner::Combiner(GM_ADDR x) : x_(x)
{
    MoeTracing(TRACE_POINT("processing combiner cross-core-wait-flag", "B")); // autotrace
    AscendC::CrossCoreWaitFlag(4);
    MoeTracing(TRACE_POINT("processing combiner cross-core-wait-flag", "E")); // autotrace
}

class Reducer {
public:
    __aicore__ inline Reducer(GM_ADDR x) : x_(x)
    {
        MoeTracing(TRACE_POINT("processing reducer cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(5);
        MoeTracing(TRACE_POINT("processing reducer cross-core-wait-flag", "E")); // autotrace
    }

private:
    GM_ADDR x_;
};

class Queue {
public:
    __aicore__ inline Queue(GM_ADDR x) : x_(x)
    {
        MoeTracing(TRACE_POINT("processing queue cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(6);
        MoeTracing(TRACE_POINT("processing queue cross-core-wait-flag", "E")); // autotrace
    }

private:
    GM_ADDR x_;
};

class Scatter {
public:
    __aicore__ inline Scatter(GM_ADDR x) : x_(x)
    {
        MoeTracing(TRACE_POINT("processing scatter cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(7);
        MoeTracing(TRACE_POINT("processing scatter cross-core-wait-flag", "E")); // autotrace
    }
    GM_ADDR x_;
};

class Decoy {
public:
    __aicore__ inline Decoy(GM_ADDR x) : x_(x)
    {
        AscendC::CrossCoreWaitFlag(8);
    }

private:
    GM_ADDR x_;
};

struct Plain {
    uint32_t n;
};

struct Empty {
};

} // namespace stages

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
        AscendC::CrossCoreWaitFlag(1);
    }

private:
    GM_ADDR x_;
};

class Gather {
public:
    __aicore__ inline Gather(GM_ADDR x, uint32_t n) : x_(x), n_(n)
    {
        AscendC::CrossCoreWaitFlag(2);
    }

private:
    GM_ADDR x_;
    uint32_t n_;
};

class Pipeline {
public:
    __aicore__ inline Pipeline()
    {
        AscendC::CrossCoreWaitFlag(3);
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
    AscendC::CrossCoreWaitFlag(4);
}

class Reducer {
public:
    __aicore__ inline Reducer(GM_ADDR x) : x_(x)
    {
        AscendC::CrossCoreWaitFlag(5);
    }

private:
    GM_ADDR x_;
};

class Queue {
public:
    __aicore__ inline Queue(GM_ADDR x) : x_(x)
    {
        AscendC::CrossCoreWaitFlag(6);
    }

private:
    GM_ADDR x_;
};

class Scatter {
public:
    __aicore__ inline Scatter(GM_ADDR x) : x_(x)
    {
        AscendC::CrossCoreWaitFlag(7);
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

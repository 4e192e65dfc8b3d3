// Scan case: the constructions of objects the scanner records as calls
// ("constructs"), and the declarations that make no object.
#pragma once

namespace stages {

class Queue {
public:
    __aicore__ inline Queue(GM_ADDR x, uint32_t depth = 2) : x_(x), depth_{depth} { Reset(); }
    __aicore__ inline Queue() : Queue(nullptr) {}

private:
    GM_ADDR x_;
    uint32_t depth_;
};

class Operator : public Base<Operator> {
public:
    __aicore__ inline Operator(GM_ADDR x) : Base<Operator>(x), queue_(x, 4) {}
    __aicore__ inline void Process(GM_ADDR x);

private:
    Queue queue_;
};

__aicore__ inline void Operator::Process(GM_ADDR x)
{
    // each of these makes an object of a class type
    Queue a(x), b{x, 8}, c = {x};
    AscendC::TPipe pipe;
    const Tensor<half> t(Alloc(x));
    Queue *e = new Queue(x);
    Run(Params{x, 1}, Queue(x));
    for (Cursor it(x); it.Next(); ) {
        Step(it);
    }
    // and these do not
    Queue *p = nullptr, &r = a, f();
    uint32_t n(4);
    half h{1};
    GM_ADDR g = x;
    auto d = Queue(x);
    extern Queue shared;
    int *i = new int(3);
    Queue *qs = new Queue[4];
    r.depth{2};
    delete e;
}

} // namespace stages

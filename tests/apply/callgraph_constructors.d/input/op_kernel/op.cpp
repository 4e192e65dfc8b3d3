// Test operator: its kernel entry makes an object of each stage by one form
// (a declaration with () or {}, one without initializer, a temporary given
// to auto, new, a mem-initializer of a member, a temporary argument), and a
// template makes one of a type it is given, which the planner cannot know.
#include "stages.h"

class Operator {
public:
    __aicore__ inline Operator(GM_ADDR x) : queue_(x) {}

private:
    stages::Queue queue_;
};

__aicore__ inline void Consume(const stages::Scatter &s, const stages::Empty &e)
{
    (void)s;
    (void)e;
}

template <typename Stage>
__aicore__ inline void Make()
{
    Stage s;
    (void)s;
}

extern "C" __global__ __aicore__ void op(GM_ADDR x)
{
    using Disp = stages::Dispatcher;
    Disp a(x);
    stages::Gather b{x, 4};
    stages::Pipeline c;
    auto d = stages::Combiner(x);
    stages::Reducer *e = new stages::Reducer(x);
    Operator f(x);
    Consume(stages::Scatter(x), stages::Empty());
    stages::Decoy *none = nullptr;
    stages::Decoy &ref = *static_cast<stages::Decoy *>(nullptr);
    stages::Plain p;
    stages::Plain q = stages::Plain{3};
    uint32_t n(4);
    Make<stages::Empty>();
    (void)a; (void)b; (void)c; (void)d; (void)none; (void)ref; (void)p; (void)q; (void)n;
    delete e;
}

// A loop timed whole whose index is its own loop variable: out of scope
// around the loop, refused, located; nothing written.
#include "kernel_operator.h"

class MoeDrain {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t flagIdx = 0; flagIdx < 4; flagIdx++) {
            AscendC::CrossCoreWaitFlag<0x2>(flagIdx);
            Reduce(1);
        }
        if (rows_ > 0) {
            Reduce(rows_);
        } else if (rows_ == 0) {
            return;
        } else {
            Reduce(1);
        }
        for (uint32_t stepIdx = 0; stepIdx < 2; stepIdx++)
            Reduce(stepIdx);
    }

private:
    __aicore__ inline void Reduce(uint32_t n) { rows_ -= n; }
    uint32_t rows_ = 16;
};

extern "C" __global__ __aicore__ void moe_drain(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    MoeDrain op;
    op.Process();
}

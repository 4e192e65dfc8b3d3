// An operator whose rules have one that matches nothing (no loop over
// groupIdx) and one that a later rule always overrides (the transparent
// rule takes the expert loop): `plan .` lists them in the plan and warns at
// both, exit 0.
#include <kernel_operator.h>

constexpr uint16_t SYNC_AIV_AIC_FLAG = 6;

class MoeExperts {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t expertIdx = 0; expertIdx < experts_; ++expertIdx) {
            AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIV_AIC_FLAG);
            Compute(expertIdx);
        }
    }

private:
    __aicore__ inline void Compute(uint32_t expertIdx) { rows_ += expertIdx; }
    uint32_t experts_ = 8;
    uint32_t rows_ = 0;
};

extern "C" __global__ __aicore__ void moe_experts(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    MoeExperts op;
    op.Process();
}

#pragma once
class MoeGmm {
public:
    __aicore__ inline void Process()
    {
        int64_t groupOffset = 0;
        for (uint32_t groupIdx = 0; groupIdx < groupNum_; ++groupIdx) {
            int64_t tokens = groupList_.GetValue(groupIdx);
            if (tokens == 0) {
                continue;
            }
            ComputeGroup(groupIdx, groupOffset, tokens);
            groupOffset += tokens;
        }
        for (auto &stage : stages_) {
            stage.Run();
        }
        uint32_t stageId = 0;
        while (stageId < stageNum_) {
            RunStage(stageId++);
        }
    }

    __aicore__ inline void ComputeGroup(uint32_t groupIdx, int64_t offset, int64_t tokens)
    {
        for (int64_t m = 0; m < tokens; m += baseM_)
            for (int64_t k = 0; k < kSize_; k += baseK_)
                Mmad(c_, a_, b_, params_);
    }
};

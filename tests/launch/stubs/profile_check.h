// profile_check.h (tests/launch.test) - what a run of a wired operator on the host simulation
// must leave in the profiling tensor its host function returns: int64, the named bound's size
// (128 x 3 x 2048 words), and a moe-v2 slot (device/LAYOUT.md) for each core of the 1C2V
// launch -- AIC block b at slot b, AIV v at slot blockDim + v -- whose header says which core
// wrote it, and nothing past them. `points`: the kernel was instrumented too, so cores recorded.
#ifndef AUTOTRACE_TEST_PROFILE_CHECK_H
#define AUTOTRACE_TEST_PROFILE_CHECK_H

#include <cstdint>
#include <cstdio>

#include <ATen/ATen.h>

inline int profile_check(const at::Tensor &prof, uint32_t blockDim, bool points)
{
    const int64_t size = 2048, want = 128 * 3 * size, magic = 0x4D4F455400080002LL;
    int64_t records = 0;

    if (prof.scalar_type() != at::kLong || prof.numel() != want) {
        std::printf("not ok - the profiling tensor is int64 of %lld words (it has %lld)\n", (long long)want,
                    (long long)prof.numel());
        return 1;
    }
    const int64_t *w = prof.data_ptr<int64_t>();
    for (uint32_t slot = 0; slot < 3 * blockDim; slot++) {
        const int64_t *s = w + (int64_t)slot * size;
        bool aic = slot < blockDim;
        int64_t block = aic ? slot : slot - blockDim;
        if (s[0] != magic || (s[1] & 0xff) != (aic ? 1 : 2) || ((s[1] >> 16) & 0xffff) != blockDim || s[2] != block ||
            s[7] <= 0) {
            std::printf("not ok - slot %u holds the header of %s block %lld (words 0-2: %llx %llx %lld, entry cycle %lld)\n",
                        slot, aic ? "AIC" : "AIV", (long long)block, (unsigned long long)s[0], (unsigned long long)s[1],
                        (long long)s[2], (long long)s[7]);
            return 1;
        }
        records += s[4];
    }
    if (w[3 * blockDim * size] != 0) {
        std::printf("not ok - nothing is written past the launch's %u slots\n", 3 * blockDim);
        return 1;
    }
    if (points != (records > 0)) {
        std::printf("not ok - the kernel recorded %lld points (%s)\n", (long long)records,
                    points ? "instrumented: some" : "not instrumented: none");
        return 1;
    }
    std::printf("ok - the kernel wrote the slots of its %u cores (%lld records)\n", 3 * blockDim, (long long)records);
    return 0;
}

#endif

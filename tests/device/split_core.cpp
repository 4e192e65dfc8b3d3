// split_core.cpp - one pass of the split-core compilation of a mixed kernel: compiled once with
// -DSPLIT_CORE_CUBE and once with -DSPLIT_CORE_VEC (and __CCE_AICORE__=220), the two objects
// linked together. Each pass records into the runtime state of its own name (device.test checks
// the symbols with nm); main() (-DSPLIT_CORE_MAIN) runs both passes' functions in one program.
#include "moe_tracing.h"

#if defined(SPLIT_CORE_MAIN)
#include <cstdio>
extern "C" int64_t split_core_cube(int64_t *buf);
extern "C" int64_t split_core_vec(int64_t *buf);

int main()
{
    static int64_t cube[PROF_SIZE_PER_CORE], vec[PROF_SIZE_PER_CORE];
    // each pass's state is its own: the vector pass's records do not land in the cube's buffer
    int64_t nc = split_core_cube(cube), nv = split_core_vec(vec);
    if (nc != 2 || nv != 3) {
        std::printf("not ok - split core: records per pass (cube %lld, vec %lld; want 2, 3)\n", (long long)nc,
                    (long long)nv);
        return 1;
    }
    std::printf("ok - split core: the cube and vector passes keep their own state in one program\n");
    return 0;
}
#else
#if defined(SPLIT_CORE_CUBE)
#define SPLIT_CORE_FN split_core_cube
#define SPLIT_CORE_RECORDS 2
#else
#define SPLIT_CORE_FN split_core_vec
#define SPLIT_CORE_RECORDS 3
#endif

// Records SPLIT_CORE_RECORDS points into buf through the pass's state; returns the count the
// slot header holds.
extern "C" int64_t SPLIT_CORE_FN(int64_t *buf)
{
    SetMoeProfilePtr(buf);
    buf[MOE_V2_W_COUNT] = 0;
    for (uint32_t i = 0; i < SPLIT_CORE_RECORDS; i++) {
        MoeTracing(7, i);
    }
    SetMoeProfilePtr(nullptr);
    return buf[MOE_V2_W_COUNT];
}
#endif

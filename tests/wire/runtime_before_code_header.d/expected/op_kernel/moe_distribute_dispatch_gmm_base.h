// Constants shared by the MoeDistributeDispatchGmm kernel headers, and the profiling runtime;
// it includes a helper header with code of its own (apply may put points there, and include this
// header from it: a no-op under this include guard, so the runtime must come first).
#ifndef MOE_DISTRIBUTE_DISPATCH_GMM_BASE_H
#define MOE_DISTRIBUTE_DISPATCH_GMM_BASE_H

#include "kernel_operator.h"
#include "moe_distribute_dispatch_gmm_tiling.h"
// AUTOTRACE-RUNTIME-BEGIN (moe_tracing.h; generated, edit device/moe_tracing.h instead)
// moe_tracing.h - autotrace device runtime: MoeTracing trace points for Ascend C kernels.
//
// This is the canonical text that `autotrace wire` embeds into an operator's <op>_base.h
// (between the AUTOTRACE-RUNTIME markers). It is one self-contained header: it needs only
// "kernel_operator.h" (the CANN one on a device build, device/sim/kernel_operator.h on the host).
// The slot layouts are specified word by word in device/LAYOUT.md; keep the two in step.
//
// Configuration (define before inclusion, or on the compiler command line):
//   ENABLE_MOE_PROFILING          1 records, 0 compiles every call to nothing (no code, no symbol)
//   PROF_SIZE_PER_CORE            int64 words per core slot (default 2048)
//   ENABLE_MOE_PROFILING_BARRIER  default of MoeTracing's `sync` argument (default 0)
//   MOE_PROFILING_LAYOUT          2 = self-describing "moe-v2" slot (default), 1 = field "moe-v1"
//   MOE_TRACING_AIV_ONLY          1 for vector-only kernels: slot = GetBlockIdx(), no start sync
//   MOE_TRACING_START_SYNC        0 skips the AIV->AIC start flag (default 1 in 1C2V kernels)
//   MOE_TRACING_SYNC_FLAG_ID      cross-core flag id of the start sync (default 10)
//   TRACE_BUILD_STAMP             64-bit build stamp stored in v2 slots (default 0, see below)
//
// Use in a kernel:
//   extern "C" __global__ __aicore__ void my_op(GM_ADDR x, ..., GM_ADDR profiling, ...)
//   {
//       MOE_TRACING_KERNEL_BEGIN(profiling);     // stack buffer, slot, start sync, entry cycle
//       ...  MoeTracing(<point id>);  MoeTracing(<id>, groupIdx);  MoeTracing(<id>, extra, idx);
//       MoeTracingKernelEnd();                    // copy the slot to GM, flush each 64-byte line
//   }
// or MOE_TRACING_KERNEL_SCOPE(profiling); which ends itself on every return path.
//
// Point ids come from TRACE_POINT(<label>, <B|E>), which `autotrace preprocess` rewrites into
// an integer literal in the build-tree copy of the sources. In a build that was NOT preprocessed
// the fallback macro below makes every point record the reserved id MOE_TRACE_UNPREPROCESSED_ID
// (0xFFFFFFFF), which the collector reports as "this build was not preprocessed".
//
// Build stamp: `autotrace preprocess` replaces the identifier TRACE_BUILD_STAMP where it appears
// in ordinary code (not in # directive lines, comments or strings) with a 64-bit literal such as
// 0x5f3c9a1200000007ULL, so the v2 header ties a dump to the point_map.json of the same build.
// The only such use is in MoeTracingBuildStamp() below; the #ifndef fallback keeps it 0.
#ifndef AUTOTRACE_MOE_TRACING_H
#define AUTOTRACE_MOE_TRACING_H

#include "kernel_operator.h"

#ifndef ENABLE_MOE_PROFILING
#define ENABLE_MOE_PROFILING 1
#endif
#ifndef PROF_SIZE_PER_CORE
#define PROF_SIZE_PER_CORE 2048
#endif
#ifndef ENABLE_MOE_PROFILING_BARRIER
#define ENABLE_MOE_PROFILING_BARRIER 0
#endif
#ifndef MOE_PROFILING_LAYOUT
#define MOE_PROFILING_LAYOUT 2
#endif
#ifndef MOE_TRACING_AIV_ONLY
#define MOE_TRACING_AIV_ONLY 0
#endif
#ifndef MOE_TRACING_START_SYNC
#define MOE_TRACING_START_SYNC 1
#endif
#ifndef MOE_TRACING_SYNC_FLAG_ID
#define MOE_TRACING_SYNC_FLAG_ID 10
#endif
#ifndef TRACE_BUILD_STAMP
#define TRACE_BUILD_STAMP 0
#endif

// Unpreprocessed builds: every point records the reserved id. The label and event are dropped.
#ifndef TRACE_POINT
#define TRACE_POINT(label, event) ((int64_t)0xFFFFFFFFLL)
#endif
#define MOE_TRACE_UNPREPROCESSED_ID 0xFFFFFFFFu

#if MOE_PROFILING_LAYOUT != 1 && MOE_PROFILING_LAYOUT != 2
#error "MOE_PROFILING_LAYOUT must be 1 (moe-v1) or 2 (moe-v2)"
#endif

// moe-v2 header (word offsets in the slot; LAYOUT.md is the normative description).
#define MOE_V2_MAGIC 0x4D4F4554u          // "MOET" in bits 32..63 of word 0
#define MOE_V2_VERSION 2u                  // bits 0..15 of word 0
#define MOE_V2_HEADER_WORDS 8u             // bits 16..31 of word 0; one 64-byte line
#define MOE_V2_W_MAGIC 0                   // magic | header words | version
#define MOE_V2_W_CORE 1                    // core type | sub-block num | block num | slot words
#define MOE_V2_W_BLOCK 2                   // GetBlockIdx() of the writing core
#define MOE_V2_W_SUBBLOCK 3                // GetSubBlockIdx() of the writing core
#define MOE_V2_W_COUNT 4                   // records stored
#define MOE_V2_W_DROPPED 5                 // records refused by the capacity guard
#define MOE_V2_W_STAMP 6                   // TRACE_BUILD_STAMP of the build
#define MOE_V2_W_ENTRY 7                   // GetSystemCycle() at kernel entry, after start sync
#define MOE_CORE_TYPE_AIC 1
#define MOE_CORE_TYPE_AIV 2

// Records that fit in one slot.
#if MOE_PROFILING_LAYOUT == 1
#define MOE_TRACING_CAPACITY ((PROF_SIZE_PER_CORE - 2) / 2)
#else
#define MOE_TRACING_CAPACITY ((PROF_SIZE_PER_CORE - MOE_V2_HEADER_WORDS) / 2)
#endif

#define MOE_TRACING_LINE_WORDS 8          // int64 words per 64-byte cache line

#if ENABLE_MOE_PROFILING

static_assert(PROF_SIZE_PER_CORE >= 16 && PROF_SIZE_PER_CORE % MOE_TRACING_LINE_WORDS == 0,
              "PROF_SIZE_PER_CORE must be a multiple of 8 words, at least 16");

#ifndef MOE_TRACING_BLOCK_LOCAL
#define MOE_TRACING_BLOCK_LOCAL __BLOCK_LOCAL__ __inline__
#endif
#define MOE_TRACING_INLINE __aicore__ inline

// Per-core state: the stack buffer being filled, where it goes in GM, and (v1, which has no
// room for it in the slot) the number of records the guard refused.
struct MoeTracingState {
    int64_t *buf;
    __gm__ int64_t *gmSlot;
    uint32_t droppedV1;
};

// Its name follows the platform's split-core compilation. On the parts with separate cube and
// vector cores (__CCE_AICORE__ 220, DAV C310 / 310R6) a mixed kernel source is compiled twice,
// once for the cube core with SPLIT_CORE_CUBE defined and once for the vector core with
// SPLIT_CORE_VEC, and the two objects are linked into one kernel binary. A block-local variable
// of one name would be defined in both objects, so that the two passes would share (or clash
// over) one symbol; each pass gets a state of its own name instead, as the field's runtime does
// with g_moeProfilePtrCube / g_moeProfilePtrVec. Other builds (one pass, and the host
// simulation) keep the plain name.
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220 || defined(__DAV_C310__) || defined(__DAV_310R6__)
#if defined(SPLIT_CORE_CUBE)
#define MOE_TRACING_STATE g_moeTracingStateCube
#elif defined(SPLIT_CORE_VEC)
#define MOE_TRACING_STATE g_moeTracingStateVec
#endif
#endif
#ifndef MOE_TRACING_STATE
#define MOE_TRACING_STATE g_moeTracingState
#endif
MOE_TRACING_BLOCK_LOCAL MoeTracingState MOE_TRACING_STATE;

MOE_TRACING_INLINE uint64_t MoeTracingBuildStamp()
{
    return (uint64_t)(TRACE_BUILD_STAMP);
}

MOE_TRACING_INLINE void SetMoeProfilePtr(int64_t *buf)
{
    MOE_TRACING_STATE.buf = buf;
    MOE_TRACING_STATE.droppedV1 = 0;
}

MOE_TRACING_INLINE int64_t *GetMoeProfilePtr()
{
    return MOE_TRACING_STATE.buf;
}

// Records refused by the capacity guard since the buffer was set up.
MOE_TRACING_INLINE uint32_t GetMoeDroppedCount()
{
    int64_t *p = MOE_TRACING_STATE.buf;
    if (p == nullptr) {
        return 0;
    }
#if MOE_PROFILING_LAYOUT == 1
    return MOE_TRACING_STATE.droppedV1;
#else
    return (uint32_t)p[MOE_V2_W_DROPPED];
#endif
}

// Append one record. The guard refuses (and counts) a record that does not fit.
MOE_TRACING_INLINE void MoeTracingRecord(int64_t word)
{
    int64_t *p = MOE_TRACING_STATE.buf;
    if (p == nullptr) {
        return;
    }
    int64_t cycle = AscendC::GetSystemCycle();
#if MOE_PROFILING_LAYOUT == 1
    int64_t n = p[0];                                   // records + 1
    if (n < 1 || n - 1 >= (int64_t)MOE_TRACING_CAPACITY) {
        MOE_TRACING_STATE.droppedV1++;
        return;
    }
    p[n] = word;
    p[PROF_SIZE_PER_CORE - 1 - n] = cycle;
    p[0] = n + 1;
#else
    int64_t n = p[MOE_V2_W_COUNT];
    if (n < 0 || n >= (int64_t)MOE_TRACING_CAPACITY) {
        p[MOE_V2_W_DROPPED]++;
        return;
    }
    p[MOE_V2_HEADER_WORDS + 2 * n] = word;
    p[MOE_V2_HEADER_WORDS + 2 * n + 1] = cycle;
    p[MOE_V2_W_COUNT] = n + 1;
#endif
}

// Record word: bits 0..31 point id; one-argument form stores `data` as given.
template <bool sync = ENABLE_MOE_PROFILING_BARRIER>
MOE_TRACING_INLINE void MoeTracing(int64_t data)
{
    if constexpr (sync) {
        AscendC::PipeBarrier<PIPE_ALL>();
    }
    MoeTracingRecord(data);
}

// Two-argument form: the whole index in bits 32..63.
template <bool sync = ENABLE_MOE_PROFILING_BARRIER>
MOE_TRACING_INLINE void MoeTracing(int64_t data, uint32_t index)
{
    if constexpr (sync) {
        AscendC::PipeBarrier<PIPE_ALL>();
    }
    uint64_t w = ((uint64_t)data & 0xFFFFFFFFull) | ((uint64_t)index << 32);
    MoeTracingRecord((int64_t)w);
}

// Three-argument form: extraId in bits 32..39, index in bits 40..63 (both truncated).
template <bool sync = ENABLE_MOE_PROFILING_BARRIER>
MOE_TRACING_INLINE void MoeTracing(int64_t data, uint32_t extraId, uint32_t index)
{
    if constexpr (sync) {
        AscendC::PipeBarrier<PIPE_ALL>();
    }
    uint64_t w = ((uint64_t)data & 0xFFFFFFFFull) | ((uint64_t)(extraId & 0xFFu) << 32) |
                 ((uint64_t)(index & 0xFFFFFFu) << 40);
    MoeTracingRecord((int64_t)w);
}

// Slot of the calling core. 1C2V: AIC block b -> slot b, AIV block v -> GetBlockNum() + v
// (GetBlockNum() counts AIC blocks; AIV block indices run 0 .. 2*GetBlockNum()-1).
MOE_TRACING_INLINE int64_t MoeTracingSlotIndex()
{
#if MOE_TRACING_AIV_ONLY
    return (int64_t)AscendC::GetBlockIdx();
#else
    if ASCEND_IS_AIC {
        return (int64_t)AscendC::GetBlockIdx();
    }
    return (int64_t)AscendC::GetBlockNum() + (int64_t)AscendC::GetBlockIdx();
#endif
}

// Prepare `buf` (PROF_SIZE_PER_CORE words) for this core and make it the active buffer.
// `profiling` is the operator's profiling_data GM tensor (may be null: nothing is written back).
MOE_TRACING_INLINE void MoeTracingKernelBegin(GM_ADDR profiling, int64_t *buf)
{
    SetMoeProfilePtr(buf);
    MOE_TRACING_STATE.gmSlot = nullptr;
    if (profiling != nullptr) {
        MOE_TRACING_STATE.gmSlot =
            (__gm__ int64_t *)profiling + MoeTracingSlotIndex() * (int64_t)PROF_SIZE_PER_CORE;
    }
#if MOE_PROFILING_LAYOUT == 1
    for (int32_t i = 0; i < PROF_SIZE_PER_CORE; i++) {
        buf[i] = 0;
    }
    buf[0] = 1;
#else
    int64_t coreType = MOE_CORE_TYPE_AIV;
#if !MOE_TRACING_AIV_ONLY
    if ASCEND_IS_AIC {
        coreType = MOE_CORE_TYPE_AIC;
    }
#endif
    buf[MOE_V2_W_MAGIC] = (int64_t)(((uint64_t)MOE_V2_MAGIC << 32) |
                                    ((uint64_t)MOE_V2_HEADER_WORDS << 16) | MOE_V2_VERSION);
    buf[MOE_V2_W_CORE] = (int64_t)((uint64_t)coreType |
                                   (((uint64_t)AscendC::GetSubBlockNum() & 0xFFu) << 8) |
                                   (((uint64_t)AscendC::GetBlockNum() & 0xFFFFu) << 16) |
                                   ((uint64_t)PROF_SIZE_PER_CORE << 32));
    buf[MOE_V2_W_BLOCK] = (int64_t)AscendC::GetBlockIdx();
    buf[MOE_V2_W_SUBBLOCK] = (int64_t)AscendC::GetSubBlockIdx();
    buf[MOE_V2_W_COUNT] = 0;
    buf[MOE_V2_W_DROPPED] = 0;
    buf[MOE_V2_W_STAMP] = (int64_t)MoeTracingBuildStamp();
#endif
    // One common start point: every pipe drained, then the AIC waits until both of its AIV
    // cores have arrived, so no timeline starts before its group is running.
    AscendC::PipeBarrier<PIPE_ALL>();
#if !MOE_TRACING_AIV_ONLY && MOE_TRACING_START_SYNC
    if ASCEND_IS_AIV {
        AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(MOE_TRACING_SYNC_FLAG_ID);
    }
    if ASCEND_IS_AIC {
        AscendC::CrossCoreWaitFlag(MOE_TRACING_SYNC_FLAG_ID);
    }
#endif
#if MOE_PROFILING_LAYOUT == 1
    buf[PROF_SIZE_PER_CORE - 1] = AscendC::GetSystemCycle();
#else
    buf[MOE_V2_W_ENTRY] = AscendC::GetSystemCycle();
#endif
}

// Copy the active buffer to this core's GM slot, flushing each 64-byte line, then detach it.
// v1 copies the whole slot (ids grow forward, cycles backward); v2 copies the header and the
// lines that hold records, so the rest of the slot in GM is left untouched.
MOE_TRACING_INLINE void MoeTracingKernelEnd()
{
    int64_t *p = MOE_TRACING_STATE.buf;
    __gm__ int64_t *gm = MOE_TRACING_STATE.gmSlot;
    MOE_TRACING_STATE.buf = nullptr;
    MOE_TRACING_STATE.gmSlot = nullptr;
    if (p == nullptr || gm == nullptr) {
        return;
    }
#if MOE_PROFILING_LAYOUT == 1
    int64_t words = PROF_SIZE_PER_CORE;
#else
    int64_t words = (int64_t)MOE_V2_HEADER_WORDS + 2 * p[MOE_V2_W_COUNT];
    int64_t lineEnd = (words + MOE_TRACING_LINE_WORDS - 1) / MOE_TRACING_LINE_WORDS *
                      MOE_TRACING_LINE_WORDS;
    for (int64_t i = words; i < lineEnd; i++) {
        p[i] = 0;
    }
    words = lineEnd;
#endif
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::GlobalTensor<int64_t> line;
    for (int64_t base = 0; base < words; base += MOE_TRACING_LINE_WORDS) {
        for (int64_t i = base; i < base + MOE_TRACING_LINE_WORDS; i++) {
            gm[i] = p[i];
        }
        line.SetGlobalBuffer(gm + base, MOE_TRACING_LINE_WORDS);
        AscendC::DataCacheCleanAndInvalid<int64_t, AscendC::CacheLine::SINGLE_CACHE_LINE,
                                          AscendC::DcciDst::CACHELINE_OUT>(line);
    }
}

// Ends the kernel's tracing when it goes out of scope, whatever the return path.
struct MoeTracingKernelScope {
    MOE_TRACING_INLINE MoeTracingKernelScope(GM_ADDR profiling, int64_t *buf)
    {
        MoeTracingKernelBegin(profiling, buf);
    }
    MOE_TRACING_INLINE ~MoeTracingKernelScope()
    {
        MoeTracingKernelEnd();
    }
    MoeTracingKernelScope(const MoeTracingKernelScope &) = delete;
    MoeTracingKernelScope &operator=(const MoeTracingKernelScope &) = delete;
};

#define MOE_TRACING_KERNEL_BEGIN(profiling)                                                       \
    int64_t moeTracingBuf_[PROF_SIZE_PER_CORE];                                                   \
    MoeTracingKernelBegin((profiling), moeTracingBuf_)
#define MOE_TRACING_KERNEL_SCOPE(profiling)                                                       \
    int64_t moeTracingBuf_[PROF_SIZE_PER_CORE];                                                   \
    MoeTracingKernelScope moeTracingScope_((profiling), moeTracingBuf_)

#else // !ENABLE_MOE_PROFILING: the same names, compiled to nothing.

#define MOE_TRACING_INLINE __aicore__ inline __attribute__((always_inline))

template <bool sync = ENABLE_MOE_PROFILING_BARRIER>
MOE_TRACING_INLINE void MoeTracing(int64_t)
{
}
template <bool sync = ENABLE_MOE_PROFILING_BARRIER>
MOE_TRACING_INLINE void MoeTracing(int64_t, uint32_t)
{
}
template <bool sync = ENABLE_MOE_PROFILING_BARRIER>
MOE_TRACING_INLINE void MoeTracing(int64_t, uint32_t, uint32_t)
{
}
MOE_TRACING_INLINE void SetMoeProfilePtr(int64_t *)
{
}
MOE_TRACING_INLINE int64_t *GetMoeProfilePtr()
{
    return nullptr;
}
MOE_TRACING_INLINE uint32_t GetMoeDroppedCount()
{
    return 0;
}
MOE_TRACING_INLINE void MoeTracingKernelBegin(GM_ADDR, int64_t *)
{
}
MOE_TRACING_INLINE void MoeTracingKernelEnd()
{
}
#define MOE_TRACING_KERNEL_BEGIN(profiling) ((void)(profiling))
#define MOE_TRACING_KERNEL_SCOPE(profiling) ((void)(profiling))

#endif // ENABLE_MOE_PROFILING
#endif // AUTOTRACE_MOE_TRACING_H
// AUTOTRACE-RUNTIME-END

#include "moe_reduce_helpers.h"

// Cross-core flags between the cube core and its two vector cores (ids 0..9; 10 is profiling's).
constexpr uint16_t FLAG_WINDOW_READY = 0;   // AIV send -> AIV recv (mode 1)
constexpr uint16_t FLAG_DISPATCH_DONE = 1;  // both AIV -> AIC: tokens of a group are in the window
constexpr uint16_t FLAG_GMM1_DONE = 2;      // AIC -> both AIV: GMM1 of a group is in workspace
constexpr uint16_t FLAG_ACT_DONE = 3;       // both AIV -> AIC: epilogue of a group is done
constexpr uint16_t FLAG_GMM2_DONE = 4;      // AIC -> both AIV: GMM2 of a group is done

constexpr uint32_t SEND_SUB_BLOCK = 0;      // AIV sub-block 0 sends tokens, sub-block 1 receives
constexpr uint32_t BASE_M = 16;
constexpr uint32_t BASE_N = 16;
constexpr uint32_t BASE_K = 16;

// Profiling: 1 records trace points into profiling_data, 0 compiles them away (rebuild the kernel).
#ifndef ENABLE_MOE_PROFILING
#define ENABLE_MOE_PROFILING 1
#endif
#ifndef PROF_SIZE_PER_CORE
#define PROF_SIZE_PER_CORE 2048
#endif

#endif

// kernel_operator.h (host simulation) - stands in for the CANN header of the same name.
//
// Enough of the Ascend C kernel API for device/moe_tracing.h and the bundled example operator,
// compiled by g++ and run by sim_runtime.cpp with one thread per core. Not a model of the
// hardware's timing or memory hierarchy: local tensors are plain host memory, DataCopy is memcpy,
// pipes are in order, and GetSystemCycle() reads a monotonic host clock.
//
// Cross-core flags (mode 2, the 1C2V intra-group mode, as the hardware counts them):
//   AIV CrossCoreSetFlag(id)  -> one arrival from this AIV on the group's AIC counter for id
//   AIC CrossCoreWaitFlag(id) -> waits for one arrival from EACH AIV of the group, consumes them
//   AIC CrossCoreSetFlag(id)  -> one arrival on the counter of each AIV of the group
//   AIV CrossCoreWaitFlag(id) -> waits for one arrival from the AIC, consumes it
// Mode 1 (AIV to AIV within a group) and mode 0 (every core of the launch, like SyncAll) are
// also modelled. Flag ids are 0..15.
#ifndef AUTOTRACE_SIM_KERNEL_OPERATOR_H
#define AUTOTRACE_SIM_KERNEL_OPERATOR_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "sim_runtime.h"

#define ASCEND_SIM 1

#define __aicore__
#define __global__
#define __gm__
#define __BLOCK_LOCAL__ thread_local
#ifndef GM_ADDR
#define GM_ADDR uint8_t *
#endif
#define CATLASS_DEVICE __aicore__ inline
#define CATLASS_HOST_DEVICE __aicore__ inline
#define KERNEL_TASK_TYPE_DEFAULT(type)
#define KERNEL_TYPE_AIV_ONLY 0
#define KERNEL_TYPE_AIC_ONLY 1
#define KERNEL_TYPE_MIX_AIC_1_2 2

enum pipe_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX, PIPE_ALL };

namespace AscendC {
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
} // namespace AscendC

// The core type of the running thread (a compile-time constant per pass on the device).
extern thread_local int32_t g_coreType;
#define ASCEND_IS_AIC (g_coreType == AscendC::AIC)
#define ASCEND_IS_AIV (g_coreType == AscendC::AIV)
#define ASCEND_IS_NOT_AIC (g_coreType != AscendC::AIC)
#define ASCEND_IS_NOT_AIV (g_coreType != AscendC::AIV)

// Tiling: the device build generates this per operator; the host copies the struct from GM.
#define GET_TILING_DATA_WITH_STRUCT(Struct, var, tiling)                                          \
    Struct var;                                                                                   \
    std::memcpy(&(var), (tiling), sizeof(Struct))

namespace AscendC {

inline int64_t GetBlockIdx() { return sim::current_core().blockIdx; }
inline int64_t GetBlockNum() { return sim::current_core().blockNum; }
inline int64_t GetSubBlockIdx() { return sim::current_core().subBlockIdx; }
inline int64_t GetSubBlockNum() { return sim::current_core().subBlockNum; }
inline int64_t GetTaskRation() { return sim::current_core().subBlockNum; }
inline int64_t GetSystemCycle() { return sim::system_cycle(); }

template <pipe_t pipe>
inline void PipeBarrier()
{
    sim::note_pipe_barrier();
}

enum class HardEvent { MTE2_V, V_MTE3, MTE3_V, MTE2_MTE1, MTE1_M, M_FIX, FIX_M, MTE3_MTE2, V_MTE2, S_V };
enum TEventID { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3 };
// Pipes run in order on the host: intra-core event flags have nothing to order.
template <HardEvent event>
inline void SetFlag(int32_t) {}
template <HardEvent event>
inline void WaitFlag(int32_t) {}

template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId)
{
    sim::cross_core_set_flag(modeId, flagId);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId)
{
    sim::cross_core_wait_flag(flagId);
}
// WaitEvent: the FFTS wait on a cross-core flag, modelled as CrossCoreWaitFlag.
inline void WaitEvent(uint16_t flagId)
{
    sim::cross_core_wait_flag(flagId);
}
template <bool isAIVOnly = true>
inline void SyncAll()
{
    sim::sync_all();
}

template <typename T>
class GlobalTensor {
public:
    void SetGlobalBuffer(__gm__ T *addr, uint64_t size = 0)
    {
        addr_ = addr;
        size_ = size;
    }
    __gm__ T *GetPhyAddr() const { return addr_; }
    __gm__ T *GetPhyAddr(uint64_t offset) const { return addr_ + offset; }
    T GetValue(uint64_t offset) const { return addr_[offset]; }
    void SetValue(uint64_t offset, T value) const { addr_[offset] = value; }
    uint64_t GetSize() const { return size_; }
    GlobalTensor operator[](uint64_t offset) const
    {
        GlobalTensor t;
        t.addr_ = addr_ + offset;
        t.size_ = size_ > offset ? size_ - offset : 0;
        return t;
    }

private:
    __gm__ T *addr_ = nullptr;
    uint64_t size_ = 0;
};

enum class CacheLine { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum class DcciDst { CACHELINE_ALL, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &)
{
    sim::note_dcci();
}
template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &)
{
    sim::note_dcci();
}

enum class TPosition { GM, VECIN, VECOUT, VECCALC, A1, B1, A2, B2, CO1, CO2 };

template <typename T>
class LocalTensor {
public:
    LocalTensor() = default;
    LocalTensor(T *addr, uint32_t size) : addr_(addr), size_(size) {}
    T GetValue(uint32_t i) const { return addr_[i]; }
    void SetValue(uint32_t i, T v) const { addr_[i] = v; }
    uint32_t GetSize() const { return size_; }
    T *GetPhyAddr() const { return addr_; }
    LocalTensor operator[](uint32_t offset) const
    {
        return LocalTensor(addr_ + offset, size_ > offset ? size_ - offset : 0);
    }

private:
    T *addr_ = nullptr;
    uint32_t size_ = 0;
};

// A buffer in on-chip memory (UB / L1 / L0): host memory owned by the TPipe.
template <TPosition pos = TPosition::VECCALC>
class TBuf {
public:
    template <typename T>
    LocalTensor<T> Get() const
    {
        return LocalTensor<T>(reinterpret_cast<T *>(addr_), (uint32_t)(bytes_ / sizeof(T)));
    }
    template <typename T>
    LocalTensor<T> Get(uint32_t count) const
    {
        return LocalTensor<T>(reinterpret_cast<T *>(addr_), count);
    }
    uint8_t *addr_ = nullptr;
    uint32_t bytes_ = 0;
};

class TPipe {
public:
    template <TPosition pos>
    void InitBuffer(TBuf<pos> &buf, uint32_t bytes)
    {
        pool_.emplace_back(new uint64_t[(bytes + 7) / 8]());
        buf.addr_ = reinterpret_cast<uint8_t *>(pool_.back().get());
        buf.bytes_ = bytes;
    }
    void Destroy() { pool_.clear(); }

private:
    std::vector<std::unique_ptr<uint64_t[]>> pool_;
};

template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count)
{
    std::memcpy(dst.GetPhyAddr(), src.GetPhyAddr(), count * sizeof(T));
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count)
{
    std::memcpy(dst.GetPhyAddr(), src.GetPhyAddr(), count * sizeof(T));
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count)
{
    std::memmove(dst.GetPhyAddr(), src.GetPhyAddr(), count * sizeof(T));
}

template <typename T>
inline void Duplicate(const LocalTensor<T> &dst, T value, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        dst.SetValue(i, value);
    }
}
template <typename T>
inline void Muls(const LocalTensor<T> &dst, const LocalTensor<T> &src, T scalar, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        dst.SetValue(i, src.GetValue(i) * scalar);
    }
}
template <typename T>
inline void Relu(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        T v = src.GetValue(i);
        dst.SetValue(i, v > T(0) ? v : T(0));
    }
}

// Cube matrix multiply on local tiles, row-major: c (m x n) = [c +] a (m x k) * b (k x n).
struct MmadParams {
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool cmatrixInitVal = true;
};
template <typename C, typename A, typename B>
inline void Mmad(const LocalTensor<C> &c, const LocalTensor<A> &a, const LocalTensor<B> &b,
                 const MmadParams &p)
{
    for (uint32_t i = 0; i < p.m; i++) {
        for (uint32_t j = 0; j < p.n; j++) {
            C acc = p.cmatrixInitVal ? C(0) : c.GetValue(i * p.n + j);
            for (uint32_t l = 0; l < p.k; l++) {
                acc += (C)a.GetValue(i * p.k + l) * (C)b.GetValue(l * p.n + j);
            }
            c.SetValue(i * p.n + j, acc);
        }
    }
}

} // namespace AscendC

#endif // AUTOTRACE_SIM_KERNEL_OPERATOR_H

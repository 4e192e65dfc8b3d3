#!/usr/bin/env python3
"""Generates a large tree of realistic Ascend C kernel code for `bench_scan.sh`:
OPS operators, each an op_kernel/ directory with an entry .cpp, an operator
header, gemm/kernel, gemm/block, epilogue and raw_distributed headers, in the
shapes the scanner meets in the field (1C2V kernels, operator() AIC/AIV
specialisations, expert-group loops, cross-core flags, spin-waits, #if
blocks, macros, Chinese comments, long tiling tables).

usage: gen_kernel_tree.py OUTDIR [MIN_LINES]   (default 1,000,000 lines)
Deterministic: the same arguments give the same bytes."""
import os
import sys

ENTRY = '''// 算子入口: {op}
#include "kernel_operator.h"
#include "{op}.h"

#define INVOKE_{OPU}(T, Q)                                      \\
    do {{                                                       \\
        {Cls}<T, Q> op;                                         \\
        op.Init(x, expertIds, w, y, workspace, &tilingData);    \\
        op.Process();                                           \\
    }} while (0)

extern "C" __global__ __aicore__ void
{op}(GM_ADDR x, GM_ADDR expertIds, GM_ADDR w, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {{
        INVOKE_{OPU}(half, false);
    }} else if (TILING_KEY_IS(2)) {{
        INVOKE_{OPU}(bfloat16_t, true);
    }}
}}
'''

OP_HEADER = '''#ifndef {OPU}_H
#define {OPU}_H
#include "gemm/kernel/{op}_grouped_matmul.h"
#include "epilogue/{op}_epilogue.h"
#include "raw_distributed/{op}_dispatcher.h"

namespace {Ns} {{
template <typename T, bool IsQuant>
class {Cls} {{
public:
    __aicore__ inline {Cls}() = default;
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR ids, GM_ADDR w, GM_ADDR y, GM_ADDR ws, const void *tiling);
    __aicore__ inline void Process();
private:
    Dispatcher{n}<T> dispatcher_;
    GroupedMatmul{n}<IsQuant> gmm_;
}};

template <typename T, bool IsQuant>
__aicore__ inline void {Cls}<T, IsQuant>::Init(GM_ADDR x, GM_ADDR ids, GM_ADDR w, GM_ADDR y, GM_ADDR ws,
                                               const void *tiling)
{{
    dispatcher_.Init(x, ids, ws);
    gmm_.Init(w, y, ws);
}}

template <typename T, bool IsQuant>
__aicore__ inline void {Cls}<T, IsQuant>::Process()
{{
    if ASCEND_IS_AIV {{
        dispatcher_.Process();
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNC_FLAG);
    }}
    if ASCEND_IS_AIC {{
        AscendC::CrossCoreWaitFlag(SYNC_FLAG);
    }}
    gmm_(params_);
}}
}} // namespace {Ns}
#endif
'''

GMM = '''#pragma once
#include "../block/{op}_block_mmad.h"
namespace Catlass::Gemm::Kernel {{
template <bool IsQuant>
class GroupedMatmul{n} {{
public:
    struct Params {{ uint32_t groupCount; GM_ADDR groupList; }};
    template <int32_t CORE_TYPE = g_coreType>
    CATLASS_DEVICE void operator()(Params const &params);

    template <>
    CATLASS_DEVICE
    void operator()<AscendC::AIC>(Params const &params)
    {{
        for (uint32_t groupIdx = 0; groupIdx < params.groupCount; ++groupIdx) {{
            uint32_t m = groupList_.GetValue(groupIdx);
            if (m == 0) {{
                continue;
            }}
            for (uint32_t loopIdx = AscendC::GetBlockIdx(); loopIdx < coreLoops_; loopIdx += AscendC::GetBlockNum()) {{
                blockMmad_(gmA_[loopIdx * 128], gmB_[groupIdx], gmC_[loopIdx], m);
            }}
            Arch::CrossCoreSetFlag<0x2, PIPE_FIX>(flagAicFinish_);
        }}
    }}

    template <>
    CATLASS_DEVICE
    void operator()<AscendC::AIV>(Params const &params)
    {{
        for (uint32_t groupIdx = 0; groupIdx < params.groupCount; ++groupIdx) {{
            Arch::CrossCoreWaitFlag(flagAicFinish_);
            if constexpr (IsQuant) {{
                Dequant(groupIdx); // 反量化
            }} else {{
                Cast(groupIdx);
            }}
        }}
    }}
}};
}}
'''

BLOCK = '''#pragma once
namespace Catlass::Gemm::Block {{
/* 块级矩阵乘: K 方向内层循环, 不打点 */
struct BlockMmad{n} {{
    CATLASS_DEVICE void operator()(GlobalTensor<half> a, GlobalTensor<half> b, GlobalTensor<float> c, uint32_t m)
    {{
        for (uint32_t kIdx = 0; kIdx < kLoops_; ++kIdx) {{
            AscendC::DataCopy(l1A_[kIdx % 2], a[kIdx * 256], 256);
            AscendC::DataCopy(l1B_[kIdx % 2], b[kIdx * 256], 256);
            AscendC::Mmad(l0c_, l0a_[kIdx % 2], l0b_[kIdx % 2], mmadParams_);
        }}
        AscendC::Fixpipe(c, l0c_, fixpipeParams_);
    }}
    uint32_t kLoops_ = 8;
}};
}}
'''

EPILOGUE = '''#pragma once
#if defined(__DAV_C310__)
#define EPI_BLOCK 512
#else
#define EPI_BLOCK 256
#endif
struct Epilogue{n} {{
    struct TileCopy {{
        CATLASS_DEVICE void operator()(GlobalTensor<half> dst, LocalTensor<half> src)
        {{
            AscendC::DataCopy(dst, src, EPI_BLOCK);
        }}
    }};
    CATLASS_DEVICE void operator()(uint32_t stageId)
    {{
        for (uint32_t tile = 0; tile < tiles_; ++tile) {{
            LocalTensor<float> acc = queue_.DeQue<float>();
            AscendC::Muls(acc, acc, scale_, EPI_BLOCK);   // 缩放
            tileCopy_(out_[tile * EPI_BLOCK], acc.ReinterpretCast<half>());
            queue_.FreeTensor(acc);
        }}
        const char *msg = "stage < tiles && tile >= 0";
        Log(msg, stageId);
    }}
    TileCopy tileCopy_;
}};
'''

DISPATCHER = '''#pragma once
template <typename T>
class Dispatcher{n} {{
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR ids, GM_ADDR ws) {{ x_ = x; ids_ = ids; }}
    __aicore__ inline void Process()
    {{
        uint32_t aivIdx = AscendC::GetSubBlockIdx();
        if (aivIdx == 0) {{
            SendCoreFunc();
        }} else {{
            RecvCoreFunc();
        }}
    }}
private:
    __aicore__ inline void SendCoreFunc()
    {{
        for (uint32_t dst = 0; dst < worldSize_; ++dst) {{
            auto copy = [&](uint32_t i) {{ DataCopy(sendBuf_[i], xGm_[dst * len_ + i], len_); }};
            copy(dst);
            SetStatus(dst, epoch_);
        }}
    }}
    __aicore__ inline void RecvCoreFunc()
    {{
        for (uint32_t src = 0; src < worldSize_; ++src) {{
            int32_t flag = 0;
            while (flag != epoch_) {{
                DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(status_[src]);
                flag = status_.GetValue(src);
            }}
            switch (mode_) {{
            case 0: CopyTokens(src); break;
            default: CopyTokensQuant(src); break;
            }}
        }}
    }}
    GM_ADDR x_, ids_;
    uint32_t worldSize_ = 8;
    int32_t epoch_ = 1;
}};
'''

TABLE_ROW = '    {{{a}, {b}, {c}, "cfg{i}"}}, // 第 {i} 行\n'


def tiling_table(n, rows):
    out = ['#pragma once\n', '// 分块表 (生成)\n', 'struct Tile%d { uint32_t m, n, k; const char *name; };\n' % n,
           'constexpr Tile%d kTiles%d[] = {\n' % (n, n)]
    for i in range(rows):
        out.append(TABLE_ROW.format(a=16 * (1 + i % 8), b=32 * (1 + i % 4), c=64, i=i))
    out.append('};\n')
    return ''.join(out)


def main():
    outdir = sys.argv[1]
    want = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
    lines = 0
    n = 0
    while lines < want:
        op = 'moe_op%04d' % n
        d = os.path.join(outdir, op, 'op_kernel')
        fmt = dict(op=op, OPU=op.upper(), Cls='MoeOp%04d' % n, Ns='MoeNs%04d' % n, n=n)
        files = {
            op + '.cpp': ENTRY.format(**fmt),
            op + '.h': OP_HEADER.format(**fmt),
            'gemm/kernel/%s_grouped_matmul.h' % op: GMM.format(**fmt),
            'gemm/block/%s_block_mmad.h' % op: BLOCK.format(**fmt),
            'epilogue/%s_epilogue.h' % op: EPILOGUE.format(**fmt),
            'raw_distributed/%s_dispatcher.h' % op: DISPATCHER.format(**fmt),
            '%s_tiling_table.h' % op: tiling_table(n, 600 + (n % 7) * 100),
        }
        for rel, text in files.items():
            p = os.path.join(d, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, 'w') as f:
                f.write(text)
            lines += text.count('\n')
        n += 1
    print('%d operators, %d lines' % (n, lines))


if __name__ == '__main__':
    main()

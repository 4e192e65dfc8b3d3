#pragma once
namespace Catlass::Epilogue::Block {
template <class DispatchPolicy, class... Args>
class BlockEpilogue {
public:
    struct Params {
        GM_ADDR ptrOut;
        CATLASS_HOST_DEVICE Params() {}
    };

    struct TileCopy {
        CATLASS_DEVICE void operator()(GlobalTensor<half> dst, LocalTensor<half> src)
        {
            AscendC::DataCopy(dst, src, len);
        }
    };

    struct TileElemwise {
        template <class T>
        CATLASS_DEVICE void operator()(LocalTensor<T> &x) { AscendC::Muls(x, x, scale, len); }
    };

    CATLASS_DEVICE void operator()(uint32_t stageId)
    {
        tileCopy(gmOut[stageId], ubOut);
    }
};
}

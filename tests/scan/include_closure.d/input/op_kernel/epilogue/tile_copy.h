#pragma once
__aicore__ inline void TileCopy(GlobalTensor<half> &out, LocalTensor<half> &in)
{
    DataCopy(out, in, 256);
}

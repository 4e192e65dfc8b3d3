#pragma once
template <typename OutT, int QuantMode>
struct QuantEpilogue {
    CATLASS_DEVICE void operator()(LocalTensor<float> &acc, LocalTensor<OutT> &out)
    {
        if constexpr (QuantMode == 0) {
            Cast(out, acc, RoundMode::CAST_NONE, count_);
        } else if constexpr (QuantMode == 1) {
            Muls(acc, acc, scale_, count_);
            Cast(out, acc, RoundMode::CAST_RINT, count_);
        } else if constexpr (std::is_same_v<OutT, int8_t>) {
            Dequant(out, acc);
        } else {
            static_assert(QuantMode < 3, "bad quant mode");
        }
    }
};

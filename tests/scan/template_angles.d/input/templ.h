#pragma once
template <typename T>
using Vec = Tensor<Layout<Shape<Int<4>, Int<8>>>>;

template <class Policy>
__aicore__ inline void Run(Policy &policy, uint32_t n)
{
    auto a = MakeTensor<Layout<Shape<Int<4>>>>(ptr);
    auto b = policy.template Get<TileShape<16, 16>>(n);
    auto c = this->template Cast<float>(b);
    typename Policy::template Rebind<half>::type d = Convert<(Policy::kMode >> 1)>(c);
    if (n < kMax && n > 0) {
        Shift(n >> 2, n << 1);
    }
    bool less = n<kMax;
    Use(less, a, d);
}

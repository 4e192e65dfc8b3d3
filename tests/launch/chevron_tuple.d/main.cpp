// The run of chevron_tuple.d: the wired vsplit returns its two outputs and the profiling tensor
// the kernel recorded into (a <<<>>> launch, run on the simulation).
#include <cstdio>
#include <tuple>

#include "profile_check.h"

namespace demo {
std::tuple<at::Tensor, at::Tensor, at::Tensor> vsplit(const at::Tensor &x);
} // namespace demo

int main()
{
    at::Tensor x = at::zeros({24}, at::TensorOptions());
    for (int i = 0; i < 24; i++)
        x.data_ptr<float>()[i] = (float)i + 0.25f;
    auto out = demo::vsplit(x);
    for (int i = 0; i < 24; i++)
        if (std::get<0>(out).data_ptr<float>()[i] != 0.25f || std::get<1>(out).data_ptr<float>()[i] != (float)i) {
            std::printf("not ok - the kernel splits (x[%d])\n", i);
            return 1;
        }
    return profile_check(std::get<2>(out), 3, AUTOTRACE_POINTS);
}

// The run of aclrt_tensor.d: the wired vscale (declared in the project's header, as wire left
// it) returns its output and the profiling tensor the kernel recorded into; its Meta twin
// returns as many values; an empty input returns early, with the tensor too.
#include <cstdio>
#include <tuple>

#include "profile_check.h"
#include "vscale.h"

int main()
{
    at::Tensor x = at::zeros({32}, at::TensorOptions());
    for (int i = 0; i < 32; i++)
        x.data_ptr<float>()[i] = (float)i;
    std::tuple<at::Tensor, at::Tensor> out = demo::vscale(x);
    std::tuple<at::Tensor, at::Tensor> meta = demo::vscale_meta(x);
    for (int i = 0; i < 32; i++)
        if (std::get<0>(out).data_ptr<float>()[i] != 2.0f * (float)i) {
            std::printf("not ok - the kernel scales (y[%d] = %g)\n", i, std::get<0>(out).data_ptr<float>()[i]);
            return 1;
        }
    if (std::get<1>(meta).numel() != std::get<1>(out).numel()) {
        std::printf("not ok - the Meta function returns a profiling tensor of the same size\n");
        return 1;
    }
    if (std::get<1>(demo::vscale(at::zeros({0}, at::TensorOptions()))).numel() != 128 * 3 * 2048) {
        std::printf("not ok - the early return gives the profiling tensor too\n");
        return 1;
    }
    return profile_check(std::get<1>(out), 2, AUTOTRACE_POINTS);
}

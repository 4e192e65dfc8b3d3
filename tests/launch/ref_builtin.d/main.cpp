// The run of ref_builtin.d: the wired vrelu_ (a reference return became a tuple of the
// reference and the profiling tensor) works in place and returns the tensor the kernel
// recorded into.
#include <cstdio>

#include "npu_ops.h"
#include "profile_check.h"

int main()
{
    at::Tensor x = at::zeros({20}, at::TensorOptions());
    for (int i = 0; i < 20; i++)
        x.data_ptr<float>()[i] = (float)(i - 10);
    auto out = demo::vrelu_(x);
    if (std::get<0>(out).data_ptr() != x.data_ptr()) {
        std::printf("not ok - the first value is the tensor itself\n");
        return 1;
    }
    for (int i = 0; i < 20; i++)
        if (x.data_ptr<float>()[i] != (i < 10 ? 0.0f : (float)(i - 10))) {
            std::printf("not ok - the kernel clamps (x[%d] = %g)\n", i, x.data_ptr<float>()[i]);
            return 1;
        }
    return profile_check(std::get<1>(out), 2, AUTOTRACE_POINTS);
}

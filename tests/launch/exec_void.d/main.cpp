// The run of exec_void.d: the wired host function (declared here as wire makes it: void became
// at::Tensor) adds its inputs on the simulated cores and returns the tensor the kernel recorded
// into.
#include <cstdio>

#include "profile_check.h"

namespace demo {
namespace npu_kernel {
at::Tensor vadd(const at::Tensor &x, const at::Tensor &y, at::Tensor &z);
} // namespace npu_kernel
} // namespace demo

int main()
{
    at::Tensor x = at::zeros({64}, at::TensorOptions()), y = at::zeros({64}, at::TensorOptions()),
               z = at::zeros({64}, at::TensorOptions());
    for (int i = 0; i < 64; i++) {
        x.data_ptr<float>()[i] = 1.0f;
        y.data_ptr<float>()[i] = (float)i;
    }
    at::Tensor prof = demo::npu_kernel::vadd(x, y, z);
    for (int i = 0; i < 64; i++)
        if (z.data_ptr<float>()[i] != 1.0f + (float)i) {
            std::printf("not ok - the kernel adds (z[%d] = %g)\n", i, z.data_ptr<float>()[i]);
            return 1;
        }
    return profile_check(prof, 4, AUTOTRACE_POINTS);
}

// The run of macro_chain.d: the wired vcopy (void became at::Tensor, the launch through two
// macros of the project) copies on the simulated cores and returns the profiling tensor; an
// empty source returns at once, with the tensor too.
#include <cstdio>

#include "profile_check.h"

namespace demo {
at::Tensor vcopy(const at::Tensor &src, at::Tensor &dst);
} // namespace demo

int main()
{
    at::Tensor x = at::zeros({40}, at::TensorOptions()), y = at::zeros({40}, at::TensorOptions());
    for (int i = 0; i < 40; i++)
        x.data_ptr<float>()[i] = (float)(3 * i);
    at::Tensor prof = demo::vcopy(x, y);
    for (int i = 0; i < 40; i++)
        if (y.data_ptr<float>()[i] != (float)(3 * i)) {
            std::printf("not ok - the kernel copies (y[%d] = %g)\n", i, y.data_ptr<float>()[i]);
            return 1;
        }
    at::Tensor none = at::zeros({0}, at::TensorOptions());
    if (demo::vcopy(none, none).numel() != 128 * 3 * 2048) {
        std::printf("not ok - the early return gives the profiling tensor too\n");
        return 1;
    }
    return profile_check(prof, 2, AUTOTRACE_POINTS);
}

// Runs a wired binding of the example operator on the host (tests/wire stubs): compiled with the
// binding's source (-DBINDING), the hand-written aclnn source and the stand-in of the generated
// aclnnInner API. The binding must return one value per output and profiling_data last: the
// very tensor the aclnnInner API received after the last output, {128 * 3 * 2048} int64; an
// autograd Function must have marked it non-differentiable (when -DAUTOGRAD).
#include BINDING

#include <cstdio>

#include "inner_record.h"

extern "C" {
int autotrace_stub_prof_id = -1;
int64_t autotrace_stub_prof_numel = -1;
aclnnStatus autotrace_stub_inner(const aclTensor *profiling, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    autotrace_stub_prof_id = profiling ? profiling->id : 0;
    autotrace_stub_prof_numel = profiling ? profiling->numel : 0;
    *workspaceSize = 0;
    *executor = nullptr;
    return 0;
}
aclnnStatus aclnnInnerMoeDistributeDispatchGmm(void *, uint64_t, aclOpExecutor *, aclrtStream) { return 0; }
}

template <class... T> inline at::Tensor last_of(const std::tuple<T...> &t) { return std::get<sizeof...(T) - 1>(t); }
inline at::Tensor last_of(const std::vector<at::Tensor> &v) { return v.back(); }
template <class... T> inline size_t count_of(const std::tuple<T...> &) { return sizeof...(T); }
inline size_t count_of(const std::vector<at::Tensor> &v) { return v.size(); }

int main()
{
    at::Tensor x = at::zeros({16, 64}, at::TensorOptions());
    at::Tensor ids = at::zeros({16, 2}, at::TensorOptions().dtype(at::kInt));
    at::Tensor w1 = at::zeros({4, 64, 32}, at::TensorOptions());
    at::Tensor w2 = at::zeros({4, 32, 64}, at::TensorOptions());
    at::Tensor scale = at::zeros({4}, at::TensorOptions());
    auto r = moe_distribute_dispatch_gmm(x, ids, w1, w2, scale);
    at::Tensor prof = last_of(r);
    int bad = 0;

    if (count_of(r) != 3) {
        std::printf("the binding returns %zu values, not 3 (y, expert_token_nums, profiling_data)\n", count_of(r));
        bad = 1;
    }
    if (prof.id != autotrace_stub_prof_id || prof.numel() != 128 * 3 * 2048 || prof.scalar_type() != at::kLong) {
        std::printf("the last value returned (tensor %d, %lld elements) is not the int64 {128 * 3 * 2048} tensor "
                    "aclnnInner got as profilingData (tensor %d, %lld elements)\n",
                    prof.id, (long long)prof.numel(), autotrace_stub_prof_id, (long long)autotrace_stub_prof_numel);
        bad = 1;
    }
#ifdef AUTOGRAD
    if (!torch::autograd::autotrace_stub_marked().count(prof.id)) {
        std::printf("forward() does not mark profiling_data non-differentiable\n");
        bad = 1;
    }
#endif
    return bad;
}

// torch/library.h (a test stub) - TORCH_LIBRARY_FRAGMENT / TORCH_LIBRARY_IMPL blocks that
// record nothing but compile what they are given: a schema string, a function pointer, a lambda.
#ifndef AUTOTRACE_TEST_TORCH_LIBRARY_STUB_H
#define AUTOTRACE_TEST_TORCH_LIBRARY_STUB_H

#include <ATen/ATen.h>

namespace torch {
struct Library {
    template <typename... A>
    Library &def(const char *, A &&...) { return *this; }
    template <typename F>
    Library &impl(const char *, F &&) { return *this; }
};
} // namespace torch

#define TORCH_FN(f) (&f)
#define TORCH_LIBRARY_FRAGMENT(ns, m) [[maybe_unused]] static void autotrace_stub_fragment_##ns(torch::Library &m)
#define TORCH_LIBRARY_IMPL(ns, key, m) [[maybe_unused]] static void autotrace_stub_impl_##ns##_##key(torch::Library &m)

#endif

// The host functions of vscale, declared for the registrations.
#ifndef DEMO_VSCALE_H
#define DEMO_VSCALE_H

#include <ATen/ATen.h>

namespace demo {
std::tuple<at::Tensor, at::Tensor> vscale(const at::Tensor &x);
std::tuple<at::Tensor, at::Tensor> vscale_meta(const at::Tensor &x);
} // namespace demo

#endif

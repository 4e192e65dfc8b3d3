// A stand-in of <torch/extension.h> for tests/wire (not torch): just what the test bindings use
// (at::Tensor with a shape, a dtype and an id, at::empty_like / zeros / empty, c10::optional,
// torch::autograd::Function with a context that records what forward() marks non-differentiable,
// TORCH_CHECK, TORCH_LIBRARY_*), so that a wired binding is compiled and run on the host.
// Function<T>::apply runs forward(), then backward() with one (zero) gradient per output, as
// autograd does when the outputs' gradients are materialised, and checks that backward() returns
// one gradient per input.
#ifndef AUTOTRACE_STUB_TORCH_EXTENSION_H
#define AUTOTRACE_STUB_TORCH_EXTENSION_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#define TORCH_CHECK(cond, ...)                                                     \
	do {                                                                       \
		if (!(cond)) {                                                     \
			std::fprintf(stderr, "TORCH_CHECK failed: %s\n", #cond);   \
			std::abort();                                              \
		}                                                                  \
	} while (0)

namespace at {
enum class ScalarType { Float, Long, Int, Bool };
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kBool = ScalarType::Bool;

struct TensorOptions {
	ScalarType type = kFloat;
	TensorOptions dtype(ScalarType t) const
	{
		TensorOptions o = *this;
		o.type = t;
		return o;
	}
};

inline int autotrace_stub_next_id()
{
	static int id;
	return ++id;
}

struct Tensor {
	std::vector<int64_t> shape;
	ScalarType type = kFloat;
	int id = 0; // 0: undefined
	Tensor() = default;
	Tensor(std::vector<int64_t> s, ScalarType t) : shape(std::move(s)), type(t), id(autotrace_stub_next_id()) {}
	bool defined() const { return id != 0; }
	int64_t dim() const { return (int64_t)shape.size(); }
	int64_t size(int64_t i) const { return shape.at((size_t)i); }
	int64_t numel() const
	{
		int64_t n = 1;
		for (int64_t d : shape)
			n *= d;
		return n;
	}
	ScalarType scalar_type() const { return type; }
	TensorOptions options() const { return TensorOptions().dtype(type); }
};

using TensorList = std::vector<Tensor>;

inline Tensor empty_like(const Tensor &t) { return Tensor(t.shape, t.type); }
inline Tensor zeros(std::initializer_list<int64_t> s, TensorOptions o) { return Tensor(std::vector<int64_t>(s), o.type); }
inline Tensor empty(std::initializer_list<int64_t> s, TensorOptions o) { return Tensor(std::vector<int64_t>(s), o.type); }
} // namespace at

namespace c10 {
template <class T> using optional = std::optional<T>;
constexpr std::nullopt_t nullopt = std::nullopt;
} // namespace c10

namespace torch {
using Tensor = at::Tensor;

namespace autograd {
using Variable = at::Tensor;
using variable_list = std::vector<at::Tensor>;
using tensor_list = variable_list;

// the ids forward() marked non-differentiable, the last time it did (as torch keeps the last list)
inline std::set<int> &autotrace_stub_marked()
{
	static std::set<int> s;
	return s;
}

struct AutogradContext {
	variable_list saved;
	void save_for_backward(const variable_list &v) { saved = v; }
	variable_list get_saved_variables() const { return saved; }
	void mark_non_differentiable(const variable_list &v)
	{
		autotrace_stub_marked().clear();
		for (const auto &t : v)
			autotrace_stub_marked().insert(t.id);
	}
};

template <class R> size_t autotrace_stub_count(const R &r) { return r.size(); }
template <class... T> size_t autotrace_stub_count(const std::tuple<T...> &) { return sizeof...(T); }

template <class T> struct Function {
	template <class... Args> static auto apply(Args &&...args)
	{
		AutogradContext ctx;
		auto out = T::forward(&ctx, std::forward<Args>(args)...);
		variable_list grads;
		for (size_t i = 0; i < autotrace_stub_count(out); i++)
			grads.push_back(at::zeros({1}, at::TensorOptions()));
		auto in_grads = T::backward(&ctx, grads);
		TORCH_CHECK(in_grads.size() == sizeof...(Args), "backward returns one gradient per input");
		return out;
	}
};
} // namespace autograd

struct Library {
	void def(const char *) {}
	template <class F> void impl(const char *, F) {}
};
} // namespace torch

#define TORCH_LIBRARY_FRAGMENT(ns, m) [[maybe_unused]] static void autotrace_stub_fragment_##ns(torch::Library &m)
#define TORCH_LIBRARY_IMPL(ns, k, m) [[maybe_unused]] static void autotrace_stub_impl_##ns##_##k(torch::Library &m)

#endif

//===- FunctionRef.h - A non-owning reference to a callable -----*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// FunctionRef<R(Args...)> refers to a callable (a lambda, usually) without
// owning or copying it, like llvm::function_ref, which the runtime cannot use.
// It must not outlive the callable: pass it down, never store it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_FUNCTIONREF_H
#define TILEC_RUNTIME_FUNCTIONREF_H

#include <cstdint>
#include <type_traits>
#include <utility>

namespace tilec {
namespace rt {

template <typename Fn> class FunctionRef;

template <typename Ret, typename... Params> class FunctionRef<Ret(Params...)> {
public:
  template <
      typename Callable,
      std::enable_if_t<
          !std::is_same_v<std::remove_cv_t<std::remove_reference_t<Callable>>,
                          FunctionRef>,
          int> = 0>
  FunctionRef(Callable &&callable)
      : Callback(&call<std::remove_reference_t<Callable>>),
        Target(reinterpret_cast<std::intptr_t>(&callable)) {}

  Ret operator()(Params... params) const {
    return Callback(Target, std::forward<Params>(params)...);
  }

private:
  template <typename Callable>
  static Ret call(std::intptr_t target, Params... params) {
    return (*reinterpret_cast<Callable *>(target))(
        std::forward<Params>(params)...);
  }

  Ret (*Callback)(std::intptr_t, Params...);
  std::intptr_t Target;
};

} // namespace rt
} // namespace tilec

#endif // TILEC_RUNTIME_FUNCTIONREF_H

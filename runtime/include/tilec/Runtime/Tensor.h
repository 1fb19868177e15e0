//===- Tensor.h - Tensor views and pointer arguments ------------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// A TensorView describes a strided tensor in device memory: its address, its
// element type, its shape and its strides (in elements, as torch counts
// them). Kernels take raw pointers, so a view is what a host program passes
// where Triton code passes a torch tensor: typed launchers check its element
// type against the kernel's signature, the JIT specializes on it, and its
// sizes and strides are at hand for the integer arguments.
//
// PointerArg is the pointer parameter type of generated launchers: a view
// (element type checked), a DeviceBuffer or a DevicePtr (unchecked).
//
// A TensorDescriptor is Triton's host-side TensorDescriptor.from_tensor: a
// view and the block shape a kernel's `tensordesc<T[B0, B1]>` parameter
// loads (the kernel builds its TMA tensor map from them at launch).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_TENSOR_H
#define TILEC_RUNTIME_TENSOR_H

#include "tilec/Runtime/Runtime.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace tilec {
namespace rt {

/// A strided tensor in device memory; it does not own the memory.
class TensorView {
public:
  TensorView() = default;
  /// A contiguous row-major view of \p shape.
  TensorView(DevicePtr data, ScalarType dtype,
             std::initializer_list<std::int64_t> shape);
  /// A view with explicit strides (in elements, one per dimension).
  TensorView(DevicePtr data, ScalarType dtype,
             std::initializer_list<std::int64_t> shape,
             std::initializer_list<std::int64_t> strides);
  TensorView(DevicePtr data, ScalarType dtype, std::vector<std::int64_t> shape,
             std::vector<std::int64_t> strides);
  /// A contiguous view of the start of \p buffer.
  TensorView(const DeviceBuffer &buffer, ScalarType dtype,
             std::initializer_list<std::int64_t> shape)
      : TensorView(buffer.ptr(), dtype, shape) {}

  DevicePtr data() const { return Data; }
  std::uint64_t address() const { return Data.Address; }
  ScalarType dtype() const { return DType; }
  unsigned rank() const { return static_cast<unsigned>(Shape.size()); }
  std::int64_t size(unsigned dim) const { return Shape[dim]; }
  std::int64_t stride(unsigned dim) const { return Strides[dim]; }
  const std::vector<std::int64_t> &shape() const { return Shape; }
  const std::vector<std::int64_t> &strides() const { return Strides; }
  /// The number of elements.
  std::int64_t numel() const;
  /// True when the strides are the row-major strides of the shape.
  bool isContiguous() const;
  /// "fp16[64, 32] strides [32, 1] at 0x7f..."
  std::string describe() const;

private:
  DevicePtr Data;
  ScalarType DType = ScalarType::FP32;
  std::vector<std::int64_t> Shape;
  std::vector<std::int64_t> Strides;
};

/// Returns the row-major strides of \p shape.
std::vector<std::int64_t>
contiguousStrides(const std::vector<std::int64_t> &shape);

/// A pointer argument of a generated launcher. Only a TensorView carries an
/// element type, which the launcher checks.
class PointerArg {
public:
  PointerArg(const TensorView &view)
      : Address(view.address()), HasDType(true), DType(view.dtype()) {}
  PointerArg(const DeviceBuffer &buffer) : Address(buffer.ptr().Address) {}
  PointerArg(DevicePtr ptr) : Address(ptr.Address) {}

  std::uint64_t address() const { return Address; }
  /// Checks the element type against the parameter's \p expected type. On
  /// failure the message names \p kernel and the parameter.
  Status checkType(ScalarType expected, const char *kernel,
                   const char *param) const;

private:
  std::uint64_t Address = 0;
  bool HasDType = false;
  ScalarType DType = ScalarType::FP32;
};

/// A tensor and the shape of the blocks a kernel reads and writes through
/// it: the argument of a `tensordesc<T[B...]>` parameter. It launches as the
/// view's address, its extents (int32) and its strides but the last (int64,
/// in elements), as tilec::abi::descriptorArgTypes says.
class TensorDescriptor {
public:
  /// Fails unless \p view's last stride is 1, its extents fit in int32 and
  /// \p blockShape has its rank, with positive dimensions.
  static Expected<TensorDescriptor>
  fromTensor(const TensorView &view, std::vector<std::int64_t> blockShape);

  const TensorView &view() const { return View; }
  const std::vector<std::int64_t> &blockShape() const { return Block; }
  /// Its signature entry, "tensordesc<fp16[128, 64]>".
  std::string signatureEntry() const;
  /// Appends the arguments it launches as to \p args.
  void appendArguments(std::vector<KernelArg> &args) const;

private:
  TensorDescriptor(TensorView view, std::vector<std::int64_t> block)
      : View(std::move(view)), Block(std::move(block)) {}
  TensorView View;
  std::vector<std::int64_t> Block;
};

} // namespace rt
} // namespace tilec

#endif // TILEC_RUNTIME_TENSOR_H

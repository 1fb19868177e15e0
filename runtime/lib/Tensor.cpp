//===- Tensor.cpp - Tensor views and pointer arguments --------------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Tensor.h"

#include <fmt/format.h>

#include <cinttypes>
#include <cstdio>

using namespace tilec::rt;

std::vector<std::int64_t>
tilec::rt::contiguousStrides(const std::vector<std::int64_t> &shape) {
  std::vector<std::int64_t> strides(shape.size(), 1);
  for (std::size_t i = shape.size(); i > 1; --i)
    strides[i - 2] = strides[i - 1] * shape[i - 1];
  return strides;
}

TensorView::TensorView(DevicePtr data, ScalarType dtype,
                       std::initializer_list<std::int64_t> shape)
    : Data(data), DType(dtype), Shape(shape),
      Strides(contiguousStrides(Shape)) {}

TensorView::TensorView(DevicePtr data, ScalarType dtype,
                       std::initializer_list<std::int64_t> shape,
                       std::initializer_list<std::int64_t> strides)
    : TensorView(data, dtype, std::vector<std::int64_t>(shape),
                 std::vector<std::int64_t>(strides)) {}

TensorView::TensorView(DevicePtr data, ScalarType dtype,
                       std::vector<std::int64_t> shape,
                       std::vector<std::int64_t> strides)
    : Data(data), DType(dtype), Shape(std::move(shape)),
      Strides(std::move(strides)) {
  // A missing stride is taken as contiguous rather than read out of bounds.
  if (Strides.size() != Shape.size())
    Strides = contiguousStrides(Shape);
}

std::int64_t TensorView::numel() const {
  std::int64_t n = 1;
  for (std::int64_t size : Shape)
    n *= size;
  return n;
}

bool TensorView::isContiguous() const {
  return Strides == contiguousStrides(Shape);
}

std::string TensorView::describe() const {
  auto list = [](const std::vector<std::int64_t> &values) {
    std::string text = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
      text += (i ? ", " : "") + std::to_string(values[i]);
    return text + "]";
  };
  return fmt::format("{}{} strides {} at {:#x}", scalarTypeName(DType),
                     list(Shape), list(Strides), Data.Address);
}

Status PointerArg::checkType(ScalarType expected, const char *kernel,
                             const char *param) const {
  if (!HasDType || DType == expected)
    return Status::success();
  return Status::invalidArgument(std::string("kernel '") + kernel +
                                 "', argument '" + param + "': a tensor of " +
                                 scalarTypeName(DType) + " was passed for *" +
                                 scalarTypeName(expected));
}

Expected<TensorDescriptor>
TensorDescriptor::fromTensor(const TensorView &view,
                             std::vector<std::int64_t> blockShape) {
  auto invalid = [&](const std::string &why) {
    return Status::invalidArgument("a tensor descriptor of " + view.describe() +
                                   ": " + why);
  };
  if (view.rank() == 0 || blockShape.size() != view.rank())
    return invalid(fmt::format("the block shape has {} dimensions, the view {}",
                               blockShape.size(), view.rank()));
  for (std::int64_t b : blockShape)
    if (b <= 0)
      return invalid(fmt::format("the block dimension {} is not positive", b));
  if (view.stride(view.rank() - 1) != 1)
    return invalid("its last stride must be 1");
  for (std::int64_t extent : view.shape())
    if (extent > INT32_MAX)
      return invalid(
          fmt::format("the extent {} does not fit in int32", extent));
  return TensorDescriptor(view, std::move(blockShape));
}

std::string TensorDescriptor::signatureEntry() const {
  return fmt::format("tensordesc<{}[{}]>", abi::scalarTypeName(View.dtype()),
                     fmt::join(Block, ", "));
}

void TensorDescriptor::appendArguments(std::vector<KernelArg> &args) const {
  args.push_back(View.data());
  for (std::int64_t extent : View.shape())
    args.push_back(static_cast<std::int32_t>(extent));
  for (unsigned d = 0; d + 1 < View.rank(); ++d)
    args.push_back(View.stride(d));
}

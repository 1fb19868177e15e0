//===- Metadata.h - Kernel metadata and launch arguments --------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// The runtime's side of the kernel ABI (tilec/ABI/KernelABI.h, shared with
// the compiler): the check of a kernel's metadata against the PTX entry's
// parameter list, and the typed launch argument (KernelArg) with the code
// that checks launch arguments against a signature and packs them for
// cuLaunchKernel. None of it needs a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_METADATA_H
#define TILEC_RUNTIME_METADATA_H

#include "tilec/ABI/KernelABI.h"
#include "tilec/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tilec {
namespace rt {

class DeviceBuffer;

// The kernel ABI's types and functions, under the runtime's names.
using abi::ArgType;
using abi::isMetadataLine;
using abi::KernelMetadata;
using abi::LaunchRequirement;
using abi::parseArgType;
using abi::parseMetadataLine;
using abi::parseModuleMetadata;
using abi::parseScalarType;
using abi::parseSignature;
using abi::ScalarType;
using abi::scalarTypeName;
using abi::scalarTypeSize;
using abi::signatureString;
using abi::TensorMapSpec;

/// Returns the byte sizes of the parameters of ".entry <name>(...)" in \p ptx,
/// in order; ErrorCode::NotFound if there is no such entry.
Expected<std::vector<unsigned>> parsePtxEntryParamSizes(std::string_view ptx,
                                                        std::string_view name);
/// Checks every metadata entry against the PTX: the entry must exist and its
/// parameters must have the sizes the signature implies.
Status checkMetadataAgainstPtx(const std::vector<KernelMetadata> &kernels,
                               std::string_view ptx);

/// A device address, kept distinct from integers so that a size_t argument
/// is never taken for a pointer.
struct DevicePtr {
  std::uint64_t Address = 0;
};

/// One kernel launch argument: a device pointer, an integer, or a float.
/// Integers and floats convert implicitly, so an argument list can be
/// written as {buffer, ptr, n, 1.5f}.
class TensorDescriptor;

class KernelArg {
public:
  enum class Kind {
    Pointer,
    Signed,
    Unsigned,
    Float32,
    Float64,
    Half,
    BFloat,
    /// A TensorDescriptor (Tensor.h), which launches as several arguments;
    /// it must outlive the launch call.
    Descriptor,
  };

  KernelArg(DevicePtr ptr) : ArgKind(Kind::Pointer), Bits(ptr.Address) {}
  /// The buffer's device address (defined in Runtime.cpp).
  KernelArg(const DeviceBuffer &buffer);
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>,
                             int> = 0>
  KernelArg(T value)
      : ArgKind(std::is_signed_v<T> ? Kind::Signed : Kind::Unsigned),
        Bits(static_cast<std::uint64_t>(
            static_cast<std::conditional_t<std::is_signed_v<T>, std::int64_t,
                                           std::uint64_t>>(value))),
        Width(sizeof(T) * 8) {}
  KernelArg(float value);
  KernelArg(double value);
  KernelArg(const TensorDescriptor &desc)
      : ArgKind(Kind::Descriptor), Bits(0), Desc(&desc) {}
  /// Host pointers are never valid kernel arguments.
  KernelArg(const volatile void *) = delete;
  KernelArg(bool) = delete;

  /// An fp16 scalar given by its IEEE binary16 bits.
  static KernelArg fp16Bits(std::uint16_t bits);
  /// A bf16 scalar given by its bits.
  static KernelArg bf16Bits(std::uint16_t bits);

  Kind kind() const { return ArgKind; }
  /// Raw payload: the address, the integer (sign-extended to 64 bits), the
  /// float's or double's bits, or the 16-bit pattern.
  std::uint64_t bits() const { return Bits; }
  /// Width in bits of the C++ type the argument came from.
  unsigned width() const { return Width; }
  /// The descriptor (Kind::Descriptor), else null.
  const TensorDescriptor *descriptor() const { return Desc; }
  /// Describes the argument for error messages, e.g. "int32 1000".
  std::string describe() const;

private:
  KernelArg(Kind kind, std::uint64_t bits, unsigned width)
      : ArgKind(kind), Bits(bits), Width(width) {}

  Kind ArgKind;
  std::uint64_t Bits;
  unsigned Width = 64;
  const TensorDescriptor *Desc = nullptr;
};

/// Arguments packed for cuLaunchKernel: one 8-byte aligned slot per
/// parameter, holding the value in little-endian order, and the array of
/// pointers to the slots that cuLaunchKernel's kernelParams takes.
class PackedArguments {
public:
  PackedArguments() = default;
  PackedArguments(PackedArguments &&) = default;
  PackedArguments &operator=(PackedArguments &&) = default;
  PackedArguments(const PackedArguments &) = delete;
  PackedArguments &operator=(const PackedArguments &) = delete;

  /// Appends a parameter of \p size bytes (at most 8) holding \p value.
  void push(std::uint64_t value, unsigned size);
  /// What the launch must encode into a tensor-map parameter.
  struct TensorMapRequest {
    /// The parameter's 128 bytes (64-byte aligned).
    void *Dest = nullptr;
    TensorMapSpec::Element Elem = TensorMapSpec::Element::F16;
    std::uint64_t Base = 0;
    std::uint64_t Rows = 0, Cols = 0;
    std::uint64_t RowStrideBytes = 0;
    /// The outer dimensions' extents and strides in bytes, outermost first.
    std::vector<std::uint64_t> OuterExtents, OuterStrideBytes;
    unsigned BoxRows = 0, BoxCols = 0, Swizzle = 0;
  };
  /// Appends a 128-byte tensor-map parameter for \p request (whose Dest
  /// it sets).
  void pushTensorMap(TensorMapRequest request);
  const std::vector<TensorMapRequest> &tensorMaps() const { return Maps; }
  std::size_t size() const { return Slots.size(); }
  /// The value stored for parameter \p i.
  std::uint64_t slot(std::size_t i) const { return Slots[i]; }
  /// The byte size of parameter \p i.
  unsigned slotSize(std::size_t i) const { return Sizes[i]; }
  /// The kernelParams array (nullptr when there are no parameters).
  void **kernelParams();

private:
  struct alignas(64) TensorMapBytes {
    unsigned char Bytes[128];
  };
  std::vector<std::uint64_t> Slots;
  std::vector<unsigned> Sizes;
  std::vector<void *> Pointers;
  /// For each parameter, its tensor map's index in MapStorage, or -1.
  std::vector<int> MapIndex;
  std::vector<std::unique_ptr<TensorMapBytes>> MapStorage;
  std::vector<TensorMapRequest> Maps;
};

/// Checks \p args against the kernel's signature and packs them. Errors name
/// the kernel and the (0-based) argument index. Rules: pointers need a
/// pointer argument; integers accept any integer argument whose value fits
/// the parameter type; fp32 takes a float; fp64 a float or double; fp16 and
/// bf16 take their own bits or a float (rounded to nearest even). A ":16"
/// hint requires the value (or address) to be a multiple of 16, ":1"
/// requires the value 1. Then every launch requirement of the kernel must
/// hold; a violation names the kernel and the argument, e.g. "kernel
/// 'matmul_desc_kernel': argument 'stride_am' (6) = 1001: tensor descriptor
/// strides must be multiples of 16 bytes (fp16: 8 elements)".
Expected<PackedArguments> packArguments(const KernelMetadata &kernel,
                                        const KernelArg *args,
                                        std::size_t numArgs);

/// Checks only the kernel's launch requirements (KernelMetadata::
/// Requirements) on \p args, with packArguments' messages; the arguments
/// are taken to match the signature otherwise (their count is checked).
/// Succeeds at once for a kernel without requirements. The launchers that
/// `tilec --emit=header` generates call it before launchUnchecked.
Status checkLaunchRequirements(const KernelMetadata &kernel,
                               const KernelArg *args, std::size_t numArgs);

/// Rounds \p value to IEEE binary16 (nearest even).
std::uint16_t floatToHalfBits(float value);
/// Rounds \p value to bfloat16 (nearest even).
std::uint16_t floatToBFloat16Bits(float value);

} // namespace rt
} // namespace tilec

#endif // TILEC_RUNTIME_METADATA_H

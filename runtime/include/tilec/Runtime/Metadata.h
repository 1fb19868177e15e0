//===- Metadata.h - Kernel metadata and launch arguments --------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// tilec writes one comment line per kernel at the top of the PTX it emits:
//
//   // tilec.kernel name=add_kernel num_warps=4 shared=0 signature=*fp32:16,i32
//
// The signature uses Triton's grammar: "*T" is a pointer to T, a bare type is
// a scalar, and an optional ":16" (divisible by 16) or ":1" (equal to 1) hint
// may follow. It lists the kernel's non-constexpr parameters, which are the
// PTX entry's parameters in order.
//
// This header holds the parsed form of those lines, the parsers, the check of
// the metadata against the PTX entry's parameter list, and the typed launch
// argument (KernelArg) with the code that checks launch arguments against a
// signature and packs them for cuLaunchKernel. None of it needs a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_METADATA_H
#define TILEC_RUNTIME_METADATA_H

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

/// Element types of Triton signatures.
enum class ScalarType {
  I1,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  FP8E4NV,
  FP8E5,
  FP8E4B15,
  FP16,
  BF16,
  FP32,
  FP64,
};

/// Returns the Triton spelling of \p type ("fp32", "i32", ...).
const char *scalarTypeName(ScalarType type);
/// Returns the size in bytes of a scalar of \p type (i1 is passed as 1 byte).
unsigned scalarTypeSize(ScalarType type);
/// Parses a Triton type name ("fp32", "i64", ...).
Expected<ScalarType> parseScalarType(std::string_view name);

/// One parameter of a kernel signature.
struct ArgType {
  /// True for "*T": a device pointer (8 bytes) to elements of Elem.
  bool IsPointer = false;
  /// The scalar type, or the pointee type of a pointer.
  ScalarType Elem = ScalarType::I32;
  /// 0 (none), 16 (value divisible by 16) or 1 (value equal to 1).
  unsigned Hint = 0;

  /// Size of the parameter in the kernel's parameter buffer.
  unsigned sizeInBytes() const { return IsPointer ? 8 : scalarTypeSize(Elem); }
  bool isInteger() const;
  bool isFloat() const;
  /// Returns the Triton spelling, e.g. "*fp32:16".
  std::string str() const;
};

/// Parses one signature entry, e.g. "*fp32:16" or "i32".
Expected<ArgType> parseArgType(std::string_view text);
/// Parses a comma-separated signature; an empty string is a kernel without
/// parameters.
Expected<std::vector<ArgType>> parseSignature(std::string_view text);
/// Returns the comma-separated Triton spelling of \p signature.
std::string signatureString(const std::vector<ArgType> &signature);

/// A property of one launch argument that tilec could not check at compile
/// time, from the metadata line's "requires=" key: a kernel argument used
/// directly as a tensor descriptor's base ("a_ptr@0:align16") or as one of
/// its strides other than the last ("stride_am@6:bytes16/fp16").
struct LaunchRequirement {
  enum class Kind {
    Align16, ///< the pointer is 16-byte aligned
    Bytes16, ///< the integer times sizeof(Elem) is a multiple of 16 bytes
  };
  Kind ReqKind = Kind::Align16;
  /// The argument's index in the signature and its parameter name.
  std::size_t ArgIndex = 0;
  std::string ArgName;
  /// Bytes16: the descriptor's element type.
  ScalarType Elem = ScalarType::I8;
};

/// A TMA tensor map the host builds at each launch, from the metadata line's
/// "tma=" key: the kernel parameter after the signature's that receives
/// the 128-byte CUtensorMap of a row-major 2-D tensor (tilec's descriptor
/// loads on sm_90a), its base a kernel argument, its extents and row stride
/// kernel arguments or constants, read in boxes of BoxRows x BoxCols
/// elements swizzled over Swizzle bytes (the layout wgmma reads).
struct TensorMapSpec {
  /// A scalar of the map: kernel argument Arg, or the constant Value.
  struct Scalar {
    bool IsArg = false;
    std::size_t Arg = 0;
    std::int64_t Value = 0;
  };
  enum class Element { F16, BF16, F32, U8 };
  std::size_t ParamIndex = 0;
  std::size_t BaseArg = 0;
  Element Elem = Element::F16;
  Scalar Rows, Cols;
  /// Elements between consecutive rows.
  Scalar RowStride;
  unsigned BoxRows = 0, BoxCols = 0;
  /// 32, 64 or 128.
  unsigned Swizzle = 0;

  unsigned elementBytes() const;
};

/// What tilec records about one kernel.
struct KernelMetadata {
  std::string Name;
  unsigned NumWarps = 0;
  /// Dynamic shared memory in bytes.
  unsigned SharedBytes = 0;
  std::vector<ArgType> Signature;
  /// Checked at every launch (packArguments, checkLaunchRequirements).
  std::vector<LaunchRequirement> Requirements;
  /// Built at every launch (Kernel::launch), passed after the signature's
  /// parameters in this order.
  std::vector<TensorMapSpec> TensorMaps;

  /// Threads per block (in x).
  unsigned blockSize() const { return NumWarps * 32; }
};

/// True when \p line is a "// tilec.kernel" metadata line (leading blanks
/// allowed).
bool isMetadataLine(std::string_view line);
/// Parses one metadata line. Keys other than name, num_warps, shared,
/// signature, requires and tma are ignored; the first four are required.
Expected<KernelMetadata> parseMetadataLine(std::string_view line);
/// Parses every metadata line of a PTX text. Errors name the line number.
/// Two lines for the same kernel are an error.
Expected<std::vector<KernelMetadata>> parseModuleMetadata(std::string_view ptx);

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
class KernelArg {
public:
  enum class Kind { Pointer, Signed, Unsigned, Float32, Float64, Half, BFloat };

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
  /// Describes the argument for error messages, e.g. "int32 1000".
  std::string describe() const;

private:
  KernelArg(Kind kind, std::uint64_t bits, unsigned width)
      : ArgKind(kind), Bits(bits), Width(width) {}

  Kind ArgKind;
  std::uint64_t Bits;
  unsigned Width = 64;
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

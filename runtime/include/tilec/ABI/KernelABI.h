//===- KernelABI.h - The launch contract of a tilec kernel ------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// What the compiler promises and the runtime relies on when a kernel is
// launched, in one place that both link (it needs neither CUDA nor LLVM):
//
//   - the dtype table: Triton's type names, the aliases Triton accepts, and
//     each type's size and class;
//   - the signature grammar of Triton ("*fp16:16, i32:1, 128"): argument
//     types and hints, and constexpr literals;
//   - the launch requirements the runtime checks at every launch, and the
//     TMA tensor maps it builds at every launch;
//   - KernelMetadata, the one comment line per kernel at the top of the PTX
//     tilec writes, with its printer and its parser:
//
//   // tilec.kernel name=add_kernel num_warps=4 shared=0 signature=*fp32:16,i32
//
//   - the configuration name ("BLOCK=64,num_warps=4,num_stages=3") that
//     tuning files, generated launchers and the JIT share.
//
// The printer and the parser are each other's inverse: printing what was
// parsed gives the same line, and a line the printer writes always parses.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_ABI_KERNELABI_H
#define TILEC_ABI_KERNELABI_H

#include "tilec/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilec {
namespace abi {

using rt::ErrorCode;
using rt::Expected;
using rt::Status;

//===----------------------------------------------------------------------===//
// Dtypes
//===----------------------------------------------------------------------===//

/// Element types of Triton signatures and of tl.* dtypes.
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

/// Returns the canonical Triton spelling of \p type ("fp32", "i32", ...),
/// the one signatures and metadata lines are printed with.
const char *scalarTypeName(ScalarType type);
/// Returns the name of \p type's enumerator ("FP32"), for generated C++.
const char *scalarTypeEnumerator(ScalarType type);
/// Returns the name of \p type in `triton.language` ("float32", "int32").
const char *scalarTypeLanguageName(ScalarType type);
/// Returns the size in bytes of a scalar of \p type (i1 is passed as 1 byte).
unsigned scalarTypeSize(ScalarType type);
/// True for i1 and the signed and unsigned integers.
bool isIntegerType(ScalarType type);
/// True for the unsigned integers (u8 ... u64).
bool isUnsignedType(ScalarType type);
/// True for the floating-point types, fp8 included.
bool isFloatType(ScalarType type);

/// Looks up a dtype by any of its names: the canonical one ("fp32"), an
/// alias Triton accepts ("f32", "u1"), or its `triton.language` name
/// ("float32").
std::optional<ScalarType> lookupScalarType(std::string_view name);
/// As lookupScalarType, with an "unknown type 'NAME'" error.
Expected<ScalarType> parseScalarType(std::string_view name);

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//

/// One run-time parameter of a kernel signature.
struct ArgType {
  /// True for "*T": a device pointer (8 bytes) to elements of Elem.
  bool IsPointer = false;
  /// The scalar type, or the pointee type of a pointer.
  ScalarType Elem = ScalarType::I32;
  /// 0 (none), 16 (value divisible by 16) or 1 (value equal to 1).
  unsigned Hint = 0;

  /// Size of the parameter in the kernel's parameter buffer.
  unsigned sizeInBytes() const { return IsPointer ? 8 : scalarTypeSize(Elem); }
  bool isInteger() const { return !IsPointer && isIntegerType(Elem); }
  bool isFloat() const { return !IsPointer && isFloatType(Elem); }
  /// Returns the canonical Triton spelling, e.g. "*fp32:16".
  std::string str() const;

  bool operator==(const ArgType &other) const {
    return IsPointer == other.IsPointer && Elem == other.Elem &&
           Hint == other.Hint;
  }
};

/// Parses one run-time signature entry, e.g. "*fp32:16", "i32" or "f32".
/// Errors read "invalid signature entry 'TEXT': WHY"; WHY is one of
/// "unknown type 'T'", "unknown hint ':H' (expected ':16' or ':1')",
/// "a hint on a floating-point parameter" and "the hint ':1' on a pointer".
Expected<ArgType> parseArgType(std::string_view text);

/// One entry of a Triton signature as users write it: a run-time parameter,
/// or the literal a constexpr parameter is specialised to ("128", "-1",
/// "True").
struct SignatureEntry {
  bool IsConstant = false;
  /// The parameter's type (not IsConstant); for a tensor descriptor, the
  /// pointer to its elements.
  ArgType Type;
  /// The literal (IsConstant), as written.
  std::string Literal;
  /// A host-side tensor descriptor, "tensordesc<fp16[128, 64]>" (Triton's
  /// TensorDescriptor.from_tensor): the shape of the blocks the kernel
  /// loads. At launch a descriptor of rank R is 2 R arguments, see
  /// descriptorArgTypes.
  std::vector<std::int64_t> DescriptorBlock;
  /// A tuple of run-time values, "(i32, i32:16)" (Triton passes a Python
  /// tuple argument as its elements, in order): its elements, each a type
  /// or a tuple. At launch it is flatTypes(*this), one argument each.
  bool IsTuple = false;
  std::vector<SignatureEntry> Elements;

  bool isTensorDesc() const { return !DescriptorBlock.empty(); }
  /// The entry as Triton writes it, with the type's canonical name.
  std::string str() const;
};

/// The launch arguments of \p entry: a descriptor's base, extents and
/// strides (descriptorArgTypes), a tuple's elements' (depth first), or
/// else its type.
std::vector<ArgType> flatTypes(const SignatureEntry &entry);

/// The launch arguments a tensor descriptor of \p elem with \p rank
/// dimensions is passed as: the base pointer ("*T"), the extents (i32
/// each) and the strides of all but the last dimension (i64 each, in
/// elements; the last stride is 1).
std::vector<ArgType> descriptorArgTypes(ScalarType elem, std::size_t rank);

/// Parses a comma-separated Triton signature such as
/// "*fp32:16, *fp32:16, i32, 1024"; blanks around entries are ignored and
/// commas inside brackets do not separate entries. An empty or blank text
/// is a kernel without parameters.
Expected<std::vector<SignatureEntry>>
parseSignatureEntries(std::string_view text);

/// Parses the signature of a metadata line: run-time parameters only.
Expected<std::vector<ArgType>> parseSignature(std::string_view text);
/// Returns the comma-separated canonical spelling of \p signature.
std::string signatureString(const std::vector<ArgType> &signature);

//===----------------------------------------------------------------------===//
// Launch requirements and tensor maps
//===----------------------------------------------------------------------===//

/// A property of one launch argument that tilec could not check at compile
/// time: a kernel argument used directly as a tensor descriptor's base
/// (NAME@INDEX:align16) or as one of its strides other than the last
/// (NAME@INDEX:bytes16/TYPE).
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

  /// The requirement as the metadata line writes it.
  std::string str() const;
  bool operator==(const LaunchRequirement &other) const {
    return ReqKind == other.ReqKind && ArgIndex == other.ArgIndex &&
           ArgName == other.ArgName && Elem == other.Elem;
  }
  /// Orders by argument, then kind, then element type.
  bool operator<(const LaunchRequirement &other) const;
};

/// A parameter the kernel was compiled to take as a host-side tensor
/// descriptor: the signature index of its base pointer (its extents and
/// strides follow, see descriptorArgTypes) and the block shape it loads.
/// Printed as INDEX:B0xB1...
struct DescriptorParam {
  std::size_t ArgIndex = 0;
  std::vector<std::int64_t> Block;
  /// The block is what the kernel's @triton.autotune pre_hook set (Triton
  /// sets a host descriptor's block_shape so at each launch): a descriptor
  /// of another block is launched with this one.
  bool FromPreHook = false;

  /// "0:128x64", "0:128x64@pre_hook".
  std::string str() const;
  bool operator==(const DescriptorParam &other) const {
    return ArgIndex == other.ArgIndex && Block == other.Block &&
           FromPreHook == other.FromPreHook;
  }
};

/// What each program of a kernel reads more than once (tile-reread-footprint;
/// a layer norm's row, read by each of its passes): Bytes for every Step of
/// integer argument ArgIndex (rounded up), or Bytes whatever the arguments
/// when there is no ArgIndex. Printed as ARG:BYTES:STEP, or BYTES.
/// Kernel::launch keeps fewer programs on an SM when the footprints of a
/// full SM would outgrow L2 (rt::rereadSharedBytes).
struct RereadFootprint {
  std::optional<std::size_t> ArgIndex;
  std::uint64_t Bytes = 0;
  std::uint64_t Step = 1;

  /// The footprint of a launch whose argument ArgIndex is \p argValue
  /// (ignored without ArgIndex; a negative value reads nothing).
  std::uint64_t bytesFor(std::int64_t argValue) const;
  std::string str() const;
  bool operator==(const RereadFootprint &other) const {
    return ArgIndex == other.ArgIndex && Bytes == other.Bytes &&
           Step == other.Step;
  }
};

/// A TMA tensor map the host builds at each launch: the kernel parameter
/// after the signature's that receives the 128-byte CUtensorMap of a
/// row-major tensor, its base a kernel argument, its extents and strides
/// kernel arguments (times a constant) or constants, read in boxes of
/// BoxRows x BoxCols elements swizzled over Swizzle bytes (the layout wgmma
/// reads). A 2-D tensor may sit inside Outer dimensions (a batch of
/// matrices, heads of attention), read one matrix a box. Printed as
/// PARAM:@BASE:ELEMENT:EXTENTS:STRIDES:BOXROWSxBOXCOLS:SWIZZLE, EXTENTS and
/// STRIDES outermost first (`[OUTER...,]ROWS,COLS` and
/// `[OUTER_STRIDE...,]ROW_STRIDE`, in elements), a scalar `@N`, `@N*F` or
/// a number.
struct TensorMapSpec {
  /// A scalar of the map: kernel argument Arg times Factor, or the constant
  /// Value.
  struct Scalar {
    bool IsArg = false;
    std::size_t Arg = 0;
    std::int64_t Value = 0;
    std::int64_t Factor = 1;

    static Scalar argument(std::size_t index, std::int64_t factor = 1) {
      return {true, index, 0, factor};
    }
    static Scalar constant(std::int64_t value) { return {false, 0, value, 1}; }
    bool operator==(const Scalar &other) const {
      return IsArg == other.IsArg && Arg == other.Arg && Value == other.Value &&
             Factor == other.Factor;
    }
  };
  /// A dimension outside the matrix: Extent matrices, Stride elements apart.
  struct OuterDim {
    Scalar Extent, Stride;
    bool operator==(const OuterDim &other) const {
      return Extent == other.Extent && Stride == other.Stride;
    }
  };
  /// TMA's limit on a tensor's rank.
  static constexpr std::size_t MaxRank = 5;
  enum class Element { F16, BF16, F32, U8 };
  std::size_t ParamIndex = 0;
  std::size_t BaseArg = 0;
  Element Elem = Element::F16;
  Scalar Rows, Cols;
  /// Elements between consecutive rows.
  Scalar RowStride;
  /// Outermost first; at most MaxRank - 2.
  std::vector<OuterDim> Outer;
  unsigned BoxRows = 0, BoxCols = 0;
  /// 32, 64 or 128.
  unsigned Swizzle = 0;

  unsigned elementBytes() const { return tensorMapElementBytes(Elem); }
  std::string str() const;
  bool operator==(const TensorMapSpec &other) const;

  static unsigned tensorMapElementBytes(Element elem);
};

/// The TMA element type a tensor of \p type is copied as (fp8 and 8-bit
/// integers as u8), if TMA can copy it.
std::optional<TensorMapSpec::Element> tensorMapElementFor(ScalarType type);
/// The metadata spelling of \p elem ("f16", "bf16", "f32", "u8").
const char *tensorMapElementName(TensorMapSpec::Element elem);

/// The rule every tensor-map box obeys: at most 256 x 256 elements, each row
/// exactly one swizzle span of 32, 64 or 128 bytes. Returns the broken rule,
/// or success.
Status checkTensorMapBox(unsigned boxRows, unsigned boxCols, unsigned swizzle,
                         unsigned elementBytes);

//===----------------------------------------------------------------------===//
// Kernel metadata
//===----------------------------------------------------------------------===//

/// What tilec records about one kernel.
struct KernelMetadata {
  std::string Name;
  unsigned NumWarps = 0;
  /// Dynamic shared memory in bytes.
  unsigned SharedBytes = 0;
  std::vector<ArgType> Signature;
  /// Checked at every launch.
  std::vector<LaunchRequirement> Requirements;
  /// Built at every launch, passed after the signature's parameters in this
  /// order.
  std::vector<TensorMapSpec> TensorMaps;
  /// The parameters taken as host-side tensor descriptors, by index;
  /// Kernel::launch checks a descriptor's block shape against them.
  std::vector<DescriptorParam> Descriptors;
  /// What each program reads more than once, when tilec found it.
  std::optional<RereadFootprint> Reread;

  /// Threads per block (in x).
  unsigned blockSize() const { return NumWarps * 32; }
  /// Checks the parts against each other: requirements, tensor maps and
  /// descriptors name arguments of the right kind, and tensor maps follow
  /// the signature's parameters in order. parseMetadataLine calls it.
  Status verify() const;
};

/// The kernel's metadata line, "// tilec.kernel name=... signature=..."
/// (no newline). Keys without content (requires=, tma=, descriptors=) are
/// left out.
std::string printMetadataLine(const KernelMetadata &kernel);
/// True when \p line is a "// tilec.kernel" metadata line (leading blanks
/// allowed).
bool isMetadataLine(std::string_view line);
/// Parses one metadata line. Keys other than name, num_warps, shared,
/// signature, requires, tma and descriptors are ignored; the first four are
/// required.
Expected<KernelMetadata> parseMetadataLine(std::string_view line);
/// Parses every metadata line of a PTX text. Errors name the line number.
/// Two lines for the same kernel are an error.
Expected<std::vector<KernelMetadata>> parseModuleMetadata(std::string_view ptx);

//===----------------------------------------------------------------------===//
// Configurations
//===----------------------------------------------------------------------===//

/// The name of a kernel configuration, as tuning files, generated launchers
/// and the JIT write it: "NAME=VALUE," for each constexpr in order, then
/// "num_warps=W,num_stages=S".
std::string configurationName(
    const std::vector<std::pair<std::string, std::string>> &constexprs,
    unsigned numWarps, unsigned numStages);

} // namespace abi
} // namespace tilec

#endif // TILEC_ABI_KERNELABI_H

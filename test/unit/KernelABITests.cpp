//===- KernelABITests.cpp - The kernel ABI's printers and parsers ---------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// The kernel ABI (tilec/ABI/KernelABI.h) is the one contract between the
// compiler, which prints metadata lines, and the runtime, which parses them.
// These tests print, parse and print again every dtype, alias, hint, launch
// requirement and tensor map, and check that both sides reject the same
// signatures with the same messages.
//
//===----------------------------------------------------------------------===//

#include "tilec/ABI/KernelABI.h"

#include <catch2/catch.hpp>

using namespace tilec::abi;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {

constexpr ScalarType AllTypes[] = {
    ScalarType::I1,      ScalarType::I8,    ScalarType::I16,
    ScalarType::I32,     ScalarType::I64,   ScalarType::U8,
    ScalarType::U16,     ScalarType::U32,   ScalarType::U64,
    ScalarType::FP8E4NV, ScalarType::FP8E5, ScalarType::FP8E4B15,
    ScalarType::FP16,    ScalarType::BF16,  ScalarType::FP32,
    ScalarType::FP64};

/// Prints \p meta, parses the line and prints it again.
KernelMetadata roundTrip(const KernelMetadata &meta) {
  std::string line = printMetadataLine(meta);
  INFO(line);
  Expected<KernelMetadata> parsed = parseMetadataLine(line);
  INFO(parsed.status().message());
  REQUIRE(parsed.ok());
  CHECK(printMetadataLine(*parsed) == line);
  return parsed.take();
}

} // namespace

TEST_CASE("Every dtype is found by each of its names", "[abi]") {
  for (ScalarType type : AllTypes) {
    INFO(scalarTypeName(type));
    CHECK(lookupScalarType(scalarTypeName(type)) == type);
    CHECK(lookupScalarType(scalarTypeLanguageName(type)) == type);
    CHECK(isIntegerType(type) != isFloatType(type));
    CHECK(scalarTypeSize(type) >= 1);
  }
  // Triton's aliases.
  CHECK(lookupScalarType("f16") == ScalarType::FP16);
  CHECK(lookupScalarType("f32") == ScalarType::FP32);
  CHECK(lookupScalarType("f64") == ScalarType::FP64);
  CHECK(lookupScalarType("u1") == ScalarType::I1);
  CHECK(lookupScalarType("float32") == ScalarType::FP32);
  CHECK(lookupScalarType("uint8") == ScalarType::U8);
  CHECK_FALSE(lookupScalarType("fp33"));
  CHECK_FALSE(lookupScalarType("FP32"));
  CHECK(std::string(scalarTypeEnumerator(ScalarType::FP8E4NV)) == "FP8E4NV");
}

TEST_CASE("Every type, alias and hint round-trips through a metadata line",
          "[abi]") {
  KernelMetadata meta;
  meta.Name = "k";
  meta.NumWarps = 4;
  for (ScalarType type : AllTypes) {
    meta.Signature.push_back({false, type, 0});
    meta.Signature.push_back({true, type, 0});
    meta.Signature.push_back({true, type, 16});
    if (isIntegerType(type)) {
      meta.Signature.push_back({false, type, 16});
      meta.Signature.push_back({false, type, 1});
    }
  }
  KernelMetadata parsed = roundTrip(meta);
  CHECK(parsed.Signature == meta.Signature);

  // Aliases parse to the canonical types and print canonically.
  Expected<std::vector<SignatureEntry>> aliases = parseSignatureEntries(
      "*f32:16, f16, f64, u1:1, *float16, 64, True, None");
  REQUIRE(aliases.ok());
  std::vector<std::string> printed;
  for (const SignatureEntry &entry : *aliases)
    printed.push_back(entry.str());
  CHECK(printed == std::vector<std::string>{"*fp32:16", "fp16", "fp64", "i1:1",
                                            "*fp16", "64", "True", "None"});
  CHECK((*aliases)[7].IsConstant);
}

TEST_CASE("Requirements and tensor maps round-trip", "[abi]") {
  KernelMetadata meta;
  meta.Name = "matmul_desc_kernel";
  meta.NumWarps = 8;
  meta.SharedBytes = 98304;
  meta.Signature = {{true, ScalarType::FP16, 0},
                    {true, ScalarType::BF16, 16},
                    {false, ScalarType::I32, 0},
                    {false, ScalarType::I64, 0},
                    {false, ScalarType::U32, 0}};
  for (ScalarType elem : AllTypes)
    meta.Requirements.push_back(
        {LaunchRequirement::Kind::Bytes16, 3, "stride_am", elem});
  meta.Requirements.push_back(
      {LaunchRequirement::Kind::Align16, 0, "a_ptr", ScalarType::I8});
  using Element = TensorMapSpec::Element;
  using Scalar = TensorMapSpec::Scalar;
  unsigned param = 5;
  for (Element elem :
       {Element::F16, Element::BF16, Element::F32, Element::U8}) {
    for (unsigned swizzle : {32u, 64u, 128u}) {
      TensorMapSpec map;
      map.ParamIndex = param++;
      map.BaseArg = 1;
      map.Elem = elem;
      map.Rows = Scalar::argument(2);
      map.Cols = Scalar::constant(4096);
      map.RowStride = Scalar::argument(4);
      map.BoxRows = 256;
      map.BoxCols = swizzle / TensorMapSpec::tensorMapElementBytes(elem);
      map.Swizzle = swizzle;
      meta.TensorMaps.push_back(map);
    }
  }
  // Argument 1 as a 2-D bf16 descriptor: base, two i32 extents, one i64
  // stride.
  meta.Signature = {{true, ScalarType::FP16, 0},
                    {true, ScalarType::BF16, 16},
                    {false, ScalarType::I32, 0},
                    {false, ScalarType::I32, 0},
                    {false, ScalarType::I64, 0}};
  meta.Descriptors = {{1, {128, 64}}};
  KernelMetadata parsed = roundTrip(meta);
  CHECK(parsed.Requirements == meta.Requirements);
  CHECK(parsed.TensorMaps == meta.TensorMaps);
  CHECK(parsed.Descriptors == meta.Descriptors);
  CHECK_THAT(printMetadataLine(meta), Contains(" descriptors=1:128x64"));
  // A block a pre_hook set is marked so.
  meta.Descriptors[0].FromPreHook = true;
  CHECK(roundTrip(meta).Descriptors == meta.Descriptors);
  CHECK_THAT(printMetadataLine(meta),
             Contains(" descriptors=1:128x64@pre_hook"));
  meta.Descriptors[0].FromPreHook = false;
  // A descriptor whose arguments do not follow it is refused.
  Expected<KernelMetadata> truncated = parseMetadataLine(
      "// tilec.kernel name=k num_warps=4 shared=0 signature=*fp16,i32 "
      "descriptors=0:64x64");
  REQUIRE_FALSE(truncated.ok());
  CHECK_THAT(truncated.status().message(),
             Contains("tensor descriptor at argument 0 does not match the "
                      "signature"));
  Expected<KernelMetadata> zero = parseMetadataLine(
      "// tilec.kernel name=k num_warps=4 shared=0 signature=*fp16,i32 "
      "descriptors=0:0");
  REQUIRE_FALSE(zero.ok());
  CHECK_THAT(zero.status().message(), Contains("expected INDEX:B0xB1"));
  CHECK(parsed.SharedBytes == 98304);

  // A metadata line without requirements or maps has neither key.
  meta.Requirements.clear();
  meta.TensorMaps.clear();
  meta.Descriptors.clear();
  std::string line = printMetadataLine(meta);
  CHECK(line == "// tilec.kernel name=matmul_desc_kernel num_warps=8 "
                "shared=98304 signature=*fp16,*bf16:16,i32,i32,i64");
}

TEST_CASE("Bad signatures get one message wherever they are parsed", "[abi]") {
  auto message = [](const char *text) {
    Expected<std::vector<SignatureEntry>> parsed = parseSignatureEntries(text);
    REQUIRE_FALSE(parsed.ok());
    return parsed.status().message();
  };
  CHECK_THAT(message("*fp32:16, fp32:16"),
             Equals("invalid signature entry 'fp32:16': a hint on a "
                    "floating-point parameter"));
  CHECK_THAT(message("*fp32:1"), Equals("invalid signature entry '*fp32:1': "
                                        "the hint ':1' on a pointer"));
  CHECK_THAT(message("i32:4"),
             Equals("invalid signature entry 'i32:4': unknown hint ':4' "
                    "(expected ':16', ':8' or ':1')"));
  CHECK_THAT(message("i32,,i32"), Contains("empty entry"));
  // The metadata parser gives the same reason.
  Expected<KernelMetadata> meta = parseMetadataLine(
      "// tilec.kernel name=k num_warps=4 shared=0 signature=*fp32,fp32:16");
  REQUIRE_FALSE(meta.ok());
  CHECK_THAT(meta.status().message(),
             Contains("invalid signature entry 'fp32:16': a hint on a "
                      "floating-point parameter"));

  // Commas inside brackets do not split entries.
  CHECK_THAT(message("tensordesc<fp17[128, 64]>, i32"),
             Equals("invalid signature entry 'tensordesc<fp17[128, 64]>': "
                    "unknown type 'fp17'"));
  CHECK_THAT(message("tensordesc<fp16[128, 0]>"),
             Contains("the block dimension '0' is not a positive integer"));
  CHECK_THAT(message("tensordesc<fp16>"),
             Contains("expected tensordesc<TYPE[BLOCK, ...]>"));
  CHECK_THAT(message("tensordesc<fp16[1, 1, 1, 1, 1, 1]>"),
             Contains("a tensor descriptor has 1 to 5 dimensions"));
  // Metadata lines hold launch arguments only.
  Expected<std::vector<ArgType>> launch =
      parseSignature("tensordesc<fp16[64, 64]>");
  REQUIRE_FALSE(launch.ok());
  CHECK_THAT(launch.status().message(),
             Contains("launches as several arguments"));
}

TEST_CASE("What verify() accepts, the metadata parser reads back", "[abi]") {
  KernelMetadata meta;
  meta.Name = "k";
  meta.NumWarps = 0;
  CHECK_THAT(meta.verify().message(), Contains("num_warps 0 is not"));
  meta.NumWarps = 4;
  meta.Signature = descriptorArgTypes(ScalarType::FP16, 2);
  meta.Requirements.push_back({LaunchRequirement::Kind::Align16, 0});
  meta.Requirements.back().ArgName = "a.strides[0]";
  CHECK_THAT(meta.verify().message(),
             Contains("the name is not an identifier"));
  meta.Requirements.back().ArgName = "a_desc";
  REQUIRE(meta.verify().ok());
  Expected<KernelMetadata> parsed = parseMetadataLine(printMetadataLine(meta));
  INFO(parsed.status().message());
  CHECK(parsed.ok());
}

TEST_CASE("Re-read footprints round-trip and are checked", "[abi]") {
  KernelMetadata meta;
  meta.Name = "layer_norm_fwd";
  meta.NumWarps = 4;
  meta.Signature = {{true, ScalarType::FP16, 16}, {false, ScalarType::I32, 0}};
  meta.Reread = RereadFootprint{1, 2048, 1024};
  CHECK_THAT(printMetadataLine(meta), Contains(" reread=1:2048:1024"));
  CHECK(roundTrip(meta).Reread == meta.Reread);
  // 2048 bytes for every 1024 of the argument, rounded up.
  CHECK(meta.Reread->bytesFor(8192) == 16384);
  CHECK(meta.Reread->bytesFor(1000) == 2048);
  CHECK(meta.Reread->bytesFor(1025) == 4096);
  CHECK(meta.Reread->bytesFor(0) == 0);
  CHECK(meta.Reread->bytesFor(-5) == 0);
  // A constant footprint is its bytes.
  meta.Reread = RereadFootprint{std::nullopt, 12288, 1};
  CHECK_THAT(printMetadataLine(meta), Contains(" reread=12288"));
  CHECK(roundTrip(meta).Reread == meta.Reread);
  CHECK(meta.Reread->bytesFor(77) == 12288);
  // Without one, no key.
  meta.Reread.reset();
  CHECK_THAT(printMetadataLine(meta), !Contains("reread"));

  auto refused = [](const char *reread) {
    Expected<KernelMetadata> parsed = parseMetadataLine(
        std::string("// tilec.kernel name=k num_warps=4 shared=0 "
                    "signature=*fp16,i32 reread=") +
        reread);
    REQUIRE_FALSE(parsed.ok());
    return parsed.status().message();
  };
  CHECK_THAT(refused("1:0:1024"), Contains("is not BYTES or ARG:BYTES:STEP"));
  CHECK_THAT(refused("1:2048"), Contains("is not BYTES or ARG:BYTES:STEP"));
  CHECK_THAT(refused("1:2048:0"), Contains("is not BYTES or ARG:BYTES:STEP"));
  CHECK_THAT(refused("0:2048:1024"),
             Contains("reread footprint of argument 0, which is not an "
                      "integer of the signature"));
  CHECK_THAT(refused("2:2048:1024"), Contains("argument 2"));
}

TEST_CASE("Host-side tensor descriptors in signatures", "[abi]") {
  Expected<std::vector<SignatureEntry>> parsed =
      parseSignatureEntries("tensordesc<float16[128,64]>, i32, "
                            "tensordesc< bf16 [ 256 ] >");
  REQUIRE(parsed.ok());
  REQUIRE(parsed->size() == 3);
  const SignatureEntry &a = (*parsed)[0];
  CHECK(a.isTensorDesc());
  CHECK(a.Type.IsPointer);
  CHECK(a.Type.Elem == ScalarType::FP16);
  CHECK(a.DescriptorBlock == std::vector<std::int64_t>{128, 64});
  CHECK(a.str() == "tensordesc<fp16[128, 64]>");
  CHECK_FALSE((*parsed)[1].isTensorDesc());
  CHECK((*parsed)[2].str() == "tensordesc<bf16[256]>");
  // A descriptor of rank 2 launches as its base, two extents, one stride.
  std::vector<ArgType> types = descriptorArgTypes(ScalarType::FP16, 2);
  CHECK(signatureString(types) == "*fp16,i32,i32,i64");
  CHECK(signatureString(descriptorArgTypes(ScalarType::FP32, 1)) ==
        "*fp32,i32");
  // flatTypes, the launch arguments of any entry, says the same.
  CHECK(signatureString(flatTypes(a)) == "*fp16,i32,i32,i64");
}

TEST_CASE("Tuples in signatures", "[abi]") {
  Expected<std::vector<SignatureEntry>> parsed =
      parseSignatureEntries("(i32:16, i32:1), *fp32, ( *bf16:16 , (fp32, "
                            "i64) ), (u8,), ()");
  REQUIRE(parsed.ok());
  REQUIRE(parsed->size() == 5);
  const SignatureEntry &pair = (*parsed)[0];
  CHECK(pair.IsTuple);
  CHECK(pair.str() == "(i32:16, i32:1)");
  CHECK(signatureString(flatTypes(pair)) == "i32:16,i32:1");
  CHECK_FALSE((*parsed)[1].IsTuple);
  CHECK(signatureString(flatTypes((*parsed)[1])) == "*fp32");
  // Nested tuples flatten depth first.
  CHECK((*parsed)[2].str() == "(*bf16:16, (fp32, i64))");
  CHECK(signatureString(flatTypes((*parsed)[2])) == "*bf16:16,fp32,i64");
  CHECK((*parsed)[3].str() == "(u8,)");
  CHECK((*parsed)[4].str() == "()");
  CHECK(flatTypes((*parsed)[4]).empty());
  // Elements are run-time types or tuples.
  CHECK_THAT(parseSignatureEntries("(i32, 16)").status().message(),
             Contains("invalid signature entry '(i32, 16)': '16' in a tuple"));
  CHECK_THAT(
      parseSignatureEntries("(tensordesc<fp16[16]>,)").status().message(),
      Contains("in a tuple (a tuple's elements are run-time types or "
               "tuples)"));
  CHECK_THAT(parseSignatureEntries("(,)").status().message(),
             Contains("'(,)': a comma without an element"));
  CHECK_THAT(parseSignatureEntries("(i32, f33)").status().message(),
             Contains("unknown type 'f33'"));
  // The launch-order signature of a metadata line has no tuples.
  CHECK_THAT(parseSignature("(i32, i32)").status().message(),
             Contains("is the tuple '(i32, i32)', which launches as several "
                      "arguments"));
}

TEST_CASE("Tensor-map boxes obey one rule", "[abi]") {
  CHECK(checkTensorMapBox(128, 64, 128, 2).ok());
  CHECK(checkTensorMapBox(256, 8, 32, 4).ok());
  CHECK_FALSE(checkTensorMapBox(257, 64, 128, 2).ok());
  CHECK_FALSE(checkTensorMapBox(128, 32, 128, 2).ok());
  CHECK_FALSE(checkTensorMapBox(128, 48, 96, 2).ok());
  CHECK_FALSE(checkTensorMapBox(0, 64, 128, 2).ok());
}

TEST_CASE("Configuration names", "[abi]") {
  CHECK(configurationName({{"BLOCK_M", "64"}, {"BLOCK_N", "128"}}, 4, 3) ==
        "BLOCK_M=64,BLOCK_N=128,num_warps=4,num_stages=3");
  CHECK(configurationName({}, 8, 2) == "num_warps=8,num_stages=2");
}

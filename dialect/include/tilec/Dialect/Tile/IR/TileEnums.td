//===- TileEnums.td - Enumerations of the tile dialect -----*- tablegen -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEENUMS_TD
#define TILEC_DIALECT_TILE_IR_TILEENUMS_TD

include "mlir/IR/EnumAttr.td"

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "a reduction", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"ArgMax", 3, "argmax">,
    I32EnumAttrCase<"ArgMin", 4, "argmin">]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}

def Tile_ScanKind : I32EnumAttr<"ScanKind", "a prefix scan", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Prod", 1, "prod">]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}

def Tile_InputPrecision : I32EnumAttr<"InputPrecision",
    "how tl.dot treats fp32 inputs", [
    I32EnumAttrCase<"IEEE", 0, "ieee">,
    I32EnumAttrCase<"TF32", 1, "tf32">,
    I32EnumAttrCase<"TF32x3", 2, "tf32x3">]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}

def Tile_AtomicKind : I32EnumAttr<"AtomicKind", "an atomic update", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"Xchg", 3, "xchg">,
    I32EnumAttrCase<"And", 4, "and">,
    I32EnumAttrCase<"Or", 5, "or">,
    I32EnumAttrCase<"Xor", 6, "xor">,
    I32EnumAttrCase<"UMax", 7, "umax">,
    I32EnumAttrCase<"UMin", 8, "umin">]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}

def Tile_MemSemantic : I32EnumAttr<"MemSemantic",
    "the memory ordering of an atomic (sem=)", [
    I32EnumAttrCase<"Relaxed", 0, "relaxed">,
    I32EnumAttrCase<"Acquire", 1, "acquire">,
    I32EnumAttrCase<"Release", 2, "release">,
    I32EnumAttrCase<"AcqRel", 3, "acq_rel">]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}

def Tile_MemScope : I32EnumAttr<"MemScope",
    "the threads an atomic is ordered with (scope=)", [
    I32EnumAttrCase<"CTA", 0, "cta">,
    I32EnumAttrCase<"GPU", 1, "gpu">,
    I32EnumAttrCase<"System", 2, "sys">]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}

#endif // TILEC_DIALECT_TILE_IR_TILEENUMS_TD

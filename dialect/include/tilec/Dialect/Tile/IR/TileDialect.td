//===- TileDialect.td - The tile dialect -------------------*- tablegen -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The `tile` dialect holds the semantics of Triton kernels: programs that each
// compute one tile, with tiles represented as ranked tensors of values and of
// pointers. At the front-end level tensors carry no encoding; after layout
// assignment every tensor carries a layout attribute saying which thread holds
// which element, and the same ops are lowered to LLVM/NVVM.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEDIALECT_TD
#define TILEC_DIALECT_TILE_IR_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tilec::tile";
  let summary = "Tile programs in the style of Triton.";
  let description = [{
    One program instance computes one tile. Tiles are ranked tensors whose
    element type is a scalar or a `!tile.ptr`. Elementwise arithmetic on tiles
    uses the upstream `arith` and `math` dialects; this dialect adds what they
    lack: program ids, ranges, pointer arithmetic and masked memory accesses.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  // Folds to constants (a splat or broadcast of one) become arith.constant.
  let hasConstantMaterializer = 1;
  // The attributes passes leave on modules, functions, arguments and ops
  // for later passes and the driver; TileAttrs.h gives them typed accessors
  // and verifyOperationAttribute / verifyRegionArgAttribute check them.
  let discardableAttrs = (ins
    // Module: warps per program (tile-assign-layouts).
    "::mlir::IntegerAttr":$num_warps,
    // Module: dynamic shared-memory bytes (tile-allocate-shared-memory).
    "::mlir::IntegerAttr":$shared,
    // Op: where its scratch buffer starts when not at byte 0.
    "::mlir::IntegerAttr":$scratch_offset,
    // Module: the #tile.tensor_map of each TMA parameter (tile-pipeline).
    "::mlir::ArrayAttr":$tma,
    // Function: programs per SM the registers must allow (tile-pipeline).
    "::mlir::IntegerAttr":$programs_per_sm,
    // Module: what each program reads more than once, [argument, bytes,
    // step] (tile-reread-footprint).
    "::mlir::DenseI64ArrayAttr":$reread,
    // Module: the target architecture (tile-set-target).
    "::mlir::StringAttr":$target,
    // Kernel argument: the signature's `:16` hint.
    "::mlir::IntegerAttr":$divisibility,
    // Op of one result: tl.multiple_of, tl.max_contiguous and
    // tl.max_constancy of that result, one value per dimension (AxisInfo).
    "::mlir::DenseI64ArrayAttr":$hint_divisibility,
    "::mlir::DenseI64ArrayAttr":$hint_contiguity,
    "::mlir::DenseI64ArrayAttr":$hint_constancy,
    // scf.for: tl.range's loop_unroll_factor (tile-unroll-loops).
    "::mlir::IntegerAttr":$loop_unroll_factor,
    // scf.for: tl.range's flatten=True (tile-flatten-loops).
    "::mlir::UnitAttr":$flatten
  );
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();

    /// The registers of a slice layout's parent that hold the slice's
    /// elements (SliceLayoutAttr::getParentRegisters), computed once per
    /// layout and shape by `compute`: a slice of a slice would otherwise
    /// recompute its parent's list for every register it places, which is
    /// exponential in the nesting (the sort network's tiles of up to ten
    /// dimensions nest slices deeply).
    /// The list stays valid as long as the dialect.
    ::llvm::ArrayRef<int64_t> getSliceParentRegisters(
        ::mlir::Attribute slice, ::llvm::ArrayRef<int64_t> shape,
        ::llvm::function_ref<::llvm::SmallVector<int64_t>()> compute);

    /// What getSliceParentRegisters computed, by layout and shape.
    std::map<std::pair<const void *, std::vector<int64_t>>,
             ::llvm::SmallVector<int64_t>> sliceParentRegisters;
    std::mutex sliceParentRegistersMutex;
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILEC_DIALECT_TILE_IR_TILEDIALECT_TD

//===- TileTypes.td - Types of the tile dialect ------------*- tablegen -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILETYPES_TD
#define TILEC_DIALECT_TILE_IR_TILETYPES_TD

include "tilec/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_PtrType : Tile_Type<"Ptr", "ptr"> {
  let summary = "A pointer to global memory holding elements of one type.";
  let description = [{
    The type of a kernel's pointer arguments and of the elements of pointer
    tiles. `!tile.ptr<f32>` points at `f32` values in global memory; adding an
    integer offset moves it by that many elements.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
}

def Tile_SmemType : Tile_Type<"Smem", "smem", [ShapedTypeInterface]> {
  let summary = "A buffer of matrices in shared memory.";
  let description = [{
    Shared memory that asynchronous copies write and tensor cores read,
    laid out as `layout` (a `#tile.shared` attribute) says. The last two
    dimensions are a matrix; a leading dimension, if any, indexes the slots
    of a ring of such matrices (`tile.smem_slot`).

    ```mlir
    !tile.smem<3x128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::tilec::tile::SharedLayoutAttr":$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    using ::mlir::ShapedType::Trait<SmemType>::getElementTypeBitWidth;
    using ::mlir::ShapedType::Trait<SmemType>::getRank;
    using ::mlir::ShapedType::Trait<SmemType>::getNumElements;
    using ::mlir::ShapedType::Trait<SmemType>::getDimSize;
    bool hasRank() const { return true; }
    SmemType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                       ::mlir::Type elementType) const;
    /// Bytes between consecutive matrices of the buffer (each starts on a
    /// 1024-byte boundary).
    int64_t getSlotBytes() const;
  }];
}

def Tile_TensorMapType : Tile_Type<"TensorMap", "tensormap"> {
  let summary = "A TMA tensor map, passed to the kernel by value.";
  let description = [{
    The 128-byte `CUtensorMap` the runtime builds on the host with
    `cuTensorMapEncodeTiled` for a tensor descriptor whose base, shape and
    strides are kernel arguments; the kernel receives it as a
    `__grid_constant__` parameter (the function's `tile.tma` attribute says
    how to build it).
  }];
}

def Tile_BarriersType : Tile_Type<"Barriers", "barriers"> {
  let summary = "mbarriers in shared memory.";
  let description = [{
    `count` 8-byte mbarriers (`tile.barrier_alloc`), e.g. `!tile.barriers<4>`.
  }];
  let parameters = (ins "unsigned":$count);
  let assemblyFormat = "`<` $count `>`";
}

/// A scalar type a tile element may have.
def Tile_Scalar : AnyTypeOf<[AnyInteger, AnyFloat, Index, Tile_PtrType]>;
def Tile_PtrLike : AnyTypeOf<[Tile_PtrType, RankedTensorOf<[Tile_PtrType]>]>;
def Tile_IntLike : AnyTypeOf<[AnyInteger, RankedTensorOf<[AnyInteger]>]>;
def Tile_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;
def Tile_Tensor : RankedTensorOf<[Tile_Scalar]>;
def Tile_Value : AnyTypeOf<[Tile_Scalar, Tile_Tensor]>;

#endif // TILEC_DIALECT_TILE_IR_TILETYPES_TD

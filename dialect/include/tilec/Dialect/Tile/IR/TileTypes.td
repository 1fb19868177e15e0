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

/// A scalar type a tile element may have.
def Tile_Scalar : AnyTypeOf<[AnyInteger, AnyFloat, Index, Tile_PtrType]>;
def Tile_PtrLike : AnyTypeOf<[Tile_PtrType, RankedTensorOf<[Tile_PtrType]>]>;
def Tile_IntLike : AnyTypeOf<[AnyInteger, RankedTensorOf<[AnyInteger]>]>;
def Tile_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;
def Tile_Tensor : RankedTensorOf<[Tile_Scalar]>;
def Tile_Value : AnyTypeOf<[Tile_Scalar, Tile_Tensor]>;

#endif // TILEC_DIALECT_TILE_IR_TILETYPES_TD

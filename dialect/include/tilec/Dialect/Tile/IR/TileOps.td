//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEOPS_TD
#define TILEC_DIALECT_TILE_IR_TILEOPS_TD

include "tilec/Dialect/Tile/IR/TileDialect.td"
include "tilec/Dialect/Tile/IR/TileTypes.td"
include "tilec/Dialect/Tile/IR/TileAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Program identity
//===----------------------------------------------------------------------===//

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "The index of this program along one grid axis.";
  let description = [{
    `tl.program_id(axis)`: the coordinate of the running program in the
    launch grid along `axis` (0, 1 or 2).

    ```mlir
    %pid = tile.program_id 0 : i32
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "The number of programs along one grid axis.";
  let description = [{
    `tl.num_programs(axis)`: the size of the launch grid along `axis`.

    ```mlir
    %n = tile.num_programs 1 : i32
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Tile construction
//===----------------------------------------------------------------------===//

def Tile_MakeRangeOp : Tile_Op<"make_range", [Pure]> {
  let summary = "A 1-D tile holding start, start + 1, ..., end - 1.";
  let description = [{
    `tl.arange(start, end)`. The length `end - start` must be a power of two.

    ```mlir
    %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    ```
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"result element type matches the scalar",
                   "result", "src",
                   "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "A tile with every element equal to one scalar.";
  let description = [{
    Implicit broadcasting of a scalar to a tile, as in `pid * BLOCK + offs`.

    ```mlir
    %t = tile.splat %x : tensor<1024xi32>
    ```
  }];
  let arguments = (ins Tile_Scalar:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure, Elementwise,
    SameOperandsAndResultShape, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Offsets pointers by a number of elements.";
  let description = [{
    `ptr + offset`: moves each pointer by `offset` elements of its pointee
    type. Both operands are scalars or tiles of the same shape.

    ```mlir
    %p = tile.addptr %base, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = [{
    $ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)
  }];
  let hasFolder = 1;
}

def Tile_LoadOp : Tile_Op<"load", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Loads a tile (or a scalar) through pointers, under a mask.";
  let description = [{
    `tl.load(ptr, mask=, other=)`: element `i` of the result is `*ptr[i]`
    where `mask[i]` holds, else `other[i]` (undefined when `other` is absent).
    `mask` and `other` have the shape of `ptr`.

    ```mlir
    %x = tile.load %p, %m : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Optional<Tile_BoolLike>:$mask,
                   Optional<Tile_Value>:$other);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`other` $other^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Stores a tile (or a scalar) through pointers, under a mask.";
  let description = [{
    `tl.store(ptr, value, mask=)`: writes `value[i]` to `*ptr[i]` where
    `mask[i]` holds.

    ```mlir
    tile.store %p, %v, %m : tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$value,
                   Optional<Tile_BoolLike>:$mask);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)? attr-dict `:` type(operands)
  }];
  let hasVerifier = 1;
}

#endif // TILEC_DIALECT_TILE_IR_TILEOPS_TD

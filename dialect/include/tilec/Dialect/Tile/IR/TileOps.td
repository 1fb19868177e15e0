//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The language-level operations: what the front end generates from a kernel
// (program ids, ranges, pointers and masked memory accesses, shape ops,
// reductions and scans, dots, atomics) and the layout conversions of the GPU
// level. TileGPUOps.td holds the operations that only the passes create.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEOPS_TD
#define TILEC_DIALECT_TILE_IR_TILEOPS_TD

include "tilec/Dialect/Tile/IR/TileDialect.td"
include "tilec/Dialect/Tile/IR/TileTypes.td"
include "tilec/Dialect/Tile/IR/TileAttrs.td"
include "tilec/Dialect/Tile/IR/TileEnums.td"
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

def Tile_IntToPtrOp : Tile_Op<"int_to_ptr", [Pure, Elementwise,
    SameOperandsAndResultShape]> {
  let summary = "Makes pointers from 64-bit addresses.";
  let description = [{
    `x.to(tl.pointer_type(tl.float16))` on an int64 or uint64 value: the
    address as a pointer (grouped matmuls load their operands' addresses
    from an array).

    ```mlir
    %p = tile.int_to_ptr %addr : i64 -> !tile.ptr<f16>
    ```
  }];
  let arguments = (ins Tile_IntLike:$src);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_PtrToIntOp : Tile_Op<"ptr_to_int", [Pure, Elementwise,
    SameOperandsAndResultShape]> {
  let summary = "The 64-bit addresses of pointers.";
  let description = [{
    `p.to(tl.int64)` (or `tl.uint64`) on pointers: their addresses.

    ```mlir
    %a = tile.ptr_to_int %p : !tile.ptr<f16> -> i64
    ```
  }];
  let arguments = (ins Tile_PtrLike:$src);
  let results = (outs Tile_IntLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_PtrCastOp : Tile_Op<"ptr_cast", [Pure, Elementwise,
    SameOperandsAndResultShape]> {
  let summary = "Pointers to another pointee type, at the same addresses.";
  let description = [{
    `p.to(tl.pointer_type(tl.int8))` on pointers to another type.

    ```mlir
    %q = tile.ptr_cast %p : !tile.ptr<f16> -> !tile.ptr<i8>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$src);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

def Tile_ExternElementwiseOp : Tile_Op<"extern_elementwise", [Pure,
    Elementwise, SameOperandsAndResultShape]> {
  let summary = "A function of CUDA's libdevice applied to each element.";
  let description = [{
    `libdevice.asin(x)` and the other functions of
    `triton.language.extra.libdevice`, and the math ops libdevice implements
    on the GPU: `symbol` names the libdevice function (`__nv_asinf`) that
    computes one element from the elements of the operands. The GPU lowering
    calls it; the compiler links CUDA's libdevice bitcode into the module.

    ```mlir
    %y = tile.extern_elementwise "__nv_asinf"(%x) : (tensor<128xf32>) -> tensor<128xf32>
    ```
  }];
  let arguments = (ins StrAttr:$symbol, Variadic<Tile_Value>:$args);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $symbol `(` $args `)` attr-dict `:` functional-type($args, results)
  }];
  let hasVerifier = 1;
}

def Tile_InlineAsmOp : Tile_Op<"inline_asm", [SameOperandsAndResultShape,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "PTX written by the user, applied to each group of elements.";
  let description = [{
    `tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure,
    pack)`: the operands (tiles of one shape, or scalars) are taken `packed`
    elements at a time; each group runs `asm_string` once with the LLVM
    inline-assembly `constraints` (outputs first). An operand or result
    narrower than 32 bits passes `min(packed, 32 / width)` elements in one
    register; the others one element a register. Its operands are, in
    order, the registers of every result, then those of every argument.
    Without `pure` it has side effects and is never removed or moved.

    ```mlir
    %y = tile.inline_asm "shl.b32 $0, $1, 3;", "=r,r" (%x) {packed = 1 : i32, pure = true}
        : (tensor<128xi32>) -> tensor<128xi32>
    ```
  }];
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints,
                   BoolAttr:$pure, I32Attr:$packed,
                   Variadic<Tile_Value>:$args);
  let results = (outs Variadic<Tile_Value>:$results);
  let assemblyFormat = [{
    $asm_string `,` $constraints `(` $args `)` attr-dict `:`
    functional-type($args, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Elements of `elem` one asm register holds: narrow ones (under 32
    /// bits) travel min(packed, 32 / width) to a register, others one each.
    static unsigned getElementsPerRegister(::mlir::Type elem, unsigned packed);
    /// Why the constraints cannot bind the registers of a group (one
    /// output constraint per result register, then one input constraint
    /// per argument register, each as wide as its register or wider), or
    /// an empty string when they can.
    std::string checkConstraints();
  }];
}

def Tile_MapElementwiseOp : Tile_Op<"map_elementwise", [Pure,
    SameOperandsAndResultShape]> {
  let summary = "A scalar function applied to each group of elements.";
  let description = [{
    `tl.map_elementwise(scalar_fn, *args, pack)`: the `body` region runs once
    for each group of `pack` elements of the operands (tiles of one shape),
    as the same thread holds them. Its entry block takes `pack` scalars of
    each operand in turn (operand 0's elements, then operand 1's, ...); each
    `tile.map_elementwise_yield` gives `pack` scalars of each result in the
    same order. The body may branch and loop per element (structured control
    flow, which becomes blocks and branches when the module is lowered), but
    has no memory effects.

    ```mlir
    %y = tile.map_elementwise %x {pack = 1 : i32}
        : (tensor<128xf32>) -> (tensor<128xf32>) {
    ^bb0(%v: f32):
      %zero = arith.constant 0.0 : f32
      %pos = arith.cmpf ogt, %v, %zero : f32
      %r = scf.if %pos -> (f32) {
        scf.yield %v : f32
      } else {
        %e = math.exp %v : f32
        scf.yield %e : f32
      }
      tile.map_elementwise_yield %r : f32
    }
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$pack);
  let results = (outs Variadic<Tile_Tensor>:$results);
  let regions = (region MinSizedRegion<1>:$body);
  let assemblyFormat = [{
    $srcs attr-dict `:` `(` type($srcs) `)` `->` `(` type($results) `)`
    $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_MapElementwiseYieldOp : Tile_Op<"map_elementwise_yield", [Pure,
    Terminator, HasParent<"MapElementwiseOp">]> {
  let summary = "The elements a map_elementwise body computed.";
  let description = [{
    Ends a path through the `body` of `tile.map_elementwise` with `pack`
    scalars of each result of the parent.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Tile_LoadOp : Tile_Op<"load", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Loads a tile (or a scalar) through pointers, under a mask.";
  let description = [{
    `tl.load(ptr, mask=, other=)`: element `i` of the result is `*ptr[i]`
    where `mask[i]` holds, else `other[i]` (undefined when `other` is absent).
    `mask` and `other` have the shape of `ptr`.

    A load of a tensor descriptor (`desc.load(offsets)`) also names the
    descriptor: its base pointer, shape and strides (elements) and the
    offsets of the block. They describe the same elements as `ptr` and
    `mask` (which the descriptor's bounds give), so that the load can be
    made a TMA copy on Hopper; every other lowering ignores them. With
    `descUnchecked` (a block pointer's load), the launch does not check the
    base's alignment and the strides' multiples of 16 bytes that TMA needs.

    ```mlir
    %x = tile.load %p, %m : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
    %y = tile.load %q, %n descriptor %base[%o0, %o1] shape(%M, %K) strides(%s0, %c1)
        : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi1>, !tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> tensor<64x32xf16>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Optional<Tile_BoolLike>:$mask,
                   Optional<Tile_Value>:$other,
                   Optional<Tile_PtrType>:$descBase,
                   Variadic<AnyInteger>:$descShape,
                   Variadic<AnyInteger>:$descStrides,
                   Variadic<I32>:$descOffsets, UnitAttr:$descUnchecked);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`other` $other^)?
    (`descriptor` $descBase^ `[` $descOffsets `]` `shape` `(` $descShape `)`
     `strides` `(` $descStrides `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$ptr,
                   "::mlir::Value":$mask, "::mlir::Value":$other), [{
      build($_builder, $_state, result, ptr, mask, other, ::mlir::Value(),
            ::mlir::ValueRange(), ::mlir::ValueRange(), ::mlir::ValueRange(),
            /*descUnchecked=*/false);
    }]>
  ];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Stores a tile (or a scalar) through pointers, under a mask.";
  let description = [{
    `tl.store(ptr, value, mask=)`: writes `value[i]` to `*ptr[i]` where
    `mask[i]` holds. A store through a tensor descriptor (or a block pointer
    checking every dimension) also names the block, as `tile.load` does, so
    that it can be made a TMA store on Hopper.

    ```mlir
    tile.store %p, %v, %m : tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$value,
                   Optional<Tile_BoolLike>:$mask,
                   Optional<Tile_PtrType>:$descBase,
                   Variadic<AnyInteger>:$descShape,
                   Variadic<AnyInteger>:$descStrides,
                   Variadic<I32>:$descOffsets, UnitAttr:$descUnchecked);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)?
    (`descriptor` $descBase^ `[` $descOffsets `]` `shape` `(` $descShape `)`
     `strides` `(` $descStrides `)`)?
    attr-dict `:` type(operands)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$value,
                   "::mlir::Value":$mask), [{
      build($_builder, $_state, ptr, value, mask, ::mlir::Value(),
            ::mlir::ValueRange(), ::mlir::ValueRange(), ::mlir::ValueRange(),
            /*descUnchecked=*/false);
    }]>
  ];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure]> {
  let summary = "Inserts a dimension of size 1.";
  let description = [{
    `x[:, None]`, `x[None, :]` and `tl.expand_dims(x, axis)`. At the GPU
    level the operand's layout is the slice of the result's layout along
    `axis`.

    ```mlir
    %c = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "Repeats a tile along its dimensions of size 1.";
  let description = [{
    Numpy-style broadcasting of a tile of the same rank, and
    `tl.broadcast_to`: every dimension of the operand is 1 or equal to the
    result's.

    ```mlir
    %b = tile.broadcast %c : tensor<64x1xi32> -> tensor<64x32xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "Reinterprets a tile with another shape, row-major.";
  let description = [{
    `tl.reshape(x, shape)`: the same elements in row-major order.

    ```mlir
    %r = tile.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "Permutes the dimensions of a tile.";
  let description = [{
    `tl.trans(x)`, `x.T` and `tl.permute`: result dimension `i` is operand
    dimension `order[i]`.

    ```mlir
    %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf16> -> tensor<32x16xf16>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Moves a tile's elements to another layout.";
  let description = [{
    GPU level only: the same tile held by the threads as the result's layout
    says. Lowered through shared memory when the two layouts differ.

    ```mlir
    %y = tile.convert_layout %x : tensor<64xf32, #blocked> -> tensor<64xf32, #slice>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

def Tile_GatherOp : Tile_Op<"gather", [Pure]> {
  let summary = "Gathers a tile's elements along one dimension by index.";
  let description = [{
    `tl.gather(src, index, axis)`: `result[i][j] = src[index[i][j]][j]` for
    `axis = 0` (and likewise for the other axes). `index` has the rank of
    `src` and its size along every other dimension; the result has the shape
    of `index` and the element type of `src`. An index outside
    `[0, src.shape[axis])` reads the nearest element along the axis (tilec
    clamps it; Triton leaves it undefined).

    ```mlir
    %g = tile.gather %src[%idx] {axis = 1 : i32}
        : (tensor<16x64xf32>, tensor<16x8xi32>) -> tensor<16x8xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, Tile_Tensor:$index, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` `(` type($src) `,` type($index) `)`
    `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_HistogramOp : Tile_Op<"histogram", [Pure]> {
  let summary = "Counts a 1-D tile's integers into bins of width 1.";
  let description = [{
    `tl.histogram(x, num_bins, mask=None)`: result element `b` (an i32) is
    the number of elements of `x` equal to `b` whose `mask` is true. Values
    outside `[0, num_bins)` are not counted.

    ```mlir
    %h = tile.histogram %x, %m : (tensor<256xi32>, tensor<256xi1>) -> tensor<16xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, Optional<Tile_Tensor>:$mask);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src (`,` $mask^)? attr-dict `:` `(` type($src) (`,` type($mask)^)? `)`
    `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions, scans and dot products
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "Reduces a tile along one dimension.";
  let description = [{
    `tl.sum`, `tl.max`, `tl.min`, `tl.argmax` and `tl.argmin` with `axis`.
    The result drops dimension `axis`; reducing a 1-D tile gives a scalar.
    `max`/`min` of floats ignore NaN operands unless all are NaN (as
    `maxnumf`); `argmax`/`argmin` give the i32 index of the first extreme
    element.

    ```mlir
    %m = tile.reduce %x {axis = 1 : i32, kind = #tile<reduce_kind max>}
        : tensor<16x64xf32> -> tensor<16xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis,
                   Tile_ReduceKindAttr:$kind);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, SameOperandsAndResultType]> {
  let summary = "Inclusive prefix sum or product along one dimension.";
  let description = [{
    `tl.cumsum(x, axis, reverse)` and, with `kind = prod`, `tl.cumprod`.

    ```mlir
    %c = tile.scan %x {axis = 0 : i32, reverse = false} : tensor<128xi32>
    %p = tile.scan %y {axis = 0 : i32, kind = #tile<scan_kind prod>, reverse = true} : tensor<128xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis, BoolAttr:$reverse,
                   DefaultValuedAttr<Tile_ScanKindAttr, "ScanKind::Sum">:$kind);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_CombineReduceOp : Tile_Op<"combine_reduce", [Pure]> {
  let summary = "Reduces tiles along one dimension with a combine region.";
  let description = [{
    `tl.reduce(input, axis, combine_fn)` (and `tl.xor_sum`, `tl.reduce_or`):
    the tiles `srcs` (one shape, any element types) are reduced together
    along `axis`, each row folded by the `combine` region. The region takes
    two partial results, each one scalar per operand (the first N arguments
    the earlier one along the axis, the next N the later one), and yields
    their combination. As in Triton the function is assumed associative and
    commutative: rows are combined as a tree. Each result drops dimension
    `axis` (a scalar for 1-D tiles). The region has no memory effects; it
    may branch and loop (structured control flow, which becomes blocks and
    branches when the module is lowered).

    ```mlir
    %v, %i = tile.combine_reduce %x, %idx {axis = 0 : i32}
        : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32) {
    ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
      %gt = arith.cmpf ogt, %v0, %v1 : f32
      %v = arith.select %gt, %v0, %v1 : f32
      %i = arith.select %gt, %i0, %i1 : i32
      tile.combine_yield %v, %i : f32, i32
    }
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Tile_Value>:$results);
  let regions = (region MinSizedRegion<1>:$combine);
  let assemblyFormat = [{
    $srcs attr-dict `:` `(` type($srcs) `)` `->` `(` type($results) `)`
    $combine
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_CombineScanOp : Tile_Op<"combine_scan", [Pure]> {
  let summary = "Inclusive scan of tiles along one dimension with a combine "
                "region.";
  let description = [{
    `tl.associative_scan(input, axis, combine_fn, reverse)`: element i of
    each result combines elements 0..i of the operands along `axis` (i..n-1
    for `reverse`, scanning from the end) with the `combine` region, which
    takes the partial result of the earlier elements in scan order (first N
    arguments) and that of the later ones (next N). The function must be
    associative; it need not be commutative (a linear recurrence's combine
    is not). Results have the operands' types.

    ```mlir
    %c = tile.combine_scan %x {axis = 0 : i32, reverse = false}
        : (tensor<128xi32>) -> (tensor<128xi32>) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tile.combine_yield %s : i32
    }
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis,
                   BoolAttr:$reverse);
  let results = (outs Variadic<Tile_Tensor>:$results);
  let regions = (region MinSizedRegion<1>:$combine);
  let assemblyFormat = [{
    $srcs attr-dict `:` `(` type($srcs) `)` `->` `(` type($results) `)`
    $combine
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_CombineYieldOp : Tile_Op<"combine_yield", [Pure, Terminator,
    HasParent<"CombineReduceOp, CombineScanOp">]> {
  let summary = "The combination a combine region yields.";
  let description = [{
    Ends the `combine` region of `tile.combine_reduce` and
    `tile.combine_scan` with one scalar per operand of the parent.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["c", "result"]>]> {
  let summary = "Matrix product with accumulation: a @ b + c.";
  let description = [{
    `tl.dot(a, b, acc, input_precision=, out_dtype=)` on tiles `a`
    [M, K], `b` [K, N] and `c` [M, N]; the result has `c`'s type. Batched,
    on [B, M, K], [B, K, N] and [B, M, N]: one product per index of the
    leading dimension (which tile-split-batch separates before any GPU
    pass). Products
    are accumulated in the result's element type. Canonicalization folds
    `x + tl.dot(a, b)` (a product of a zero accumulator, used once) into
    `tl.dot(a, b, x)`, as Triton does. With `unsignedOperands`, 8-bit
    integer operands are read as unsigned (uint8): their products are
    exact in the i32 result.

    ```mlir
    %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision ieee>}
        : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %u = tile.dot %x, %y, %z {inputPrecision = #tile<input_precision tf32>, unsignedOperands}
        : tensor<64x32xi8>, tensor<32x64xi8> -> tensor<64x64xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$a, Tile_Tensor:$b, Tile_Tensor:$c,
                   Tile_InputPrecisionAttr:$inputPrecision,
                   UnitAttr:$unsignedOperands);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Atomically updates memory and returns the old values.";
  let description = [{
    `tl.atomic_add(ptr, val, mask=, sem=, scope=)` and its siblings. `sem`
    and `scope` are Triton's, with its defaults (acq_rel, gpu).

    ```mlir
    %old = tile.atomic_rmw add, %p, %v, %m : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
    %o = tile.atomic_rmw xchg, %q, %w {sem = #tile<sem release>, scope = #tile<scope cta>} : (!tile.ptr<i32>, i32) -> i32
    ```
  }];
  let arguments = (ins Tile_AtomicKindAttr:$kind, Tile_PtrLike:$ptr,
                   Tile_Value:$value, Optional<Tile_BoolLike>:$mask,
                   DefaultValuedAttr<Tile_MemSemanticAttr,
                                     "MemSemantic::AcqRel">:$sem,
                   DefaultValuedAttr<Tile_MemScopeAttr, "MemScope::GPU">:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $kind `,` $ptr `,` $value (`,` $mask^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    AllTypesMatch<["cmp", "value", "result"]>]> {
  let summary = "Atomic compare-and-swap; returns the old values.";
  let description = [{
    `tl.atomic_cas(ptr, cmp, val, sem=, scope=)`: where memory holds `cmp`,
    it becomes `val`; every element returns what memory held.

    ```mlir
    %old = tile.atomic_cas %lock, %zero, %one : (!tile.ptr<i32>, i32, i32) -> i32
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$cmp, Tile_Value:$value,
                   DefaultValuedAttr<Tile_MemSemanticAttr,
                                     "MemSemantic::AcqRel">:$sem,
                   DefaultValuedAttr<Tile_MemScopeAttr, "MemScope::GPU">:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr `,` $cmp `,` $value attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tile_PrintOp : Tile_Op<"print"> {
  let summary = "Prints values from the GPU.";
  let description = [{
    `tl.device_print(prefix, *args, hex=False)`: one line per element of
    the operands (which have one shape), `pid (x, y, z) idx (i, j) PREFIX
    v0 v1 ...`, printed once per element; scalars print one line.
    `is_unsigned` (one flag per operand, all false when absent) prints an
    operand's integers as unsigned.

    ```mlir
    tile.print %x, %y {prefix = "x: ", hex = false} : tensor<16xf32>, tensor<16xi32>
    tile.print %u {prefix = "u: ", hex = false, is_unsigned = array<i1: true>} : tensor<16xi32>
    ```
  }];
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex,
                   OptionalAttr<DenseBoolArrayAttr>:$is_unsigned,
                   Variadic<Tile_Value>:$args);
  let assemblyFormat = "$args attr-dict `:` type($args)";
  let extraClassDeclaration = [{
    /// True if operand `i` prints as unsigned integers.
    bool isUnsignedArg(unsigned i) {
      std::optional<llvm::ArrayRef<bool>> flags = getIsUnsigned();
      return flags && (*flags)[i];
    }
  }];
  let hasVerifier = 1;
}

def Tile_AssertOp : Tile_Op<"assert"> {
  let summary = "Stops the kernel where a condition does not hold.";
  let description = [{
    `tl.device_assert(cond, msg)` under `tilec --debug`: where an element of
    `cond` is false, the GPU reports `msg` with the source position and the
    launch fails.

    ```mlir
    tile.assert %ok {message = "n too large", file = "k.tile", line = 12 : i32} : tensor<16xi1>
    ```
  }];
  let arguments = (ins Tile_BoolLike:$condition, StrAttr:$message,
                   StrAttr:$file, I32Attr:$line);
  let assemblyFormat = "$condition attr-dict `:` type($condition)";
}

def Tile_DebugBarrierOp : Tile_Op<"debug_barrier"> {
  let summary = "Synchronises the threads of a program.";
  let description = [{
    `tl.debug_barrier()`: every thread of the program waits here for the
    others, and their memory accesses before it are visible after it
    (`bar.sync 0`).

    ```mlir
    tile.debug_barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_GridDepWaitOp : Tile_Op<"grid_dep_wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Waits for the grid this one depends on (programmatic "
                "dependent launch).";
  let description = [{
    `tl.extra.cuda.gdc_wait()`: when the kernel was launched as a
    programmatic dependent of the previous grid on its stream, waits until
    that grid has completed and its memory operations are visible
    (`griddepcontrol.wait`, sm_90 and later); otherwise it waits for nothing.

    ```mlir
    tile.grid_dep_wait
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_GridDepLaunchOp : Tile_Op<"grid_dep_launch_dependents",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "Lets the grids that depend on this one start (programmatic "
                "dependent launch).";
  let description = [{
    `tl.extra.cuda.gdc_launch_dependents()`: once every program of the grid
    has issued it (or finished), a grid launched as its programmatic
    dependent may start (`griddepcontrol.launch_dependents`, sm_90 and
    later). It orders no memory operations.

    ```mlir
    tile.grid_dep_launch_dependents
    ```
  }];
  let assemblyFormat = "attr-dict";
}

// The GPU-level operations the passes introduce (shared memory, cp.async,
// wgmma, mbarriers, TMA) are in their own file.
include "tilec/Dialect/Tile/IR/TileGPUOps.td"

#endif // TILEC_DIALECT_TILE_IR_TILEOPS_TD

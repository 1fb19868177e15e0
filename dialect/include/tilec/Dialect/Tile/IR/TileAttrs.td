//===- TileAttrs.td - Layout attributes of the tile dialect -*- tablegen -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The attributes of the tile dialect. Distributed layouts are tensor
// encodings: they say which thread of the program holds which element of a
// tile. Each (blocked, slice, mma, linear) implements LayoutAttrInterface,
// which maps (register, lane, warp) to tensor coordinates; code generation
// only talks to the interface, so a new distributed layout needs no change
// elsewhere. The shared layout describes `!tile.smem` buffers instead, and
// the enum attributes the options of reductions, dots and atomics.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEATTRS_TD
#define TILEC_DIALECT_TILE_IR_TILEATTRS_TD

include "tilec/Dialect/Tile/IR/TileDialect.td"
include "tilec/Dialect/Tile/IR/TileEnums.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_LayoutAttrInterface : AttrInterface<"LayoutAttrInterface"> {
  let cppNamespace = "::tilec::tile";
  let description = [{
    A distribution of a tensor's elements over the registers, lanes and warps
    of a program. For a tensor of shape `shape`, each thread holds
    `getElemsPerThread(shape)` registers; register `r` of lane `l` of warp `w`
    holds the element at `getCoordinates(shape, r, l, w)`. Several threads may
    hold the same element (the layout covers more than the shape).
  }];
  let methods = [
    InterfaceMethod<"Number of registers each thread holds for `shape`.",
      "int64_t", "getElemsPerThread", (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<
      "Coordinates of register `reg` of lane `lane` of warp `warp`.",
      "::llvm::SmallVector<int64_t>", "getCoordinates",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "int64_t":$reg,
           "int64_t":$lane, "int64_t":$warp)>,
    InterfaceMethod<"Number of warps the layout spreads over.",
      "int64_t", "getNumWarps", (ins)>,
    InterfaceMethod<[{
      Largest number of consecutive registers that hold consecutive elements
      along dimension `dim` (the vector width available to memory accesses).
    }], "int64_t", "getContiguousRegisters",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "unsigned":$dim)>,
  ];
}

def Tile_BlockedLayoutAttr : AttrDef<Tile_Dialect, "BlockedLayout",
                                     [DeclareAttrInterfaceMethods<
                                        Tile_LayoutAttrInterface>]> {
  let mnemonic = "blocked";
  let summary = "Each thread owns blocks of contiguous elements.";
  let description = [{
    Along dimension `d`, each thread holds `sizePerThread[d]` consecutive
    elements, `threadsPerWarp[d]` lanes and `warpsPerCTA[d]` warps tile the
    dimension next to each other, and the pattern repeats until the shape is
    covered. `order` lists the dimensions fastest first: lanes and warps are
    numbered along `order[0]` first, and so are each thread's registers.

    ```mlir
    tensor<1024xf32, #tile.blocked<sizePerThread = [4], threadsPerWarp = [32],
                                   warpsPerCTA = [4], order = [0]>>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `sizePerThread` `=` `[` $sizePerThread `]` `,`
        `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
        `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
        `order` `=` `[` $order `]` `>`
  }];
  let genVerifyDecl = 1;
}

def Tile_SliceLayoutAttr : AttrDef<Tile_Dialect, "SliceLayout",
                                   [DeclareAttrInterfaceMethods<
                                      Tile_LayoutAttrInterface>]> {
  let mnemonic = "slice";
  let summary = "The layout of a parent tile with one dimension removed.";
  let description = [{
    The layout of the result of reducing dimension `dim` of a tile laid out
    as `parent`, and of the operand of expanding dimension `dim` back: a
    thread holds the elements of the parent's registers at index 0 along
    `dim`, with that coordinate dropped. Threads that differ only along `dim`
    hold the same elements.

    ```mlir
    tensor<64xf32, #tile.slice<dim = 1, parent = #blocked>>
    ```
  }];
  let parameters = (ins "unsigned":$dim,
                        "::tilec::tile::LayoutAttrInterface":$parent);
  let assemblyFormat = "`<` `dim` `=` $dim `,` `parent` `=` $parent `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The parent shape of a sliced tile of `shape`: size 1 inserted at dim.
    ::llvm::SmallVector<int64_t> getParentShape(::llvm::ArrayRef<int64_t> shape) const;
    /// The parent registers (for the parent shape) that this layout keeps, in
    /// order: register `i` of the slice is parent register `result[i]`.
    ::llvm::SmallVector<int64_t> getParentRegisters(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

def Tile_MmaLayoutAttr : AttrDef<Tile_Dialect, "MmaLayout",
                                 [DeclareAttrInterfaceMethods<
                                    Tile_LayoutAttrInterface>]> {
  let mnemonic = "mma";
  let summary = "The accumulator of tensor-core matrix products.";
  let description = [{
    The registers of the result of `mma.sync` (`versionMajor = 2`, one warp
    computes a 16x8 block per instruction) or `wgmma.mma_async`
    (`versionMajor = 3`, four consecutive warps form a warp group that
    computes a 64xN block per instruction). `instrShape` is the instruction's
    [M, N, K]. Warp `w` covers rows `16 * (w % warpsPerCTA[0])` and the
    `instrShape[1]` columns at `instrShape[1] * (w / warpsPerCTA[0])`; within
    its 16 x N piece, lane `l` holds rows `l / 4` and `l / 4 + 8` and columns
    `8 * t + 2 * (l % 4) + {0, 1}` for each 8-column group `t`, in the
    register order of the PTX fragment (t, row half, column). The pattern
    repeats along N, then along M, until the shape is covered.

    A `transposed` layout (version 3 only) holds the accumulator of the
    transposed product, `c^T += b^T a^T`: the tile's element (i, j) is where
    the layout above puts element (j, i) of the transposed tile, so M, N,
    `warpsPerCTA` and `instrShape` all speak of the transposed tile (the
    instruction's M runs along the tile's columns).

    ```mlir
    tensor<128x128xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1],
                                  instrShape = [64, 128, 16]>>
    tensor<256x128xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1],
                                  instrShape = [64, 256, 8],
                                  transposed = true>>
    ```
  }];
  let parameters = (ins "unsigned":$versionMajor,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape,
                        DefaultValuedParameter<"bool", "false">:$transposed);
  let assemblyFormat = [{
    `<` `versionMajor` `=` $versionMajor `,`
        `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
        `instrShape` `=` `[` $instrShape `]`
        (`,` `transposed` `=` $transposed^)? `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The shape of the tile the instructions compute: `shape`, swapped when
    /// the layout is transposed.
    ::llvm::SmallVector<int64_t, 2>
    getInstrOrientedShape(::llvm::ArrayRef<int64_t> shape) const;
    /// Repetitions of the warps' coverage along M and N for the
    /// instruction-oriented `shape` (getInstrOrientedShape).
    int64_t getRepetitions(::llvm::ArrayRef<int64_t> shape, unsigned dim) const;
    /// Registers of one instruction's accumulator fragment per thread.
    int64_t getFragmentRegisters() const { return getInstrShape()[1] / 2; }
    /// Whether the layout is wgmma's (version 3) or mma.sync's (version 2).
    bool isWgmma() const { return getVersionMajor() == 3; }
    bool isMmaSync() const { return getVersionMajor() == 2; }
  }];
}

def Tile_LinearLayoutAttr : AttrDef<Tile_Dialect, "LinearLayout",
                                    [DeclareAttrInterfaceMethods<
                                       Tile_LayoutAttrInterface>]> {
  let mnemonic = "linear";
  let summary = "A layout given by its bases over GF(2), for one shape.";
  let description = [{
    Every layout tilec has is linear over GF(2) on power-of-two shapes
    (TileDistribution.h): flipping bit `b` of the register (lane, warp)
    index moves the element's coordinates by a fixed basis, xor-ed in per
    dimension. This layout lists those bases directly, for tiles of one
    `shape`: `registers[b]`, `lanes[b]` (five, one per lane bit) and
    `warps[b]` are coordinates of `shape`'s rank; a zero basis holds copies.
    The passes make one where the others cannot say what they need: the
    operand of a reshape whose result lives in an mma fragment layout, say.

    ```mlir
    tensor<4x2xf32, #tile.linear<shape = [4, 2], registers = [[0, 1]],
        lanes = [[1, 0], [2, 0], [0, 0], [0, 0], [0, 0]], warps = []>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        ArrayRefParameter<"int64_t">:$registers,
                        ArrayRefParameter<"int64_t">:$lanes,
                        ArrayRefParameter<"int64_t">:$warps);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Basis `bit` of `bases` (registers, lanes or warps), a coordinate.
    ::llvm::ArrayRef<int64_t> getBasis(::llvm::ArrayRef<int64_t> bases,
                                       unsigned bit) const {
      return bases.slice(bit * getShape().size(), getShape().size());
    }
    unsigned getNumRegisterBits() const {
      return getRegisters().size() / getShape().size();
    }
    unsigned getNumWarpBits() const {
      return getWarps().size() / getShape().size();
    }
  }];
}

def Tile_SharedLayoutAttr : AttrDef<Tile_Dialect, "SharedLayout"> {
  let mnemonic = "shared";
  let summary = "A matrix in shared memory in the swizzled tensor-core layout.";
  let description = [{
    The layout of a matrix (the last two dimensions of a `!tile.smem` buffer)
    that tensor cores read through matrix descriptors. Dimension
    `contiguousDim` (0 or 1) is stored contiguously, cut into panels of
    `swizzle` bytes (32, 64 or 128) that hold those bytes of every row of the
    other dimension; within each 8-row atom the 16-byte chunk `c` of row `r`
    sits at chunk `c ^ (r % (swizzle / 16))`. Each matrix of a buffer starts
    on a 1024-byte boundary.

    ```mlir
    !tile.smem<3x128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>
    ```
  }];
  let parameters = (ins "unsigned":$contiguousDim, "unsigned":$swizzle);
  let assemblyFormat = [{
    `<` `contiguousDim` `=` $contiguousDim `,` `swizzle` `=` $swizzle `>`
  }];
  let genVerifyDecl = 1;
}

def Tile_TensorMapScalarParameter
    : AttrParameter<"::tilec::abi::TensorMapSpec::Scalar",
                    "a kernel argument (`arg(N)`) or a constant"> {
  let parser = [{ ::tilec::tile::parseTensorMapScalar($_parser) }];
  let printer = [{ ::tilec::tile::printTensorMapScalar($_printer, $_self) }];
}

def Tile_TensorMapOuterParameter
    : ArrayRefParameter<"::tilec::abi::TensorMapSpec::OuterDim",
                        "outer dimensions (extent, stride), outermost first">;

def Tile_TensorMapAttr : AttrDef<Tile_Dialect, "TensorMap"> {
  let mnemonic = "tensor_map";
  let summary = "A TMA tensor map the host builds at each launch.";
  let description = [{
    The kernel parameter `param` (after the signature's) receives the
    128-byte CUtensorMap of the row-major 2-D tensor of `element`s at kernel
    argument `base`, `shape` rows by columns, rows `row_stride` elements
    apart (each a kernel argument `arg(N)`, one times a constant
    `arg(N) * F`, or a constant), copied in boxes of `box` elements swizzled
    over `swizzle` bytes, the layout wgmma reads. With `outer`, the matrix
    is one of a batch: each outer dimension (outermost first) has an extent
    and a stride in elements, and a box holds one matrix of it.
    tile-pipeline adds one to the module's `tile.tma` per TMA copy or store;
    the driver turns each into the metadata line's `tma=` entry
    (tilec::abi::TensorMapSpec, which the runtime encodes). The box obeys
    tilec::abi::checkTensorMapBox: at most 256 x 256 elements, rows of
    exactly one 32-, 64- or 128-byte swizzle span.

    ```mlir
    #tile.tensor_map<param = 9, base = 0, element = f16,
                     shape = [arg(3), arg(5)], row_stride = arg(6),
                     box = [64, 32], swizzle = 64>
    #tile.tensor_map<param = 4, base = 1, element = f16,
                     shape = [arg(3), 64], row_stride = 64,
                     box = [64, 64], swizzle = 128,
                     outer = [(2147483647, arg(3) * 64)]>
    ```
  }];
  let parameters = (ins "unsigned":$param, "unsigned":$base,
                        "::mlir::Type":$element,
                        Tile_TensorMapScalarParameter:$rows,
                        Tile_TensorMapScalarParameter:$cols,
                        Tile_TensorMapScalarParameter:$rowStride,
                        "unsigned":$boxRows, "unsigned":$boxCols,
                        "unsigned":$swizzle,
                        Tile_TensorMapOuterParameter:$outer);
  let assemblyFormat = [{
    `<` `param` `=` $param `,` `base` `=` $base `,` `element` `=` $element `,`
        `shape` `=` `[` $rows `,` $cols `]` `,` `row_stride` `=` $rowStride `,`
        `box` `=` `[` $boxRows `,` $boxCols `]` `,` `swizzle` `=` $swizzle
        `` custom<TensorMapOuter>($outer) `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The map as the kernel ABI describes it (the metadata line's entry).
    ::tilec::abi::TensorMapSpec getSpec() const;
  }];
}

def Tile_ReduceKindAttr
    : EnumAttr<Tile_Dialect, Tile_ReduceKind, "reduce_kind">;
def Tile_InputPrecisionAttr
    : EnumAttr<Tile_Dialect, Tile_InputPrecision, "input_precision">;
def Tile_ScanKindAttr
    : EnumAttr<Tile_Dialect, Tile_ScanKind, "scan_kind">;
def Tile_AtomicKindAttr
    : EnumAttr<Tile_Dialect, Tile_AtomicKind, "atomic_kind">;
def Tile_MemSemanticAttr
    : EnumAttr<Tile_Dialect, Tile_MemSemantic, "sem">;
def Tile_MemScopeAttr
    : EnumAttr<Tile_Dialect, Tile_MemScope, "scope">;

#endif // TILEC_DIALECT_TILE_IR_TILEATTRS_TD

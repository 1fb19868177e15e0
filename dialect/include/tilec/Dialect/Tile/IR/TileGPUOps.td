//===- TileGPUOps.td - GPU-level ops of the tile dialect --*- tablegen -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The operations the passes introduce below the language level, in the
// manner of Triton's ttng dialect: shared-memory rings and their slots,
// cp.async copies, wgmma products, mbarriers and TMA copies and stores.
// Nothing the front end generates is here; every op is made by tile-pipeline
// and lowered by the TileToLLVM conversion. Included by TileOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEGPUOPS_TD
#define TILEC_DIALECT_TILE_IR_TILEGPUOPS_TD

include "tilec/Dialect/Tile/IR/TileDialect.td"
include "tilec/Dialect/Tile/IR/TileTypes.td"
include "tilec/Dialect/Tile/IR/TileAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Shared memory and asynchronous copies (GPU level, made by tile-pipeline)
//===----------------------------------------------------------------------===//

def Tile_LocalAllocOp : Tile_Op<"local_alloc", [MemoryEffects<[MemAlloc]>]> {
  let summary = "Reserves a shared-memory buffer.";
  let description = [{
    A buffer of the program's shared memory, live from here to its last use.
    `tile-allocate-shared-memory` places it: `offset` is its first byte.

    ```mlir
    %buf = tile.local_alloc {offset = 0 : i64}
        : !tile.smem<3x128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset);
  let results = (outs Tile_SmemType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SmemSlotOp : Tile_Op<"smem_slot", [Pure]> {
  let summary = "One matrix of a ring of shared-memory matrices.";
  let description = [{
    The matrix at `index` along the leading dimension of `src`.

    ```mlir
    %slot = tile.smem_slot %buf[%i]
        : !tile.smem<3x128x32xf16, #shared> -> !tile.smem<128x32xf16, #shared>
    ```
  }];
  let arguments = (ins Tile_SmemType:$src, I32:$index);
  let results = (outs Tile_SmemType:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_SmemTransOp : Tile_Op<"smem_trans", [Pure]> {
  let summary = "A shared-memory matrix seen transposed.";
  let description = [{
    The same bytes as `src` seen as its transpose: the shape swapped and
    the contiguous dimension the other one (what `tl.trans` of a tile
    loaded into a ring slot gives a product reading it).

    ```mlir
    %t = tile.smem_trans %slot
        : !tile.smem<64x128xf16, #tile.shared<contiguousDim = 1, swizzle = 128>>
        -> !tile.smem<128x64xf16, #tile.shared<contiguousDim = 0, swizzle = 128>>
    ```
  }];
  let arguments = (ins Tile_SmemType:$src);
  let results = (outs Tile_SmemType:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_AsyncCopyOp : Tile_Op<"async_copy", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Starts copying a tile from global into shared memory.";
  let description = [{
    Each thread starts copying the elements its registers of `ptr` address
    into their places in the matrix `dst` (PTX `cp.async`, up to 16 bytes at
    a time); elements where `mask` is false are filled with zeros without
    reading memory. The copies complete asynchronously: they belong to the
    group the next `tile.async_commit_group` closes, and are visible to the
    program after a `tile.async_wait` that covers that group.

    ```mlir
    tile.async_copy %ptrs, %slot, %mask
        : tensor<128x32x!tile.ptr<f16>, #blocked>, !tile.smem<128x32xf16, #shared>, tensor<128x32xi1, #blocked>
    ```
  }];
  let arguments = (ins RankedTensorOf<[Tile_PtrType]>:$ptr, Tile_SmemType:$dst,
                   Optional<RankedTensorOf<[I1]>>:$mask);
  let assemblyFormat = [{
    $ptr `,` $dst (`,` $mask^)? attr-dict `:` type($ptr) `,` type($dst)
    (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

def Tile_LocalStoreOp : Tile_Op<"local_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Stores a register tile into a shared-memory matrix.";
  let description = [{
    Each thread writes the elements its registers of `value` hold into their
    places in the matrix `dst`, packing up to 16 bytes of consecutive
    elements along the matrix's contiguous dimension into one store. The
    writes are visible to the program after the next barrier (and to wgmma
    after a `fence.proxy.async` before it, which `tile.async_wait` emits).

    ```mlir
    tile.local_store %b, %slot
        : tensor<32x128xf32, #blocked>, !tile.smem<32x128xf32, #shared>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnyType]>:$value, Tile_SmemType:$dst);
  let assemblyFormat = [{
    $value `,` $dst attr-dict `:` type($value) `,` type($dst)
  }];
  let hasVerifier = 1;
}

def Tile_AsyncCommitGroupOp : Tile_Op<"async_commit_group", [
    MemoryEffects<[MemWrite]>]> {
  let summary = "Closes the group of the copies started so far.";
  let description = [{
    The `tile.async_copy` operations this thread started since the previous
    commit form one group, which `tile.async_wait` counts.

    ```mlir
    tile.async_commit_group
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_AsyncWaitOp : Tile_Op<"async_wait", [MemoryEffects<[MemRead,
                                                            MemWrite]>]> {
  let summary = "Waits for copy groups and makes their data visible.";
  let description = [{
    Waits until at most `pending` of the groups this thread committed are
    still in flight, then makes every thread's completed copies visible to
    the whole program, tensor-core reads included (a proxy fence and a
    barrier): after it, the matrices of the older groups can be read. With
    `noProxyFence`, only the barrier: enough for wgmma to read what
    cp.async wrote (as Triton and CUTLASS rely on), not for what threads
    stored (`tile.local_store`).

    ```mlir
    tile.async_wait {pending = 1 : i32}
    tile.async_wait {noProxyFence, pending = 1 : i32}
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>]>:$pending,
                   UnitAttr:$noProxyFence);
  let assemblyFormat = "attr-dict";
}

def Tile_WarpGroupDotOp : Tile_Op<"warp_group_dot", [
    MemoryEffects<[MemRead]>, AllTypesMatch<["c", "result"]>]> {
  let summary = "a @ b + c on Hopper tensor cores, b in shared memory.";
  let description = [{
    `tile.dot` for `wgmma.mma_async`, reading `a` [M, K] and `b` [K, N]
    directly from shared memory, or `a` from registers; `c` and the result
    are in a `#tile.mma<versionMajor = 3>` layout. `a` must be stored with K
    contiguous, or be a 16-bit tile in registers whose threads hold the
    fragments the instructions read (`getWgmmaRegisterFragments`: the
    layout of an accumulator of the same rows, as attention's `p`); `b`
    with K contiguous, or N: with 16-bit elements, or with
    32-bit ones into a transposed accumulator (the instructions compute
    c^T += b^T a^T, taking b^T from registers). With
    `isAsync`, the product is left in flight: its registers may only feed
    the accumulator of further products until a `tile.warp_group_dot_wait`
    has waited for it. `unsignedOperands` reads 8-bit integer operands as
    unsigned (`.u8`), as on `tile.dot`. With `useC` false the product
    ignores `c` (computes a @ b: wgmma's scale-d), without reading or
    resetting its registers, which may still be in flight (a persistent
    loop's first K step of a tile).

    ```mlir
    %d = tile.warp_group_dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>}
        : !tile.smem<128x32xf16, #sa>, !tile.smem<32x128xf16, #sb> -> tensor<128x128xf32, #mma>
    %e = tile.warp_group_dot %a, %b, %c use_c %first_done {isAsync, inputPrecision = #tile<input_precision tf32>}
        : !tile.smem<128x32xf16, #sa>, !tile.smem<32x128xf16, #sb> -> tensor<128x128xf32, #mma>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Tile_SmemType, Tile_Tensor]>:$a,
                   Tile_SmemType:$b, Tile_Tensor:$c, Optional<I1>:$useC,
                   Tile_InputPrecisionAttr:$inputPrecision, UnitAttr:$isAsync,
                   UnitAttr:$unsignedOperands);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`use_c` $useC^)? attr-dict `:` type($a) `,` type($b)
    `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_WarpGroupDotWaitOp : Tile_Op<"warp_group_dot_wait", [
    MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["input", "result"]>]> {
  let summary = "Waits until at most `pending` products are in flight.";
  let description = [{
    Waits until at most `pending` of the asynchronous `tile.warp_group_dot`
    products this warp group started are still running, and returns
    `input` (the accumulator of the latest one): with `pending = 0` its
    values are final; with `pending = 1` only the product before it is
    complete, and the result may only feed the next product's accumulator.

    ```mlir
    %r = tile.warp_group_dot_wait %d {pending = 0 : i32} : tensor<128x128xf32, #mma>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input,
                   ConfinedAttr<I32Attr, [IntMinValue<0>]>:$pending);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TMA (GPU level, made by tile-pipeline)
//===----------------------------------------------------------------------===//

def Tile_BarrierAllocOp : Tile_Op<"barrier_alloc", [MemoryEffects<[MemAlloc,
                                                                   MemWrite]>]> {
  let summary = "Reserves and initializes `count` mbarriers in shared memory.";
  let description = [{
    `count` 8-byte mbarriers, each expecting `arrivals` arrivals per phase
    (1 by default), at `offset` (placed by tile-allocate-shared-memory);
    initialized by one thread and made visible to the whole program (and to
    TMA) before any thread goes on.

    ```mlir
    %bars = tile.barrier_alloc {offset = 98304 : i64} : !tile.barriers<4>
    %full = tile.barrier_alloc {arrivals = 256 : i32} : !tile.barriers<3>
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset,
                   DefaultValuedAttr<ConfinedAttr<I32Attr, [IntMinValue<1>]>,
                                     "1">:$arrivals);
  let results = (outs Tile_BarriersType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tile_BarrierInvalidateOp : Tile_Op<"barrier_invalidate", [
    MemoryEffects<[MemWrite]>]> {
  let summary = "Ends the life of mbarriers.";
  let description = [{
    After every thread is done with them, one thread invalidates the
    mbarriers (`mbarrier.inval`), so that their bytes may be used for other
    data.

    ```mlir
    tile.barrier_invalidate %bars : !tile.barriers<4>
    ```
  }];
  let arguments = (ins Tile_BarriersType:$barriers);
  let assemblyFormat = "$barriers attr-dict `:` type($barriers)";
}

def Tile_CtaBarrierOp : Tile_Op<"cta_barrier", [MemoryEffects<[MemRead,
                                                               MemWrite]>]> {
  let summary = "Every thread of the program waits for the others.";
  let description = [{
    `bar.sync`: after it, every thread has finished what it did before,
    tensor-core reads of shared memory included when those were waited for.
    With `asyncProxy`, a `fence.proxy.async` comes first: the threads'
    stores into shared memory before it (`tile.local_store`) are then
    visible to the tensor cores (`tile.warp_group_dot`) after it.

    ```mlir
    tile.cta_barrier
    tile.cta_barrier {asyncProxy}
    ```
  }];
  let arguments = (ins UnitAttr:$asyncProxy);
  let assemblyFormat = "attr-dict";
}

def Tile_AsyncTmaStoreOp : Tile_Op<"async_tma_store", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Stores a tile into a tensor with TMA.";
  let description = [{
    Writes `value` (a 2-D tile) to the block of the tensor `map` describes
    at `coords` (outermost dimension first: those outside the matrix, if
    any, then its row and column), skipping elements outside the
    tensor: the threads stage the tile in the op's shared-memory scratch
    (swizzled, one TMA box per panel), then one thread issues the bulk
    tensor stores and waits until they have read the scratch.

    ```mlir
    tile.async_tma_store %map[%m, %n], %c : !tile.tensormap, tensor<128x128xf16, #mma>
    ```
  }];
  let arguments = (ins Tile_TensorMapType:$map, Variadic<I32>:$coords,
                   Tile_Tensor:$value);
  let assemblyFormat = [{
    $map `[` $coords `]` `,` $value attr-dict `:` type($map) `,` type($value)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The swizzle (bytes) of the staged tile: its rows' bytes, at most 128.
    int64_t getSwizzleBytes();
  }];
}

def Tile_BarrierExpectOp : Tile_Op<"barrier_expect", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Arms an mbarrier's phase for `bytes` of TMA copies.";
  let description = [{
    Where `pred` holds, one thread arrives on mbarrier `index` of
    `barriers`, telling it that the phase completes when `bytes` bytes of
    TMA copies have landed (`mbarrier.arrive.expect_tx`).

    ```mlir
    tile.barrier_expect %bars[%i], %valid {bytes = 32768 : i32} : !tile.barriers<4>
    ```
  }];
  let arguments = (ins Tile_BarriersType:$barriers, I32:$index, I1:$pred,
                   ConfinedAttr<I32Attr, [IntMinValue<1>]>:$bytes);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` $pred attr-dict `:` type($barriers)
  }];
}

def Tile_AsyncTmaCopyOp : Tile_Op<"async_tma_copy", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Starts TMA copies of a block of a tensor into shared memory.";
  let description = [{
    Where `pred` holds, one thread starts copying the block of the tensor
    `map` describes at `coords` (outermost dimension first: those outside
    the matrix, if any, then its row and column) into the matrix
    `dst`, one TMA box per `swizzle`-byte panel of `dst`'s contiguous
    dimension; completion is counted on mbarrier `index` of `barriers`.
    Elements outside the tensor land as zeros.

    ```mlir
    tile.async_tma_copy %map[%m, %k], %slot, %bars[%i], %valid
        : !tile.tensormap, !tile.smem<128x64xf16, #shared>, !tile.barriers<4>
    ```
  }];
  let arguments = (ins Tile_TensorMapType:$map, Variadic<I32>:$coords,
                   Tile_SmemType:$dst, Tile_BarriersType:$barriers,
                   I32:$index, I1:$pred);
  let assemblyFormat = [{
    $map `[` $coords `]` `,` $dst `,` $barriers `[` $index `]` `,` $pred
    attr-dict `:` type($map) `,` type($dst) `,` type($barriers)
  }];
  let hasVerifier = 1;
}

def Tile_AsyncCopyArriveOp : Tile_Op<"async_copy_arrive", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Counts a thread's copies on an mbarrier.";
  let description = [{
    Once every `tile.async_copy` the thread has started has landed, the
    thread arrives on mbarrier `index` of `barriers`
    (`cp.async.mbarrier.arrive.noinc`): a barrier on which every thread of
    the program counts its copies this way expects one arrival a thread.

    ```mlir
    tile.async_copy_arrive %full[%slot] : !tile.barriers<3>
    ```
  }];
  let arguments = (ins Tile_BarriersType:$barriers, I32:$index);
  let assemblyFormat = [{
    $barriers `[` $index `]` attr-dict `:` type($barriers)
  }];
}

def Tile_BarrierArriveOp : Tile_Op<"barrier_arrive", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Each warp arrives once on an mbarrier.";
  let description = [{
    When all its threads have got here, one thread of each warp arrives on
    mbarrier `index` of `barriers` (`mbarrier.arrive`, release): a barrier
    every warp of the program arrives on this way expects one arrival a
    warp. What the warps did before (products waited for included) happens
    before what a thread that waits for the phase does after.

    ```mlir
    tile.barrier_arrive %empty[%slot] : !tile.barriers<3>
    ```
  }];
  let arguments = (ins Tile_BarriersType:$barriers, I32:$index);
  let assemblyFormat = [{
    $barriers `[` $index `]` attr-dict `:` type($barriers)
  }];
}

def Tile_StartTurnsOp : Tile_Op<"start_turns", [MemoryEffects<[MemRead,
                                                            MemWrite]>]> {
  let summary = "Gives warp group 0 the first turn.";
  let description = [{
    The warp groups of a program take turns between `tile.await_turn` and
    `tile.pass_turn`, in a cycle: warp group k waits on named barrier k + 1
    (`bar.sync k + 1, 256`), then passes the turn to warp group k + 1 mod
    the number of warp groups (`bar.arrive` on its barrier). This op, before
    the first turn, passes it from the last warp group to warp group 0.
    Tensor cores run a program's products in the order they were issued, so
    one warp group computes while the next one's products run
    (FlashAttention-3's ping-pong). Every warp group takes the same number
    of turns, and `tile.end_turns` after the last one takes back the turn
    the last warp group passed, so that the named barriers are balanced for
    turns taken later; without a second warp group these ops do nothing.

    ```mlir
    tile.start_turns
    scf.for ... {
      tile.await_turn
      %s = tile.warp_group_dot %q, %k, %zero {isAsync} : ...
      tile.pass_turn
      ...
    }
    tile.end_turns
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_EndTurnsOp : Tile_Op<"end_turns", [MemoryEffects<[MemRead,
                                                        MemWrite]>]> {
  let summary = "Takes back the last turn (see tile.start_turns).";
  let assemblyFormat = "attr-dict";
}

def Tile_AwaitTurnOp : Tile_Op<"await_turn", [MemoryEffects<[MemRead,
                                                          MemWrite]>]> {
  let summary = "Waits for this warp group's turn (see tile.start_turns).";
  let assemblyFormat = "attr-dict";
}

def Tile_PassTurnOp : Tile_Op<"pass_turn", [MemoryEffects<[MemRead,
                                                        MemWrite]>]> {
  let summary = "Passes the turn to the next warp group (see "
                "tile.start_turns).";
  let assemblyFormat = "attr-dict";
}

def Tile_BarrierWaitOp : Tile_Op<"barrier_wait", [MemoryEffects<[MemRead,
                                                                MemWrite]>]> {
  let summary = "Waits until an mbarrier completes the phase of `parity`.";
  let description = [{
    Every thread waits until mbarrier `index` of `barriers` has completed
    its phase of parity `parity` (0 or 1): the TMA copies counted on it
    have landed and can be read.

    ```mlir
    tile.barrier_wait %bars[%i], %phase : !tile.barriers<4>
    ```
  }];
  let arguments = (ins Tile_BarriersType:$barriers, I32:$index, I32:$parity);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` $parity attr-dict `:` type($barriers)
  }];
}

#endif // TILEC_DIALECT_TILE_IR_TILEGPUOPS_TD

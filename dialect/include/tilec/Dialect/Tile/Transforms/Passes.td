//===- Passes.td - Passes over the tile dialect ------------*- tablegen -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileSplitBatch : Pass<"tile-split-batch", "::mlir::ModuleOp"> {
  let summary = "Computes batched (3-D) dots as one matrix product per batch "
                "index.";
  let description = [{
    A batched `tile.dot` ([B, M, K] @ [B, K, N] + [B, M, N]) becomes B
    matrix products, and the computation around it is split the same way:
    every 3-D value is carried as its B slices along the leading dimension
    (one value when all slices are the same: a splat, a broadcast along the
    batch). Elementwise ops, `tile.load`/`tile.store`, splats, constants,
    broadcasts, `tile.expand_dims`, `tile.reduce` along another dimension
    and `scf.for` loop-carried values (3-D ones, and those whose leading
    dimension is the batch of a batched dot in the loop, such as an
    attention's row maxima) are taken slice by slice, so a K loop
    loads, multiplies and accumulates B independent matrix tiles, each of
    which later passes lay out and pipeline like any other; the values the
    batch is indexed by (`offs_b[:, None, None]`) are split down to
    per-index scalars where they are computed from `tl.arange`. Where an op
    cannot be split, its operand is stacked back from the slices by
    selection, and slices of a value nothing splits are picked out of it by
    masked sums, both exact for every element type. Afterwards no 3-D dot
    remains.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileSetTarget : Pass<"tile-set-target", "::mlir::ModuleOp"> {
  let summary = "Records the GPU architecture the module is compiled for.";
  let description = [{
    Sets the module's `tile.target` to `arch` (TargetInfo.h lists the
    supported names; another name is an error). Every later pass asks the
    target what it offers: which engine `tile.dot` runs on, whether loads
    become TMA copies, how much shared memory a program may use. A module
    without `tile.target` is compiled for tilec's default target, sm_90a.

    ```mlir
    module attributes {tile.target = "sm_90a"} { ... }
    ```
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"sm_90a\"",
           "The architecture (one TargetInfo::getSupported lists)">,
  ];
}

def TileAssignLayouts : Pass<"tile-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "Gives every tile in the module a layout.";
  let description = [{
    Moves the module from the layout-free level to the GPU level: every
    ranked tensor type of every value gets a layout spread over `num-warps`
    warps, and `tile.convert_layout` is inserted wherever an operand must be
    in another layout than the one it was produced in.

    - The default layout of a shape is a `#tile.blocked` layout in which each
      thread owns up to 16 bytes of consecutive elements along the last
      dimension (sized for the narrowest element the module loads or
      stores), and lanes then warps tile that dimension first, so that
      consecutive lanes touch consecutive addresses.
    - A `tile.reduce` result takes `#tile.slice<axis, operand layout>`, a
      scan result and a `tile.load`/`tile.atomic_rmw` result the layout of
      their operand, a `tile.dot` result the layout of its accumulator
      (when neither rule below gives it one).
    - An elementwise op (arith, math, `tile.addptr`, `arith.select`) takes
      the layout of its first operand whose layout is not its shape's
      default (a reduction result, say), or else the default; its other
      operands are converted. `tile.store` and `tile.atomic_rmw` take the
      layout of their value when it is not the default, else that of their
      pointers, and convert the other operands.
    - A `tile.dot` that tensor cores can compute (TensorCores.h: from
      `compute-capability`, the warp count, element types and shapes; 0
      means no tensor cores) gets a `#tile.mma` result and accumulator
      (transposed for tf32 with N a multiple of 64); any other dot with at
      least as many elements as threads gets the FMA path's blocked layout
      (TM x TN elements per thread in 16-byte blocks, lanes along N). An
      `scf.for` value that such a dot yields is carried in that layout.
    - `tile.expand_dims` converts its operand to the slice of its result's
      layout and `tile.broadcast` to its result's layout.
    - `scf.for`/`scf.while` region arguments and results take the layouts
      of their initial values and `scf.if` results those of the `then`
      branch; `scf.yield` operands are converted to match.

    The module records the warp count in `tile.num_warps`. Conversions are
    inserted liberally: `tile-remove-layout-conversions` cleans them up.

    Before:
    ```mlir
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %e = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    ```
    After (`num-warps=4`):
    ```mlir
    %r = tile.make_range {end = 64 : i32, start = 0 : i32}
        : tensor<64xi32, #blocked>
    %c = tile.convert_layout %r
        : tensor<64xi32, #blocked> -> tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %e = tile.expand_dims %c {axis = 1 : i32}
        : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
    ```
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Number of warps each program runs with">,
  ];
}

def TileGroupPrograms : Pass<"tile-group-programs", "::mlir::ModuleOp"> {
  let summary = "Runs the programs of 2-D matmul grids in L2-friendly groups.";
  let description = [{
    The GPU starts programs in launch order, axis 0 fastest: with
    `pid_m = tl.program_id(0)` and `pid_n = tl.program_id(1)`, the programs
    running at once share a few columns of B but read all of A. In each
    function that holds a `tile.dot` and reads program ids along axes 0 and
    1 (not 2), this pass gives the program at launch position
    `l = x + y * gx` (grid `gx x gy`) the ids of position `l` in an order
    that walks groups of `group-size` values of axis 0 across all of axis 1,
    axis 0 fastest within a group (the last group may be smaller):

    ```
    group = group-size * gy;  first = l / group * group-size
    rows = min(gx - first, group-size)
    id(0) = first + l % group % rows;  id(1) = l % group / rows
    ```

    That is a permutation of the grid's (x, y) pairs: every program still
    runs exactly once, only the order changes (which programs ever made no
    promise about), so programs running together share tiles of both A and
    B in L2. `group-size` 0 or 1 leaves the functions unchanged.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"groupSize", "group-size", "unsigned", /*default=*/"8",
           "Values of axis 0 per group (0 or 1: launch order)">,
  ];
}

def TileDescribePointerBlocks
    : Pass<"tile-describe-pointer-blocks", "::mlir::ModuleOp"> {
  let summary = "Describes the pointer loads and stores of matmuls as tensor "
                "blocks.";
  let description = [{
    For each 2-D `tile.load` in an `scf.for` whose only use is operand a or
    b of a `tile.dot` there (b also through a 2-D `tile.trans`: `q @ k.T`;
    the loop may hold several products), reads its pointer tile as
    `base + index_0[i] * stride_0 + index_1[j] * stride_1`, either computed
    in the body or carried by the loop and advanced by a uniform offset that
    is a constant multiple of one stride each iteration, where each index is
    `start + arange(n)` (linear forms over scalars and the induction
    variable), possibly wrapped as `(start + arange(n)) % extent`. When every
    dimension has an extent, the load gets the description of that block
    of the 2-D tensor (`descriptor base[offsets] shape(extents)
    strides(...)`, with `descUnchecked`: tile-pipeline may then copy it with
    TMA where the hints prove the alignment). A dimension's extent is:

    - the bound of the load's mask along it (`start + i < bound`, the only
      conjunct on that dimension): TMA fills exactly the masked-off elements
      with zeros;
    - or the modulus of a wrapped index with no offset added after it and no
      mask, when the wrapped dimension is the product's (rows of a, columns
      of b) and every store the loop's accumulator reaches (through
      elementwise ops) masks off `start + i >= extent` along it. TMA reads
      zeros there instead of the rows `% extent`, and those only reach
      elements no store writes;
    - or, unmasked and unwrapped at a constant start c (`tl.arange(0,
      HEAD_DIM)`), `c + n`: the tensor ends right after the elements read.

    A uniform offset that is a multiple of neither stride (attention's
    `off_hz * N_CTX * HEAD_DIM`) moves the tensor's start: the descriptor's
    base is the pointer plus that offset (`tile.addptr`), which
    tile-pipeline's `batched-tma` may read as an outer dimension.

    This is the matmul tutorial's pointer kernel:

    ```python
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        ...
        a_ptrs += BLOCK_K
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    ```

    gives a's load `descriptor %a_ptr[pid_m * 128, k * 64] shape(M, K)
    strides(stride_am, 1)`.

    A 2-D `tile.store` outside loops of a product (a `tile.dot`, or a loop's
    accumulator of one, through elementwise ops) whose mask bounds both
    dimensions gets the description of the block it writes the same way
    (TMA skips exactly the masked-off elements): the tutorial's `c_mask =
    (offs_cm[:, None] < M) & (offs_cn[None, :] < N)` store becomes
    `descriptor %c_ptr[pid_m * 128, pid_n * 256] shape(M, N)
    strides(stride_cm, 1)`. Other loads and stores are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileFlattenLoops : Pass<"tile-flatten-loops", "::mlir::ModuleOp"> {
  let summary = "Runs a persistent kernel's tiles and their K steps as one "
                "loop.";
  let description = [{
    An `scf.for` over tiles marked `tile.flatten` (`tl.range(...,
    flatten=True)`; a persistent kernel's two loops measured faster on the
    descriptor matmul, so nothing else is flattened), whose body is ops
    without side effects computing the tile's place, one
    `scf.for` over K steps with a `tile.dot`, bounds from outside and
    accumulators starting from constants or values from outside, then the
    epilogue, becomes one loop over every K step of every tile: the tile
    and the step within it are carried, the accumulators restart on a
    tile's first step (`select(kk == 0, init, acc)`, a product's scale-d on
    wgmma), and the epilogue runs in an `scf.if` after a tile's last step.
    tile-pipeline then copies ahead across tiles, while an epilogue runs. A
    run-time guard runs, for an empty K range, the tiles' epilogues on the
    initial accumulators instead.

    Before:
    ```mlir
    scf.for %t = %pid to %tiles step %c132 {
      %m = arith.muli %t, %c128 : i32
      %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %zero) {
        ... tile.dot ...
      }
      tile.store ... %acc
    }
    ```
    After:
    ```mlir
    scf.if %has_k {
      scf.for %j = %c0 to %total step %c1
          iter_args(%t = %pid, %kk = %c0, %a = %zero) {
        %m = arith.muli %t, %c128 : i32
        %in = arith.select (splat (%kk == 0)), %zero, %a
        ... tile.dot ... (%k = %kk)
        scf.if %kk + 1 == %nk { tile.store ... }
        scf.yield (next tile or %t), (0 or %kk + 1), ...
      }
    } else {
      scf.for %t = %pid to %tiles step %c132 { tile.store ... %zero }
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileSplitBoundsChecks
    : Pass<"tile-split-bounds-checks", "::mlir::ModuleOp"> {
  let summary = "Splits a loop over blocks where its bounds checks stop "
                "holding for whole blocks.";
  let description = [{
    An `scf.for` of integer induction variable `iv` with a constant positive
    step whose body holds a `tile.dot` is split where the comparisons
    between a block of `iv` and a block that does not change in the loop
    stop holding for every element. A block is a sum of at most one splat
    scalar, `tile.make_range`s and constants, through `tile.expand_dims`,
    `tile.broadcast` and `arith.extsi`: its elements lie in `[base + lo,
    base + hi]`. `cols < bound` (`slt`, or `sgt` the other way round, and
    `sle`/`sge`) with `cols` based on `iv` holds for the whole block while
    `iv <= bound.base + bound.lo - cols.hi (- 1 when strict)`; `last` is the
    smallest of these. `bound < cols` holds from `iv >= bound.base +
    bound.hi - cols.lo (+ 1 when strict)` on; `first` is the largest of
    these (a comparison whose bound is at most the lower bound always
    holds; the others count when one of them decides values). The loop
    runs as up to three: from the lower bound to `start = min(lb +
    ceil(max(first - lb, 0) / step) * step, max(ub, lb))` as it is, from
    `start` to `end = max(min(lb + max((last + step - lb) / step, 0) *
    step, max(ub, lb)), start)` (no `min` when a comparison stops a step
    before `ub`) with every such comparison a constant true (canonicalize
    then folds the masks and selects it fed), then from `end` to `ub` as
    it is, each loop carrying on from the one before.

    Attention's loop `for start_n in range(0, N_CTX, BLOCK_N)` that masks
    its keys with `start_n + tl.arange(0, BLOCK_N) < N_CTX` so computes its
    scores unmasked but in its last, partial block; a causal loop written in
    one piece masks only the blocks the diagonal crosses, one with a sliding
    window (`keys + W > rows`) the blocks its edge crosses too. Left alone: loops
    without products (a layer norm's passes over a row lost 3%), loops that
    yield two products or more (attention's dK/dV loop: 126 -> 186
    registers, 40% slower), loops whose comparisons only mask memory
    operations (a matmul's K loop: its copies' prologue doubled, 245 -> 255
    registers and spills), and loops where a comparison fails on the first
    iteration (bounds compared up to ops that compute the same value).

    Before:
    ```mlir
    scf.for %i = %lb to %ub step %c64 iter_args(%acc = %a0) {
      %cols = arith.addi (splat %i), (make_range 0..64)
      %m = arith.cmpi slt, %cols, (splat %ub)
      ... %m ... arith.select ... tile.dot ...
    }
    ```
    After (`last = ub - 64`):
    ```mlir
    %full = %lb + max((%ub - %lb) / 64, 0) * 64
    %r = scf.for %i = %lb to %full step %c64 iter_args(%acc = %a0) {
      ... dense<true> ... tile.dot ...
    }
    scf.for %i = %full to %ub step %c64 iter_args(%acc = %r) {
      ... %m = arith.cmpi slt, %cols, (splat %ub) ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileSplitTf32x3 : Pass<"tile-split-tf32x3", "::mlir::ModuleOp"> {
  let summary = "Computes tf32x3 dots as three tf32 dots on hi/lo splits.";
  let description = [{
    For each fp32 `tile.dot` with `input_precision = tf32x3` that will run on
    tensor cores (the same choice tile-assign-layouts makes for a tf32 dot
    with these options), splits each operand into its tf32 part `hi` (low
    13 mantissa bits cleared) and the exact rest `lo`, and accumulates
    `lo(a) @ hi(b)`, `hi(a) @ lo(b)` and `hi(a) @ hi(b)`, in that order, as
    tf32 dots: about fp32 accuracy at three times the tensor-core work.
    Other dots are left alone (the FMA path computes tf32x3 exactly).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Number of warps each program runs with">,
  ];
}

def TilePrefetchLoads : Pass<"tile-prefetch-loads", "::mlir::ModuleOp"> {
  let summary = "Issues the loads of a matmul loop one iteration ahead.";
  let description = [{
    In each `scf.for` whose body holds a `tile.dot`, every tile load whose
    pointers and mask (and the loop values they come from) are computed by
    pure operations from the loop's arguments is issued for iteration
    `i + 1` at the top of iteration `i` (and for the first iteration before
    the loop); the loop carries the loaded tile. Loads of iterations past
    the upper bound are masked off. Global-memory latency then overlaps the
    product of the previous tile. A load the body issues before a product
    and first reads after it stays in its iteration (that product hides its
    latency; carried, it would hold a second copy in registers), and so
    does a load whose tile would not fit in a thread's registers: the
    loop's carried tiles (accumulators; pointer tiles at a 64-bit address
    per run of consecutive addresses a thread holds) and the tiles
    prefetched before it take at most
    three quarters of them (an element narrower than 32 bits accessed
    alone counts a register). A load of
    elements narrower than 32 bits
    whose tile the body last uses before any product (converted or decoded
    first) is issued right after that last use instead of at the top.

    Before:
    ```mlir
    scf.for %i = %lb to %ub step %s iter_args(%p = %p0) {
      %x = tile.load %p : ...
      ... %x ...
      %q = tile.addptr %p, %d
      scf.yield %q
    }
    ```
    After (schematically):
    ```mlir
    %x0 = tile.load %p0, splat(%lb < %ub)
    scf.for %i = %lb to %ub step %s iter_args(%p = %p0, %x = %x0) {
      %q1 = tile.addptr %p, %d
      %x1 = tile.load %q1, splat(%i + %s < %ub)
      ... %x ...
      scf.yield %q, %x1
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileUnrollLoops : Pass<"tile-unroll-loops", "::mlir::ModuleOp"> {
  let summary = "Unrolls streaming loops so that several iterations' loads "
                "are in flight at once.";
  let description = [{
    Unrolls two kinds of `scf.for` (with an epilogue loop for the
    iterations that do not fill a group, the upper bound known or not):

    - a loop `tl.range(..., loop_unroll_factor=N)` made, which carries
      `tile.loop_unroll_factor = N`, by N (1: never unrolled);
    - a *streaming* loop: innermost, no `tile.dot`, nothing in it writes
      memory, and its body loads tiles, fewer than `max-bytes` bytes a
      thread in an iteration (the layouts give each thread's share). Its
      factor is the largest power of two up to `max-factor` whose loads stay
      within `max-bytes` a thread, and up to its iteration count when that is
      known. The passes over a row of a layer norm or of a cross entropy are
      such loops: one load of a few bytes a thread per iteration, the loop
      latency bound.

    In a loop that writes no memory, the loads of the unrolled body (with
    the pure address and mask computations they need) then move to its top,
    in order, so that all of them are issued before the first result is
    used, even across the barriers of a reduction. Each unrolled iteration
    computes what the original one computed, in the same order: results
    are bit-identical.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"maxFactor", "max-factor", "unsigned", /*default=*/"8",
           "Largest factor a streaming loop is unrolled by">,
    Option<"maxBytes", "max-bytes", "unsigned", /*default=*/"256",
           "Bytes a thread may load in one unrolled streaming iteration">,
  ];
}

def TileRereadFootprint : Pass<"tile-reread-footprint", "::mlir::ModuleOp"> {
  let summary = "Records how many bytes each program reads more than once, "
                "for the runtime's choice of programs per SM.";
  let description = [{
    A kernel that reads the same data in several loops (a layer norm's mean,
    variance and normalizing passes over a row) reads it from DRAM once and
    then from L2, if it is still there: with every SM full of programs, the
    rows in flight can outgrow L2 and send the later passes to DRAM again.
    Whether they do depends on the row length, a run-time argument, so the
    choice is the runtime's; this pass gives it the footprint.

    For a kernel without products in which loads in two loops or more take
    their pointers from the same kernel argument (each load counted for the
    innermost loop around it), the loop's bytes per iteration (elements of
    those loads times their size) times its trip count is recorded as the
    module attribute `tile.reread = array<i64: ARG, BYTES, STEP>`: BYTES
    for every STEP of integer argument ARG when the loop runs from 0 to that
    argument by the constant STEP, or `array<i64: -1, BYTES, 1>` when its
    trip count is a constant. Loops of other shapes record nothing. The
    driver writes it into the kernel's metadata line (`reread=`).

    Before:
    ```mlir
    func.func @k(%x: !tile.ptr<f16>, %n: i32) {
      scf.for %i = %c0 to %n step %c1024 : i32 {  // mean
        %v = tile.load %p : tensor<1024x!tile.ptr<f16>> ...
      }
      scf.for %i = %c0 to %n step %c1024 : i32 {  // variance
        %v = tile.load %p : tensor<1024x!tile.ptr<f16>> ...
      }
    }
    ```
    After: the module has `tile.reread = array<i64: 1, 2048, 1024>`.
  }];
}

def TilePipeline : Pass<"tile-pipeline", "::mlir::ModuleOp"> {
  let summary = "Stages the operands of wgmma loops through a ring of "
                "shared-memory slots filled by asynchronous copies.";
  let description = [{
    For each `scf.for` whose body holds one `tile.dot` computed on wgmma
    (a `#tile.mma` version 3 result) whose operands are tiles the body loads
    for it alone (zero padding, addresses and masks computed by pure ops
    from the loop's values), and whose loads AxisInfo shows can move in
    copies of 4 to 16 bytes into the swizzled layout wgmma reads: each
    operand gets a `tile.local_alloc` ring of `num-stages` slots; the loads
    become `tile.async_copy` issued `num-stages - 1` iterations ahead (the
    first ones before the loop, masked off past the last iteration); each
    iteration waits for its stage (`tile.async_wait`) and multiplies with
    `tile.warp_group_dot` straight from its slots. A second `tile.async_wait`
    after the loop drains the copies. Loops that do not qualify are left
    alone (tile-prefetch-loads then handles them).

    With `tma`, loads of 2-D tensor descriptors (and of block pointers
    checking every dimension, where the hints prove the alignment) become
    TMA copies completed on mbarriers instead, and from
    `compute-capability=90`, stores of them anywhere in the kernel become
    `tile.async_tma_store`; each such access adds a `!tile.tensormap`
    parameter described in the module's `tile.tma`.

    Before (schematically):
    ```mlir
    scf.for %i = %lb to %ub step %s iter_args(%acc = %c, %pa = %a0, %pb = %b0) {
      %a = tile.load %pa : ...
      %b = tile.load %pb : ...
      %d = tile.dot %a, %b, %acc : ...
      scf.yield %d, next(%pa), next(%pb)
    }
    ```
    After (`num-stages=3`):
    ```mlir
    %ra = tile.local_alloc : !tile.smem<3x128x32xf16, #shared>
    tile.async_copy %a0, slot 0 of %ra ... ; tile.async_commit_group
    tile.async_copy next(%a0), slot 1 of %ra ... ; tile.async_commit_group
    scf.for %i ... iter_args(..., %qa = next(next(%a0)), ..., %read = 0, %write = 2) {
      tile.async_wait {pending = 1 : i32}
      tile.async_copy %qa, slot %write of %ra, mask(%i + 2 * %s < %ub) ...
      tile.async_commit_group
      %d = tile.warp_group_dot slot %read of %ra, slot %read of %rb, %acc
      scf.yield ..., next(%qa), ..., (%read + 1) % 3, (%write + 1) % 3
    }
    tile.async_wait {pending = 0 : i32}
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"numStages", "num-stages", "int64_t", /*default=*/"3",
           "Slots of each ring (stages in flight plus the one being "
           "multiplied); below 2, no loop is pipelined">,
    Option<"tma", "tma", "bool", /*default=*/"true",
           "Copy loads of 2-D tensor descriptors with TMA (the host then "
           "passes tensor maps, tile.tma)">,
    Option<"deferProducts", "defer-products", "bool", /*default=*/"true",
           "In a loop of two products whose last only accumulates into what "
           "the loop carries (attention's p @ v) on one program an SM, issue "
           "that product one iteration late, after the next first product, "
           "so that it runs during the body's computation (false: in its "
           "own iteration)">,
    Option<"pingPong", "ping-pong", "bool", /*default=*/"false",
           "With a deferred product: guard the ring's slots with mbarriers "
           "instead of a CTA barrier an iteration, and let the warp groups "
           "take turns issuing their products (tile.await_turn), so that one "
           "warp group's softmax runs during the next one's products (with "
           "TMA rings, the TMA barriers are the full ones; experimental: "
           "measured slower or even)">,
    Option<"batchedTma", "batched-tma", "bool", /*default=*/"true",
           "With tma: also describe a base that is an argument moved by "
           "per-program offsets as outer dimensions of its tensor map">,
    Option<"multiProductTma", "multi-product-tma", "bool",
           /*default=*/"false",
           "With tma: fill the rings of loops of several products with TMA "
           "when every loaded operand is a descriptor load (experimental: "
           "measured slower at HEAD_DIM 128)">,
    Option<"warnUnused", "warn-unused", "bool", /*default=*/"false",
           "Warn once, at the kernel, when num-stages asks for pipelining "
           "and no loop of the kernel is pipelined (tilec --num-stages)">,
  ];
}

def TileCoalesce : Pass<"tile-coalesce", "::mlir::ModuleOp"> {
  let summary = "Lays out each global access along its contiguous dimension.";
  let description = [{
    For every `tile.load` and `tile.store` of a tile of rank 2 or more,
    AxisInfo finds the dimension along which consecutive elements have
    consecutive addresses. When that is not the fastest dimension of the
    access's layout (a matrix read through its transpose's strides, say),
    and AxisInfo proves that at least two consecutive elements may form one
    vector there, the access moves to a blocked layout whose lanes run along
    that dimension, each thread holding one such vector: its pointers, mask
    and `other` are converted
    to the new layout and a loaded value is converted back.
    tile-remove-layout-conversions then recomputes the pointer arithmetic in
    the new layout where that is cheaper than converting.

    A store of any rank whose layout gives a thread more consecutive
    elements along its contiguous dimension than one 16-byte vector (fp32
    values in the layout of fp16 loads) moves the same way to a layout of one
    16-byte vector a thread, so that each of a warp's store instructions
    writes consecutive addresses without gaps, when its value (which then
    crosses shared memory whole) is at most 32 KB. Loads keep such layouts
    (their second vector comes from L1).

    Before (`b` has unit stride along dimension 0):
    ```mlir
    %v = tile.load %b : (tensor<32x64x!tile.ptr<f16>, #row_major>) -> tensor<32x64xf16, #row_major>
    ```
    After:
    ```mlir
    %p = tile.convert_layout %b : ... -> tensor<32x64x!tile.ptr<f16>, #column_major>
    %l = tile.load %p : ... -> tensor<32x64xf16, #column_major>
    %v = tile.convert_layout %l : ... -> tensor<32x64xf16, #row_major>
    ```
  }];
}

def TileRemoveLayoutConversions
    : Pass<"tile-remove-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "Removes layout conversions that cheap recomputation or "
                "re-typing makes unnecessary.";
  let description = [{
    Repeats, until nothing changes, three rewrites of `tile.convert_layout`
    and one of `tile.reshape`:

    - folding: a conversion to the operand's own layout disappears, a
      conversion of a conversion converts the original value once, also
      through a `tile.expand_dims` between them (the outer conversion moves
      above it, into the slice of its layout);
    - rematerialisation: when the converted value is computed only from
      `tile.make_range`, `tile.splat`, splat constants, elementwise ops,
      `tile.expand_dims` and `tile.broadcast` (at most 16 ops), those ops
      are cloned to produce the value directly in the wanted layout;
    - loop re-typing: when an `scf.for` yields `convert_layout(x)` for a
      loop-carried value, the value is carried in `x`'s layout instead, and
      conversions are placed at the loop's entry and uses, where the first
      two rewrites usually remove them;
    - reshape operands: a `tile.reshape` that splits one dimension of its
      result and would go through shared memory gets its operand recomputed
      in the result's layout split in two (checked to keep every element in
      its thread), when that moves at most one conversion on the way.

    Dead ops left behind are erased.

    Before:
    ```mlir
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %c = tile.convert_layout %r : tensor<64xi32, #blocked> -> tensor<64xi32, #slice>
    ```
    After:
    ```mlir
    %c = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #slice>
    ```
  }];
}

def TileAllocateSharedMemory
    : Pass<"tile-allocate-shared-memory", "::mlir::ModuleOp"> {
  let summary = "Computes the shared memory the program needs and records it "
                "on the module.";
  let description = [{
    Sizes the scratch buffer of every op that exchanges data between
    threads: layout conversions and shape ops that threads cannot do from
    their own registers (the operand's elements, row-major), reductions and
    scans along an axis spread over several warps, dots on the FMA path (both
    operands), and atomics whose old values must be broadcast to threads
    holding copies. Each use is bracketed by barriers (`barrier; write;
    barrier; read`) and starts at offset 0, so the buffers of different ops
    may overlap and the program needs the largest of them: that number of
    bytes is recorded as the module attribute `tile.shared` (i32; absent when
    the program needs none), which the lowering checks and the driver passes
    to the runtime. Programs needing
    more than the 227 KB an H200 thread block can have are rejected.

    Before:
    ```mlir
    module attributes {tile.num_warps = 4 : i32} { ... }
    ```
    After:
    ```mlir
    module attributes {tile.num_warps = 4 : i32, tile.shared = 4096 : i32} { ... }
    ```
  }];
}

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD

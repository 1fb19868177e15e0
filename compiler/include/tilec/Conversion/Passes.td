//===- Passes.td - Conversion passes of tilec --------------*- tablegen -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_PASSES_TD
#define TILEC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToLLVM : Pass<"convert-tile-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lowers laid-out tile programs to the LLVM and NVVM dialects.";
  let description = [{
    Every tile whose type carries a layout becomes an LLVM struct holding the
    elements the running thread owns under that layout; `scf` is lowered to
    `cf` first, so loop-carried tiles become block arguments of those struct
    types. Elementwise `arith` and `math` operations are applied register by
    register (math without libdevice: `ex2.approx`, `lg2.approx`,
    `rsqrt.approx`, `sin/cos.approx`, `sqrt.rn`); `tile.load` and
    `tile.store` become predicated `ld.global`/`st.global` instructions, as
    wide as the AxisInfo analysis proves the accesses contiguous and aligned
    (up to 16 bytes), with i1 tiles stored as bytes; program ids read
    `%ctaid`. Reductions combine within threads, across lanes with
    `shfl.sync.bfly` and across warps through shared memory; scans use a
    butterfly over the same three levels; `tile.dot` runs on the FMA path
    with its operands staged in shared memory; layout conversions and shape
    ops pick registers when each thread holds what it needs and go through
    shared memory otherwise; atomics are predicated `atom.global`. Shared
    memory is the external array `global_smem`, sized by the module's
    `tile.shared` (see tile-allocate-shared-memory), and every use of it is
    bracketed by `nvvm.barrier0`. Every function becomes an `nvvm.kernel`
    with `num_warps * 32` threads (the module's `tile.num_warps`).

    Before:
    ```mlir
    %pid = tile.program_id 0 : i32
    ```
    After:
    ```mlir
    %pid = nvvm.read.ptx.sreg.ctaid.x : i32
    ```

    Before (a 1-D sum over one warp, 4 registers per thread):
    ```mlir
    %s = tile.reduce %x {axis = 0 : i32, kind = #tile<reduce_kind sum>}
        : tensor<128xf32, #blocked> -> f32
    ```
    After (in part):
    ```mlir
    %a = llvm.fadd %r0, %r1 : f32
    ...
    %o = nvvm.shfl.sync bfly %all, %c, %one, %clamp : f32 -> f32
    %s = llvm.fadd %c, %o : f32
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

#endif // TILEC_CONVERSION_PASSES_TD

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
    elements the running thread owns under that layout. Elementwise `arith`
    and `math` operations are applied register by register; `tile.load` and
    `tile.store` become predicated `ld.global`/`st.global` instructions, as
    wide as the AxisInfo analysis proves the accesses contiguous and aligned
    (up to 16 bytes); program ids read `%ctaid`. Every function becomes an
    `nvvm.kernel` with `num_warps * 32` threads (the module's
    `tile.num_warps`).

    Before:
    ```mlir
    %pid = tile.program_id 0 : i32
    ```
    After:
    ```mlir
    %pid = nvvm.read.ptx.sreg.ctaid.x : i32
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // TILEC_CONVERSION_PASSES_TD

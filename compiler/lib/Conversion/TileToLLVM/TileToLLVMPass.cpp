//===- TileToLLVMPass.cpp - The convert-tile-to-llvm pass -------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Drives the lowering of a laid-out tile module to the LLVM and NVVM
// dialects: checks that every layout is one the patterns understand and
// spans the module's warps, picks the vector width of every memory access
// with AxisInfo, declares the shared-memory array when the module reserves
// any, lowers `scf` to `cf` (so that loop-carried tiles become block
// arguments, which the type converter turns into structs), runs one full
// conversion with the tile patterns and the upstream arith, control-flow and
// func patterns, and finally marks the functions as kernels with their
// thread count.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Tile/Analysis/AxisInfo.h"
#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/DTypes.h"
#include "tilec/Dialect/Tile/IR/TargetInfo.h"
#include "tilec/Dialect/Tile/IR/TileDistribution.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tilec {
#define GEN_PASS_DEF_CONVERTTILETOLLVM
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// Largest number of bytes one thread moves in one access.
constexpr int64_t kMaxAccessBytes = 16;

/// The dimension along which `layout` gives each thread its longest runs of
/// consecutive elements in consecutive registers (the last one on a tie).
static unsigned getRegisterRunDim(LayoutAttrInterface layout,
                                  ArrayRef<int64_t> shape) {
  unsigned dim = shape.size() - 1;
  for (unsigned d = 0; d < shape.size(); ++d)
    if (layout.getContiguousRegisters(shape, d) >
        layout.getContiguousRegisters(shape, dim))
      dim = d;
  return dim;
}

/// The length of the runs of consecutive registers in which the result of
/// `op`, an elementwise op on an integer tile, is provably equal (1 when
/// nothing is known): AxisInfo's constancy along the dimension the
/// registers run, capped by the run.
static int64_t getConstantRun(AxisInfoAnalysis &axisInfo, Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
      !(op->hasTrait<OpTrait::Elementwise>() || isa<arith::SelectOp>(op)) ||
      isa<TileDialect>(op->getDialect()))
    return 1;
  auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  LayoutAttrInterface layout = tensor ? getLayout(tensor) : nullptr;
  if (!layout || !tensor.getElementType().isIntOrIndex())
    return 1;
  unsigned dim = getRegisterRunDim(layout, tensor.getShape());
  return std::min(axisInfo.get(op->getResult(0)).constancy[dim],
                  layout.getContiguousRegisters(tensor.getShape(), dim));
}

/// Chooses the vector width of each load and store from the layout of its
/// pointer tile and what AxisInfo proves about its addresses and mask, and
/// finds the elementwise integer ops whose registers repeat in runs.
static VectorWidths chooseVectorWidths(ModuleOp module, ConstantRuns &runs) {
  VectorWidths widths;
  module.walk([&](func::FuncOp func) {
    AxisInfoAnalysis axisInfo;
    func.walk([&](Operation *op) {
      if (int64_t run = getConstantRun(axisInfo, op); run > 1)
        runs[op] = run;
      if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
        // Copies run along the dimension their buffer stores contiguously.
        auto tensor = cast<RankedTensorType>(copy.getPtr().getType());
        unsigned dim = copy.getDst().getType().getLayout().getContiguousDim();
        int64_t bytes =
            getStorageBytes(copy.getDst().getType().getElementType());
        int64_t maxElems = std::min(
            kMaxAccessBytes / bytes,
            getLayout(tensor).getContiguousRegisters(tensor.getShape(), dim));
        widths[op] = axisInfo.getVectorWidth(copy.getPtr(), copy.getMask(), dim,
                                             maxElems);
        return;
      }
      if (!isa<LoadOp, StoreOp>(op))
        return;
      Value ptr = op->getOperand(0);
      Value mask = isa<LoadOp>(op) ? cast<LoadOp>(op).getMask()
                                   : cast<StoreOp>(op).getMask();
      auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
      LayoutAttrInterface layout = getLayout(ptr.getType());
      if (!tensor || !layout)
        return;
      Type pointee = cast<PtrType>(tensor.getElementType()).getPointeeType();
      int64_t bytes = getStorageBytes(pointee);
      // Vectors run along the dimension in which the layout gives each
      // thread consecutive elements (the last one unless tile-coalesce chose
      // another).
      unsigned dim = getRegisterRunDim(layout, tensor.getShape());
      int64_t maxElems =
          std::min(kMaxAccessBytes / bytes,
                   layout.getContiguousRegisters(tensor.getShape(), dim));
      widths[op] = axisInfo.getVectorWidth(ptr, mask, dim, maxElems);
    });
  });
  return widths;
}

/// Checks that every laid-out tile has a layout the lowering understands
/// (linear, covering its power-of-two shape) over `numWarps` warps, and
/// that constant tiles are splats.
static LogicalResult verifyLayouts(ModuleOp module, int64_t numWarps) {
  DenseSet<Type> checked;
  WalkResult result = module.walk([&](Operation *op) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (getLayout(constant.getType()) &&
          !isa<SplatElementsAttr>(constant.getValue())) {
        op->emitOpError("non-splat constant tiles are not supported");
        return WalkResult::interrupt();
      }
    SmallVector<Type> types(op->getResultTypes());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::append_range(types, block.getArgumentTypes());
    for (Type type : types) {
      LayoutAttrInterface layout = getLayout(type);
      if (!layout || !checked.insert(type).second)
        continue;
      if (!TileDistribution::get(type)) {
        op->emitOpError("has a tile whose layout cannot be lowered: ") << type;
        return WalkResult::interrupt();
      }
      if (layout.getNumWarps() != numWarps) {
        op->emitOpError("has a tile laid out over ")
            << layout.getNumWarps() << " warps in a module of " << numWarps
            << ": " << type;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Checks that each tl.inline_asm_elementwise and tl.map_elementwise packs
/// a whole number of groups into the elements every thread holds.
static LogicalResult verifyPacking(ModuleOp module) {
  WalkResult result = module.walk([&](Operation *op) {
    int64_t pack;
    llvm::StringRef name;
    if (auto inlineAsm = dyn_cast<InlineAsmOp>(op)) {
      pack = inlineAsm.getPacked();
      name = "tl.inline_asm_elementwise";
    } else if (auto map = dyn_cast<MapElementwiseOp>(op)) {
      pack = map.getPack();
      name = "tl.map_elementwise";
    } else {
      return WalkResult::advance();
    }
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    std::optional<TileDistribution> dist =
        type ? TileDistribution::get(type) : std::nullopt;
    if (!dist || dist->getNumRegisters() % pack == 0)
      return WalkResult::advance();
    op->emitError(name) << " packs " << pack
                        << " elements, but each thread holds "
                        << dist->getNumRegisters() << " of its "
                        << type.getNumElements()
                        << " (pack must divide that: use a smaller pack, a "
                           "larger tile or fewer warps)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// Checks what the lowering and the target can do with fp8 values: convert
/// them (on targets with fp8 instructions), load, store and move them, and
/// multiply them in tl.dot; arithmetic on them is an error at the op.
static LogicalResult verifyFp8Uses(ModuleOp module) {
  TargetInfo target = TargetInfo::get(module);
  WalkResult result = module.walk([&](Operation *op) {
    Type fp8;
    for (Type t :
         llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
      if (isSupportedFp8Type(getElementTypeOrSelf(t)))
        fp8 = getElementTypeOrSelf(t);
    if (!fp8)
      return WalkResult::advance();
    bool converts = isa<arith::ExtFOp, arith::TruncFOp, DotOp>(op);
    if (converts && !target.hasFp8Conversions()) {
      op->emitError("converting ")
          << getTypeName(fp8) << " values needs the fp8 instructions of "
          << "sm_89 and later; " << target.getName() << " has none";
      return WalkResult::interrupt();
    }
    bool arithmetic =
        !converts && !isa<arith::BitcastOp>(op) &&
        (op->hasTrait<OpTrait::Elementwise>() || isa<arith::SelectOp>(op)) &&
        (!isa<TileDialect>(op->getDialect()) || isa<ExternElementwiseOp>(op));
    if (arithmetic) {
      op->emitError("arithmetic on ")
          << getTypeName(fp8) << " is not supported on the GPU: convert to "
          << "tl.float16 or tl.float32 first (x.to(tl.float32))";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The most elements of one tile a thread may hold: 512, twice the
/// registers it has (softmax rows of 256x1024 fp32 over 4 warps, 2048 a
/// thread, kept ptxas busy for minutes on its spills; 512 take seconds).
constexpr int64_t kMaxTileElementsPerThread = 512;

/// The most instructions per thread tilec unrolls a kernel into, by
/// checkCodeSize's estimate: past it, LLVM and ptxas take minutes (the
/// math examples at 512 elements per thread: 2.5 and 0.8 million, ptxas
/// past two minutes; fp32 at 32 elements: 160000, 10 s in all).
constexpr int64_t kMaxUnrolledInstructions = 250000;

/// Estimates the instructions each thread of `module`'s kernel executes in
/// straight-line code (every op once, loops once): its share of every
/// tile an op computes, times about 100 for a libdevice call (every fp64
/// math function is one), 10 for other math functions and the reduction
/// dimension for a product off the tensor cores; fails with an error at the
/// kernel when the estimate passes kMaxUnrolledInstructions, and at the op
/// when one of its tiles gives a thread more than kMaxTileElementsPerThread
/// elements.
static LogicalResult checkCodeSize(ModuleOp module, int64_t numWarps) {
  int64_t threads = 32 * numWarps, total = 0;
  int64_t largest = 0;
  Operation *largestOp = nullptr;
  RankedTensorType largestType;
  module.walk([&](Operation *op) {
    int64_t perThread = 0;
    for (Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type)) {
        int64_t share = llvm::divideCeil(tensor.getNumElements(), threads);
        perThread = std::max(perThread, share);
        if (share > largest) {
          largest = share;
          largestOp = op;
          largestType = tensor;
        }
      }
    int64_t weight = 1;
    bool math = op->getDialect() && op->getDialect()->getNamespace() == "math";
    bool f64 = op->getNumResults() == 1 &&
               getElementTypeOrSelf(op->getResult(0).getType()).isF64();
    if (isa<ExternElementwiseOp>(op) || (math && f64))
      weight = 100; // a libdevice function
    else if (math)
      weight = 10;
    else if (auto dot = dyn_cast<DotOp>(op)) {
      auto mma = dyn_cast_or_null<MmaLayoutAttr>(dot.getType().getEncoding());
      int64_t k = cast<RankedTensorType>(dot.getA().getType()).getDimSize(1);
      weight = mma ? std::max<int64_t>(1, k / 16) : k;
    }
    total += perThread * weight;
  });
  if (largest > kMaxTileElementsPerThread) {
    std::string shape;
    for (int64_t d : largestType.getShape())
      shape += (shape.empty() ? "" : ", ") + std::to_string(d);
    return largestOp->emitError("a tile of ")
           << getTypeName(largestType.getElementType()) << " [" << shape
           << "] gives each of the " << threads << " threads " << largest
           << " elements, more than the " << kMaxTileElementsPerThread
           << " tilec compiles: use smaller blocks or more warps";
  }
  if (total <= kMaxUnrolledInstructions)
    return success();
  func::FuncOp kernel;
  module.walk([&](func::FuncOp func) { kernel = func; });
  Operation *at = kernel ? kernel.getOperation() : module.getOperation();
  return at->emitError("kernel '")
         << (kernel ? kernel.getSymName() : StringRef("?"))
         << "' would unroll to about " << total
         << " instructions per thread (each of its " << threads
         << " threads holds up to " << largest
         << " elements of a tile), more than the " << kMaxUnrolledInstructions
         << " tilec compiles: use smaller blocks or more warps";
}

/// Declares the shared-memory array at the top of `module`:
/// `.extern .shared .align 1024 .b8 global_smem[];` (1024 bytes: the swizzle
/// atoms of tensor-core operands start there). An external zero-size
/// array is the one form NVPTX never turns into a static allocation that
/// the dynamic buffer could overlap (compiler-design.md, pitfall 7).
static void declareSharedMemory(ModuleOp module) {
  OpBuilder b(module.getBodyRegion());
  MLIRContext *ctx = module.getContext();
  LLVM::GlobalOp::create(b, module.getLoc(),
                         LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 0),
                         /*isConstant=*/false, LLVM::Linkage::External,
                         kSharedMemorySymbol, /*value=*/Attribute(),
                         /*alignment=*/1024, /*addrSpace=*/3);
}

/// Lowers structured control flow to blocks and branches.
static LogicalResult lowerControlFlow(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  RewritePatternSet patterns(ctx);
  populateSCFToControlFlowConversionPatterns(patterns);
  ConversionTarget target(*ctx);
  target.addIllegalOp<scf::ForallOp, scf::ForOp, scf::IfOp, scf::IndexSwitchOp,
                      scf::ParallelOp, scf::WhileOp, scf::ExecuteRegionOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  return applyPartialConversion(module, target, std::move(patterns));
}

struct ConvertTileToLLVMPass
    : public tilec::impl::ConvertTileToLLVMBase<ConvertTileToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    std::optional<int64_t> numWarps = getNumWarps(module);
    if (!numWarps) {
      module.emitError("module has no 'tile.num_warps': run "
                       "tile-assign-layouts first");
      return signalPassFailure();
    }

    if (failed(verifyLayouts(module, *numWarps)) ||
        failed(verifyFp8Uses(module)) || failed(verifyPacking(module)) ||
        failed(checkCodeSize(module, *numWarps)))
      return signalPassFailure();

    ConstantRuns runs;
    VectorWidths widths = chooseVectorWidths(module, runs);
    // The user's axis hints have served AxisInfo: the LLVM ops the
    // lowering makes must not carry them.
    module.walk([](Operation *op) { removeAxisHints(op); });
    // The parameters receiving TMA tensor maps, by kernel.
    llvm::StringMap<SmallVector<unsigned>> tensorMapParams;
    module.walk([&](func::FuncOp func) {
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isa<TensorMapType>(type))
          tensorMapParams[func.getSymName()].push_back(i);
    });
    if (getSharedMemoryBytes(module) > 0)
      declareSharedMemory(module);
    if (failed(lowerControlFlow(module)))
      return signalPassFailure();

    TileTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    populateElementwiseOpToLLVMPatterns(converter, patterns, runs);
    populateLoadStoreOpToLLVMPatterns(converter, patterns, widths);
    populateAsyncCopyOpToLLVMPatterns(converter, patterns, widths);
    populateTmaOpToLLVMPatterns(converter, patterns);
    populateProgramIdOpToLLVMPatterns(converter, patterns);
    populateDataMovementOpToLLVMPatterns(converter, patterns);
    populateReduceOpToLLVMPatterns(converter, patterns);
    populateScanOpToLLVMPatterns(converter, patterns);
    populateDotOpToLLVMPatterns(converter, patterns);
    populateWgmmaDotOpToLLVMPatterns(converter, patterns);
    populateMmaSyncDotOpToLLVMPatterns(converter, patterns);
    populateAtomicOpToLLVMPatterns(converter, patterns);
    populateHistogramOpToLLVMPatterns(converter, patterns);
    populateMathOpToLLVMPatterns(converter, patterns);
    populateFp8OpToLLVMPatterns(converter, patterns);
    populateDebugOpToLLVMPatterns(converter, patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);

    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addLegalOp<ModuleOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    int32_t threads = *numWarps * 32;
    module.walk([&](LLVM::LLVMFuncOp func) {
      // Declarations (libdevice's functions, vprintf) are not kernels.
      if (func.isExternal())
        return;
      func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                    UnitAttr::get(ctx));
      func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                    DenseI32ArrayAttr::get(ctx, {threads, 1, 1}));
      if (std::optional<int64_t> programs = getProgramsPerSM(func)) {
        removeProgramsPerSM(func);
        func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                      IntegerAttr::get(IntegerType::get(ctx, 32), *programs));
      }
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        removeDivisibility(func, i);
      // A tensor map is a 128-byte, 64-byte aligned __grid_constant__
      // parameter, passed by value.
      for (unsigned i : tensorMapParams.lookup(func.getSymName())) {
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(LLVM::LLVMArrayType::get(
                            IntegerType::get(ctx, 8), 128)));
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        IntegerAttr::get(IntegerType::get(ctx, 64), 64));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        UnitAttr::get(ctx));
      }
    });
  }
};

} // namespace

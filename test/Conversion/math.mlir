// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// Math on tiles is applied per register, as Triton lowers it: exp is ex2
// (llvm.exp2 becomes ex2.approx.f32) of x * log2(e), exp2 is
// ex2.approx.ftz.f32 (Triton's tl.exp2); log, log2, sin, cos call
// libdevice, declared in the module.
#d = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK-DAG: llvm.func @__nv_logf(f32) -> f32
  // CHECK-DAG: llvm.func @__nv_log2f(f32) -> f32
  // CHECK-DAG: llvm.func @__nv_sinf(f32) -> f32
  // CHECK-DAG: llvm.func @__nv_cosf(f32) -> f32
  // CHECK-DAG: llvm.func @__nv_tanhf(f32) -> f32
  // CHECK-LABEL: llvm.func @transcendental
  // CHECK: %[[LOG2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
  // CHECK: %[[T:.*]] = llvm.fmul %{{.*}}, %[[LOG2E]] : f32
  // CHECK: llvm.intr.exp2(%[[T]]) : (f32) -> f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%{{.*}}) : (f32) -> f32
  // CHECK: llvm.call @__nv_logf(%{{.*}}) : (f32) -> f32
  // CHECK: llvm.call @__nv_log2f(%{{.*}}) : (f32) -> f32
  // CHECK: llvm.intr.sqrt(%{{.*}}) : (f32) -> f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"
  // CHECK: llvm.call @__nv_sinf
  // CHECK: llvm.call @__nv_cosf
  // CHECK: llvm.call @__nv_tanhf
  // CHECK: llvm.intr.floor
  // CHECK: llvm.intr.ceil
  // CHECK: llvm.intr.fabs
  // CHECK: llvm.intr.fma
  func.func @transcendental(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<32x!tile.ptr<f32>, #d>
    %x = tile.load %ps : (tensor<32x!tile.ptr<f32>, #d>) -> tensor<32xf32, #d>
    %a = math.exp %x : tensor<32xf32, #d>
    %b = math.exp2 %a : tensor<32xf32, #d>
    %c = math.log %b : tensor<32xf32, #d>
    %d = math.log2 %c : tensor<32xf32, #d>
    %e = math.sqrt %d : tensor<32xf32, #d>
    %f = math.rsqrt %e : tensor<32xf32, #d>
    %g = math.sin %f : tensor<32xf32, #d>
    %h0 = math.cos %g : tensor<32xf32, #d>
    %h = math.tanh %h0 : tensor<32xf32, #d>
    %i = math.floor %h : tensor<32xf32, #d>
    %j = math.ceil %i : tensor<32xf32, #d>
    %k = math.absf %j : tensor<32xf32, #d>
    %l = math.fma %k, %k, %x : tensor<32xf32, #d>
    tile.store %ps, %l : tensor<32x!tile.ptr<f32>, #d>, tensor<32xf32, #d>
    return
  }
}

// -----

// f16 and bf16 are computed in f32; erf is libdevice's, pow is expanded; f64
// has sqrt as an instruction and exp from libdevice.
#d = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @narrow_and_wide
  // CHECK: %[[X:.*]] = llvm.fpext %{{.*}} : f16 to f32
  // CHECK: llvm.intr.exp2
  // CHECK: llvm.fptrunc %{{.*}} : f32 to f16
  // CHECK: llvm.fpext %{{.*}} : bf16 to f32
  // CHECK: llvm.call @__nv_logf
  // CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
  // CHECK: llvm.call @__nv_erff
  // CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
  // CHECK: llvm.intr.exp2
  // CHECK: %[[SQ:.*]] = llvm.intr.sqrt(%{{.*}}) : (f64) -> f64
  // CHECK: llvm.call @__nv_exp(%[[SQ]]) : (f64) -> f64
  func.func @narrow_and_wide(%p: !tile.ptr<f16>, %q: !tile.ptr<bf16>, %r: !tile.ptr<f32>, %s: !tile.ptr<f64>) {
    %ps = tile.splat %p : tensor<32x!tile.ptr<f16>, #d>
    %x = tile.load %ps : (tensor<32x!tile.ptr<f16>, #d>) -> tensor<32xf16, #d>
    %e = math.exp %x : tensor<32xf16, #d>
    tile.store %ps, %e : tensor<32x!tile.ptr<f16>, #d>, tensor<32xf16, #d>
    %qs = tile.splat %q : tensor<32x!tile.ptr<bf16>, #d>
    %y = tile.load %qs : (tensor<32x!tile.ptr<bf16>, #d>) -> tensor<32xbf16, #d>
    %l = math.log %y : tensor<32xbf16, #d>
    tile.store %qs, %l : tensor<32x!tile.ptr<bf16>, #d>, tensor<32xbf16, #d>
    %rs = tile.splat %r : tensor<32x!tile.ptr<f32>, #d>
    %z = tile.load %rs : (tensor<32x!tile.ptr<f32>, #d>) -> tensor<32xf32, #d>
    %er = math.erf %z : tensor<32xf32, #d>
    %pw = math.powf %er, %z : tensor<32xf32, #d>
    tile.store %rs, %pw : tensor<32x!tile.ptr<f32>, #d>, tensor<32xf32, #d>
    %ss = tile.splat %s : tensor<32x!tile.ptr<f64>, #d>
    %w = tile.load %ss : (tensor<32x!tile.ptr<f64>, #d>) -> tensor<32xf64, #d>
    %sq = math.sqrt %w : tensor<32xf64, #d>
    %ex = math.exp %sq : tensor<32xf64, #d>
    tile.store %ss, %ex : tensor<32x!tile.ptr<f64>, #d>, tensor<32xf64, #d>
    return
  }
}

// -----

// Scalar math works the same way. A square root marked afn (tl.sqrt,
// Triton's fast one) is sqrt.approx.ftz on fp32 (on fp16 through fp32) and
// sqrt.rn on fp64; unmarked (tl.sqrt_rn) it is sqrt.rn.
module attributes {tile.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @scalar
  // CHECK: llvm.intr.sqrt(%{{.*}}) : (f32) -> f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"
  // CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.approx.ftz.f"(%{{.*}}) : (f32) -> f32
  // CHECK: llvm.fpext %{{.*}} : f16 to f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.approx.ftz.f"(%{{.*}}) : (f32) -> f32
  // CHECK: llvm.fptrunc %{{.*}} : f32 to f16
  // CHECK: llvm.intr.sqrt(%{{.*}}) : (f64) -> f64
  func.func @scalar(%p: !tile.ptr<f32>, %v: f32, %h: f16, %d: f64, %ph: !tile.ptr<f16>, %pd: !tile.ptr<f64>) {
    %s = math.sqrt %v : f32
    %r = math.rsqrt %s : f32
    tile.store %p, %r : !tile.ptr<f32>, f32
    %a = math.sqrt %v fastmath<afn> : f32
    tile.store %p, %a : !tile.ptr<f32>, f32
    %ah = math.sqrt %h fastmath<afn> : f16
    tile.store %ph, %ah : !tile.ptr<f16>, f16
    %ad = math.sqrt %d fastmath<afn> : f64
    tile.store %pd, %ad : !tile.ptr<f64>, f64
    return
  }
}

// -----

// tile.extern_elementwise calls its libdevice function per register, except
// the high halves of products, which are NVVM intrinsics.
#d = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK: llvm.func @__nv_atan2f(f32, f32) -> f32
  // CHECK-NOT: __nv_umulhi
  // CHECK-LABEL: llvm.func @extern
  // CHECK-COUNT-2: llvm.call @__nv_atan2f(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
  // CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.mulhi.ui"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
  func.func @extern(%p: !tile.ptr<f32>, %q: !tile.ptr<i32>) {
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d>
    %x = tile.load %ps : (tensor<64x!tile.ptr<f32>, #d>) -> tensor<64xf32, #d>
    %a = tile.extern_elementwise "__nv_atan2f"(%x, %x) : (tensor<64xf32, #d>, tensor<64xf32, #d>) -> tensor<64xf32, #d>
    tile.store %ps, %a : tensor<64x!tile.ptr<f32>, #d>, tensor<64xf32, #d>
    %qs = tile.splat %q : tensor<64x!tile.ptr<i32>, #d>
    %y = tile.load %qs : (tensor<64x!tile.ptr<i32>, #d>) -> tensor<64xi32, #d>
    %h = tile.extern_elementwise "__nv_umulhi"(%y, %y) : (tensor<64xi32, #d>, tensor<64xi32, #d>) -> tensor<64xi32, #d>
    tile.store %qs, %h : tensor<64x!tile.ptr<i32>, #d>, tensor<64xi32, #d>
    return
  }
}

// -----

// Division: `/` (arith.divf marked afn) is div.full.f32, 16-bit floats
// through f32; unmarked divisions (tl.div_rn) and f64 are correctly
// rounded fdiv.
#d = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @divide
  // CHECK: llvm.call_intrinsic "llvm.nvvm.div.full"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
  // CHECK: llvm.fdiv %{{.*}}, %{{.*}} : f32
  // CHECK: %[[XH:.*]] = llvm.fpext %{{.*}} : f16 to f32
  // CHECK: %[[YH:.*]] = llvm.fpext %{{.*}} : f16 to f32
  // CHECK: %[[QH:.*]] = llvm.call_intrinsic "llvm.nvvm.div.full"(%[[XH]], %[[YH]])
  // CHECK: llvm.fptrunc %[[QH]] : f32 to f16
  // CHECK: llvm.fdiv %{{.*}}, %{{.*}} : f64
  func.func @divide(%x: tensor<32xf32, #d>, %y: tensor<32xf32, #d>,
                    %xh: tensor<32xf16, #d>, %yh: tensor<32xf16, #d>,
                    %xd: tensor<32xf64, #d>, %yd: tensor<32xf64, #d>)
      -> (tensor<32xf32, #d>, tensor<32xf32, #d>, tensor<32xf16, #d>, tensor<32xf64, #d>) {
    %a = arith.divf %x, %y fastmath<afn> : tensor<32xf32, #d>
    %b = arith.divf %x, %y : tensor<32xf32, #d>
    %c = arith.divf %xh, %yh fastmath<afn> : tensor<32xf16, #d>
    %e = arith.divf %xd, %yd fastmath<afn> : tensor<32xf64, #d>
    return %a, %b, %c, %e : tensor<32xf32, #d>, tensor<32xf32, #d>, tensor<32xf16, #d>, tensor<32xf64, #d>
  }
}

/*===- tilec-c/Runtime.h - The runtime's C interface ----------------*- C
 *-*-===//
 *
 * Part of tilec, a Triton-style tile-language compiler.
 *
 *===----------------------------------------------------------------------===//
 *
 * A C interface over tilec::rt (tilec/Runtime/Runtime.h) for hosts that are
 * not C++: C programs, and Python through ctypes (bench/tilec_runtime.py
 * launches tilec's kernels on torch tensors so that one
 * triton.testing.do_bench times tilec, Triton and torch alike). It is built
 * as the shared library libtilec-runtime-c.so, which needs only the C++
 * standard library; the CUDA driver is opened at run time as the C++
 * runtime does.
 *
 * Every function that can fail returns a TilecStatus; on failure
 * tilecLastError() holds the message (per thread, until the next failing
 * call). Objects are opaque handles released by their Destroy function; a
 * kernel must not outlive its module, nor a module its context. Device
 * addresses are plain 64-bit integers (a torch tensor's data_ptr()).
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILEC_C_RUNTIME_H
#define TILEC_C_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TILEC_C_API __attribute__((visibility("default")))
#else
#define TILEC_C_API
#endif

/* The version of this interface; it changes when a declaration does. */
#define TILEC_C_API_VERSION 2

typedef enum TilecStatus {
  TILEC_SUCCESS = 0,
  /* No CUDA driver or no device: a caller may skip rather than fail. */
  TILEC_NO_DEVICE = 1,
  /* Anything else; tilecLastError() says what. */
  TILEC_ERROR = 2,
} TilecStatus;

typedef struct TilecContext TilecContext;
typedef struct TilecModule TilecModule;
typedef struct TilecKernel TilecKernel;

/* What a launch argument holds. */
typedef enum TilecArgKind {
  TILEC_ARG_POINTER = 0,    /* Bits: a device address. */
  TILEC_ARG_INT = 1,        /* Bits: a signed integer (two's complement). */
  TILEC_ARG_FLOAT32 = 2,    /* Real, rounded to fp32 (and to fp16/bf16). */
  TILEC_ARG_FLOAT64 = 3,    /* Real. */
  TILEC_ARG_DESCRIPTOR = 4, /* A tensor and a block shape (below). */
} TilecArgKind;

#define TILEC_MAX_RANK 5

/* One launch argument. A descriptor is Triton's
 * TensorDescriptor.from_tensor: the tensor at Bits, of element type DType
 * ("fp16", "bf16", "fp32", ... as signatures spell them), Rank dimensions
 * of Shape and Strides (in elements) and the Block shape the kernel's
 * `tensordesc<T[B...]>` parameter reads; it launches as the address, the
 * extents and all strides but the last. */
typedef struct TilecArg {
  int32_t Kind; /* A TilecArgKind. */
  uint64_t Bits;
  double Real;
  const char *DType;
  int32_t Rank;
  int64_t Shape[TILEC_MAX_RANK];
  int64_t Strides[TILEC_MAX_RANK];
  int64_t Block[TILEC_MAX_RANK];
} TilecArg;

/* The message of the calling thread's last failure ("" when none). */
TILEC_C_API const char *tilecLastError(void);
/* TILEC_C_API_VERSION of the library. */
TILEC_C_API int tilecApiVersion(void);

/* Retains the primary context of device Ordinal (the one torch and the CUDA
 * runtime use) and makes it current on this thread. */
TILEC_C_API TilecStatus tilecContextCreate(int Ordinal, TilecContext **Out);
TILEC_C_API void tilecContextDestroy(TilecContext *Ctx);
/* One line about the device, e.g. "NVIDIA H200 (sm_90, 132 SMs, ...)". */
TILEC_C_API const char *tilecContextDeviceSummary(const TilecContext *Ctx);
TILEC_C_API TilecStatus tilecContextSynchronize(const TilecContext *Ctx);

/* Device memory, for hosts without an allocator of their own. */
TILEC_C_API TilecStatus tilecMemAlloc(const TilecContext *Ctx, size_t Bytes,
                                      uint64_t *Address);
TILEC_C_API void tilecMemFree(uint64_t Address);
TILEC_C_API TilecStatus tilecMemcpyHtoD(uint64_t Dst, const void *Src,
                                        size_t Bytes);
TILEC_C_API TilecStatus tilecMemcpyDtoH(void *Dst, uint64_t Src, size_t Bytes);

/* Loads tilec PTX (with its metadata lines) from a file or from memory
 * (Size bytes; Name names it in messages). */
TILEC_C_API TilecStatus tilecModuleLoadFile(const TilecContext *Ctx,
                                            const char *Path,
                                            TilecModule **Out);
TILEC_C_API TilecStatus tilecModuleLoadPtx(const TilecContext *Ctx,
                                           const char *Ptx, size_t Size,
                                           const char *Name, TilecModule **Out);
TILEC_C_API void tilecModuleDestroy(TilecModule *Module);

TILEC_C_API TilecStatus tilecModuleGetKernel(const TilecModule *Module,
                                             const char *Name,
                                             TilecKernel **Out);
TILEC_C_API void tilecKernelDestroy(TilecKernel *Kernel);
/* The kernel's signature as its metadata spells it, e.g.
 * "*fp32:16,*fp32:16,*fp32:16,i32". */
TILEC_C_API const char *tilecKernelSignature(const TilecKernel *Kernel);
TILEC_C_API int tilecKernelNumWarps(const TilecKernel *Kernel);
TILEC_C_API int tilecKernelSharedBytes(const TilecKernel *Kernel);
TILEC_C_API int tilecKernelNumRegisters(const TilecKernel *Kernel);

/* Flags of tilecKernelLaunch. */
enum {
  /* Programmatic dependent launch (tilec::rt::LaunchOptions,
   * Triton's launch_pdl=True). */
  TILEC_LAUNCH_PROGRAMMATIC_DEPENDENT = 1u
};

/* Launches on a GridX x GridY x GridZ grid on Stream (a CUstream; NULL for
 * the legacy default stream), checking the arguments as
 * tilec::rt::Kernel::launch does. Flags is 0 or TILEC_LAUNCH_* flags. */
TILEC_C_API TilecStatus tilecKernelLaunch(const TilecKernel *Kernel,
                                          uint32_t GridX, uint32_t GridY,
                                          uint32_t GridZ, const TilecArg *Args,
                                          size_t NumArgs, void *Stream,
                                          uint32_t Flags);

#ifdef __cplusplus
}
#endif

#endif /* TILEC_C_RUNTIME_H */

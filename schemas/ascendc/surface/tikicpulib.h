// curate AscendC surface: the CPU debug library (`tikicpulib.h`) with which kernel unit tests run
// a kernel on the host. Facts of its public interface; the declarations are ours.
#pragma once
#include "kernel_operator.h"

// How the simulated core runs the kernel (named unqualified by the tests).
enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1, SIMT, SIMD };

namespace AscendC {
// Simulated global memory for the kernel's arguments.
void* GmAlloc(size_t size);
void GmFree(void* ptr);
void SetKernelMode(KernelMode mode);
}  // namespace AscendC

// Set the tiling key the next launch sees; run `kernel` on `blockDim` simulated cores.
#define ICPU_SET_TILING_KEY(key) ((void)(key))
#define ICPU_RUN_KF(kernel, blockDim, ...) ((void)(kernel), (void)(blockDim))

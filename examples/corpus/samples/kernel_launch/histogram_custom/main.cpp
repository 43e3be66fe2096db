/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Host program for histogram_custom: 10 bins over [-4, 4], like
 * torch.histc(x, bins=10, min=-4, max=4). The output is zeroed first because
 * every core adds its counts atomically.
 */
#include <cstring>
#include "data_utils.h"
#include "histogram_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
#include "aclrtlaunch_histogram_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void histogram_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling);
#endif

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t blockDim = 8;
    constexpr uint32_t totalLength = 1 << 20;
    HistogramTiling tiling{totalLength, totalLength / blockDim, 10, -4.0f, 4.0f, 0.8f};
    const size_t inBytes = totalLength * sizeof(float);
    const size_t outBytes = 16 * sizeof(float);

#ifdef ASCENDC_CPU_DEBUG
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(inBytes);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(outBytes);
    uint8_t *t = (uint8_t *)AscendC::GmAlloc(sizeof(tiling));
    std::memset(y, 0, outBytes);
    std::memcpy(t, &tiling, sizeof(tiling));
    ReadFile("./input/input_x.bin", inBytes, x, inBytes);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(histogram_custom, blockDim, x, y, t);
    WriteFile("./output/output_y.bin", y, tiling.bins * sizeof(float));
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)t);
#else
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    uint8_t *xHost, *yHost, *xDevice, *yDevice, *tDevice;
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), inBytes));
    CHECK_ACL(aclrtMallocHost((void **)(&yHost), outBytes));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, inBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tDevice, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_x.bin", inBytes, xHost, inBytes);
    CHECK_ACL(aclrtMemcpy(xDevice, inBytes, xHost, inBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tDevice, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemset(yDevice, outBytes, 0, outBytes));

    ACLRT_LAUNCH_KERNEL(histogram_custom)(blockDim, stream, xDevice, yDevice, tDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(yHost, outBytes, yDevice, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_y.bin", yHost, tiling.bins * sizeof(float));
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(tDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}

/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Host program for quantize_int8_custom: scale and zero point come from the
 * command line (defaults 0.05 and 0), the tiling block is copied to the device.
 */
#include <cstring>
#include <string>
#include "data_utils.h"
#include "quantize_int8_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
#include "aclrtlaunch_quantize_int8_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void quantize_int8_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling);
#endif

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t blockDim = 24;
    constexpr uint32_t totalLength = 3 * 1000 * 1000 + 7;
    const float scale = argc > 1 ? std::stof(argv[1]) : 0.05f;
    const float zeroPoint = argc > 2 ? std::stof(argv[2]) : 0.0f;

    QuantizeInt8Tiling tiling{};
    tiling.totalLength = totalLength;
    tiling.blockLength = ((totalLength + blockDim - 1) / blockDim + 31) / 32 * 32;
    tiling.tileLength = 8192;
    tiling.invScale = 1.0f / scale;
    tiling.zeroPoint = zeroPoint;

    const size_t inBytes = totalLength * sizeof(uint16_t);
    const size_t outBytes = totalLength * sizeof(int8_t);

#ifdef ASCENDC_CPU_DEBUG
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(inBytes);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(outBytes);
    uint8_t *t = (uint8_t *)AscendC::GmAlloc(sizeof(tiling));
    std::memcpy(t, &tiling, sizeof(tiling));
    ReadFile("./input/input_x.bin", inBytes, x, inBytes);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(quantize_int8_custom, blockDim, x, y, t);
    WriteFile("./output/output_y.bin", y, outBytes);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)t);
#else
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *xHost, *yHost, *xDevice, *yDevice, *tilingDevice;
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), inBytes));
    CHECK_ACL(aclrtMallocHost((void **)(&yHost), outBytes));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, inBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tilingDevice, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));

    ReadFile("./input/input_x.bin", inBytes, xHost, inBytes);
    CHECK_ACL(aclrtMemcpy(xDevice, inBytes, xHost, inBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(quantize_int8_custom)(blockDim, stream, xDevice, yDevice, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(yHost, outBytes, yDevice, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_y.bin", yHost, outBytes);

    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}

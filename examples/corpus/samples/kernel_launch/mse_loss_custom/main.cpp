/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Host program for mse_loss_custom: computes the tiling, zeroes the output and
 * launches through the mse_loss_custom_do wrapper.
 */
#include "data_utils.h"
#include "mse_loss_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
extern void mse_loss_custom_do(uint32_t blockDim, void *l2ctrl, void *stream, uint8_t *x, uint8_t *y, uint8_t *z,
                               MseLossTiling tiling);
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void mse_loss_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, MseLossTiling tiling);
#endif

static MseLossTiling MakeTiling(uint32_t totalLength, uint32_t blockDim)
{
    constexpr uint32_t alignElems = 8; // 32 bytes of float
    MseLossTiling tiling{};
    tiling.totalLength = totalLength;
    uint32_t perCore = (totalLength + blockDim - 1) / blockDim;
    tiling.blockLength = (perCore + alignElems - 1) / alignElems * alignElems;
    tiling.tileLength = 4096;
    tiling.invTotal = 1.0f / static_cast<float>(totalLength);
    return tiling;
}

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t blockDim = 8;
    constexpr uint32_t totalLength = 100003; // deliberately not a multiple of the tile
    const size_t inBytes = totalLength * sizeof(float);
    const size_t outBytes = sizeof(float);
    MseLossTiling tiling = MakeTiling(totalLength, blockDim);

#ifdef ASCENDC_CPU_DEBUG
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(inBytes);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(inBytes);
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(outBytes);
    ReadFile("./input/input_x.bin", inBytes, x, inBytes);
    ReadFile("./input/input_y.bin", inBytes, y, inBytes);
    *reinterpret_cast<float *>(z) = 0.0f;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(mse_loss_custom, blockDim, x, y, z, tiling);
    WriteFile("./output/output_z.bin", z, outBytes);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *xHost, *yHost, *zHost;
    uint8_t *xDevice, *yDevice, *zDevice;
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), inBytes));
    CHECK_ACL(aclrtMallocHost((void **)(&yHost), inBytes));
    CHECK_ACL(aclrtMallocHost((void **)(&zHost), outBytes));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, inBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, inBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&zDevice, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));

    ReadFile("./input/input_x.bin", inBytes, xHost, inBytes);
    ReadFile("./input/input_y.bin", inBytes, yHost, inBytes);
    CHECK_ACL(aclrtMemcpy(xDevice, inBytes, xHost, inBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(yDevice, inBytes, yHost, inBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    // The kernel accumulates with atomic adds: start from zero.
    CHECK_ACL(aclrtMemset(zDevice, outBytes, 0, outBytes));

    mse_loss_custom_do(blockDim, nullptr, stream, xDevice, yDevice, zDevice, tiling);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(zHost, outBytes, zDevice, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_z.bin", zHost, outBytes);

    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(zDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtFreeHost(zHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}

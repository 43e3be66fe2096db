/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Host program for adam_update_custom: one AdamW step (t = 1) on four float
 * tensors that are updated in place on the device.
 */
#include <cmath>
#include <cstring>
#include "data_utils.h"
#include "adam_update_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
#include "aclrtlaunch_adam_update_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void adam_update_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR expAvg,
                                                         GM_ADDR expAvgSq, GM_ADDR workspace, GM_ADDR tiling);
#endif

static AdamUpdateTiling MakeTiling(uint32_t totalLength, uint32_t coreNum, uint32_t step)
{
    AdamUpdateTiling t{};
    t.totalLength = totalLength;
    const uint32_t units = (totalLength + 7) / 8; // 8 floats = one 32-byte block
    const uint32_t unitsPerCore = units / coreNum;
    t.formerNum = units % coreNum;
    t.formerLength = (unitsPerCore + 1) * 8;
    t.tailLength = unitsPerCore * 8;
    t.tileLength = 2048;
    t.lr = 1e-3f;
    t.beta1 = 0.9f;
    t.beta2 = 0.999f;
    t.eps = 1e-8f;
    t.weightDecay = 1e-2f;
    t.biasCorrection1 = 1.0f - std::pow(t.beta1, static_cast<float>(step));
    t.biasCorrection2Sqrt = std::sqrt(1.0f - std::pow(t.beta2, static_cast<float>(step)));
    return t;
}

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t blockDim = 20;
    constexpr uint32_t totalLength = 20 * 8192; // a multiple of 8, as the tiling assumes
    const size_t bytes = totalLength * sizeof(float);
    AdamUpdateTiling tiling = MakeTiling(totalLength, blockDim, 1);
    const char *names[4] = {"param", "grad", "exp_avg", "exp_avg_sq"};

#ifdef ASCENDC_CPU_DEBUG
    uint8_t *buf[4];
    for (int i = 0; i < 4; ++i) {
        buf[i] = (uint8_t *)AscendC::GmAlloc(bytes);
        ReadFile(std::string("./input/") + names[i] + ".bin", bytes, buf[i], bytes);
    }
    uint8_t *tilingGm = (uint8_t *)AscendC::GmAlloc(sizeof(AdamUpdateTiling));
    std::memcpy(tilingGm, &tiling, sizeof(AdamUpdateTiling));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(adam_update_custom, blockDim, buf[0], buf[1], buf[2], buf[3], nullptr, tilingGm);
    for (int i = 0; i < 4; ++i) {
        WriteFile(std::string("./output/") + names[i] + ".bin", buf[i], bytes);
        AscendC::GmFree((void *)buf[i]);
    }
    AscendC::GmFree((void *)tilingGm);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *host = nullptr;
    uint8_t *dev[4];
    uint8_t *tilingDevice = nullptr;
    CHECK_ACL(aclrtMallocHost((void **)(&host), bytes));
    for (int i = 0; i < 4; ++i) {
        CHECK_ACL(aclrtMalloc((void **)&dev[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        ReadFile(std::string("./input/") + names[i] + ".bin", bytes, host, bytes);
        CHECK_ACL(aclrtMemcpy(dev[i], bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    CHECK_ACL(aclrtMalloc((void **)&tilingDevice, sizeof(AdamUpdateTiling), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(tilingDevice, sizeof(AdamUpdateTiling), &tiling, sizeof(AdamUpdateTiling),
                          ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(adam_update_custom)(blockDim, stream, dev[0], dev[1], dev[2], dev[3], nullptr, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    for (int i = 0; i < 4; ++i) {
        if (i != 1) { // grad is read-only
            CHECK_ACL(aclrtMemcpy(host, bytes, dev[i], bytes, ACL_MEMCPY_DEVICE_TO_HOST));
            WriteFile(std::string("./output/") + names[i] + ".bin", host, bytes);
        }
        CHECK_ACL(aclrtFree(dev[i]));
    }
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtFreeHost(host));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}

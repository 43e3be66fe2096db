// Host program for smooth_abs_mean: partial sums on all cores, then a
// one-core finishing kernel; both on the same stream.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_smooth_abs_mean.h"
#include "aclrtlaunch_smooth_abs_mean_finish.h"

#define CHECK_ACL(x)                                                                \
    do {                                                                            \
        aclError __ret = (x);                                                       \
        if (__ret != ACL_ERROR_NONE) {                                              \
            std::fprintf(stderr, "%s:%d aclError:%d\n", __FILE__, __LINE__, __ret);   \
        }                                                                           \
    } while (0)

#pragma pack(push, 4)
struct SmoothAbsMeanTiling {
    uint64_t total;
    uint32_t perCore;
    uint32_t tileLen;
    uint32_t coreNum;
    float invTotal;
};
#pragma pack(pop)

int32_t main()
{
    const uint64_t rows = 4096, cols = 32768;
    const uint32_t coreNum = 40;
    const uint64_t total = rows * cols;

    SmoothAbsMeanTiling t{};
    t.total = total;
    uint64_t per = (total + coreNum - 1) / coreNum;
    t.perCore = static_cast<uint32_t>((per + 7) / 8 * 8);
    t.tileLen = 4096;                   // 6 x 16KB buffers + queues fit in UB
    t.coreNum = coreNum;
    t.invTotal = static_cast<float>(1.0 / static_cast<double>(total));

    size_t bytes = total * sizeof(float);
    size_t partBytes = coreNum * 8 * sizeof(float);

    std::vector<float> pred(total), target(total);
    std::ifstream("./input/pred.bin", std::ios::binary).read(reinterpret_cast<char *>(pred.data()), bytes);
    std::ifstream("./input/target.bin", std::ios::binary).read(reinterpret_cast<char *>(target.data()), bytes);

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    void *dPred, *dTarget, *dPart, *dOut, *dTiling;
    CHECK_ACL(aclrtMalloc(&dPred, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dTarget, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dPart, partBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dOut, 32, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dTiling, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(dPred, bytes, pred.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dTarget, bytes, target.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dTiling, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemset(dPart, partBytes, 0, partBytes));

    ACLRT_LAUNCH_KERNEL(smooth_abs_mean)(coreNum, stream, dPred, dTarget, dPart, dTiling);
    ACLRT_LAUNCH_KERNEL(smooth_abs_mean_finish)(1, stream, dPart, dOut, dTiling);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    float loss = 0.0f;
    CHECK_ACL(aclrtMemcpy(&loss, sizeof(float), dOut, sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    std::printf("loss = %.8f\n", loss);
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(&loss), sizeof(float));

    CHECK_ACL(aclrtFree(dPred));
    CHECK_ACL(aclrtFree(dTarget));
    CHECK_ACL(aclrtFree(dPart));
    CHECK_ACL(aclrtFree(dOut));
    CHECK_ACL(aclrtFree(dTiling));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_distribution_divergence.h"

#define RET_CHECK(x)                                                        \
    if ((x) != ACL_SUCCESS) {                                               \
        printf("[ERROR] line %d: %s returned %d\n", __LINE__, #x, (int)(x)); \
        return 1;                                                           \
    }

struct DistributionDivergenceTiling {
    uint32_t totalLo, totalHi, rows, tileLen, perCore;
};

static size_t ReadInto(const char *name, std::vector<float> &v)
{
    std::ifstream f(name, std::ios::binary);
    f.read(reinterpret_cast<char *>(v.data()), v.size() * sizeof(float));
    return f.gcount();
}

int main()
{
    const uint32_t rows = 1024;
    const uint32_t cols = 4096;
    const uint64_t total = (uint64_t)rows * cols;
    const uint32_t coreNum = 40;
    const uint32_t tileLen = 8192;

    DistributionDivergenceTiling tiling{};
    tiling.totalLo = (uint32_t)(total & 0xffffffffu);
    tiling.totalHi = (uint32_t)(total >> 32);
    tiling.rows = rows;
    tiling.tileLen = tileLen;
    // even share per core, rounded to 8 floats (32 B)
    uint64_t share = (total + coreNum - 1) / coreNum;
    tiling.perCore = (uint32_t)((share + 7) / 8 * 8);
    uint32_t blockDim = (uint32_t)((total + tiling.perCore - 1) / tiling.perCore);

    std::vector<float> pred(total), target(total);
    if (ReadInto("./input/pred.bin", pred) != total * sizeof(float) ||
        ReadInto("./input/target.bin", target) != total * sizeof(float)) {
        printf("input files missing, run scripts/gen_data.py first\n");
        return 1;
    }

    RET_CHECK(aclInit(nullptr));
    RET_CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    RET_CHECK(aclrtCreateStream(&stream));

    const size_t bytes = total * sizeof(float);
    void *predDev, *tgtDev, *lossDev, *tilingDev;
    RET_CHECK(aclrtMalloc(&predDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_CHECK(aclrtMalloc(&tgtDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_CHECK(aclrtMalloc(&lossDev, 32, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_CHECK(aclrtMalloc(&tilingDev, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_CHECK(aclrtMemcpy(predDev, bytes, pred.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_CHECK(aclrtMemcpy(tgtDev, bytes, target.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_CHECK(aclrtMemcpy(tilingDev, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));
    // partial sums are accumulated atomically, start from zero
    RET_CHECK(aclrtMemset(lossDev, 32, 0, 32));

    ACLRT_LAUNCH_KERNEL(distribution_divergence)(blockDim, stream, predDev, tgtDev, lossDev, tilingDev);
    RET_CHECK(aclrtSynchronizeStream(stream));

    float loss = 0.0f;
    RET_CHECK(aclrtMemcpy(&loss, sizeof(float), lossDev, sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(&loss), sizeof(float));
    printf("loss = %.8f (blockDim %u)\n", loss, blockDim);

    aclrtFree(predDev);
    aclrtFree(tgtDev);
    aclrtFree(lossDev);
    aclrtFree(tilingDev);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

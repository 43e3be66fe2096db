#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_momentum_step_update.h"

struct MomentumStepUpdateTiling {
    uint32_t totalLen;
    uint32_t perCore;
    uint32_t tileLen;
    float momentum;
    float lr;
};

static size_t LoadFile(const char *name, void *dst, size_t cap)
{
    FILE *fp = fopen(name, "rb");
    if (fp == nullptr) {
        printf("open %s failed\n", name);
        return 0;
    }
    size_t n = fread(dst, 1, cap, fp);
    fclose(fp);
    return n;
}

static void SaveFile(const char *name, const void *src, size_t len)
{
    FILE *fp = fopen(name, "wb");
    if (fp != nullptr) {
        fwrite(src, 1, len, fp);
        fclose(fp);
    }
}

#define ACL_OK(x) do { if ((x) != ACL_SUCCESS) { printf("acl error at line %d\n", __LINE__); exit(1); } } while (0)

int main()
{
    const uint32_t rows = 1024, cols = 4096;
    const uint32_t total = rows * cols;
    const uint32_t coreNum = 40;          // vector cores used
    const uint32_t tileLen = 4096;        // 16 KB per tile, 4 queues x 2 buffers = 128 KB UB

    MomentumStepUpdateTiling tiling;
    tiling.totalLen = total;
    // round each core's share up to a whole 8-element block
    uint32_t share = (total + coreNum - 1) / coreNum;
    tiling.perCore = (share + 7) / 8 * 8;
    tiling.tileLen = tileLen;
    tiling.momentum = 0.9f;
    tiling.lr = 0.01f;
    uint32_t blockDim = (total + tiling.perCore - 1) / tiling.perCore;

    const size_t bytes = static_cast<size_t>(total) * sizeof(float);
    std::vector<float> p(total), g(total), v(total), out(total);
    if (LoadFile("./input/param.bin", p.data(), bytes) != bytes ||
        LoadFile("./input/grad.bin", g.data(), bytes) != bytes ||
        LoadFile("./input/velocity.bin", v.data(), bytes) != bytes) {
        return 1;
    }

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_OK(aclrtCreateStream(&stream));

    void *dP, *dG, *dV, *dO, *dTiling;
    ACL_OK(aclrtMalloc(&dP, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&dG, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&dV, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&dO, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&dTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpy(dP, bytes, p.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(dG, bytes, g.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(dV, bytes, v.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(dTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(momentum_step_update)(blockDim, stream, dP, dG, dV, dO, dTiling);
    ACL_OK(aclrtSynchronizeStream(stream));

    ACL_OK(aclrtMemcpy(out.data(), bytes, dO, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    SaveFile("./output/output.bin", out.data(), bytes);

    aclrtFree(dP);
    aclrtFree(dG);
    aclrtFree(dV);
    aclrtFree(dO);
    aclrtFree(dTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

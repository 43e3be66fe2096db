// bilinear_warp_sampler host program: image [4,3,256,256], grid [4,256,256,2]
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "acl/acl.h"
#include "aclrtlaunch_bilinear_warp_sampler.h"

struct BilinearWarpSamplerTiling {
    uint32_t n, c, h, w;
    uint32_t ho, wo;
    uint32_t rowsPerCore;
    uint32_t maxBand;
};

#define CHK(call)                                                         \
    if ((call) != ACL_SUCCESS) {                                          \
        fprintf(stderr, "acl call failed: %s @%d\n", #call, __LINE__);    \
        return 1;                                                         \
    }

static bool Slurp(const char *path, void *p, size_t n)
{
    std::ifstream f(path, std::ios::binary);
    return f && f.read(static_cast<char *>(p), n) && (size_t)f.gcount() == n;
}

int main()
{
    BilinearWarpSamplerTiling t;
    t.n = 4; t.c = 3; t.h = 256; t.w = 256;
    t.ho = 256; t.wo = 256;
    const uint32_t coreNum = 32;
    const uint32_t outRows = t.n * t.ho;
    t.rowsPerCore = (outRows + coreNum - 1) / coreNum;
    // band budget: ~96KB for C channels of the touched input rows
    t.maxBand = (96 * 1024) / (t.c * t.w * sizeof(float));
    const uint32_t blockDim = (outRows + t.rowsPerCore - 1) / t.rowsPerCore;

    const size_t imgBytes = (size_t)t.n * t.c * t.h * t.w * sizeof(float);
    const size_t gridBytes = (size_t)t.n * t.ho * t.wo * 2 * sizeof(float);
    const size_t outBytes = (size_t)t.n * t.c * t.ho * t.wo * sizeof(float);

    CHK(aclInit(nullptr));
    CHK(aclrtSetDevice(0));
    aclrtStream s = nullptr;
    CHK(aclrtCreateStream(&s));

    void *hImg, *hGrid, *hOut;
    CHK(aclrtMallocHost(&hImg, imgBytes));
    CHK(aclrtMallocHost(&hGrid, gridBytes));
    CHK(aclrtMallocHost(&hOut, outBytes));
    if (!Slurp("./input/image.bin", hImg, imgBytes) || !Slurp("./input/grid.bin", hGrid, gridBytes)) {
        fprintf(stderr, "run scripts/gen_data.py first\n");
        return 1;
    }

    void *dImg, *dGrid, *dOut, *dTl;
    CHK(aclrtMalloc(&dImg, imgBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&dGrid, gridBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&dOut, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&dTl, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMemcpy(dImg, imgBytes, hImg, imgBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHK(aclrtMemcpy(dGrid, gridBytes, hGrid, gridBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHK(aclrtMemcpy(dTl, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    bilinear_warp_sampler<<<blockDim, nullptr, s>>>((uint8_t *)dImg, (uint8_t *)dGrid, (uint8_t *)dOut, (uint8_t *)dTl);
    CHK(aclrtSynchronizeStream(s));
    CHK(aclrtMemcpy(hOut, outBytes, dOut, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));

    std::ofstream("./output/output.bin", std::ios::binary).write(static_cast<char *>(hOut), outBytes);

    aclrtFree(dImg); aclrtFree(dGrid); aclrtFree(dOut); aclrtFree(dTl);
    aclrtFreeHost(hImg); aclrtFreeHost(hGrid); aclrtFreeHost(hOut);
    aclrtDestroyStream(s);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

/**
 * Host program: one optimizer step on a 1024 x 4096 float32 parameter matrix.
 * Writes output/param_out.bin and output/accum_out.bin.
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_sqaccum_lr_step.h"

struct SqaccumLrStepTiling {
    uint32_t total;
    uint32_t perCore;
    uint32_t tile;
    float lr;
    float eps;
};

#define TRY(expr)                                                   \
    do {                                                            \
        if ((expr) != ACL_SUCCESS) {                                \
            fprintf(stderr, "error at %s:%d\n", __FILE__, __LINE__); \
            return 1;                                               \
        }                                                           \
    } while (0)

static bool Read(const char *path, std::vector<float> &v)
{
    std::ifstream f(path, std::ios::binary);
    return static_cast<bool>(f.read(reinterpret_cast<char *>(v.data()), v.size() * sizeof(float)));
}

static void Write(const char *path, const std::vector<float> &v)
{
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(float));
}

int main()
{
    const uint32_t rows = 1024, cols = 4096;
    const uint32_t total = rows * cols;
    const uint32_t blockDim = 40;

    SqaccumLrStepTiling tl{};
    tl.total = total;
    uint32_t per = (total + blockDim - 1) / blockDim;
    tl.perCore = (per + 7) / 8 * 8;     // keep each core's GM start 32-byte aligned
    tl.tile = 4096;                      // 5 queues x 2 buffers x 16 KB + scratch, well inside UB
    tl.lr = 1e-2f;
    tl.eps = 1e-10f;

    std::vector<float> p(total), g(total), h(total), pOut(total), hOut(total);
    if (!Read("input/param.bin", p) || !Read("input/grad.bin", g) || !Read("input/accum.bin", h)) {
        fprintf(stderr, "input missing: run python3 scripts/gen_data.py\n");
        return 1;
    }
    size_t bytes = (size_t)total * sizeof(float);

    TRY(aclInit(nullptr));
    TRY(aclrtSetDevice(0));
    aclrtStream stream;
    TRY(aclrtCreateStream(&stream));

    void *dP, *dG, *dH, *dPOut, *dHOut, *dTl;
    TRY(aclrtMalloc(&dP, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    TRY(aclrtMalloc(&dG, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    TRY(aclrtMalloc(&dH, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    TRY(aclrtMalloc(&dPOut, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    TRY(aclrtMalloc(&dHOut, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    TRY(aclrtMalloc(&dTl, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST));
    TRY(aclrtMemcpy(dP, bytes, p.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    TRY(aclrtMemcpy(dG, bytes, g.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    TRY(aclrtMemcpy(dH, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    TRY(aclrtMemcpy(dTl, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(sqaccum_lr_step)(blockDim, stream, dP, dG, dH, dPOut, dHOut, dTl);
    TRY(aclrtSynchronizeStream(stream));

    TRY(aclrtMemcpy(pOut.data(), bytes, dPOut, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    TRY(aclrtMemcpy(hOut.data(), bytes, dHOut, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    Write("output/param_out.bin", pOut);
    Write("output/accum_out.bin", hOut);

    aclrtFree(dP);
    aclrtFree(dG);
    aclrtFree(dH);
    aclrtFree(dPOut);
    aclrtFree(dHOut);
    aclrtFree(dTl);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

/**
 * mask_to_neg_inf host program
 *   input/x.bin     float32 [16, 512, 512]
 *   input/mask.bin  uint8   [16, 512, 512]  (numpy bool)
 *   output/out.bin  float32 [16, 512, 512]
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_mask_to_neg_inf.h"

struct MaskToNegInfTiling {
    uint32_t total;
    uint32_t perCore;
    uint32_t tileLen;
};

#define ACL_CHECK(expr)                                                        \
    do {                                                                       \
        int _r = (int)(expr);                                                  \
        if (_r != 0) {                                                         \
            printf("ACL call failed (%d): %s @%s:%d\n", _r, #expr, __FILE__, __LINE__); \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static void LoadFile(const char *name, void *buf, size_t size)
{
    FILE *f = fopen(name, "rb");
    if (!f) { printf("open %s failed\n", name); exit(1); }
    size_t got = fread(buf, 1, size, f);
    fclose(f);
    if (got != size) { printf("%s: expected %zu bytes, got %zu\n", name, size, got); exit(1); }
}

static void SaveFile(const char *name, const void *buf, size_t size)
{
    FILE *f = fopen(name, "wb");
    if (!f) { printf("open %s failed\n", name); exit(1); }
    fwrite(buf, 1, size, f);
    fclose(f);
}

int main()
{
    const uint32_t total = 16u * 512u * 512u;
    const uint32_t cores = 40;

    MaskToNegInfTiling tiling;
    tiling.total = total;
    tiling.perCore = ((total + cores - 1) / cores + 31) / 32 * 32;
    tiling.tileLen = 8192;      // 2x32K x + 2x8K flag + 2x32K out + 16K half + 1K bits
    const uint32_t blockDim = (total + tiling.perCore - 1) / tiling.perCore;

    std::vector<float> x(total), out(total);
    std::vector<uint8_t> mask(total);
    LoadFile("./input/x.bin", x.data(), total * sizeof(float));
    LoadFile("./input/mask.bin", mask.data(), total);

    ACL_CHECK(aclInit(nullptr));
    ACL_CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_CHECK(aclrtCreateStream(&stream));

    void *xd, *md, *od, *td;
    ACL_CHECK(aclrtMalloc(&xd, total * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMalloc(&md, total, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMalloc(&od, total * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMalloc(&td, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMemcpy(xd, total * sizeof(float), x.data(), total * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CHECK(aclrtMemcpy(md, total, mask.data(), total, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CHECK(aclrtMemcpy(td, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    mask_to_neg_inf<<<blockDim, nullptr, stream>>>((uint8_t *)xd, (uint8_t *)md, (uint8_t *)od, (uint8_t *)td);
    ACL_CHECK(aclrtSynchronizeStream(stream));

    ACL_CHECK(aclrtMemcpy(out.data(), total * sizeof(float), od, total * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    SaveFile("./output/out.bin", out.data(), total * sizeof(float));

    aclrtFree(xd);
    aclrtFree(md);
    aclrtFree(od);
    aclrtFree(td);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("blockDim=%u perCore=%u\n", blockDim, tiling.perCore);
    return 0;
}

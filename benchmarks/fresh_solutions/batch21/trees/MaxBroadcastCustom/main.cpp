/* host side of outer_elementwise_max */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_outer_elementwise_max.h"

#define CHECK(stmt)                                                            \
    do {                                                                       \
        aclError rc_ = (stmt);                                                 \
        if (rc_ != ACL_SUCCESS) {                                              \
            fprintf(stderr, "%s:%d %s -> %d\n", __FILE__, __LINE__, #stmt, rc_); \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

struct OuterElementwiseMaxTiling {
    uint32_t outer, mid, inner, innerAlign, rowsPerCore, rowsPerTile;
};

static void ReadBin(const char *path, void *dst, size_t bytes)
{
    FILE *fp = fopen(path, "rb");
    if (fp == nullptr || fread(dst, 1, bytes, fp) != bytes) {
        fprintf(stderr, "failed to read %s\n", path);
        exit(1);
    }
    fclose(fp);
}

static void WriteBin(const char *path, const void *src, size_t bytes)
{
    FILE *fp = fopen(path, "wb");
    if (fp == nullptr) { fprintf(stderr, "failed to open %s\n", path); exit(1); }
    fwrite(src, 1, bytes, fp);
    fclose(fp);
}

int main(int argc, char **argv)
{
    const uint32_t P = 16, Q = 256, L = 1024;
    const uint32_t maxCores = 48;

    OuterElementwiseMaxTiling tiling;
    tiling.outer = P;
    tiling.mid = Q;
    tiling.inner = L;
    tiling.innerAlign = (L + 7) / 8 * 8;
    const uint32_t totalRows = P * Q;
    tiling.rowsPerCore = (totalRows + maxCores - 1) / maxCores;
    // two output tiles of at most ~64 KiB each
    uint32_t rpt = (64 * 1024) / (tiling.innerAlign * sizeof(float));
    tiling.rowsPerTile = rpt == 0 ? 1 : rpt;
    const uint32_t blockDim = (totalRows + tiling.rowsPerCore - 1) / tiling.rowsPerCore;

    const size_t aBytes = sizeof(float) * P * L;
    const size_t bBytes = sizeof(float) * Q;
    const size_t oBytes = sizeof(float) * P * Q * L;
    std::vector<float> hA(P * L), hB(Q), hOut((size_t)P * Q * L);
    ReadBin("./input/input_a.bin", hA.data(), aBytes);
    ReadBin("./input/input_b.bin", hB.data(), bBytes);

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));

    void *dA, *dB, *dOut, *dTiling;
    CHECK(aclrtMalloc(&dA, aBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dB, bBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dOut, oBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dA, aBytes, hA.data(), aBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dB, bBytes, hB.data(), bBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    outer_elementwise_max<<<blockDim, nullptr, stream>>>((uint8_t *)dA, (uint8_t *)dB, (uint8_t *)dOut,
                                                         (uint8_t *)dTiling);
    CHECK(aclrtSynchronizeStream(stream));

    CHECK(aclrtMemcpy(hOut.data(), oBytes, dOut, oBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteBin("./output/output_z.bin", hOut.data(), oBytes);

    CHECK(aclrtFree(dA));
    CHECK(aclrtFree(dB));
    CHECK(aclrtFree(dOut));
    CHECK(aclrtFree(dTiling));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}

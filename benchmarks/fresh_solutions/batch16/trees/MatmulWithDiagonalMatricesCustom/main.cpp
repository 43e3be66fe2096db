/*
 * Host program: C = diag(a) @ B computed by scale_rows_by_weights.
 * Files: input/input_a.bin (N), input/input_b.bin (N x M) -> output/output_c.bin (N x M)
 */
#include <cstdint>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_scale_rows_by_weights.h"

struct ScaleRowsByWeightsTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t colTile;
    uint32_t colTiles;
    uint32_t colTail;
};

static bool ReadBinary(const std::string &file, void *dst, size_t bytes)
{
    std::ifstream in(file, std::ios::in | std::ios::binary);
    if (!in.is_open()) {
        std::cerr << "open failed: " << file << std::endl;
        return false;
    }
    in.read(static_cast<char *>(dst), static_cast<std::streamsize>(bytes));
    return in.gcount() == static_cast<std::streamsize>(bytes);
}

static bool WriteBinary(const std::string &file, const void *src, size_t bytes)
{
    std::ofstream out(file, std::ios::out | std::ios::binary);
    out.write(static_cast<const char *>(src), static_cast<std::streamsize>(bytes));
    return out.good();
}

#define RET_IF_FAIL(call)                                                  \
    do {                                                                   \
        aclError r__ = (call);                                             \
        if (r__ != ACL_SUCCESS) {                                          \
            std::cerr << #call << " -> " << r__ << std::endl;             \
            return 1;                                                      \
        }                                                                  \
    } while (0)

int main()
{
    constexpr uint32_t N = 4096;   // length of the diagonal / rows of B
    constexpr uint32_t M = 4096;   // columns of B
    constexpr uint32_t CORE_NUM = 48;
    constexpr uint32_t COL_TILE = 8192;

    ScaleRowsByWeightsTiling tiling{};
    tiling.rows = N;
    tiling.cols = M;
    tiling.rowsPerCore = (N + CORE_NUM - 1) / CORE_NUM;
    tiling.colTile = M < COL_TILE ? (M + 7) / 8 * 8 : COL_TILE;
    tiling.colTiles = (M + tiling.colTile - 1) / tiling.colTile;
    tiling.colTail = M - (tiling.colTiles - 1) * tiling.colTile;
    uint32_t blockDim = (N + tiling.rowsPerCore - 1) / tiling.rowsPerCore;

    const size_t aBytes = size_t(N) * sizeof(float);
    const size_t bBytes = size_t(N) * M * sizeof(float);
    std::vector<float> a(N), b(size_t(N) * M), c(size_t(N) * M);
    if (!ReadBinary("./input/input_a.bin", a.data(), aBytes) || !ReadBinary("./input/input_b.bin", b.data(), bBytes)) {
        return 1;
    }

    RET_IF_FAIL(aclInit(nullptr));
    RET_IF_FAIL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    RET_IF_FAIL(aclrtCreateStream(&stream));

    void *aDev = nullptr, *bDev = nullptr, *cDev = nullptr, *tDev = nullptr;
    RET_IF_FAIL(aclrtMalloc(&aDev, aBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&bDev, bBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&cDev, bBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&tDev, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMemcpy(aDev, aBytes, a.data(), aBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(bDev, bBytes, b.data(), bBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(tDev, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(scale_rows_by_weights)(blockDim, stream, aDev, bDev, cDev, tDev);
    RET_IF_FAIL(aclrtSynchronizeStream(stream));

    RET_IF_FAIL(aclrtMemcpy(c.data(), bBytes, cDev, bBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteBinary("./output/output_c.bin", c.data(), bBytes);

    RET_IF_FAIL(aclrtFree(aDev));
    RET_IF_FAIL(aclrtFree(bDev));
    RET_IF_FAIL(aclrtFree(cDev));
    RET_IF_FAIL(aclrtFree(tDev));
    RET_IF_FAIL(aclrtDestroyStream(stream));
    RET_IF_FAIL(aclrtResetDevice(0));
    RET_IF_FAIL(aclFinalize());
    std::cout << "scale_rows_by_weights: " << N << " x " << M << " done on " << blockDim << " cores" << std::endl;
    return 0;
}

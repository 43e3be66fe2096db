// Host program: y[r, j] = sum_{k >= j} x[r, k] on a [2048, 8192] float32 matrix.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_suffix_running_total.h"

struct SuffixRunningTotalTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t rowsExtra;
    uint32_t groupRows;
    uint32_t tileCols;
    uint32_t tmpBytes;
};

#define TRY(stmt)                                                             \
    do {                                                                      \
        aclError r_ = (stmt);                                                 \
        if (r_ != ACL_SUCCESS) {                                              \
            fprintf(stderr, "%s -> %d (line %d)\n", #stmt, (int)r_, __LINE__); \
            return 1;                                                         \
        }                                                                     \
    } while (0)

int main()
{
    constexpr uint32_t ROWS = 2048;
    constexpr uint32_t COLS = 8192;
    constexpr uint32_t CORES = 40;

    SuffixRunningTotalTiling t{};
    t.rows = ROWS;
    t.cols = COLS;
    t.rowsPerCore = ROWS / CORES;
    t.rowsExtra = ROWS % CORES;
    t.groupRows = 8;
    t.tileCols = 1024;

    // scratch for the CumSum library call on a [groupRows, tileCols] block
    std::vector<int64_t> dims = {static_cast<int64_t>(t.groupRows), static_cast<int64_t>(t.tileCols)};
    ge::Shape scanShape(dims);
    uint32_t maxTmp = 0, minTmp = 0;
    AscendC::GetCumSumMaxMinTmpSize(scanShape, sizeof(float), true, false, maxTmp, minTmp);
    t.tmpBytes = (minTmp + 31) / 32 * 32;

    const size_t count = static_cast<size_t>(ROWS) * COLS;
    const size_t bytes = count * sizeof(float);
    std::vector<float> hostIn(count), hostOut(count);
    {
        std::ifstream f("./input/input_x.bin", std::ios::binary);
        if (!f.read(reinterpret_cast<char *>(hostIn.data()), bytes)) {
            fprintf(stderr, "run scripts/gen_data.py first\n");
            return 1;
        }
    }

    TRY(aclInit(nullptr));
    TRY(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    TRY(aclrtCreateStream(&stream));

    void *xDev = nullptr, *yDev = nullptr, *tDev = nullptr;
    TRY(aclrtMalloc(&xDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    TRY(aclrtMalloc(&yDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    TRY(aclrtMalloc(&tDev, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    TRY(aclrtMemcpy(xDev, bytes, hostIn.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    TRY(aclrtMemcpy(tDev, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(suffix_running_total)(CORES, stream, xDev, yDev, tDev);
    TRY(aclrtSynchronizeStream(stream));

    TRY(aclrtMemcpy(hostOut.data(), bytes, yDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output_y.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(hostOut.data()), bytes);

    aclrtFree(xDev);
    aclrtFree(yDev);
    aclrtFree(tDev);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

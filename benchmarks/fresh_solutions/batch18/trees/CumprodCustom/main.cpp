// Host driver for row_running_product: prefix product along the last axis.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_row_running_product.h"

#define CHECK_ACL(expr)                                                            \
    do {                                                                           \
        aclError _e = (expr);                                                      \
        if (_e != ACL_SUCCESS) {                                                   \
            fprintf(stderr, "%s:%d acl error %d\n", __FILE__, __LINE__, (int)_e); \
            return 1;                                                              \
        }                                                                          \
    } while (0)

struct RowRunningProductTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t tileLen;
    uint32_t tileNum;
    uint32_t tailLen;
};

static bool ReadBin(const char *path, void *buf, size_t size)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    f.read(static_cast<char *>(buf), size);
    return static_cast<size_t>(f.gcount()) == size;
}

static void WriteBin(const char *path, const void *buf, size_t size)
{
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char *>(buf), size);
}

int main()
{
    const uint32_t rows = 2048;
    const uint32_t cols = 32768;
    const uint32_t coreNum = 40;
    const uint32_t tileLen = 8192;

    RowRunningProductTiling tiling{};
    tiling.rows = rows;
    tiling.cols = cols;
    tiling.rowsPerCore = (rows + coreNum - 1) / coreNum;
    tiling.tileLen = tileLen;
    tiling.tileNum = cols / tileLen;
    tiling.tailLen = cols % tileLen;
    uint32_t blockDim = (rows + tiling.rowsPerCore - 1) / tiling.rowsPerCore;

    size_t bytes = static_cast<size_t>(rows) * cols * sizeof(float);

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    std::vector<float> hostX(static_cast<size_t>(rows) * cols);
    if (!ReadBin("./input/input_x.bin", hostX.data(), bytes)) {
        fprintf(stderr, "missing input, run scripts/gen_data.py first\n");
        return 1;
    }

    void *dX = nullptr, *dY = nullptr, *dTiling = nullptr;
    CHECK_ACL(aclrtMalloc(&dX, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dY, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(dX, bytes, hostX.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(row_running_product)(blockDim, stream, dX, dY, dTiling);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> hostY(static_cast<size_t>(rows) * cols);
    CHECK_ACL(aclrtMemcpy(hostY.data(), bytes, dY, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteBin("./output/output_y.bin", hostY.data(), bytes);

    aclrtFree(dX);
    aclrtFree(dY);
    aclrtFree(dTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("row_running_product done: %u x %u\n", rows, cols);
    return 0;
}

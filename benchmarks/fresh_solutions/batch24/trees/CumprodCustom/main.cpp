// Host driver for row_running_product (kernel-launch sample).
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_row_running_product.h"

#define CHECK_ACL(expr)                                                             \
    do {                                                                            \
        aclError _e = (expr);                                                       \
        if (_e != ACL_SUCCESS) {                                                    \
            fprintf(stderr, "%s:%d acl error %d\n", __FILE__, __LINE__, (int)_e);  \
            return 1;                                                               \
        }                                                                           \
    } while (0)

struct RowRunningProductTiling {
    uint32_t rows, cols, rowsPerCore, bigCores, chunk;
};

static bool ReadFile(const char *path, void *buf, size_t size)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    f.read(static_cast<char *>(buf), size);
    return static_cast<size_t>(f.gcount()) == size;
}

static bool WriteFile(const char *path, const void *buf, size_t size)
{
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char *>(buf), size);
    return f.good();
}

int main()
{
    const uint32_t rows = 32768, cols = 32768;
    const uint32_t blockDim = 40;              // vector cores on the target
    const size_t bytes = (size_t)rows * cols * sizeof(float);

    RowRunningProductTiling tiling{};
    tiling.rows = rows;
    tiling.cols = cols;
    tiling.rowsPerCore = rows / blockDim;
    tiling.bigCores = rows % blockDim;
    tiling.chunk = 8192;                       // 32 KB per chunk buffer

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    void *hostX = nullptr, *hostY = nullptr;
    CHECK_ACL(aclrtMallocHost(&hostX, bytes));
    CHECK_ACL(aclrtMallocHost(&hostY, bytes));
    if (!ReadFile("./input/input_x.bin", hostX, bytes)) {
        fprintf(stderr, "cannot read input_x.bin\n");
        return 1;
    }

    uint8_t *devX = nullptr, *devY = nullptr, *devTiling = nullptr;
    CHECK_ACL(aclrtMalloc((void **)&devX, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&devY, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&devTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(devX, bytes, hostX, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(devTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(row_running_product)(blockDim, stream, devX, devY, devTiling);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(hostY, bytes, devY, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_y.bin", hostY, bytes);

    aclrtFree(devX);
    aclrtFree(devY);
    aclrtFree(devTiling);
    aclrtFreeHost(hostX);
    aclrtFreeHost(hostY);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

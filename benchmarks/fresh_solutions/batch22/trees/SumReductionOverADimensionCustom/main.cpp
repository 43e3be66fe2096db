// Host driver for axis_fold_sum: sums a [B, R, I] float tensor over R.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_axis_fold_sum.h"

struct AxisFoldSumTiling {
    uint32_t outerLen;
    uint32_t reduceLen;
    uint32_t innerLen;
    uint32_t tileInner;
    uint32_t rowsPerLoad;
    uint32_t stripsPerRow;
};

#define CHECK_ACL(expr)                                                              \
    do {                                                                             \
        aclError _ret = (expr);                                                      \
        if (_ret != ACL_SUCCESS) {                                                   \
            fprintf(stderr, "%s:%d %s failed, ret=%d\n", __FILE__, __LINE__, #expr, _ret); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

static bool ReadBin(const std::string &path, void *buf, size_t size)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path.c_str());
        return false;
    }
    f.read(static_cast<char *>(buf), size);
    return static_cast<size_t>(f.gcount()) == size;
}

static bool WriteBin(const std::string &path, const void *buf, size_t size)
{
    std::ofstream f(path, std::ios::binary);
    if (!f) {
        return false;
    }
    f.write(static_cast<const char *>(buf), size);
    return true;
}

int main()
{
    const uint32_t B = 16, R = 2048, I = 2048;
    const uint32_t blockDim = 40;

    AxisFoldSumTiling tiling{};
    tiling.outerLen = B;
    tiling.reduceLen = R;
    tiling.innerLen = I;
    tiling.tileInner = (I >= 1024) ? 1024 : I;  // I is a multiple of 8 here
    while (I % tiling.tileInner != 0) {
        tiling.tileInner -= 8;
    }
    // two input buffers of rowsPerLoad*tileInner floats must fit in ~160KB of UB
    tiling.rowsPerLoad = (16 * 1024) / tiling.tileInner;
    if (tiling.rowsPerLoad > R) {
        tiling.rowsPerLoad = R;
    }
    tiling.stripsPerRow = I / tiling.tileInner;

    const size_t xBytes = (size_t)B * R * I * sizeof(float);
    const size_t yBytes = (size_t)B * I * sizeof(float);

    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    void *xHost = nullptr, *yHost = nullptr;
    CHECK_ACL(aclrtMallocHost(&xHost, xBytes));
    CHECK_ACL(aclrtMallocHost(&yHost, yBytes));
    if (!ReadBin("./input/input_x.bin", xHost, xBytes)) {
        return 1;
    }

    void *xDev = nullptr, *yDev = nullptr, *tilingDev = nullptr;
    CHECK_ACL(aclrtMalloc(&xDev, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&yDev, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&tilingDev, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(xDev, xBytes, xHost, xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDev, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(axis_fold_sum)(blockDim, stream, xDev, yDev, tilingDev);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(yHost, yBytes, yDev, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteBin("./output/output_y.bin", yHost, yBytes);

    aclrtFree(xDev);
    aclrtFree(yDev);
    aclrtFree(tilingDev);
    aclrtFreeHost(xHost);
    aclrtFreeHost(yHost);
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
    printf("axis_fold_sum done\n");
    return 0;
}

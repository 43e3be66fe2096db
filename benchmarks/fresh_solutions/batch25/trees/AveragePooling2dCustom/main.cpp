/**
 * Host driver for window_mean_2d: reads input/input_x.bin, launches the kernel
 * and writes output/output.bin.
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include "acl/acl.h"
#include "aclrtlaunch_window_mean_2d.h"

#define ACL_CALL(expr)                                                                       \
    do {                                                                                     \
        aclError _e = (expr);                                                                \
        if (_e != ACL_SUCCESS) {                                                             \
            fprintf(stderr, "[ERROR] %s failed at %s:%d, code %d\n", #expr, __FILE__, __LINE__, \
                    static_cast<int>(_e));                                                   \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

// same layout as the struct in window_mean_2d.cpp
struct WindowMean2dTiling {
    uint32_t planes;
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t kSize;
    uint32_t stride;
    uint32_t alignedInW;
    uint32_t alignedOutW;
    uint32_t totalRows;
    uint32_t rowsPerCore;
};

static bool LoadBin(const std::string &path, void *dst, size_t bytes)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path.c_str());
        return false;
    }
    f.read(static_cast<char *>(dst), bytes);
    return static_cast<size_t>(f.gcount()) == bytes;
}

static bool SaveBin(const std::string &path, const void *src, size_t bytes)
{
    std::ofstream f(path, std::ios::binary);
    if (!f) {
        return false;
    }
    f.write(static_cast<const char *>(src), bytes);
    return true;
}

int main()
{
    const uint32_t N = 16, C = 64, H = 512, W = 512;
    const uint32_t K = 11, S = 11;   // stride defaults to the window size
    const uint32_t blockDim = 40;

    WindowMean2dTiling t{};
    t.planes = N * C;
    t.inH = H;
    t.inW = W;
    t.kSize = K;
    t.stride = S;
    t.outH = (H - K) / S + 1;
    t.outW = (W - K) / S + 1;
    t.alignedInW = (W + 7) / 8 * 8;
    t.alignedOutW = (t.outW + 7) / 8 * 8;
    t.totalRows = t.planes * t.outH;
    t.rowsPerCore = (t.totalRows + blockDim - 1) / blockDim;

    size_t xBytes = (size_t)N * C * H * W * sizeof(float);
    size_t yBytes = (size_t)N * C * t.outH * t.outW * sizeof(float);

    ACL_CALL(aclInit(nullptr));
    ACL_CALL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ACL_CALL(aclrtCreateStream(&stream));

    void *xHost = nullptr, *yHost = nullptr;
    ACL_CALL(aclrtMallocHost(&xHost, xBytes));
    ACL_CALL(aclrtMallocHost(&yHost, yBytes));
    if (!LoadBin("./input/input_x.bin", xHost, xBytes)) {
        return 1;
    }

    void *xDev = nullptr, *yDev = nullptr, *tilingDev = nullptr;
    ACL_CALL(aclrtMalloc(&xDev, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&yDev, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&tilingDev, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMemcpy(xDev, xBytes, xHost, xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(tilingDev, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(window_mean_2d)(blockDim, stream, xDev, yDev, tilingDev);
    ACL_CALL(aclrtSynchronizeStream(stream));

    ACL_CALL(aclrtMemcpy(yHost, yBytes, yDev, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    SaveBin("./output/output.bin", yHost, yBytes);

    aclrtFree(xDev);
    aclrtFree(yDev);
    aclrtFree(tilingDev);
    aclrtFreeHost(xHost);
    aclrtFreeHost(yHost);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

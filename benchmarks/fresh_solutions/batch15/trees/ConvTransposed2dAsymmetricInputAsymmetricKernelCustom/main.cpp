/**
 * main.cpp - host driver for deconv2d_wide_kernel.
 * Reads ./input/x.bin and ./input/w.bin, runs the kernel on device 0 and writes
 * ./output/output.bin.
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_deconv2d_wide_kernel.h"

#define CHECK_ACL(expr)                                                              \
    do {                                                                             \
        aclError _ret = (expr);                                                      \
        if (_ret != ACL_SUCCESS) {                                                   \
            fprintf(stderr, "%s:%d aclError %d in %s\n", __FILE__, __LINE__, _ret, #expr); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

struct Deconv2dWideKernelTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t hin;
    uint32_t win;
    uint32_t kh;
    uint32_t kw;
    uint32_t hout;
    uint32_t wout;
    uint32_t woutAlign;
    uint32_t coChunk;
    uint32_t coBlocks;
    uint32_t totalTasks;
};

static bool ReadFile(const char *path, void *buf, size_t size)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) { fprintf(stderr, "cannot open %s\n", path); return false; }
    f.read(static_cast<char *>(buf), size);
    return static_cast<size_t>(f.gcount()) == size;
}

static bool WriteFile(const char *path, const void *buf, size_t size)
{
    std::ofstream f(path, std::ios::binary);
    if (!f) { fprintf(stderr, "cannot open %s\n", path); return false; }
    f.write(static_cast<const char *>(buf), size);
    return true;
}

int main()
{
    // shapes must match scripts/gen_data.py
    const uint32_t N = 2, CIN = 64, COUT = 128, HIN = 32, WIN = 64, KH = 3, KW = 5;
    const uint32_t blockDim = 40;

    Deconv2dWideKernelTiling tiling{};
    tiling.batch = N;
    tiling.cin = CIN;
    tiling.cout = COUT;
    tiling.hin = HIN;
    tiling.win = WIN;
    tiling.kh = KH;
    tiling.kw = KW;
    tiling.hout = HIN + KH - 1;
    tiling.wout = WIN + KW - 1;
    tiling.woutAlign = (tiling.wout + 7) / 8 * 8;
    tiling.coChunk = 32;
    while (COUT % tiling.coChunk != 0) tiling.coChunk /= 2;
    tiling.coBlocks = COUT / tiling.coChunk;
    tiling.totalTasks = N * tiling.hout * tiling.coBlocks;

    size_t xBytes = (size_t)N * CIN * HIN * WIN * sizeof(float);
    size_t wBytes = (size_t)CIN * COUT * KH * KW * sizeof(float);
    size_t yBytes = (size_t)N * COUT * tiling.hout * tiling.wout * sizeof(float);

    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    void *xHost, *wHost, *yHost;
    CHECK_ACL(aclrtMallocHost(&xHost, xBytes));
    CHECK_ACL(aclrtMallocHost(&wHost, wBytes));
    CHECK_ACL(aclrtMallocHost(&yHost, yBytes));
    if (!ReadFile("./input/x.bin", xHost, xBytes) || !ReadFile("./input/w.bin", wHost, wBytes)) {
        return 1;
    }

    void *xDev, *wDev, *yDev, *tDev;
    CHECK_ACL(aclrtMalloc(&xDev, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&wDev, wBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&yDev, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&tDev, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(xDev, xBytes, xHost, xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(wDev, wBytes, wHost, wBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tDev, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(deconv2d_wide_kernel)(blockDim, stream, xDev, wDev, yDev, tDev);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(yHost, yBytes, yDev, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output.bin", yHost, yBytes);
    printf("deconv2d_wide_kernel: output %u x %u x %u x %u written\n", N, COUT, tiling.hout, tiling.wout);

    aclrtFree(xDev);
    aclrtFree(wDev);
    aclrtFree(yDev);
    aclrtFree(tDev);
    aclrtFreeHost(xHost);
    aclrtFreeHost(wHost);
    aclrtFreeHost(yHost);
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
    return 0;
}

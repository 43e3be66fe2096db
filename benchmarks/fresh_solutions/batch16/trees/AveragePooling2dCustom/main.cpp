// main.cpp -- launches window_mean_shrink (k x k box mean, stride k) on device 0
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_window_mean_shrink.h"

struct WindowMeanShrinkTiling {
    uint32_t planes, inH, inW, outH, outW;
    uint32_t kernel, stride, slot;
    uint32_t rowsPerCore, rowsTotal;
};

#define CHECK(stmt)                                                                   \
    do {                                                                              \
        aclError status = (stmt);                                                     \
        if (status != ACL_SUCCESS) {                                                  \
            printf("[ERROR] %s: %d (line %d)\n", #stmt, status, __LINE__);            \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static size_t ReadFile(const char *path, void *buf, size_t bytes)
{
    FILE *fp = fopen(path, "rb");
    if (fp == nullptr) {
        return 0;
    }
    size_t got = fread(buf, 1, bytes, fp);
    fclose(fp);
    return got;
}

static void WriteFile(const char *path, const void *buf, size_t bytes)
{
    FILE *fp = fopen(path, "wb");
    if (fp != nullptr) {
        fwrite(buf, 1, bytes, fp);
        fclose(fp);
    }
}

int main()
{
    const uint32_t batch = 2, channels = 16, height = 512, width = 512;
    const uint32_t k = 11;
    const uint32_t s = k;          // default stride = kernel size, padding 0
    const uint32_t usedCores = 40;

    WindowMeanShrinkTiling tiling;
    tiling.planes = batch * channels;
    tiling.inH = height;
    tiling.inW = width;
    tiling.outH = (height - k) / s + 1;
    tiling.outW = (width - k) / s + 1;
    tiling.kernel = k;
    tiling.stride = s;
    tiling.slot = (k + 7) / 8 * 8;
    tiling.rowsTotal = tiling.planes * tiling.outH;
    tiling.rowsPerCore = (tiling.rowsTotal + usedCores - 1) / usedCores;
    uint32_t blockDim = (tiling.rowsTotal + tiling.rowsPerCore - 1) / tiling.rowsPerCore;

    size_t inBytes = size_t(tiling.planes) * height * width * sizeof(float);
    size_t outBytes = size_t(tiling.planes) * tiling.outH * tiling.outW * sizeof(float);
    std::vector<float> hostIn(inBytes / sizeof(float));
    std::vector<float> hostOut(outBytes / sizeof(float));
    if (ReadFile("./input/input_x.bin", hostIn.data(), inBytes) != inBytes) {
        printf("[ERROR] input/input_x.bin missing or short\n");
        return 1;
    }

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    uint8_t *xDevice, *yDevice, *tilingDevice;
    CHECK(aclrtMalloc((void **)&xDevice, inBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&yDevice, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&tilingDevice, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(xDevice, inBytes, hostIn.data(), inBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(tilingDevice, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(window_mean_shrink)(blockDim, stream, xDevice, yDevice, tilingDevice);
    CHECK(aclrtSynchronizeStream(stream));

    CHECK(aclrtMemcpy(hostOut.data(), outBytes, yDevice, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_y.bin", hostOut.data(), outBytes);

    CHECK(aclrtFree(xDevice));
    CHECK(aclrtFree(yDevice));
    CHECK(aclrtFree(tilingDevice));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("out: %u x %u x %u x %u\n", batch, channels, tiling.outH, tiling.outW);
    return 0;
}

// main.cpp : host program for voxel_filter_gn_clamp
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include "acl/acl.h"
#include "aclrtlaunch_voxel_filter_gn_clamp.h"

#define CHECK(x)                                                            \
    if ((x) != ACL_SUCCESS) {                                               \
        fprintf(stderr, "ACL call failed at line %d: %s\n", __LINE__, #x); \
        exit(EXIT_FAILURE);                                                 \
    }

struct VoxelFilterGnClampTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t din, hin, win;
    uint32_t k;
    uint32_t dout, hout, wout;
    uint32_t woutPad;
    uint32_t groups;
    uint32_t cpg;
    uint32_t chunk;
    float eps;
    float minValue;
    float clampLo;
    float clampHi;
    float keepScale;
};

static void *Upload(const std::string &file, size_t bytes)
{
    void *host = nullptr;
    void *dev = nullptr;
    CHECK(aclrtMallocHost(&host, bytes));
    std::ifstream in(file, std::ios::binary);
    if (!in.read(static_cast<char *>(host), bytes)) {
        fprintf(stderr, "could not read %s\n", file.c_str());
        exit(EXIT_FAILURE);
    }
    CHECK(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtFreeHost(host));
    return dev;
}

int main()
{
    VoxelFilterGnClampTiling t{};
    t.batch = 4;  t.cin = 3;  t.cout = 16;
    t.din = 16;   t.hin = 32; t.win = 32;
    t.k = 3;
    t.dout = t.din - t.k + 1;
    t.hout = t.hin - t.k + 1;
    t.wout = t.win - t.k + 1;
    t.woutPad = (t.wout + 7) / 8 * 8;
    t.groups = 8;
    t.cpg = t.cout / t.groups;
    t.chunk = 4096;
    t.eps = 1e-5f;
    t.minValue = 0.0f;
    t.clampLo = 0.0f;
    t.clampHi = 1.0f;
    const float p = 0.2f;
    t.keepScale = 1.0f / (1.0f - p);

    const uint32_t blockDim = t.batch * t.groups;   // one core per (sample, group)

    size_t xBytes = (size_t)t.batch * t.cin * t.din * t.hin * t.win * sizeof(float);
    size_t wBytes = (size_t)t.cout * t.cin * t.k * t.k * t.k * sizeof(float);
    size_t cBytes = (size_t)t.cout * sizeof(float);
    size_t yBytes = (size_t)t.batch * t.cout * t.dout * t.hout * t.wout * sizeof(float);

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    void *x = Upload("./input/x.bin", xBytes);
    void *w = Upload("./input/conv_w.bin", wBytes);
    void *b = Upload("./input/conv_b.bin", cBytes);
    void *gamma = Upload("./input/gn_gamma.bin", cBytes);
    void *beta = Upload("./input/gn_beta.bin", cBytes);
    void *mask = Upload("./input/keep_mask.bin", yBytes);

    void *y = nullptr, *tilingDev = nullptr;
    CHECK(aclrtMalloc(&y, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&tilingDev, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(tilingDev, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(voxel_filter_gn_clamp)(blockDim, stream, x, w, b, gamma, beta, mask, y, tilingDev);
    CHECK(aclrtSynchronizeStream(stream));

    void *yHost = nullptr;
    CHECK(aclrtMallocHost(&yHost, yBytes));
    CHECK(aclrtMemcpy(yHost, yBytes, y, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(static_cast<char *>(yHost), yBytes);

    CHECK(aclrtFreeHost(yHost));
    for (void *ptr : {x, w, b, gamma, beta, mask, y, tilingDev}) {
        CHECK(aclrtFree(ptr));
    }
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("done\n");
    return 0;
}

/**
 * Host driver for deconv3d_norm_quarter_pool.
 * Reads ./input/*.bin written by scripts/gen_data.py, runs the kernel once and
 * dumps ./output/output_y.bin.
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_deconv3d_norm_quarter_pool.h"

#define CHECK_ACL(expr)                                                                  \
    do {                                                                                 \
        aclError _ret = (expr);                                                          \
        if (_ret != ACL_SUCCESS) {                                                       \
            fprintf(stderr, "[ERROR] %s failed at %s:%d, ret=%d\n", #expr, __FILE__, __LINE__, \
                    static_cast<int>(_ret));                                             \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

struct Deconv3dNormQuarterPoolTiling {
    uint32_t batch, inCh, outCh, inD, inH, inW, outD, outH, outW;
    uint32_t kernel, stride, pad, poolD, poolH, poolW;
    float eps;
};

static bool ReadFile(const char *path, void *buf, size_t bytes)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) { fprintf(stderr, "cannot open %s\n", path); return false; }
    f.read(static_cast<char *>(buf), bytes);
    return static_cast<size_t>(f.gcount()) == bytes;
}

static bool WriteFile(const char *path, const void *buf, size_t bytes)
{
    std::ofstream f(path, std::ios::binary);
    if (!f) return false;
    f.write(static_cast<const char *>(buf), bytes);
    return true;
}

// upload a host file into a fresh device buffer
static void *Upload(const char *path, size_t bytes)
{
    std::vector<uint8_t> host(bytes);
    if (!ReadFile(path, host.data(), bytes)) exit(1);
    void *dev = nullptr;
    CHECK_ACL(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    return dev;
}

int main()
{
    // shapes (must match scripts/gen_data.py)
    const uint32_t N = 4, CIN = 3, COUT = 16, D = 16, H = 16, W = 16;
    const uint32_t K = 3, S = 2, P = 1;

    Deconv3dNormQuarterPoolTiling t{};
    t.batch = N; t.inCh = CIN; t.outCh = COUT;
    t.inD = D; t.inH = H; t.inW = W;
    t.kernel = K; t.stride = S; t.pad = P;
    t.outD = (D - 1) * S - 2 * P + K;
    t.outH = (H - 1) * S - 2 * P + K;
    t.outW = (W - 1) * S - 2 * P + K;
    // two 2x2x2 pools, floor mode
    t.poolD = (t.outD / 2) / 2;
    t.poolH = (t.outH / 2) / 2;
    t.poolW = (t.outW / 2) / 2;
    t.eps = 1e-5f;

    const size_t xBytes = sizeof(float) * N * CIN * D * H * W;
    const size_t wBytes = sizeof(float) * CIN * COUT * K * K * K;
    const size_t cBytes = sizeof(float) * COUT;
    const size_t yBytes = sizeof(float) * N * COUT * t.poolD * t.poolH * t.poolW;

    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    void *xDev = Upload("./input/input_x.bin", xBytes);
    void *wDev = Upload("./input/input_weight.bin", wBytes);
    void *bDev = Upload("./input/input_bias.bin", cBytes);
    void *gDev = Upload("./input/input_gamma.bin", cBytes);
    void *betaDev = Upload("./input/input_beta.bin", cBytes);

    void *yDev = nullptr;
    CHECK_ACL(aclrtMalloc(&yDev, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    void *tilingDev = nullptr;
    CHECK_ACL(aclrtMalloc(&tilingDev, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(tilingDev, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    // one core per output channel
    uint32_t blockDim = COUT;
    ACLRT_LAUNCH_KERNEL(deconv3d_norm_quarter_pool)(blockDim, stream, xDev, wDev, bDev, gDev, betaDev, yDev,
                                                    tilingDev);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> yHost(yBytes / sizeof(float));
    CHECK_ACL(aclrtMemcpy(yHost.data(), yBytes, yDev, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_y.bin", yHost.data(), yBytes);

    aclrtFree(xDev); aclrtFree(wDev); aclrtFree(bDev); aclrtFree(gDev); aclrtFree(betaDev);
    aclrtFree(yDev); aclrtFree(tilingDev);
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
    printf("done, output shape [%u, %u, %u, %u, %u]\n", N, COUT, t.poolD, t.poolH, t.poolW);
    return 0;
}

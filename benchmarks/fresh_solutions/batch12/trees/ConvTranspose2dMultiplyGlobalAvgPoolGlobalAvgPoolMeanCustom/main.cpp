// Host driver for upconv_scaled_channel_mean.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include <algorithm>
#include "acl/acl.h"
#include "aclrtlaunch_upconv_scaled_channel_mean.h"

constexpr uint32_t MAX_K = 8;

struct UpconvScaledChannelMeanTiling {
    uint32_t batch;
    uint32_t inCh;
    uint32_t outCh;
    uint32_t inH;
    uint32_t inW;
    uint32_t kSize;
    uint32_t outH;
    uint32_t outW;
    uint32_t rowsPerTile;
    uint32_t rowLo[MAX_K];
    uint32_t rowHi[MAX_K];
    uint32_t colLo[MAX_K];
    uint32_t colHi[MAX_K];
    float alpha;
};

#define CHECK_ACL(expr)                                                              \
    do {                                                                             \
        aclError _r = (expr);                                                        \
        if (_r != ACL_SUCCESS) {                                                     \
            fprintf(stderr, "%s:%d  %s failed, code %d\n", __FILE__, __LINE__, #expr, _r); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

static bool ReadBin(const char *path, void *buf, size_t bytes)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) { fprintf(stderr, "cannot open %s\n", path); return false; }
    f.read(static_cast<char *>(buf), bytes);
    return static_cast<size_t>(f.gcount()) == bytes;
}

static bool WriteBin(const char *path, const void *buf, size_t bytes)
{
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char *>(buf), bytes);
    return f.good();
}

// valid input index range [lo, hi] for one tap so that idx*stride - pad + tap is in [0, outLen)
static void TapRange(int32_t inLen, int32_t outLen, int32_t stride, int32_t pad, int32_t tap,
                     uint32_t &lo, uint32_t &hi)
{
    int32_t l = 0;
    while (l < inLen && l * stride - pad + tap < 0) ++l;
    int32_t h = inLen - 1;
    while (h >= 0 && h * stride - pad + tap > outLen - 1) --h;
    lo = static_cast<uint32_t>(l);
    hi = static_cast<uint32_t>(std::max(h, l - 1));
}

int main()
{
    const int32_t B = 16, IC = 64, OC = 128, H = 128, W = 128;
    const int32_t K = 3, S = 2, P = 1, OP = 1;
    const float alpha = 0.5f;
    const int32_t OH = (H - 1) * S - 2 * P + K + OP;
    const int32_t OW = (W - 1) * S - 2 * P + K + OP;

    UpconvScaledChannelMeanTiling tiling{};
    tiling.batch = B; tiling.inCh = IC; tiling.outCh = OC;
    tiling.inH = H; tiling.inW = W; tiling.kSize = K;
    tiling.outH = OH; tiling.outW = OW;
    tiling.rowsPerTile = 32;  // 32 rows * 128 floats = 16 KB per buffer
    tiling.alpha = alpha;
    for (int32_t k = 0; k < K; ++k) {
        TapRange(H, OH, S, P, k, tiling.rowLo[k], tiling.rowHi[k]);
        TapRange(W, OW, S, P, k, tiling.colLo[k], tiling.colHi[k]);
    }

    const size_t xBytes = sizeof(float) * B * IC * H * W;
    const size_t wBytes = sizeof(float) * IC * K * K * OC;
    const size_t bBytes = sizeof(float) * OC;
    const size_t yBytes = sizeof(float) * B * OC;

    std::vector<float> hx(xBytes / 4), hw(wBytes / 4), hb(bBytes / 4), hy(yBytes / 4);
    if (!ReadBin("./input/x.bin", hx.data(), xBytes) ||
        !ReadBin("./input/w_packed.bin", hw.data(), wBytes) ||
        !ReadBin("./input/bias.bin", hb.data(), bBytes)) {
        return 1;
    }

    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *dX, *dW, *dB, *dY, *dT;
    CHECK_ACL(aclrtMalloc((void **)&dX, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&dW, wBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&dB, bBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&dY, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&dT, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK_ACL(aclrtMemcpy(dX, xBytes, hx.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dW, wBytes, hw.data(), wBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dB, bBytes, hb.data(), bBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dT, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    const uint32_t blockDim = static_cast<uint32_t>(B);  // one image per core
    ACLRT_LAUNCH_KERNEL(upconv_scaled_channel_mean)(blockDim, stream, dX, dW, dB, dY, dT);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(hy.data(), yBytes, dY, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteBin("./output/output.bin", hy.data(), yBytes);

    aclrtFree(dX); aclrtFree(dW); aclrtFree(dB); aclrtFree(dY); aclrtFree(dT);
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    printf("done: output [%d, %d, 1, 1]\n", B, OC);
    return 0;
}

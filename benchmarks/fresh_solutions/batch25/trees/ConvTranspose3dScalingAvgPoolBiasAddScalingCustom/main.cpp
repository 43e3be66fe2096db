// Host program: transposed conv3d -> scale -> avgpool3d(2) -> +bias -> scale
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_upconv3d_pool_affine.h"

#define CHECK_ACL(x)                                                              \
    do {                                                                          \
        aclError __ret = (x);                                                     \
        if (__ret != ACL_ERROR_NONE) {                                            \
            std::fprintf(stderr, "%s:%d aclError:%d\n", __FILE__, __LINE__, __ret); \
        }                                                                         \
    } while (0)

// mirrors the device-side struct
struct UpConv3dPoolAffineTiling {
    uint32_t batch, cin, cout, inD, inH, inW, wAlign;
    uint32_t poolD, poolH, poolW, pwAlign;
    uint32_t convStride, convPad, ksize;
    uint32_t unitsPerCore, totalUnits;
    float scale1, scale2;
};

template <typename T>
static std::vector<T> ReadBin(const std::string &path, size_t count)
{
    std::vector<T> v(count);
    std::ifstream f(path, std::ios::binary);
    f.read(reinterpret_cast<char *>(v.data()), count * sizeof(T));
    return v;
}

static void *ToDevice(const void *host, size_t bytes)
{
    void *dev = nullptr;
    CHECK_ACL(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    return dev;
}

int32_t main()
{
    const uint32_t B = 128, CI = 3, CO = 16, D = 16, H = 32, W = 32;
    const uint32_t K = 3, STRIDE = 2, PAD = 1;
    const uint32_t blockDim = 40;

    const uint32_t OD = (D - 1) * STRIDE - 2 * PAD + K;   // 31
    const uint32_t OH = (H - 1) * STRIDE - 2 * PAD + K;   // 63
    const uint32_t OW = (W - 1) * STRIDE - 2 * PAD + K;   // 63

    UpConv3dPoolAffineTiling t{};
    t.batch = B;
    t.cin = CI;
    t.cout = CO;
    t.inD = D;
    t.inH = H;
    t.inW = W;
    t.wAlign = (W + 7) / 8 * 8;
    t.poolD = OD / 2;
    t.poolH = OH / 2;
    t.poolW = OW / 2;
    t.pwAlign = (t.poolW + 7) / 8 * 8;
    t.convStride = STRIDE;
    t.convPad = PAD;
    t.ksize = K;
    t.totalUnits = B * t.poolD * t.poolH;
    t.unitsPerCore = (t.totalUnits + blockDim - 1) / blockDim;
    t.scale1 = 0.5f;
    t.scale2 = 1.0f;

    size_t xCount = (size_t)B * CI * D * H * W;
    size_t wCount = (size_t)CI * CO * K * K * K;
    size_t oCount = (size_t)B * CO * t.poolD * t.poolH * t.poolW;

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    auto x = ReadBin<float>("./input/input_x.bin", xCount);
    auto w = ReadBin<float>("./input/input_weight.bin", wCount);
    auto cb = ReadBin<float>("./input/input_conv_bias.bin", CO);
    auto b = ReadBin<float>("./input/input_bias.bin", CO);

    void *xDev = ToDevice(x.data(), xCount * sizeof(float));
    void *wDev = ToDevice(w.data(), wCount * sizeof(float));
    void *cbDev = ToDevice(cb.data(), CO * sizeof(float));
    void *bDev = ToDevice(b.data(), CO * sizeof(float));
    void *tDev = ToDevice(&t, sizeof(t));
    void *oDev = nullptr;
    CHECK_ACL(aclrtMalloc(&oDev, oCount * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));

    ACLRT_LAUNCH_KERNEL(upconv3d_pool_affine)(blockDim, stream, xDev, wDev, cbDev, bDev, oDev, tDev);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> o(oCount);
    CHECK_ACL(aclrtMemcpy(o.data(), oCount * sizeof(float), oDev, oCount * sizeof(float),
                          ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(o.data()), oCount * sizeof(float));

    for (void *p : {xDev, wDev, cbDev, bDev, tDev, oDev}) {
        CHECK_ACL(aclrtFree(p));
    }
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}

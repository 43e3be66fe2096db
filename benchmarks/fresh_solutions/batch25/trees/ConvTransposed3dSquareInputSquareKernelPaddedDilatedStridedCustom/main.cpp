// Host program for strided_dilated_upconv3d.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_strided_dilated_upconv3d.h"

#define CHECK_ACL(x)                                                              \
    do {                                                                          \
        aclError __ret = (x);                                                     \
        if (__ret != ACL_ERROR_NONE) {                                            \
            std::fprintf(stderr, "%s:%d aclError:%d\n", __FILE__, __LINE__, __ret); \
        }                                                                         \
    } while (0)

struct StridedDilatedUpconv3dTiling {
    uint32_t batch, cin, cout;
    uint32_t inD, inH, inW;
    uint32_t outD, outH, outW;
    uint32_t wAlign, rowAlign;
    uint32_t unitCount, unitsPerCore;
};

int32_t main()
{
    const uint32_t N = 16, CI = 32, CO = 64, D = 16, H = 32, W = 32;
    const uint32_t K = 3, STRIDE = 2, PAD = 1, DIL = 2;
    const uint32_t blockDim = 40;

    StridedDilatedUpconv3dTiling t{};
    t.batch = N;
    t.cin = CI;
    t.cout = CO;
    t.inD = D;
    t.inH = H;
    t.inW = W;
    t.outD = (D - 1) * STRIDE - 2 * PAD + DIL * (K - 1) + 1;   // 33
    t.outH = (H - 1) * STRIDE - 2 * PAD + DIL * (K - 1) + 1;   // 65
    t.outW = (W - 1) * STRIDE - 2 * PAD + DIL * (K - 1) + 1;   // 65
    t.wAlign = (W + 7) / 8 * 8;
    t.rowAlign = (t.outW + 7) / 8 * 8;
    t.unitCount = N * D * H;
    t.unitsPerCore = (t.unitCount + blockDim - 1) / blockDim;

    size_t xBytes = (size_t)N * CI * D * H * W * sizeof(float);
    size_t wBytes = (size_t)CI * CO * K * K * K * sizeof(float);
    size_t yBytes = (size_t)N * CO * t.outD * t.outH * t.outW * sizeof(float);

    std::vector<char> hx(xBytes), hw(wBytes), hy(yBytes);
    std::ifstream("./input/x.bin", std::ios::binary).read(hx.data(), xBytes);
    std::ifstream("./input/weight.bin", std::ios::binary).read(hw.data(), wBytes);

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    void *dx, *dw, *dy, *dt;
    CHECK_ACL(aclrtMalloc(&dx, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dw, wBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dy, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dt, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(dx, xBytes, hx.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dw, wBytes, hw.data(), wBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dt, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));
    // even-indexed output planes/rows/columns receive no contribution: clear once
    CHECK_ACL(aclrtMemset(dy, yBytes, 0, yBytes));

    ACLRT_LAUNCH_KERNEL(strided_dilated_upconv3d)(blockDim, stream, dx, dw, dy, dt);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(hy.data(), yBytes, dy, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(hy.data(), yBytes);

    CHECK_ACL(aclrtFree(dx));
    CHECK_ACL(aclrtFree(dw));
    CHECK_ACL(aclrtFree(dy));
    CHECK_ACL(aclrtFree(dt));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}

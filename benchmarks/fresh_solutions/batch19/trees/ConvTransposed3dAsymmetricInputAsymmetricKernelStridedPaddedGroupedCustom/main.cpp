/*
 * Host program for grouped_deconv3d.
 * x (8, 32, 12, 24, 48), w (32, 8, 3, 5, 7), stride (2,2,2), pad (1,2,3),
 * output_padding (1,1,1), groups 4  ->  y (8, 32, 24, 48, 96)
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_grouped_deconv3d.h"

#define ACL_CALL(expr)                                                       \
    do {                                                                     \
        aclError e_ = (expr);                                                \
        if (e_ != ACL_SUCCESS) {                                             \
            std::fprintf(stderr, "%s returned %d\n", #expr, (int)e_);        \
            return -1;                                                       \
        }                                                                    \
    } while (0)

struct GroupedDeconv3dTiling {
    uint32_t batch;
    uint32_t inC, inD, inH, inW;
    uint32_t outC, outD, outH, outW;
    uint32_t kD, kH, kW;
    uint32_t sD, sH, sW;
    uint32_t pD, pH, pW;
    uint32_t groups;
    uint32_t icPerGroup;
    uint32_t ocPerGroup;
    uint32_t inWAlign;
    uint32_t outWAlign;
    uint32_t unitsPerCore;
    uint32_t totalUnits;
};

static uint32_t DeconvLen(uint32_t in, uint32_t k, uint32_t s, uint32_t p, uint32_t op)
{
    return (in - 1) * s - 2 * p + k + op;
}

static uint32_t Align8(uint32_t v) { return (v + 7) / 8 * 8; }

int main()
{
    const uint32_t N = 8, CIN = 32, COUT = 32, D = 12, H = 24, W = 48;
    const uint32_t KD = 3, KH = 5, KW = 7;
    const uint32_t SD = 2, SH = 2, SW = 2;
    const uint32_t PD = 1, PH = 2, PW = 3;
    const uint32_t OPD = 1, OPH = 1, OPW = 1;
    const uint32_t GROUPS = 4;
    const uint32_t blockDim = 48;

    GroupedDeconv3dTiling t{};
    t.batch = N;
    t.inC = CIN; t.inD = D; t.inH = H; t.inW = W;
    t.outC = COUT;
    t.outD = DeconvLen(D, KD, SD, PD, OPD);
    t.outH = DeconvLen(H, KH, SH, PH, OPH);
    t.outW = DeconvLen(W, KW, SW, PW, OPW);
    t.kD = KD; t.kH = KH; t.kW = KW;
    t.sD = SD; t.sH = SH; t.sW = SW;
    t.pD = PD; t.pH = PH; t.pW = PW;
    t.groups = GROUPS;
    t.icPerGroup = CIN / GROUPS;
    t.ocPerGroup = COUT / GROUPS;
    t.inWAlign = Align8(W);
    t.outWAlign = Align8(t.outW);
    t.totalUnits = N * GROUPS * t.outD * t.outH;
    t.unitsPerCore = (t.totalUnits + blockDim - 1) / blockDim;

    const size_t xCount = (size_t)N * CIN * D * H * W;
    const size_t wCount = (size_t)CIN * (COUT / GROUPS) * KD * KH * KW;
    const size_t yCount = (size_t)N * COUT * t.outD * t.outH * t.outW;
    std::vector<float> x(xCount), w(wCount), y(yCount);
    {
        std::ifstream fx("./input/x.bin", std::ios::binary), fw("./input/w.bin", std::ios::binary);
        if (!fx || !fw) {
            std::fprintf(stderr, "inputs missing, run scripts/gen_data.py\n");
            return -1;
        }
        fx.read(reinterpret_cast<char *>(x.data()), xCount * sizeof(float));
        fw.read(reinterpret_cast<char *>(w.data()), wCount * sizeof(float));
    }

    ACL_CALL(aclInit(nullptr));
    ACL_CALL(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_CALL(aclrtCreateStream(&stream));

    void *xDev, *wDev, *yDev, *tDev;
    ACL_CALL(aclrtMalloc(&xDev, xCount * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&wDev, wCount * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&yDev, yCount * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&tDev, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMemcpy(xDev, xCount * sizeof(float), x.data(), xCount * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(wDev, wCount * sizeof(float), w.data(), wCount * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(tDev, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(grouped_deconv3d)(blockDim, stream, xDev, wDev, yDev, tDev);
    ACL_CALL(aclrtSynchronizeStream(stream));

    ACL_CALL(aclrtMemcpy(y.data(), yCount * sizeof(float), yDev, yCount * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream fy("./output/y.bin", std::ios::binary);
    fy.write(reinterpret_cast<const char *>(y.data()), yCount * sizeof(float));
    std::printf("output shape (%u, %u, %u, %u, %u)\n", N, COUT, t.outD, t.outH, t.outW);

    aclrtFree(xDev);
    aclrtFree(wDev);
    aclrtFree(yDev);
    aclrtFree(tDev);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

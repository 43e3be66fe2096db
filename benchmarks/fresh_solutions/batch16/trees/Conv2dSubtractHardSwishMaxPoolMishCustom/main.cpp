/*
 * main.cpp - runs stencil_hswish_downpool_mish on one NPU.
 *   input/x.bin, input/w.bin, input/b.bin  ->  output/output.bin
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "acl/acl.h"

struct StencilHswishDownpoolMishTiling {
    uint32_t batch, inC, outC, inH, inW;
    uint32_t convH, convW, convWPad;
    uint32_t poolH, poolW, kSize;
    uint32_t groupC, groupNum, taskPerCore, taskTotal;
    float offset;
};

#include "aclrtlaunch_stencil_hswish_downpool_mish.h"

#define CHK(x)                                                            \
    if ((x) != ACL_SUCCESS) {                                             \
        fprintf(stderr, "fail: %s (%s:%d)\n", #x, __FILE__, __LINE__);    \
        return 1;                                                         \
    }

static bool LoadFile(const char *p, std::vector<float> &v)
{
    std::ifstream in(p, std::ios::binary);
    return static_cast<bool>(in.read(reinterpret_cast<char *>(v.data()), v.size() * sizeof(float)));
}

int main()
{
    constexpr uint32_t N = 4, CI = 64, CO = 128, H = 128, W = 128, K = 3;
    constexpr float OFFSET = 0.5f;
    constexpr uint32_t GROUP = 16;     // channels accumulated together in UB
    constexpr uint32_t CORES = 48;

    StencilHswishDownpoolMishTiling t{};
    t.batch = N; t.inC = CI; t.outC = CO; t.inH = H; t.inW = W; t.kSize = K;
    t.convH = H - K + 1;
    t.convW = W - K + 1;
    t.convWPad = (t.convW + 63) / 64 * 64;
    t.poolH = t.convH / 2;
    t.poolW = t.convW / 2;
    t.groupC = GROUP;
    t.groupNum = CO / GROUP;
    t.taskTotal = t.groupNum * N * t.poolH;
    t.taskPerCore = (t.taskTotal + CORES - 1) / CORES;
    t.offset = OFFSET;
    uint32_t blockDim = (t.taskTotal + t.taskPerCore - 1) / t.taskPerCore;

    std::vector<float> x(size_t(N) * CI * H * W), w(size_t(CO) * CI * K * K), b(CO);
    std::vector<float> y(size_t(N) * CO * t.poolH * t.poolW);
    if (!LoadFile("./input/x.bin", x) || !LoadFile("./input/w.bin", w) || !LoadFile("./input/b.bin", b)) {
        fprintf(stderr, "missing input files, run scripts/gen_data.py first\n");
        return 1;
    }

    CHK(aclInit(nullptr));
    CHK(aclrtSetDevice(0));
    aclrtStream stream;
    CHK(aclrtCreateStream(&stream));

    uint8_t *dX, *dW, *dB, *dY, *dT;
    CHK(aclrtMalloc((void **)&dX, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc((void **)&dW, w.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc((void **)&dB, b.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc((void **)&dY, y.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc((void **)&dT, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMemcpy(dX, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHK(aclrtMemcpy(dW, w.size() * 4, w.data(), w.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHK(aclrtMemcpy(dB, b.size() * 4, b.data(), b.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHK(aclrtMemcpy(dT, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(stencil_hswish_downpool_mish)(blockDim, stream, dX, dW, dB, dY, dT);
    CHK(aclrtSynchronizeStream(stream));

    CHK(aclrtMemcpy(y.data(), y.size() * 4, dY, y.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(y.data()), y.size() * sizeof(float));

    aclrtFree(dX);
    aclrtFree(dW);
    aclrtFree(dB);
    aclrtFree(dY);
    aclrtFree(dT);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("ok: (%u, %u, %u, %u)\n", N, CO, t.poolH, t.poolW);
    return 0;
}

/**
 * main.cpp - host side of the volume_conv_tanh_gate sample.
 * Reads the binaries produced by scripts/gen_data.py, launches the kernel
 * and writes output/output.bin for comparison against output/golden.bin.
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_volume_conv_tanh_gate.h"

#define CHECK_ACL(expr)                                                                 \
    do {                                                                                \
        aclError _r = (expr);                                                           \
        if (_r != ACL_SUCCESS) {                                                        \
            std::fprintf(stderr, "%s:%d acl error %d\n", __FILE__, __LINE__, (int)_r);  \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

struct VolumeConvTanhGateTiling {
    uint32_t batch, inChannels, outChannels, inD, inH, inW, ksize;
    uint32_t outD, outH, outW, planeElems, windowElems, totalPlanes;
};

static bool ReadBin(const std::string &path, void *buf, size_t bytes)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) { std::fprintf(stderr, "cannot open %s\n", path.c_str()); return false; }
    f.read(static_cast<char *>(buf), bytes);
    return static_cast<size_t>(f.gcount()) == bytes;
}

static bool WriteBin(const std::string &path, const void *buf, size_t bytes)
{
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char *>(buf), bytes);
    return f.good();
}

int main()
{
    // sample shapes (must match scripts/gen_data.py)
    const uint32_t N = 4, CI = 3, CO = 16, D = 16, H = 64, W = 64, K = 3;

    VolumeConvTanhGateTiling t{};
    t.batch = N; t.inChannels = CI; t.outChannels = CO;
    t.inD = D; t.inH = H; t.inW = W; t.ksize = K;
    t.outD = D - K + 1; t.outH = H - K + 1; t.outW = W - K + 1;
    t.planeElems = t.outH * W;
    t.windowElems = (t.outH - 1) * W + t.outW;
    t.totalPlanes = N * CO * t.outD;

    const size_t xBytes = sizeof(float) * N * CI * D * H * W;
    const size_t wBytes = sizeof(float) * CO * CI * K * K * K;
    const size_t cBytes = sizeof(float) * CO;
    const size_t yBytes = sizeof(float) * t.totalPlanes * t.outH * t.outW;
    const uint32_t blockDim = 40;

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    std::vector<float> hx(xBytes / 4), hw(wBytes / 4), hb(CO), ha(CO), hg(CO), hy(yBytes / 4);
    if (!ReadBin("./input/x.bin", hx.data(), xBytes) || !ReadBin("./input/weight.bin", hw.data(), wBytes) ||
        !ReadBin("./input/conv_bias.bin", hb.data(), cBytes) || !ReadBin("./input/alpha.bin", ha.data(), cBytes) ||
        !ReadBin("./input/beta.bin", hg.data(), cBytes)) {
        return 1;
    }

    void *dx, *dw, *db, *da, *dg, *dy, *dt;
    CHECK_ACL(aclrtMalloc(&dx, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dw, wBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&db, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&da, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dg, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dy, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dt, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK_ACL(aclrtMemcpy(dx, xBytes, hx.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dw, wBytes, hw.data(), wBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(db, cBytes, hb.data(), cBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(da, cBytes, ha.data(), cBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dg, cBytes, hg.data(), cBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dt, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(volume_conv_tanh_gate)(blockDim, stream, dx, dw, db, da, dg, dy, dt);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(hy.data(), yBytes, dy, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteBin("./output/output.bin", hy.data(), yBytes);
    std::printf("wrote %zu floats to output/output.bin\n", hy.size());

    aclrtFree(dx); aclrtFree(dw); aclrtFree(db); aclrtFree(da);
    aclrtFree(dg); aclrtFree(dy); aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

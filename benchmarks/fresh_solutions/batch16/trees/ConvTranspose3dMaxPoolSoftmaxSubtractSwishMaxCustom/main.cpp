// upvolume_channel_peak host program
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_upvolume_channel_peak.h"

struct UpvolumeChannelPeakTiling {
    uint32_t batch, inC, outC;
    uint32_t inD, inH, inW;
    uint32_t poolD, poolH, poolW;
    uint32_t rowLen, kSize, stride, pad;
    uint32_t tasksPerCore, totalTasks;
};

#define ACL_OK(call)                                                          \
    do {                                                                      \
        aclError rc_ = (call);                                                \
        if (rc_ != ACL_SUCCESS) {                                             \
            fprintf(stderr, "%s:%d %s -> %d\n", __FILE__, __LINE__, #call, rc_); \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

static std::vector<float> ReadBin(const std::string &name, size_t n)
{
    std::vector<float> buf(n);
    FILE *f = fopen(name.c_str(), "rb");
    if (f == nullptr || fread(buf.data(), sizeof(float), n, f) != n) {
        fprintf(stderr, "failed to read %s\n", name.c_str());
        exit(1);
    }
    fclose(f);
    return buf;
}

static void *ToDevice(const void *host, size_t bytes, size_t extra = 0)
{
    void *dev = nullptr;
    ACL_OK(aclrtMalloc(&dev, bytes + extra, ACL_MEM_MALLOC_HUGE_FIRST));
    if (host != nullptr) {
        ACL_OK(aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    return dev;
}

int main()
{
    const uint32_t N = 8, CI = 3, CO = 16, D = 16, H = 32, W = 32;
    const uint32_t K = 3, S = 2, P = 1, OUT_PAD = 1;
    const uint32_t coreNum = 40;

    // up-sampled extent, then pooled extent (window = stride = S, no padding)
    const uint32_t OD = (D - 1) * S - 2 * P + K + OUT_PAD;
    const uint32_t OH = (H - 1) * S - 2 * P + K + OUT_PAD;
    const uint32_t OW = (W - 1) * S - 2 * P + K + OUT_PAD;
    const uint32_t PD = (OD - S) / S + 1, PH = (OH - S) / S + 1, PW = (OW - S) / S + 1;

    UpvolumeChannelPeakTiling tl{};
    tl.batch = N; tl.inC = CI; tl.outC = CO;
    tl.inD = D; tl.inH = H; tl.inW = W;
    tl.poolD = PD; tl.poolH = PH; tl.poolW = PW;
    tl.rowLen = (PW + 7) / 8 * 8;
    tl.kSize = K; tl.stride = S; tl.pad = P;
    tl.totalTasks = N * PD * PH;
    tl.tasksPerCore = (tl.totalTasks + coreNum - 1) / coreNum;
    uint32_t blockDim = (tl.totalTasks + tl.tasksPerCore - 1) / tl.tasksPerCore;

    const size_t xN = size_t(N) * CI * D * H * W;
    const size_t wN = size_t(CI) * CO * K * K * K;
    const size_t yN = size_t(N) * PD * PH * PW;
    auto x = ReadBin("./input/x.bin", xN);
    auto w = ReadBin("./input/weight.bin", wN);
    auto b = ReadBin("./input/bias.bin", CO);
    auto s = ReadBin("./input/shift.bin", CO);

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ACL_OK(aclrtCreateStream(&stream));

    void *dx = ToDevice(x.data(), xN * 4);
    void *dw = ToDevice(w.data(), wN * 4, 32);   // slack for 32B aligned loads
    void *db = ToDevice(b.data(), CO * 4, 32);
    void *ds = ToDevice(s.data(), CO * 4, 32);
    void *dy = ToDevice(nullptr, yN * 4);
    void *dt = ToDevice(&tl, sizeof(tl));

    ACLRT_LAUNCH_KERNEL(upvolume_channel_peak)(blockDim, stream, dx, dw, db, ds, dy, dt);
    ACL_OK(aclrtSynchronizeStream(stream));

    std::vector<float> y(yN);
    ACL_OK(aclrtMemcpy(y.data(), yN * 4, dy, yN * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    FILE *f = fopen("./output/output.bin", "wb");
    fwrite(y.data(), sizeof(float), yN, f);
    fclose(f);

    for (void *p : {dx, dw, db, ds, dy, dt}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("done: out (%u, %u, %u, %u), blockDim %u\n", N, PD, PH, PW, blockDim);
    return 0;
}

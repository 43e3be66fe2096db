// slide3x3_rect_hswish host program
//   x [N, 8, 128, 128], weight [64, 8, 3, 3], bias [64] -> y [N, 64, 126, 126]
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_slide3x3_rect_hswish.h"

struct Slide3x3RectHswishTiling {
    uint32_t batch, inCh, outCh, inH, inW, ksize, outH, outW;
    uint32_t rowStride, band, bandsPerImage, itemsPerCore, itemsLeft;
};

namespace {
void Fill(const char *file, std::vector<float> &buf)
{
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        fprintf(stderr, "warning: %s not found\n", file);
        return;
    }
    in.read(reinterpret_cast<char *>(buf.data()), buf.size() * sizeof(float));
}

Slide3x3RectHswishTiling MakeTiling(uint32_t n, uint32_t cin, uint32_t cout, uint32_t h, uint32_t w, uint32_t k,
                                    uint32_t cores)
{
    Slide3x3RectHswishTiling t{};
    t.batch = n;
    t.inCh = cin;
    t.outCh = cout;
    t.inH = h;
    t.inW = w;
    t.ksize = k;
    t.outH = h - k + 1;
    t.outW = w - k + 1;
    t.rowStride = (t.outW + 7) / 8 * 8;
    // input slab = cin * (band + k - 1) * k rows of rowStride floats; keep it near 72 KB
    t.band = 4;
    t.bandsPerImage = (t.outH + t.band - 1) / t.band;
    uint32_t items = n * t.bandsPerImage;
    t.itemsPerCore = items / cores;
    t.itemsLeft = items % cores;
    return t;
}
} // namespace

int main()
{
    const uint32_t N = 8, CIN = 8, COUT = 64, H = 128, W = 128, K = 3;
    const uint32_t cores = 48;
    Slide3x3RectHswishTiling t = MakeTiling(N, CIN, COUT, H, W, K, cores);

    std::vector<float> x((size_t)N * CIN * H * W), wt((size_t)COUT * CIN * K * K), b(COUT);
    std::vector<float> y((size_t)N * COUT * t.outH * t.outW);
    Fill("input/x.bin", x);
    Fill("input/weight.bin", wt);
    Fill("input/bias.bin", b);

    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);

    auto upload = [](const void *host, size_t bytes) {
        void *dev = nullptr;
        aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
        return dev;
    };
    void *dX = upload(x.data(), x.size() * 4);
    void *dW = upload(wt.data(), wt.size() * 4);
    void *dB = upload(b.data(), b.size() * 4);
    void *dT = upload(&t, sizeof(t));
    void *dY = nullptr;
    aclrtMalloc(&dY, y.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST);

    ACLRT_LAUNCH_KERNEL(slide3x3_rect_hswish)(cores, stream, dX, dW, dB, dY, dT);
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
        fprintf(stderr, "kernel run failed\n");
        return 1;
    }
    aclrtMemcpy(y.data(), y.size() * 4, dY, y.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream("output/y.bin", std::ios::binary).write(reinterpret_cast<const char *>(y.data()), y.size() * 4);

    aclrtFree(dX);
    aclrtFree(dW);
    aclrtFree(dB);
    aclrtFree(dT);
    aclrtFree(dY);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

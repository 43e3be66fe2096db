// Host program for bilinear_resample.
// Usage: ./bilinear_resample [outH outW]   (defaults to 200 300)
// The target size is only known at run time; it goes to the device in the tiling.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_bilinear_resample.h"

#define CHECK_RET(expr)                                                           \
    do {                                                                          \
        aclError r_ = (expr);                                                     \
        if (r_ != ACL_SUCCESS) {                                                  \
            std::fprintf(stderr, "[ERROR] %s -> %d (%s:%d)\n", #expr, r_, __FILE__, __LINE__); \
            return 1;                                                             \
        }                                                                         \
    } while (0)

struct BilinearResampleTiling {
    uint32_t planes;
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t inWAlign;
    uint32_t outWAlign;
    uint32_t rowsPerCore;
    uint32_t totalRows;
    float scaleH;
    float scaleW;
};

int main(int argc, char *argv[])
{
    const uint32_t N = 4, C = 128, H = 100, W = 150;
    uint32_t outH = 200, outW = 300;
    if (argc == 3) {
        outH = static_cast<uint32_t>(std::atoi(argv[1]));
        outW = static_cast<uint32_t>(std::atoi(argv[2]));
    }
    const uint32_t blockDim = 40;

    BilinearResampleTiling tl{};
    tl.planes = N * C;
    tl.inH = H;
    tl.inW = W;
    tl.outH = outH;
    tl.outW = outW;
    tl.inWAlign = (W + 7) / 8 * 8;
    tl.outWAlign = (outW + 7) / 8 * 8;
    tl.totalRows = tl.planes * outH;
    tl.rowsPerCore = (tl.totalRows + blockDim - 1) / blockDim;
    tl.scaleH = static_cast<float>(H) / static_cast<float>(outH);
    tl.scaleW = static_cast<float>(W) / static_cast<float>(outW);

    std::vector<float> x(size_t(N) * C * H * W);
    std::vector<float> y(size_t(N) * C * outH * outW);
    std::ifstream fin("./input/input_x.bin", std::ios::binary);
    if (!fin) {
        std::fprintf(stderr, "missing ./input/input_x.bin\n");
        return 1;
    }
    fin.read(reinterpret_cast<char *>(x.data()), x.size() * sizeof(float));

    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream));

    const size_t xBytes = x.size() * sizeof(float);
    const size_t yBytes = y.size() * sizeof(float);
    void *xd = nullptr, *yd = nullptr, *td = nullptr;
    CHECK_RET(aclrtMalloc(&xd, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&yd, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&td, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMemcpy(xd, xBytes, x.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclrtMemcpy(td, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(bilinear_resample)(blockDim, stream, xd, yd, td);
    CHECK_RET(aclrtSynchronizeStream(stream));

    CHECK_RET(aclrtMemcpy(y.data(), yBytes, yd, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output_y.bin", std::ios::binary).write(reinterpret_cast<const char *>(y.data()), yBytes);
    std::printf("resampled %ux%u -> %ux%u over %u planes\n", H, W, outH, outW, tl.planes);

    aclrtFree(xd);
    aclrtFree(yd);
    aclrtFree(td);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

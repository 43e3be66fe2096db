// Host program for channelwise_vertical_filter.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_channelwise_vertical_filter.h"

#define CHECK_ACL(x)                                                                \
    do {                                                                            \
        aclError __ret = x;                                                         \
        if (__ret != ACL_ERROR_NONE) {                                              \
            std::fprintf(stderr, "%s:%d aclError:%d\n", __FILE__, __LINE__, __ret); \
            std::exit(1);                                                           \
        }                                                                           \
    } while (0)

struct ChannelwiseVerticalFilterTiling {
    uint32_t batch, channels, height, width, taps, dilation, outHeight, rowBlock;
};

template <typename T>
static std::vector<T> ReadVec(const char *path, size_t n)
{
    std::vector<T> v(n);
    std::ifstream f(path, std::ios::binary);
    f.read(reinterpret_cast<char *>(v.data()), n * sizeof(T));
    if (!f) { std::fprintf(stderr, "read %s failed\n", path); std::exit(1); }
    return v;
}

int main()
{
    const uint32_t N = 4, C = 8, H = 256, W = 256, K = 3, DIL = 1;
    const uint32_t coreNum = 40;

    ChannelwiseVerticalFilterTiling tl{};
    tl.batch = N;
    tl.channels = C;
    tl.height = H;
    tl.width = W;
    tl.taps = K;
    tl.dilation = DIL;
    tl.outHeight = H - (K - 1) * DIL;
    assert(W % 8 == 0);
    // input block (rowBlock + span) * W and output block rowBlock * W, double buffered,
    // kept under ~160 KiB of UB
    const uint32_t budgetFloats = 160 * 1024 / sizeof(float) / 2;
    uint32_t rb = budgetFloats / W;
    rb = (rb > (K - 1) * DIL) ? (rb - (K - 1) * DIL) / 2 : 1;
    tl.rowBlock = rb > tl.outHeight ? tl.outHeight : rb;
    if (tl.rowBlock == 0) tl.rowBlock = 1;
    const uint32_t tasks = N * C * ((tl.outHeight + tl.rowBlock - 1) / tl.rowBlock);
    const uint32_t blockDim = tasks < coreNum ? tasks : coreNum;

    const size_t xCount = (size_t)N * C * H * W;
    const size_t yCount = (size_t)N * C * tl.outHeight * W;
    auto x = ReadVec<float>("./input/x.bin", xCount);
    auto w = ReadVec<float>("./input/weight.bin", (size_t)C * K);

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *xDev, *wDev, *yDev, *tlDev;
    CHECK_ACL(aclrtMalloc((void **)&xDev, xCount * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&wDev, C * K * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDev, yCount * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tlDev, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(xDev, xCount * 4, x.data(), xCount * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(wDev, C * K * 4, w.data(), C * K * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tlDev, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(channelwise_vertical_filter)(blockDim, stream, xDev, wDev, yDev, tlDev);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> y(yCount);
    CHECK_ACL(aclrtMemcpy(y.data(), yCount * 4, yDev, yCount * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream out("./output/output.bin", std::ios::binary);
    out.write(reinterpret_cast<const char *>(y.data()), yCount * 4);
    std::printf("rowBlock=%u tasks=%u blockDim=%u\n", tl.rowBlock, tasks, blockDim);

    CHECK_ACL(aclrtFree(xDev));
    CHECK_ACL(aclrtFree(wDev));
    CHECK_ACL(aclrtFree(yDev));
    CHECK_ACL(aclrtFree(tlDev));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}

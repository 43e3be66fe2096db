// Host side of channel_bias_add: fills the tiling from the tensor shape and
// launches through the <<<>>> wrapper compiled together with the kernel.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"

struct ChannelBiasAddTiling {
    uint32_t channels;
    uint32_t planeLen;
    uint32_t planeCount;
    uint32_t planesPerCore;
    uint32_t extraPlanes;
    uint32_t tileLen;
};

extern void channel_bias_add_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *b, uint8_t *y,
                                uint8_t *tiling);

#define ACL_OK(call)                                                          \
    if ((call) != ACL_SUCCESS) {                                              \
        fprintf(stderr, "failed: %s (line %d)\n", #call, __LINE__);           \
        return -1;                                                            \
    }

static size_t LoadBin(const char *name, std::vector<float> &dst)
{
    std::ifstream in(name, std::ios::binary);
    in.read(reinterpret_cast<char *>(dst.data()), dst.size() * sizeof(float));
    return in.gcount();
}

int main()
{
    const uint32_t N = 8, C = 512, H = 32, W = 32;
    const uint32_t coreNum = 48;

    ChannelBiasAddTiling tl{};
    tl.channels = C;
    tl.planeLen = H * W;
    tl.planeCount = N * C;
    tl.planesPerCore = tl.planeCount / coreNum;
    tl.extraPlanes = tl.planeCount % coreNum;
    tl.tileLen = tl.planeLen < 16384 ? (tl.planeLen + 7) / 8 * 8 : 16384;

    size_t total = (size_t)N * C * H * W;
    std::vector<float> x(total), b(C), y(total);
    if (LoadBin("./input/x.bin", x) != total * sizeof(float) || LoadBin("./input/bias.bin", b) != C * sizeof(float)) {
        fprintf(stderr, "input files missing, run scripts/gen_data.py first\n");
        return -1;
    }

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_OK(aclrtCreateStream(&stream));

    uint8_t *dx = nullptr, *db = nullptr, *dy = nullptr, *dtl = nullptr;
    ACL_OK(aclrtMalloc((void **)&dx, total * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&db, C * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&dy, total * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&dtl, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpy(dx, total * sizeof(float), x.data(), total * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(db, C * sizeof(float), b.data(), C * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(dtl, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    channel_bias_add_do(coreNum, stream, dx, db, dy, dtl);
    ACL_OK(aclrtSynchronizeStream(stream));

    ACL_OK(aclrtMemcpy(y.data(), total * sizeof(float), dy, total * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream out("./output/y.bin", std::ios::binary);
    out.write(reinterpret_cast<const char *>(y.data()), total * sizeof(float));

    aclrtFree(dx);
    aclrtFree(db);
    aclrtFree(dy);
    aclrtFree(dtl);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_per_channel_divide.h"

#define CHECK_ACL(x)                                                                  \
    do {                                                                              \
        aclError e_ = (x);                                                            \
        if (e_ != ACL_SUCCESS) {                                                      \
            std::fprintf(stderr, "%s:%d aclError %d\n", __FILE__, __LINE__, e_);      \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

struct PerChannelDivideTiling {
    uint32_t planes;
    uint32_t channels;
    uint32_t planeLen;
    uint32_t tileLen;
    uint32_t tilesPerPlane;
    uint32_t tailLen;
    uint32_t planesPerCore;
    uint32_t pad;
};

int main()
{
    constexpr uint32_t N = 8, C = 3, H = 32, W = 128;
    constexpr uint32_t kCores = 24;          // one plane per core for this shape
    constexpr uint32_t kMaxTile = 8192;

    PerChannelDivideTiling tl{};
    tl.planes = N * C;
    tl.channels = C;
    tl.planeLen = H * W;
    tl.tileLen = tl.planeLen < kMaxTile ? (tl.planeLen + 7) / 8 * 8 : kMaxTile;
    tl.tilesPerPlane = (tl.planeLen + tl.tileLen - 1) / tl.tileLen;
    tl.tailLen = tl.planeLen - (tl.tilesPerPlane - 1) * tl.tileLen;
    tl.planesPerCore = (tl.planes + kCores - 1) / kCores;

    const size_t xBytes = size_t(N) * C * H * W * sizeof(float);
    const size_t sBytes = C * sizeof(float);
    std::vector<float> x(xBytes / sizeof(float)), s(C), y(xBytes / sizeof(float));

    {
        std::ifstream fx("./input/input_x.bin", std::ios::binary), fs("./input/input_scale.bin", std::ios::binary);
        if (!fx || !fs) {
            std::fprintf(stderr, "input files missing, run scripts/gen_data.py\n");
            return 1;
        }
        fx.read(reinterpret_cast<char *>(x.data()), xBytes);
        fs.read(reinterpret_cast<char *>(s.data()), sBytes);
    }

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *xDev, *sDev, *yDev, *tDev;
    CHECK_ACL(aclrtMalloc((void **)&xDev, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&sDev, sBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDev, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tDev, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(xDev, xBytes, x.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(sDev, sBytes, s.data(), sBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tDev, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    per_channel_divide<<<kCores, nullptr, stream>>>(xDev, sDev, yDev, tDev);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(y.data(), xBytes, yDev, xBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output_y.bin", std::ios::binary).write(reinterpret_cast<char *>(y.data()), xBytes);

    aclrtFree(xDev);
    aclrtFree(sDev);
    aclrtFree(yDev);
    aclrtFree(tDev);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

// Host side for clip_below_zero: y = max(x, 0).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "acl/acl.h"

extern void clip_below_zero_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *tiling);

namespace {
constexpr uint64_t kRows = 2048;
constexpr uint64_t kCols = 16384;
constexpr uint32_t kBlockDim = 40;
constexpr uint32_t kTileLen = 8192;

struct ClipBelowZeroTiling {
    uint32_t totalLenLo;
    uint32_t totalLenHi;
    uint32_t sliceLen;
    uint32_t tileLen;
};

void Check(aclError ret, const char *what)
{
    if (ret != ACL_SUCCESS) {
        fprintf(stderr, "%s failed: %d\n", what, static_cast<int>(ret));
        std::exit(1);
    }
}

std::vector<float> Load(const char *path, size_t count)
{
    std::vector<float> buf(count);
    std::ifstream in(path, std::ios::binary);
    if (!in.read(reinterpret_cast<char *>(buf.data()), count * sizeof(float))) {
        fprintf(stderr, "short read on %s\n", path);
        std::exit(1);
    }
    return buf;
}
}  // namespace

int main()
{
    const uint64_t total = kRows * kCols;
    const size_t bytes = total * sizeof(float);

    ClipBelowZeroTiling tiling{};
    tiling.totalLenLo = static_cast<uint32_t>(total & 0xFFFFFFFFu);
    tiling.totalLenHi = static_cast<uint32_t>(total >> 32);
    // per-core slice rounded down to 8 floats (32 bytes); remainder goes to the last core
    tiling.sliceLen = static_cast<uint32_t>((total / kBlockDim) / 8 * 8);
    tiling.tileLen = kTileLen;

    Check(aclInit(nullptr), "aclInit");
    Check(aclrtSetDevice(0), "aclrtSetDevice");
    aclrtStream stream;
    Check(aclrtCreateStream(&stream), "aclrtCreateStream");

    std::vector<float> x = Load("./input/input_x.bin", total);

    uint8_t *xDev, *yDev, *tilingDev;
    Check(aclrtMalloc(reinterpret_cast<void **>(&xDev), bytes, ACL_MEM_MALLOC_HUGE_FIRST), "malloc x");
    Check(aclrtMalloc(reinterpret_cast<void **>(&yDev), bytes, ACL_MEM_MALLOC_HUGE_FIRST), "malloc y");
    Check(aclrtMalloc(reinterpret_cast<void **>(&tilingDev), sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST),
          "malloc tiling");
    Check(aclrtMemcpy(xDev, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), "copy x");
    Check(aclrtMemcpy(tilingDev, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE),
          "copy tiling");

    clip_below_zero_do(kBlockDim, stream, xDev, yDev, tilingDev);
    Check(aclrtSynchronizeStream(stream), "sync");

    std::vector<float> y(total);
    Check(aclrtMemcpy(y.data(), bytes, yDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST), "copy y");
    std::ofstream out("./output/output_y.bin", std::ios::binary);
    out.write(reinterpret_cast<const char *>(y.data()), bytes);

    aclrtFree(xDev);
    aclrtFree(yDev);
    aclrtFree(tilingDev);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

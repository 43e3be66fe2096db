// dilated_upconv1d host: tiling, launch, dump.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_dilated_upconv1d.h"

constexpr uint32_t MAX_TAPS = 8;

struct DilatedUpconv1dTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inLen;
    uint32_t outLen;
    uint32_t taps;
    uint32_t stride;
    uint32_t qTile;
    uint32_t chunksPerRow;
    uint32_t unitsPerCore;
    uint32_t unitsTail;
    int32_t tapPhase[MAX_TAPS];
    int32_t tapShift[MAX_TAPS];
};

#define CHECK(call)                                                         \
    if ((call) != ACL_SUCCESS) {                                            \
        std::printf("ACL call failed: %s (line %d)\n", #call, __LINE__);   \
        return 1;                                                           \
    }

static int32_t FloorMod(int32_t a, int32_t m) { return ((a % m) + m) % m; }

static DilatedUpconv1dTiling MakeTiling(uint32_t batch, uint32_t cin, uint32_t cout, uint32_t len, uint32_t k,
                                        uint32_t stride, uint32_t pad, uint32_t dil, uint32_t cores)
{
    DilatedUpconv1dTiling t{};
    t.batch = batch;
    t.cin = cin;
    t.cout = cout;
    t.inLen = len;
    t.outLen = (len - 1) * stride - 2 * pad + dil * (k - 1) + 1;
    t.taps = k;
    t.stride = stride;
    for (uint32_t i = 0; i < k; ++i) {
        int32_t num = static_cast<int32_t>(i * dil) - static_cast<int32_t>(pad);
        int32_t r = FloorMod(num, static_cast<int32_t>(stride));
        t.tapPhase[i] = r;
        t.tapShift[i] = (r - num) / static_cast<int32_t>(stride);
    }
    // the staged input rows (cin * k rows of qTile floats) get ~96 KB of UB
    const uint32_t stageBudget = 96 * 1024;
    uint32_t qTile = stageBudget / (cin * k * sizeof(float));
    qTile = std::min<uint32_t>(qTile, 512) / 8 * 8;
    t.qTile = std::max<uint32_t>(qTile, 8);
    uint32_t qCount = (t.outLen + stride - 1) / stride;
    t.chunksPerRow = (qCount + t.qTile - 1) / t.qTile;
    uint32_t units = batch * t.chunksPerRow;
    t.unitsPerCore = units / cores;
    t.unitsTail = units % cores;
    return t;
}

int main()
{
    const uint32_t B = 8, CIN = 32, COUT = 64, L = 16384;
    const uint32_t K = 3, STRIDE = 2, PAD = 1, DIL = 2;
    const uint32_t cores = 40;

    DilatedUpconv1dTiling tiling = MakeTiling(B, CIN, COUT, L, K, STRIDE, PAD, DIL, cores);
    std::printf("out length %u, qTile %u, chunks/row %u\n", tiling.outLen, tiling.qTile, tiling.chunksPerRow);

    size_t xBytes = (size_t)B * CIN * L * sizeof(float);
    size_t wBytes = (size_t)CIN * COUT * K * sizeof(float);
    size_t yBytes = (size_t)B * COUT * tiling.outLen * sizeof(float);

    std::vector<char> hx(xBytes), hw(wBytes), hy(yBytes);
    {
        std::ifstream fx("./input/input_x.bin", std::ios::binary);
        std::ifstream fw("./input/input_w.bin", std::ios::binary);
        if (!fx.read(hx.data(), xBytes) || !fw.read(hw.data(), wBytes)) {
            std::printf("missing input files\n");
            return 1;
        }
    }

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));

    void *dx, *dw, *dy, *dt;
    CHECK(aclrtMalloc(&dx, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dw, wBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dy, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dt, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dx, xBytes, hx.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dw, wBytes, hw.data(), wBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dt, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(dilated_upconv1d)(cores, stream, dx, dw, dy, dt);
    CHECK(aclrtSynchronizeStream(stream));

    CHECK(aclrtMemcpy(hy.data(), yBytes, dy, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output_y.bin", std::ios::binary).write(hy.data(), yBytes);

    aclrtFree(dx);
    aclrtFree(dw);
    aclrtFree(dy);
    aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

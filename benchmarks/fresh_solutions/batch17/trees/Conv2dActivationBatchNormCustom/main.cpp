/**
 * Host driver: 3x3 valid convolution + mish + training-mode batch norm.
 * Launches conv_mish_bstat, then conv_mish_bstat_apply on the same stream.
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_conv_mish_bstat.h"
#include "aclrtlaunch_conv_mish_bstat_apply.h"

#define CHECK_ACL(expr)                                                              \
    do {                                                                             \
        aclError _ret = (expr);                                                      \
        if (_ret != ACL_SUCCESS) {                                                   \
            fprintf(stderr, "[ERROR] %s failed at %s:%d, ret=%d\n", #expr, __FILE__, \
                    __LINE__, _ret);                                                 \
            return 1;                                                                \
        }                                                                            \
    } while (0)

struct ConvMishBstatTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t outWAlign;
    uint32_t planeTile;
    float eps;
};

static bool ReadFile(const char *path, void *buf, size_t size)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return false;
    }
    f.read(static_cast<char *>(buf), size);
    return static_cast<size_t>(f.gcount()) == size;
}

static bool WriteFile(const char *path, const void *buf, size_t size)
{
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char *>(buf), size);
    return f.good();
}

int main()
{
    const uint32_t N = 64, CIN = 64, COUT = 128, H = 128, W = 128, K = 3;
    const uint32_t OH = H - K + 1, OW = W - K + 1;
    const uint32_t blockDim = 40;

    ConvMishBstatTiling tiling{};
    tiling.batch = N;
    tiling.cin = CIN;
    tiling.cout = COUT;
    tiling.inH = H;
    tiling.inW = W;
    tiling.outH = OH;
    tiling.outW = OW;
    tiling.outWAlign = (OW + 7) / 8 * 8;
    tiling.planeTile = 8192;
    tiling.eps = 1e-5f;

    size_t xBytes = (size_t)N * CIN * H * W * sizeof(float);
    size_t wBytes = (size_t)COUT * CIN * K * K * sizeof(float);
    size_t cBytes = COUT * sizeof(float);
    size_t yBytes = (size_t)N * COUT * OH * OW * sizeof(float);
    size_t sBytes = (size_t)COUT * N * 2 * sizeof(float);

    std::vector<uint8_t> hx(xBytes), hw(wBytes), hb(cBytes), hg(cBytes), hbe(cBytes), hy(yBytes);
    if (!ReadFile("./input/x.bin", hx.data(), xBytes) || !ReadFile("./input/weight.bin", hw.data(), wBytes) ||
        !ReadFile("./input/bias.bin", hb.data(), cBytes) || !ReadFile("./input/gamma.bin", hg.data(), cBytes) ||
        !ReadFile("./input/beta.bin", hbe.data(), cBytes)) {
        return 1;
    }

    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    void *dx, *dw, *db, *dg, *dbe, *dy, *ds, *dt;
    CHECK_ACL(aclrtMalloc(&dx, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dw, wBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&db, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dg, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dbe, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dy, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&ds, sBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dt, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK_ACL(aclrtMemcpy(dx, xBytes, hx.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dw, wBytes, hw.data(), wBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(db, cBytes, hb.data(), cBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dg, cBytes, hg.data(), cBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dbe, cBytes, hbe.data(), cBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dt, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    // pass 1: conv + mish + per-plane partial statistics
    ACLRT_LAUNCH_KERNEL(conv_mish_bstat)(blockDim, stream, dx, dw, db, dy, ds, dt);
    // pass 2: per-channel mean/var and in-place normalisation (same stream -> ordered)
    ACLRT_LAUNCH_KERNEL(conv_mish_bstat_apply)(blockDim, stream, dy, ds, dg, dbe, dt);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(hy.data(), yBytes, dy, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output.bin", hy.data(), yBytes);

    aclrtFree(dx);
    aclrtFree(dw);
    aclrtFree(db);
    aclrtFree(dg);
    aclrtFree(dbe);
    aclrtFree(dy);
    aclrtFree(ds);
    aclrtFree(dt);
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
    printf("done, output written to ./output/output.bin\n");
    return 0;
}

/*
 * Host program for vol_deconv_silu_gn_hsw.
 * Reads input/weights produced by scripts/gen_data.py, launches the kernel
 * once and writes output/output_y.bin for comparison with the golden file.
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_vol_deconv_silu_gn_hsw.h"

#define CHECK_ACL(expr)                                                              \
    do {                                                                             \
        aclError _ret = (expr);                                                      \
        if (_ret != ACL_SUCCESS) {                                                   \
            fprintf(stderr, "%s:%d acl error %d\n", __FILE__, __LINE__, (int)_ret);   \
            return 1;                                                                \
        }                                                                            \
    } while (0)

// must stay byte-identical to the struct in vol_deconv_silu_gn_hsw.cpp
struct VolDeconvSiluGnHswTiling {
    uint32_t batch, inCh, outCh, inD, inH, inW, outD, outH, outW;
    uint32_t ksize, stride, pad, groups, phaseLen, rowAlign, chunkLen, itemsPerCore, itemsTail;
    float eps;
};

static bool ReadFile(const char *path, void *buf, size_t size)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) { fprintf(stderr, "cannot open %s\n", path); return false; }
    f.read(static_cast<char *>(buf), size);
    return static_cast<size_t>(f.gcount()) == size;
}

static bool WriteFile(const char *path, const void *buf, size_t size)
{
    std::ofstream f(path, std::ios::binary);
    if (!f) return false;
    f.write(static_cast<const char *>(buf), size);
    return true;
}

int main()
{
    // problem size (kept in sync with scripts/gen_data.py)
    const uint32_t N = 2, CIN = 3, COUT = 16, D = 16, H = 32, W = 32;
    const uint32_t K = 3, S = 2, P = 1, G = 4;
    const uint32_t OD = (D - 1) * S - 2 * P + K;
    const uint32_t OH = (H - 1) * S - 2 * P + K;
    const uint32_t OW = (W - 1) * S - 2 * P + K;
    const uint32_t blockDim = 8;

    VolDeconvSiluGnHswTiling tiling{};
    tiling.batch = N; tiling.inCh = CIN; tiling.outCh = COUT;
    tiling.inD = D; tiling.inH = H; tiling.inW = W;
    tiling.outD = OD; tiling.outH = OH; tiling.outW = OW;
    tiling.ksize = K; tiling.stride = S; tiling.pad = P; tiling.groups = G;
    uint32_t slots = (OW + P + S - 1) / S + 1;
    tiling.phaseLen = (slots + 7) / 8 * 8;
    tiling.rowAlign = (OW + 7) / 8 * 8;
    tiling.chunkLen = 8192;
    uint32_t items = N * G;
    tiling.itemsPerCore = items / blockDim;
    tiling.itemsTail = items % blockDim;
    tiling.eps = 1e-5f;

    size_t xBytes = (size_t)N * CIN * D * H * W * sizeof(float);
    size_t wBytes = (size_t)CIN * COUT * K * K * K * sizeof(float);
    size_t cBytes = (size_t)COUT * sizeof(float);
    size_t yBytes = (size_t)N * COUT * OD * OH * OW * sizeof(float);

    std::vector<uint8_t> hx(xBytes), hw(wBytes), hb(cBytes), hg(cBytes), hbt(cBytes), hy(yBytes);
    if (!ReadFile("./input/input_x.bin", hx.data(), xBytes) ||
        !ReadFile("./input/input_w.bin", hw.data(), wBytes) ||
        !ReadFile("./input/input_bias.bin", hb.data(), cBytes) ||
        !ReadFile("./input/input_gamma.bin", hg.data(), cBytes) ||
        !ReadFile("./input/input_beta.bin", hbt.data(), cBytes)) {
        return 1;
    }

    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    void *dx, *dw, *db, *dg, *dbt, *dy, *dt;
    CHECK_ACL(aclrtMalloc(&dx, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dw, wBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&db, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dg, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dbt, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dy, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dt, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK_ACL(aclrtMemcpy(dx, xBytes, hx.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dw, wBytes, hw.data(), wBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(db, cBytes, hb.data(), cBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dg, cBytes, hg.data(), cBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dbt, cBytes, hbt.data(), cBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dt, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(vol_deconv_silu_gn_hsw)(blockDim, stream, dx, dw, db, dg, dbt, dy, dt);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(hy.data(), yBytes, dy, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_y.bin", hy.data(), yBytes);

    aclrtFree(dx); aclrtFree(dw); aclrtFree(db); aclrtFree(dg);
    aclrtFree(dbt); aclrtFree(dy); aclrtFree(dt);
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
    printf("vol_deconv_silu_gn_hsw done\n");
    return 0;
}

/*
 * Host program for dense_batch_standardize.
 * Launch order: GEMM (+bias) into a scratch matrix, then the column
 * statistics / normalisation kernel.
 */
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_dense_batch_standardize_mm.h"
#include "aclrtlaunch_dense_batch_standardize.h"

#define CHECK_ACL(x)                                                                  \
    do {                                                                              \
        aclError __ret = (x);                                                         \
        if (__ret != ACL_ERROR_NONE) {                                                \
            std::fprintf(stderr, "%s:%d aclError:%d\n", __FILE__, __LINE__, __ret);   \
        }                                                                             \
    } while (0)

// header fields that precede TCubeTiling in the device struct
struct StandardizeHeader {
    uint32_t m;
    uint32_t n;
    uint32_t k;
    uint32_t colsPerCore;
    uint32_t rowChunk;
    float eps;
    uint32_t reserved0;
    uint32_t reserved1;
};

static bool ReadFile(const std::string &path, void *buf, size_t bytes)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        std::fprintf(stderr, "missing %s\n", path.c_str());
        return false;
    }
    f.read(static_cast<char *>(buf), bytes);
    return true;
}

static void WriteFile(const std::string &path, const void *buf, size_t bytes)
{
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char *>(buf), bytes);
}

static std::vector<uint8_t> BuildTiling(uint32_t M, uint32_t N, uint32_t K, uint32_t cubeCores, uint32_t vecCores)
{
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling mmTiling(*plat);
    mmTiling.SetDim(cubeCores);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT, true);
    mmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                         matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.SetBias(true);
    mmTiling.SetBufferSpace(-1, -1, -1);

    optiling::TCubeTiling cube;
    if (mmTiling.GetTiling(cube) == -1) {
        std::fprintf(stderr, "matmul tiling failed\n");
    }

    StandardizeHeader h{};
    h.m = M;
    h.n = N;
    h.k = K;
    h.colsPerCore = ((N + vecCores - 1) / vecCores + 7) / 8 * 8;
    h.rowChunk = 32;          // 32 rows x colsPerCore floats per staged block
    h.eps = 1e-5f;

    std::vector<uint8_t> buf(sizeof(h) + cube.GetDataSize());
    std::memcpy(buf.data(), &h, sizeof(h));
    cube.SaveToBuffer(buf.data() + sizeof(h), cube.GetDataSize());
    return buf;
}

int32_t main()
{
    const uint32_t M = 16384, K = 4096, N = 4096;
    const uint32_t cubeCores = 24;
    const uint32_t vecCores = 32;

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    std::vector<uint8_t> tiling = BuildTiling(M, N, K, cubeCores, vecCores);
    size_t wsBytes = platform_ascendc::PlatformAscendCManager::GetInstance()->GetLibApiWorkSpaceSize();

    size_t xBytes = (size_t)M * K * sizeof(float);
    size_t wBytes = (size_t)N * K * sizeof(float);
    size_t vBytes = (size_t)N * sizeof(float);
    size_t yBytes = (size_t)M * N * sizeof(float);

    std::vector<float> hx(M * (size_t)K), hw(N * (size_t)K), hb(N), hs(N), hg(N), hbeta(N);
    ReadFile("./input/x.bin", hx.data(), xBytes);
    ReadFile("./input/weight.bin", hw.data(), wBytes);
    ReadFile("./input/bias.bin", hb.data(), vBytes);
    ReadFile("./input/scale.bin", hs.data(), vBytes);
    ReadFile("./input/gamma.bin", hg.data(), vBytes);
    ReadFile("./input/beta.bin", hbeta.data(), vBytes);

    void *dx, *dw, *db, *ds, *dg, *dbeta, *dy, *dout, *dws, *dt;
    CHECK_ACL(aclrtMalloc(&dx, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dw, wBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&db, vBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&ds, vBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dg, vBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dbeta, vBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dy, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dout, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dws, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dt, tiling.size(), ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK_ACL(aclrtMemcpy(dx, xBytes, hx.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dw, wBytes, hw.data(), wBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(db, vBytes, hb.data(), vBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(ds, vBytes, hs.data(), vBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dg, vBytes, hg.data(), vBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dbeta, vBytes, hbeta.data(), vBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dt, tiling.size(), tiling.data(), tiling.size(), ACL_MEMCPY_HOST_TO_DEVICE));

    // stage 1 on the cube cores, stage 2 on the vector cores; same stream keeps them ordered
    ACLRT_LAUNCH_KERNEL(dense_batch_standardize_mm)(cubeCores, stream, dx, dw, db, dy, dws, dt);
    ACLRT_LAUNCH_KERNEL(dense_batch_standardize)(vecCores, stream, dy, ds, dg, dbeta, dout, dt);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> hout(M * (size_t)N);
    CHECK_ACL(aclrtMemcpy(hout.data(), yBytes, dout, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output.bin", hout.data(), yBytes);

    for (void *p : {dx, dw, db, ds, dg, dbeta, dy, dout, dws, dt}) {
        CHECK_ACL(aclrtFree(p));
    }
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}

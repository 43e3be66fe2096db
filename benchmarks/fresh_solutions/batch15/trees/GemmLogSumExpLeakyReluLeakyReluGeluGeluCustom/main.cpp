/**
 * main.cpp - host side of linear_lse_gelu_head.
 *
 * 1. builds the cube tiling with matmul_tiling::MultiCoreMatmulTiling
 * 2. launches linear_lse_gelu_head_gemm  (Y = X W^T + b into a device workspace)
 * 3. launches linear_lse_gelu_head       (row logsumexp + activations -> out (M, 1))
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_linear_lse_gelu_head_gemm.h"
#include "aclrtlaunch_linear_lse_gelu_head.h"

#define CHK(call)                                                                     \
    do {                                                                              \
        auto rc_ = (call);                                                            \
        if (rc_ != ACL_SUCCESS) {                                                     \
            std::fprintf(stderr, "%s failed: %d (%s:%d)\n", #call, (int)rc_, __FILE__, __LINE__); \
            std::exit(1);                                                             \
        }                                                                             \
    } while (0)

struct LinearLseGeluHeadTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    float slope;
};

static std::vector<uint8_t> ReadAll(const char *path, size_t expect)
{
    std::vector<uint8_t> buf(expect);
    std::ifstream f(path, std::ios::binary);
    if (!f.read(reinterpret_cast<char *>(buf.data()), expect)) {
        std::fprintf(stderr, "short read on %s\n", path);
        std::exit(1);
    }
    return buf;
}

static std::vector<uint8_t> MakeCubeTiling(uint32_t M, uint32_t N, uint32_t K, uint32_t cubeCores)
{
    using namespace matmul_tiling;
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    MultiCoreMatmulTiling mt(*plat);
    mt.SetDim(cubeCores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);

    optiling::TCubeTiling td;
    if (mt.GetTiling(td) == -1) {
        std::fprintf(stderr, "matmul tiling failed\n");
        std::exit(1);
    }
    std::vector<uint8_t> raw(td.GetDataSize());
    td.SaveToBuffer(raw.data(), raw.size());
    return raw;
}

int main()
{
    const uint32_t M = 256, K = 2048, N = 4096;   // batch, in_features, out_features
    const uint32_t cubeCores = 24;
    const uint32_t vecCores = 32;

    std::vector<uint8_t> cubeTiling = MakeCubeTiling(M, N, K, cubeCores);

    LinearLseGeluHeadTiling lt{};
    lt.rows = M;
    lt.cols = N;
    lt.rowsPerCore = ((M + vecCores - 1) / vecCores + 7) / 8 * 8;
    lt.slope = 0.01f;
    uint32_t vecBlocks = (M + lt.rowsPerCore - 1) / lt.rowsPerCore;

    size_t xBytes = (size_t)M * K * sizeof(float);
    size_t wBytes = (size_t)N * K * sizeof(float);
    size_t bBytes = (size_t)N * sizeof(float);
    size_t yBytes = (size_t)M * N * sizeof(float);
    size_t oBytes = (size_t)M * sizeof(float);

    CHK(aclInit(nullptr));
    CHK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHK(aclrtCreateStream(&stream));

    auto xHost = ReadAll("./input/x.bin", xBytes);
    auto wHost = ReadAll("./input/weight.bin", wBytes);
    auto bHost = ReadAll("./input/bias.bin", bBytes);

    // the matmul API needs the system workspace reserved by the runtime
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    size_t sysWs = plat->GetLibApiWorkSpaceSize();

    void *xDev, *wDev, *bDev, *yDev, *oDev, *wsDev, *ctDev, *ltDev;
    CHK(aclrtMalloc(&xDev, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&wDev, wBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&bDev, bBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&yDev, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&oDev, oBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&wsDev, sysWs, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&ctDev, cubeTiling.size(), ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&ltDev, sizeof(lt), ACL_MEM_MALLOC_HUGE_FIRST));

    CHK(aclrtMemcpy(xDev, xBytes, xHost.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHK(aclrtMemcpy(wDev, wBytes, wHost.data(), wBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHK(aclrtMemcpy(bDev, bBytes, bHost.data(), bBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHK(aclrtMemcpy(ctDev, cubeTiling.size(), cubeTiling.data(), cubeTiling.size(), ACL_MEMCPY_HOST_TO_DEVICE));
    CHK(aclrtMemcpy(ltDev, sizeof(lt), &lt, sizeof(lt), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(linear_lse_gelu_head_gemm)(cubeCores, stream, xDev, wDev, bDev, yDev, wsDev, ctDev);
    ACLRT_LAUNCH_KERNEL(linear_lse_gelu_head)(vecBlocks, stream, yDev, oDev, ltDev);
    CHK(aclrtSynchronizeStream(stream));

    std::vector<float> out(M);
    CHK(aclrtMemcpy(out.data(), oBytes, oDev, oBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(out.data()), oBytes);
    std::printf("out[0..3] = %f %f %f %f\n", out[0], out[1], out[2], out[3]);

    for (void *p : {xDev, wDev, bDev, yDev, oDev, wsDev, ctDev, ltDev}) {
        aclrtFree(p);
    }
    CHK(aclrtDestroyStream(stream));
    CHK(aclrtResetDevice(0));
    CHK(aclFinalize());
    return 0;
}

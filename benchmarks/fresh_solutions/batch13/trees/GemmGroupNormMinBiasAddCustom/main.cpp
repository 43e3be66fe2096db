/*
 * Host program for dense_groupnorm_rowmin_spread.
 *
 *   h   = x @ W^T + b                 (kernel dense_proj, cube cores)
 *   out = min_n groupnorm(h)[r, n] + shift[c]   laid out as [1, N, M, 1]
 *                                     (kernel groupnorm_rowmin_spread, vector cores)
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_dense_proj.h"
#include "aclrtlaunch_groupnorm_rowmin_spread.h"

struct GroupnormRowminSpreadTiling {
    uint32_t rows;
    uint32_t feats;
    uint32_t groups;
    uint32_t groupSize;
    uint32_t rowsPerCore;
    uint32_t chanChunk;
    float eps;
};

#define ACL_CALL(expr)                                                              \
    do {                                                                            \
        aclError st_ = (expr);                                                      \
        if (st_ != ACL_SUCCESS) {                                                   \
            printf("[%s:%d] %s returned %d\n", __FILE__, __LINE__, #expr, (int)st_); \
            return 1;                                                               \
        }                                                                           \
    } while (0)

static bool LoadFile(const std::string &path, void *dst, size_t bytes)
{
    std::ifstream in(path, std::ios::binary);
    in.read(static_cast<char *>(dst), static_cast<std::streamsize>(bytes));
    return in.good();
}

// Let the matmul tiling library pick block / base sizes for the projection.
static bool BuildCubeTiling(uint32_t M, uint32_t N, uint32_t K, uint32_t cubeCores, std::vector<uint8_t> &blob)
{
    auto *platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling mt(*platform);
    mt.SetDim(cubeCores);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT,
                true);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                   matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);

    optiling::TCubeTiling td;
    if (mt.GetTiling(td) == -1) {
        printf("matmul tiling failed\n");
        return false;
    }
    blob.resize(td.GetDataSize());
    td.SaveToBuffer(blob.data(), blob.size());
    return true;
}

int main()
{
    const uint32_t M = 1024;       // batch rows
    const uint32_t K = 1024;       // in features
    const uint32_t N = 2048;       // out features
    const uint32_t G = 128;        // groups -> 16 features per group
    const float eps = 1e-5f;

    auto *platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    const uint32_t cubeCores = platform->GetCoreNumAic();
    const uint32_t vecCores = 32;

    std::vector<uint8_t> cubeBlob;
    if (!BuildCubeTiling(M, N, K, cubeCores, cubeBlob)) {
        return 1;
    }
    size_t sysWsSize = platform->GetLibApiWorkSpaceSize();

    GroupnormRowminSpreadTiling vt{};
    vt.rows = M;
    vt.feats = N;
    vt.groups = G;
    vt.groupSize = N / G;
    vt.rowsPerCore = M / vecCores;
    vt.chanChunk = 256;
    vt.eps = eps;
    if (vt.groupSize % 8 != 0 || vt.groupSize > 64 || vt.rowsPerCore % 8 != 0 || M % vecCores != 0) {
        printf("shape not supported by this sample\n");
        return 1;
    }

    const size_t xB = (size_t)M * K * 4, wB = (size_t)N * K * 4, nB = (size_t)N * 4;
    const size_t hB = (size_t)M * N * 4, oB = (size_t)N * M * 4;
    std::vector<float> x(M * (size_t)K), w(N * (size_t)K), b(N), gamma(N), beta(N), shift(N), out(N * (size_t)M);
    bool ok = LoadFile("./input/input_x.bin", x.data(), xB) && LoadFile("./input/input_w.bin", w.data(), wB) &&
              LoadFile("./input/input_b.bin", b.data(), nB) &&
              LoadFile("./input/input_gamma.bin", gamma.data(), nB) &&
              LoadFile("./input/input_beta.bin", beta.data(), nB) &&
              LoadFile("./input/input_shift.bin", shift.data(), nB);
    if (!ok) {
        printf("input files missing, run scripts/gen_data.py\n");
        return 1;
    }

    ACL_CALL(aclInit(nullptr));
    ACL_CALL(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_CALL(aclrtCreateStream(&stream));

    void *dX, *dW, *dB, *dGamma, *dBeta, *dShift, *dH, *dOut, *dWs, *dCubeTiling, *dVecTiling;
    ACL_CALL(aclrtMalloc(&dX, xB, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dW, wB, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dB, nB, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dGamma, nB, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dBeta, nB, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dShift, nB, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dH, hB, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dOut, oB, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dWs, sysWsSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dCubeTiling, cubeBlob.size(), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dVecTiling, sizeof(vt), ACL_MEM_MALLOC_HUGE_FIRST));

    ACL_CALL(aclrtMemcpy(dX, xB, x.data(), xB, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(dW, wB, w.data(), wB, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(dB, nB, b.data(), nB, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(dGamma, nB, gamma.data(), nB, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(dBeta, nB, beta.data(), nB, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(dShift, nB, shift.data(), nB, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(dCubeTiling, cubeBlob.size(), cubeBlob.data(), cubeBlob.size(), ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(dVecTiling, sizeof(vt), &vt, sizeof(vt), ACL_MEMCPY_HOST_TO_DEVICE));

    // stage 1: projection into the h workspace, stage 2 consumes it on the same stream
    ACLRT_LAUNCH_KERNEL(dense_proj)(cubeCores, stream, dX, dW, dB, dH, dWs, dCubeTiling);
    ACLRT_LAUNCH_KERNEL(groupnorm_rowmin_spread)(vecCores, stream, dH, dGamma, dBeta, dShift, dOut, dVecTiling);
    ACL_CALL(aclrtSynchronizeStream(stream));

    ACL_CALL(aclrtMemcpy(out.data(), oB, dOut, oB, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output_out.bin", std::ios::binary).write(reinterpret_cast<char *>(out.data()), oB);

    for (void *p : {dX, dW, dB, dGamma, dBeta, dShift, dH, dOut, dWs, dCubeTiling, dVecTiling}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

/*
 * main.cpp -- host side of stacked_gemm.
 * Builds a single-core Matmul tiling for one (singleM x singleN) block of a
 * full M x N x K product and launches one cube core per AIC.
 */
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_stacked_gemm.h"

#define RET_IF_ERR(call)                                                     \
    if ((call) != ACL_SUCCESS) {                                             \
        std::cerr << "call failed: " #call " (line " << __LINE__ << ")\n";  \
        return -1;                                                           \
    }

static const uint32_t BATCH = 16;
static const uint32_t M = 512;
static const uint32_t K = 1024;
static const uint32_t N = 2048;
static const uint32_t BLOCK_M = 128;
static const uint32_t BLOCK_N = 256;

struct StackedGemmHeader {
    uint32_t batch, mBlocks, nBlocks, reserved;
};

static bool FileIn(const char *name, void *dst, size_t bytes)
{
    std::ifstream f(name, std::ios::binary);
    return static_cast<bool>(f.read(static_cast<char *>(dst), bytes));
}

int main()
{
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    uint32_t cores = plat->GetCoreNumAic();

    // tiling for one unit; org shape keeps the real leading dimensions
    matmul_tiling::MatmulApiTiling tiler(*plat);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetShape(BLOCK_M, BLOCK_N, K);
    tiler.SetOrgShape(M, N, K);
    tiler.SetBias(false);
    tiler.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    if (tiler.GetTiling(cube) == -1) {
        std::cerr << "matmul tiling failed\n";
        return -1;
    }

    StackedGemmHeader hdr{BATCH, M / BLOCK_M, N / BLOCK_N, 0};
    std::vector<uint8_t> tilingHost(sizeof(hdr) + cube.GetDataSize());
    std::memcpy(tilingHost.data(), &hdr, sizeof(hdr));
    cube.SaveToBuffer(tilingHost.data() + sizeof(hdr), cube.GetDataSize());

    size_t aBytes = sizeof(float) * BATCH * M * K;
    size_t bBytes = sizeof(float) * BATCH * K * N;
    size_t cBytes = sizeof(float) * BATCH * M * N;
    std::vector<float> hA(aBytes / 4), hB(bBytes / 4), hC(cBytes / 4);
    if (!FileIn("./input/a.bin", hA.data(), aBytes) || !FileIn("./input/b.bin", hB.data(), bBytes)) {
        std::cerr << "run scripts/gen_data.py first\n";
        return -1;
    }

    RET_IF_ERR(aclInit(nullptr));
    RET_IF_ERR(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    RET_IF_ERR(aclrtCreateStream(&stream));

    void *dA, *dB, *dC, *dWs, *dTiling;
    size_t wsBytes = plat->GetLibApiWorkSpaceSize();
    RET_IF_ERR(aclrtMalloc(&dA, aBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_ERR(aclrtMalloc(&dB, bBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_ERR(aclrtMalloc(&dC, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_ERR(aclrtMalloc(&dWs, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_ERR(aclrtMalloc(&dTiling, tilingHost.size(), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_ERR(aclrtMemcpy(dA, aBytes, hA.data(), aBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_ERR(aclrtMemcpy(dB, bBytes, hB.data(), bBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_ERR(aclrtMemcpy(dTiling, tilingHost.size(), tilingHost.data(), tilingHost.size(),
                           ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(stacked_gemm)(cores, stream, dA, dB, dC, dWs, dTiling);
    RET_IF_ERR(aclrtSynchronizeStream(stream));

    RET_IF_ERR(aclrtMemcpy(hC.data(), cBytes, dC, cBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(hC.data()), cBytes);
    std::cout << "stacked_gemm: " << BATCH << " x (" << M << "x" << K << " @ " << K << "x" << N << ") done\n";

    aclrtFree(dA);
    aclrtFree(dB);
    aclrtFree(dC);
    aclrtFree(dWs);
    aclrtFree(dTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

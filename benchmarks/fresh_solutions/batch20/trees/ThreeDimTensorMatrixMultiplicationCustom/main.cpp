/**
 * Host program for stacked_rows_gemm.
 * The cube tiling comes from the matmul_tiling host library for the folded
 * (B*M) x K x L problem; a few plain fields go in front of it.
 */
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_stacked_rows_gemm.h"

namespace {
constexpr uint32_t B = 16;
constexpr uint32_t M = 1024;
constexpr uint32_t K = 2048;
constexpr uint32_t L = 768;

// host mirror of the head of StackedRowsGemmTiling; TCubeTiling follows it
struct TilingHead {
    uint32_t batch;
    uint32_t rowsPerBatch;
    uint32_t usedCores;
    uint32_t reserved;
};

bool ReadInto(const char *path, std::vector<float> &v)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        printf("missing %s\n", path);
        return false;
    }
    f.read(reinterpret_cast<char *>(v.data()), v.size() * sizeof(float));
    return true;
}

std::vector<uint8_t> BuildTiling(uint32_t coreNum, uint32_t &usedCores)
{
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling mt(*plat);
    const int32_t rows = static_cast<int32_t>(B * M);
    mt.SetDim(coreNum);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(rows, L, K);
    mt.SetOrgShape(rows, L, K);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);

    optiling::TCubeTiling cube;
    if (mt.GetTiling(cube) == -1) {
        printf("matmul tiling failed\n");
        return {};
    }
    uint32_t mBlocks = (rows + cube.get_singleCoreM() - 1) / cube.get_singleCoreM();
    uint32_t nBlocks = (L + cube.get_singleCoreN() - 1) / cube.get_singleCoreN();
    usedCores = mBlocks * nBlocks;

    TilingHead head{B, M, usedCores, 0};
    std::vector<uint8_t> buf(sizeof(head) + cube.GetDataSize());
    memcpy(buf.data(), &head, sizeof(head));
    cube.SaveToBuffer(buf.data() + sizeof(head), cube.GetDataSize());
    return buf;
}
} // namespace

int main()
{
    const uint32_t coreNum = 24;
    size_t aBytes = (size_t)B * M * K * sizeof(float);
    size_t wBytes = (size_t)K * L * sizeof(float);
    size_t cBytes = (size_t)B * M * L * sizeof(float);

    std::vector<float> hA((size_t)B * M * K), hW((size_t)K * L), hC((size_t)B * M * L);
    if (!ReadInto("./input/a.bin", hA) || !ReadInto("./input/w.bin", hW)) {
        return 1;
    }

    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);

    uint32_t usedCores = 0;
    std::vector<uint8_t> tilingBuf = BuildTiling(coreNum, usedCores);
    if (tilingBuf.empty()) {
        return 1;
    }
    uint32_t blockDim = usedCores < coreNum ? usedCores : coreNum;

    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    size_t wsBytes = plat->GetLibApiWorkSpaceSize();

    void *dA, *dW, *dC, *dWs, *dTiling;
    aclrtMalloc(&dA, aBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dW, wBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dC, cBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dWs, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dTiling, tilingBuf.size(), ACL_MEM_MALLOC_HUGE_FIRST);

    aclrtMemcpy(dA, aBytes, hA.data(), aBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dW, wBytes, hW.data(), wBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dTiling, tilingBuf.size(), tilingBuf.data(), tilingBuf.size(), ACL_MEMCPY_HOST_TO_DEVICE);

    ACLRT_LAUNCH_KERNEL(stacked_rows_gemm)(blockDim, stream, dA, dW, dC, dWs, dTiling);
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
        printf("kernel failed\n");
        return 1;
    }

    aclrtMemcpy(hC.data(), cBytes, dC, cBytes, ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream("./output/c.bin", std::ios::binary).write(reinterpret_cast<const char *>(hC.data()), cBytes);

    aclrtFree(dA);
    aclrtFree(dW);
    aclrtFree(dC);
    aclrtFree(dWs);
    aclrtFree(dTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("stacked_rows_gemm: wrote output/c.bin (%u cores)\n", blockDim);
    return 0;
}

// main.cpp: host launcher for narrow_rank_gemm.
// A: (M, K) fp32, B: (K, N) fp32, C: (M, N) fp32 with M = N = 8192, K = 32.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_narrow_rank_gemm.h"

#define CHECK(stmt)                                                              \
    do {                                                                         \
        int _rc = static_cast<int>(stmt);                                        \
        if (_rc != 0) {                                                          \
            fprintf(stderr, "[FAIL] %s -> %d at line %d\n", #stmt, _rc, __LINE__); \
            return 1;                                                            \
        }                                                                        \
    } while (0)

namespace {
constexpr uint32_t HEADER_BYTES = 16;   // M, N, K, reserved in the device-side tiling struct

bool ReadFile(const char *name, void *dst, size_t size)
{
    std::ifstream f(name, std::ios::binary);
    if (!f) return false;
    f.read(static_cast<char *>(dst), size);
    return true;
}

// Build the cube tiling for an M x N x K fp32 GEMM spread over blockDim cores.
bool BuildTiling(uint32_t M, uint32_t N, uint32_t K, uint32_t blockDim, std::vector<uint8_t> &blob)
{
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling api(*plat);
    api.SetDim(blockDim);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(M, N, K);
    api.SetOrgShape(M, N, K);
    api.SetBias(false);
    api.SetBufferSpace(-1, -1, -1);

    optiling::TCubeTiling cube;
    if (api.GetTiling(cube) == -1) {
        return false;
    }
    blob.assign(HEADER_BYTES + cube.GetDataSize(), 0);
    uint32_t header[4] = {M, N, K, 0};
    memcpy(blob.data(), header, HEADER_BYTES);
    cube.SaveToBuffer(blob.data() + HEADER_BYTES, cube.GetDataSize());
    return true;
}
}  // namespace

int main()
{
    const uint32_t M = 8192, N = 8192, K = 32;
    const size_t aBytes = (size_t)M * K * sizeof(float);
    const size_t bBytes = (size_t)K * N * sizeof(float);
    const size_t cBytes = (size_t)M * N * sizeof(float);

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    uint32_t blockDim = plat->GetCoreNumAic();

    std::vector<uint8_t> tilingBlob;
    if (!BuildTiling(M, N, K, blockDim, tilingBlob)) {
        fprintf(stderr, "matmul tiling failed\n");
        return 1;
    }
    size_t wsBytes = plat->GetLibApiWorkSpaceSize();

    std::vector<float> hA((size_t)M * K), hB((size_t)K * N), hC((size_t)M * N);
    if (!ReadFile("./input/a.bin", hA.data(), aBytes) || !ReadFile("./input/b.bin", hB.data(), bBytes)) {
        fprintf(stderr, "run scripts/gen_data.py first\n");
        return 1;
    }

    void *dA, *dB, *dC, *dWs, *dTiling;
    CHECK(aclrtMalloc(&dA, aBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dB, bBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dC, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dWs, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dTiling, tilingBlob.size(), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dA, aBytes, hA.data(), aBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dB, bBytes, hB.data(), bBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dTiling, tilingBlob.size(), tilingBlob.data(), tilingBlob.size(), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(narrow_rank_gemm)(blockDim, stream, dA, dB, dC, dWs, dTiling);
    CHECK(aclrtSynchronizeStream(stream));

    CHECK(aclrtMemcpy(hC.data(), cBytes, dC, cBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/c.bin", std::ios::binary).write(reinterpret_cast<const char *>(hC.data()), cBytes);

    aclrtFree(dA);
    aclrtFree(dB);
    aclrtFree(dC);
    aclrtFree(dWs);
    aclrtFree(dTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("narrow_rank_gemm finished, blockDim=%u\n", blockDim);
    return 0;
}

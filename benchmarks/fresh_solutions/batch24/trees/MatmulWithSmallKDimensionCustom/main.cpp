// Host program for shallow_inner_gemm.
//  1. build the cube tiling for (M, N, K) with the matmul tiling API,
//  2. copy A, B and the tiling to the device,
//  3. launch on every AI core and write C to output/output_c.bin.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "tiling/tiling_api.h"
#include "tiling/platform/platform_ascendc.h"
#include "aclrtlaunch_shallow_inner_gemm.h"

#define CHECK(call)                                                          \
    do {                                                                     \
        auto ret_ = (call);                                                  \
        if (ret_ != 0) {                                                     \
            fprintf(stderr, "%s returned %d (line %d)\n", #call, (int)ret_, __LINE__); \
            return -1;                                                       \
        }                                                                    \
    } while (0)

struct ShallowInnerGemmTilingHost {
    uint32_t M, N, K;
    // followed by the serialised TCubeTiling
};

static bool ReadBin(const char *name, void *dst, size_t n)
{
    std::ifstream in(name, std::ios::binary);
    in.read(reinterpret_cast<char *>(dst), n);
    return in.gcount() == (std::streamsize)n;
}

int main()
{
    const int32_t M = 32768, N = 32768, K = 64;
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    const uint32_t cubeCores = plat->GetCoreNumAic();

    // ---- tiling -------------------------------------------------------
    matmul_tiling::MultiCoreMatmulTiling api(*plat);
    api.SetDim(cubeCores);
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
        fprintf(stderr, "matmul tiling failed\n");
        return -1;
    }
    uint32_t blocksM = (M + cube.get_singleCoreM() - 1) / cube.get_singleCoreM();
    uint32_t blocksN = (N + cube.get_singleCoreN() - 1) / cube.get_singleCoreN();
    uint32_t blockDim = blocksM * blocksN;

    ShallowInnerGemmTilingHost head{(uint32_t)M, (uint32_t)N, (uint32_t)K};
    std::vector<uint8_t> tilingBlob(sizeof(head) + cube.GetDataSize());
    memcpy(tilingBlob.data(), &head, sizeof(head));
    cube.SaveToBuffer(tilingBlob.data() + sizeof(head), cube.GetDataSize());

    // ---- device buffers -----------------------------------------------
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));

    size_t aBytes = (size_t)M * K * sizeof(float);
    size_t bBytes = (size_t)K * N * sizeof(float);
    size_t cBytes = (size_t)M * N * sizeof(float);
    std::vector<float> hA((size_t)M * K), hB((size_t)K * N);
    if (!ReadBin("./input/a.bin", hA.data(), aBytes) || !ReadBin("./input/b.bin", hB.data(), bBytes)) {
        fprintf(stderr, "missing input, run scripts/gen_data.py\n");
        return -1;
    }
    size_t wsBytes = plat->GetLibApiWorkSpaceSize();

    void *dA, *dB, *dC, *dWs, *dTiling;
    CHECK(aclrtMalloc(&dA, aBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dB, bBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dC, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dWs, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dTiling, tilingBlob.size(), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dA, aBytes, hA.data(), aBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dB, bBytes, hB.data(), bBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dTiling, tilingBlob.size(), tilingBlob.data(), tilingBlob.size(), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(shallow_inner_gemm)(blockDim, stream, dA, dB, dC, dWs, dTiling);
    CHECK(aclrtSynchronizeStream(stream));

    // C is 4 GiB; stream it back in slabs of rows
    const size_t slabRows = 1024;
    std::vector<float> slab(slabRows * N);
    std::ofstream out("./output/output_c.bin", std::ios::binary);
    for (size_t r = 0; r < (size_t)M; r += slabRows) {
        size_t bytes = slabRows * N * sizeof(float);
        CHECK(aclrtMemcpy(slab.data(), bytes, (uint8_t *)dC + r * N * sizeof(float), bytes,
                          ACL_MEMCPY_DEVICE_TO_HOST));
        out.write(reinterpret_cast<const char *>(slab.data()), bytes);
    }

    aclrtFree(dA); aclrtFree(dB); aclrtFree(dC); aclrtFree(dWs); aclrtFree(dTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

/*
 * Host program: builds the cube tiling with the matmul tiling library, launches the GEMM kernel
 * and then the vector epilogue on the same stream.
 */
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_grouped_swish_dense.h"
#include "aclrtlaunch_grouped_swish_dense_epilogue.h"

// must mirror the device struct: TCubeTiling bytes followed by the epilogue fields
struct EpilogueFields {
    uint32_t rows;
    uint32_t channels;
    uint32_t groupSize;
    uint32_t segLen;
    float eps;
};

#define CHECK(c) do { if ((c) != ACL_SUCCESS) { fprintf(stderr, "error at %s:%d\n", __FILE__, __LINE__); return 1; } } while (0)

static std::vector<float> ReadBin(const char *name, size_t n)
{
    std::vector<float> v(n);
    std::ifstream(name, std::ios::binary).read(reinterpret_cast<char *>(v.data()), n * sizeof(float));
    return v;
}

static void *DevCopy(const std::vector<float> &v)
{
    void *p = nullptr;
    aclrtMalloc(&p, v.size() * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(p, v.size() * sizeof(float), v.data(), v.size() * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
    return p;
}

int main()
{
    const int32_t M = 512, K = 4096, N = 8192;
    const uint32_t GROUPS = 256;

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    // ---- cube tiling
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    uint32_t aicNum = plat->GetCoreNumAic();
    matmul_tiling::MultiCoreMatmulTiling mmTiling(*plat);
    mmTiling.SetDim(aicNum);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.SetBias(true);
    mmTiling.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    if (mmTiling.GetTiling(cube) == -1) {
        fprintf(stderr, "matmul tiling failed\n");
        return 1;
    }
    uint32_t cubeBytes = cube.GetDataSize();

    EpilogueFields ep{(uint32_t)M, (uint32_t)N, (uint32_t)N / GROUPS, 2048, 1e-5f};
    std::vector<uint8_t> tilingHost(cubeBytes + sizeof(ep));
    cube.SaveToBuffer(tilingHost.data(), cubeBytes);
    std::memcpy(tilingHost.data() + cubeBytes, &ep, sizeof(ep));

    void *tilingDev = nullptr;
    CHECK(aclrtMalloc(&tilingDev, tilingHost.size(), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(tilingDev, tilingHost.size(), tilingHost.data(), tilingHost.size(), ACL_MEMCPY_HOST_TO_DEVICE));

    size_t wsSize = plat->GetLibApiWorkSpaceSize();
    void *ws = nullptr;
    CHECK(aclrtMalloc(&ws, wsSize, ACL_MEM_MALLOC_HUGE_FIRST));

    // ---- data
    void *x = DevCopy(ReadBin("input/x.bin", (size_t)M * K));
    void *w = DevCopy(ReadBin("input/w.bin", (size_t)N * K));
    void *b = DevCopy(ReadBin("input/bias.bin", N));
    void *gamma = DevCopy(ReadBin("input/gamma.bin", N));
    void *beta = DevCopy(ReadBin("input/beta.bin", N));
    void *sv = DevCopy(ReadBin("input/scale_vec.bin", N));
    size_t outBytes = (size_t)M * N * sizeof(float);
    void *h = nullptr, *out = nullptr;
    CHECK(aclrtMalloc(&h, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&out, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));

    // mix kernel: blockDim counts cube cores
    ACLRT_LAUNCH_KERNEL(grouped_swish_dense)(aicNum, stream, x, w, b, h, ws, tilingDev);
    uint32_t aivNum = plat->GetCoreNumAiv();
    ACLRT_LAUNCH_KERNEL(grouped_swish_dense_epilogue)(aivNum, stream, h, gamma, beta, sv, out, tilingDev);
    CHECK(aclrtSynchronizeStream(stream));

    std::vector<float> result((size_t)M * N);
    CHECK(aclrtMemcpy(result.data(), outBytes, out, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(result.data()), outBytes);

    for (void *p : {x, w, b, gamma, beta, sv, h, out, ws, tilingDev}) aclrtFree(p);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

// Host program for dense_pairmax_rowsum: builds the cube tiling, launches once.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <fstream>
#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_dense_pairmax_rowsum.h"

namespace {
constexpr int32_t M = 128;       // batch rows
constexpr int32_t K = 32768;     // input features
constexpr int32_t N = 32768;     // output features before pooling
constexpr float SCALE = 0.5f;
constexpr uint32_t CHUNK = 4096;

struct EpilogueParams {
    uint32_t chunk;
    float scale;
};

bool ReadFloats(const char *path, float *dst, size_t count)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    in.read(reinterpret_cast<char *>(dst), count * sizeof(float));
    return static_cast<size_t>(in.gcount()) == count * sizeof(float);
}
}  // namespace

int main()
{
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        printf("acl init failed\n");
        return 1;
    }
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);

    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    const uint32_t aicNum = plat->GetCoreNumAic();

    // ---- cube tiling: split N over the AI cube cores, keep all M rows per core ----
    matmul_tiling::MultiCoreMatmulTiling mmTiling(*plat);
    mmTiling.SetDim(aicNum);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    int32_t perCoreN = (N / aicNum + 127) / 128 * 128;   // even, and a whole number of chunks mostly
    mmTiling.SetSingleShape(M, perCoreN, K);
    mmTiling.SetBias(true);
    mmTiling.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    if (mmTiling.GetTiling(cube) == -1) {
        printf("matmul tiling failed\n");
        return 1;
    }

    const size_t cubeBytes = cube.GetDataSize();
    std::vector<uint8_t> tilingBlob(cubeBytes + sizeof(EpilogueParams));
    cube.SaveToBuffer(tilingBlob.data(), cubeBytes);
    EpilogueParams ep{CHUNK, SCALE};
    memcpy(tilingBlob.data() + cubeBytes, &ep, sizeof(ep));

    // ---- buffers ----
    const size_t xBytes = (size_t)M * K * 4, wBytes = (size_t)N * K * 4, bBytes = (size_t)N * 4, yBytes = (size_t)M * 4;
    std::vector<float> hx((size_t)M * K), hw((size_t)N * K), hb(N), hy(M);
    if (!ReadFloats("./input/x.bin", hx.data(), hx.size()) ||
        !ReadFloats("./input/w.bin", hw.data(), hw.size()) ||
        !ReadFloats("./input/bias.bin", hb.data(), hb.size())) {
        printf("missing inputs\n");
        return 1;
    }
    const size_t zBytes = (size_t)M * N * 4;                      // intermediate matmul result
    const size_t wsBytes = plat->GetLibApiWorkSpaceSize() + zBytes;

    void *dx, *dw, *db, *dy, *dws, *dt;
    aclrtMalloc(&dx, xBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dw, wBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&db, bBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, yBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dws, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dt, tilingBlob.size(), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, xBytes, hx.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dw, wBytes, hw.data(), wBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(db, bBytes, hb.data(), bBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dt, tilingBlob.size(), tilingBlob.data(), tilingBlob.size(), ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemset(dy, yBytes, 0, yBytes);   // partial sums are atomically accumulated

    ACLRT_LAUNCH_KERNEL(dense_pairmax_rowsum)(aicNum, stream, dx, dw, db, dy, dws, dt);
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
        printf("kernel execution failed\n");
        return 1;
    }
    aclrtMemcpy(hy.data(), yBytes, dy, yBytes, ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(hy.data()), yBytes);

    aclrtFree(dx); aclrtFree(dw); aclrtFree(db); aclrtFree(dy); aclrtFree(dws); aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

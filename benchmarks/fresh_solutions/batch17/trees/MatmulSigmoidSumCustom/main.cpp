// Host program for dense_logistic_rowsum: linear (fp16 in, fp32 acc) -> sigmoid -> row sum.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_dense_logistic_rowsum.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

struct DenseLogisticRowsumTiling {
    uint32_t m;
    uint32_t n;
    uint32_t k;
    uint32_t nPerCore;
    uint32_t baseN;
    uint32_t reserved[3];
};

#define CHECK(x)                                                        \
    if ((x) != ACL_SUCCESS) {                                           \
        printf("ACL error at %s:%d: %s\n", __FILE__, __LINE__, #x);     \
        return -1;                                                      \
    }

static size_t ReadBin(const char *file, void *dst, size_t bytes)
{
    std::ifstream is(file, std::ios::binary);
    is.read(reinterpret_cast<char *>(dst), bytes);
    return is ? bytes : 0;
}

// Builds [DenseLogisticRowsumTiling | TCubeTiling] into blob.
static bool BuildTiling(uint32_t M, uint32_t N, uint32_t K, uint32_t cores, uint32_t baseN,
                        std::vector<uint8_t> &blob)
{
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling mt(*plat);
    mt.SetDim(cores);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16,
                true);
    mt.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetSingleShape(M, N / cores, K);
    mt.SetBias(true);
    // whole M in one base tile so the epilogue can sum rows without tracking tile order
    mt.SetFixSplit(M, baseN, -1);
    mt.SetBufferSpace(-1, -1, -1);

    optiling::TCubeTiling cube;
    if (mt.GetTiling(cube) == -1) {
        printf("matmul tiling failed\n");
        return false;
    }
    DenseLogisticRowsumTiling head{};
    head.m = M;
    head.n = N;
    head.k = K;
    head.nPerCore = N / cores;
    head.baseN = baseN;

    blob.resize(sizeof(head) + cube.GetDataSize());
    memcpy(blob.data(), &head, sizeof(head));
    cube.SaveToBuffer(blob.data() + sizeof(head), cube.GetDataSize());
    return true;
}

int main()
{
    constexpr uint32_t M = 128, K = 32768, N = 32768;
    constexpr uint32_t CORES = 32;
    constexpr uint32_t BASE_N = 64;

    std::vector<uint8_t> tilingBlob;
    if (!BuildTiling(M, N, K, CORES, BASE_N, tilingBlob)) {
        return -1;
    }

    size_t xBytes = (size_t)M * K * sizeof(uint16_t);
    size_t wBytes = (size_t)N * K * sizeof(uint16_t);
    size_t bBytes = (size_t)N * sizeof(float);
    size_t yBytes = (size_t)M * sizeof(float);

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    void *hx, *hw, *hb, *hy;
    CHECK(aclrtMallocHost(&hx, xBytes));
    CHECK(aclrtMallocHost(&hw, wBytes));
    CHECK(aclrtMallocHost(&hb, bBytes));
    CHECK(aclrtMallocHost(&hy, yBytes));
    if (!ReadBin("./input/x.bin", hx, xBytes) || !ReadBin("./input/w.bin", hw, wBytes) ||
        !ReadBin("./input/b.bin", hb, bBytes)) {
        printf("missing input, run scripts/gen_data.py\n");
        return -1;
    }

    void *dx, *dw, *db, *dy, *dtiling, *dws;
    // system workspace needed by the matmul API on the cube core
    size_t wsBytes = platform_ascendc::PlatformAscendCManager::GetInstance()->GetLibApiWorkSpaceSize();
    CHECK(aclrtMalloc(&dx, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dw, wBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&db, bBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dy, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dws, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dtiling, tilingBlob.size(), ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK(aclrtMemcpy(dx, xBytes, hx, xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dw, wBytes, hw, wBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(db, bBytes, hb, bBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dtiling, tilingBlob.size(), tilingBlob.data(), tilingBlob.size(),
                      ACL_MEMCPY_HOST_TO_DEVICE));
    // cores accumulate into y with atomic adds
    CHECK(aclrtMemset(dy, yBytes, 0, yBytes));

    ACLRT_LAUNCH_KERNEL(dense_logistic_rowsum)(CORES, stream, dx, dw, db, dy, dws, dtiling);
    CHECK(aclrtSynchronizeStream(stream));

    CHECK(aclrtMemcpy(hy, yBytes, dy, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(static_cast<char *>(hy), yBytes);

    aclrtFree(dx);
    aclrtFree(dw);
    aclrtFree(db);
    aclrtFree(dy);
    aclrtFree(dws);
    aclrtFree(dtiling);
    aclrtFreeHost(hx);
    aclrtFreeHost(hw);
    aclrtFreeHost(hb);
    aclrtFreeHost(hy);
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}

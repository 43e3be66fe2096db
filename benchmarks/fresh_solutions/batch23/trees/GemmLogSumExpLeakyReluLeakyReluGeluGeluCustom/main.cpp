#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_affine_lse_squash.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

#define CALL(expr)                                                           \
    if ((expr) != ACL_SUCCESS) {                                             \
        std::fprintf(stderr, "failed: %s (line %d)\n", #expr, __LINE__);     \
        return 1;                                                            \
    }

// scalar prefix of the device tiling; the TCubeTiling blob follows it
struct AffineLseSquashHead {
    uint32_t m, n, k, rowsPerCore, colTile, colTiles, colTail;
    float slope;
};

static bool Slurp(const char *path, void *dst, size_t n)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    f.read(static_cast<char *>(dst), n);
    return static_cast<size_t>(f.gcount()) == n;
}

int main(int argc, char **argv)
{
    const uint32_t M = 256, K = 4096, N = 4096;
    const uint32_t blockDim = 16;
    const uint32_t colTile = 4096;

    AffineLseSquashHead head{};
    head.m = M;
    head.n = N;
    head.k = K;
    head.rowsPerCore = (M + blockDim - 1) / blockDim;
    head.colTile = colTile;
    head.colTiles = (N + colTile - 1) / colTile;
    head.colTail = N - (head.colTiles - 1) * colTile;
    head.slope = 0.01f;

    auto plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling api(*plat);
    using matmul_tiling::CubeFormat;
    using matmul_tiling::DataType;
    using matmul_tiling::TPosition;
    api.SetDim(blockDim);
    api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetOrgShape(M, N, K);
    api.SetShape(M, N, K);
    api.SetSingleShape(head.rowsPerCore, N, K);
    api.EnableBias(true);
    api.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    if (api.GetTiling(cube) == -1) {
        std::fprintf(stderr, "cube tiling not found\n");
        return 1;
    }
    std::vector<uint8_t> tilingBlob(sizeof(head) + cube.GetDataSize());
    std::memcpy(tilingBlob.data(), &head, sizeof(head));
    cube.SaveToBuffer(tilingBlob.data() + sizeof(head), cube.GetDataSize());

    std::vector<float> x(size_t(M) * K), w(size_t(N) * K), b(N), y(M);
    if (!Slurp("input/input_x.bin", x.data(), x.size() * 4) || !Slurp("input/input_w.bin", w.data(), w.size() * 4) ||
        !Slurp("input/input_b.bin", b.data(), b.size() * 4)) {
        std::fprintf(stderr, "run scripts/gen_data.py first\n");
        return 1;
    }

    CALL(aclInit(nullptr));
    CALL(aclrtSetDevice(0));
    aclrtStream stream;
    CALL(aclrtCreateStream(&stream));

    void *dx, *dw, *db, *dz, *dy, *dws, *dtl;
    const size_t wsBytes = plat->GetLibApiWorkSpaceSize();
    CALL(aclrtMalloc(&dx, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CALL(aclrtMalloc(&dw, w.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CALL(aclrtMalloc(&db, b.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CALL(aclrtMalloc(&dz, size_t(M) * N * 4, ACL_MEM_MALLOC_HUGE_FIRST));  // logits scratch
    CALL(aclrtMalloc(&dy, y.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CALL(aclrtMalloc(&dws, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CALL(aclrtMalloc(&dtl, tilingBlob.size(), ACL_MEM_MALLOC_HUGE_FIRST));
    CALL(aclrtMemcpy(dx, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CALL(aclrtMemcpy(dw, w.size() * 4, w.data(), w.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CALL(aclrtMemcpy(db, b.size() * 4, b.data(), b.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CALL(aclrtMemcpy(dtl, tilingBlob.size(), tilingBlob.data(), tilingBlob.size(), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(affine_lse_squash)(blockDim, stream, dx, dw, db, dz, dy, dws, dtl);
    CALL(aclrtSynchronizeStream(stream));
    CALL(aclrtMemcpy(y.data(), y.size() * 4, dy, y.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));

    std::ofstream("output/output_y.bin", std::ios::binary).write(reinterpret_cast<char *>(y.data()), y.size() * 4);

    for (void *p : {dx, dw, db, dz, dy, dws, dtl}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

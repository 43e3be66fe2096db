// main.cpp: host driver for dense_sigmoid_rowtotal
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_dense_sigmoid_rowtotal.h"

#define CHECK(x)                                                      \
    do {                                                              \
        auto rc_ = (x);                                               \
        if (rc_ != ACL_SUCCESS) {                                     \
            printf("error %d: %s (%s:%d)\n", (int)rc_, #x, __FILE__, __LINE__); \
            exit(1);                                                  \
        }                                                             \
    } while (0)

const uint32_t ROWS = 128;
const uint32_t IN_F = 4096;
const uint32_t OUT_F = 8192;

int main()
{
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    const uint32_t blockDim = plat->GetCoreNumAic();

    // --- cube tiling: fixed 64 x 128 base block, matches TILE_M / TILE_N in the kernel
    matmul_tiling::MultiCoreMatmulTiling tiler(*plat);
    tiler.SetDim(blockDim);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT,
                   true);
    tiler.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND,
                   matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT);
    tiler.SetShape(ROWS, OUT_F, IN_F);
    tiler.SetOrgShape(ROWS, OUT_F, IN_F);
    tiler.SetBias(true);
    tiler.SetFixSplit(64, 128, -1);
    tiler.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    if (tiler.GetTiling(cube) == -1) {
        printf("GetTiling failed\n");
        return 1;
    }
    uint32_t header[4] = {ROWS, IN_F, OUT_F, 0};
    std::vector<uint8_t> tilingBlob(sizeof(header) + cube.GetDataSize());
    memcpy(tilingBlob.data(), header, sizeof(header));
    cube.SaveToBuffer(tilingBlob.data() + sizeof(header), cube.GetDataSize());

    // --- host data
    std::vector<float> x(ROWS * IN_F), w(static_cast<size_t>(OUT_F) * IN_F), b(OUT_F), out(ROWS);
    struct { const char *file; std::vector<float> *v; } ins[] = {
        {"./input/x.bin", &x}, {"./input/w.bin", &w}, {"./input/b.bin", &b}};
    for (auto &in : ins) {
        std::ifstream f(in.file, std::ios::binary);
        if (!f.read(reinterpret_cast<char *>(in.v->data()), in.v->size() * sizeof(float))) {
            printf("failed to read %s\n", in.file);
            return 1;
        }
    }

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));

    void *dx, *dw, *db, *dout, *dws, *dtl;
    size_t wsSize = plat->GetLibApiWorkSpaceSize();
    CHECK(aclrtMalloc(&dx, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dw, w.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&db, b.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dout, out.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dws, wsSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dtl, tilingBlob.size(), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dx, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dw, w.size() * 4, w.data(), w.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(db, b.size() * 4, b.data(), b.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dtl, tilingBlob.size(), tilingBlob.data(), tilingBlob.size(), ACL_MEMCPY_HOST_TO_DEVICE));
    // partial row sums are atomically added, so the output must start at zero
    CHECK(aclrtMemset(dout, out.size() * 4, 0, out.size() * 4));

    ACLRT_LAUNCH_KERNEL(dense_sigmoid_rowtotal)(blockDim, stream, dx, dw, db, dout, dws, dtl);
    CHECK(aclrtSynchronizeStream(stream));

    CHECK(aclrtMemcpy(out.data(), out.size() * 4, dout, out.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(out.data()), out.size() * 4);
    printf("row 0 total = %f\n", out[0]);

    aclrtFree(dx); aclrtFree(dw); aclrtFree(db);
    aclrtFree(dout); aclrtFree(dws); aclrtFree(dtl);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

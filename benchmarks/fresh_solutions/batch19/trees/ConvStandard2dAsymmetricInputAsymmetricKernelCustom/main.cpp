/*
 * main.cpp - runs unfold_conv2d on x (8, 64, 256, 128) with w (128, 64, 5, 7).
 * For every image: im2col kernel on the vector cores, then the GEMM kernel on the cube cores.
 */
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_unfold_conv2d.h"
#include "aclrtlaunch_unfold_conv2d_cols.h"

#define CHECK_RET(cond, msg)                               \
    if (!(cond)) {                                         \
        printf("error: %s (line %d)\n", msg, __LINE__);     \
        return 1;                                          \
    }

// must match the first 12 words of UnfoldConv2dTiling in unfold_conv2d.cpp
struct ConvHeader {
    uint32_t inC, inH, inW;
    uint32_t outC, kH, kW;
    uint32_t outH, outW;
    uint32_t rowsPerChunk;
    uint32_t chunksPerTap;
    uint32_t unitsPerCore;
    uint32_t reserved;
};

static bool Slurp(const char *path, std::vector<float> &buf)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    f.read(reinterpret_cast<char *>(buf.data()), buf.size() * sizeof(float));
    return true;
}

int main()
{
    const uint32_t batch = 8, C = 64, H = 256, W = 128;
    const uint32_t OC = 128, KH = 5, KW = 7;
    const uint32_t OH = H - KH + 1, OW = W - KW + 1;
    const uint32_t K = C * KH * KW;          // reduction length of the GEMM
    const uint32_t P = OH * OW;              // output pixels per image

    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    const uint32_t vecCores = plat->GetCoreNumAiv();
    const uint32_t cubeCores = plat->GetCoreNumAic();

    // ---- tiling ------------------------------------------------------------------------
    ConvHeader hdr{};
    hdr.inC = C; hdr.inH = H; hdr.inW = W;
    hdr.outC = OC; hdr.kH = KH; hdr.kW = KW;
    hdr.outH = OH; hdr.outW = OW;
    hdr.rowsPerChunk = 64;                                  // 64 rows x 128 floats = 32 KB per buffer
    hdr.chunksPerTap = (OH + hdr.rowsPerChunk - 1) / hdr.rowsPerChunk;
    uint32_t units = K * hdr.chunksPerTap;
    hdr.unitsPerCore = (units + vecCores - 1) / vecCores;

    matmul_tiling::MultiCoreMatmulTiling mmTiling(*plat);
    mmTiling.SetDim(cubeCores);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(OC, P, K);
    mmTiling.SetOrgShape(OC, P, K);
    mmTiling.SetBias(false);
    mmTiling.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    CHECK_RET(mmTiling.GetTiling(cube) != -1, "matmul tiling");

    std::vector<uint8_t> tilingBlob(sizeof(hdr) + cube.GetDataSize());
    memcpy(tilingBlob.data(), &hdr, sizeof(hdr));
    cube.SaveToBuffer(tilingBlob.data() + sizeof(hdr), cube.GetDataSize());

    // ---- host data -----------------------------------------------------------------------
    const size_t imgIn = (size_t)C * H * W;
    const size_t imgOut = (size_t)OC * P;
    std::vector<float> x(batch * imgIn), w((size_t)OC * K), y(batch * imgOut);
    CHECK_RET(Slurp("./input/x.bin", x) && Slurp("./input/w.bin", w), "read inputs");

    // ---- device --------------------------------------------------------------------------
    CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "set device");
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "create stream");

    uint8_t *dX, *dW, *dY, *dCols, *dWs, *dTiling;
    size_t colBytes = (size_t)K * P * sizeof(float);
    size_t wsBytes = plat->GetLibApiWorkSpaceSize();
    CHECK_RET(aclrtMalloc((void **)&dX, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "malloc x");
    CHECK_RET(aclrtMalloc((void **)&dW, w.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "malloc w");
    CHECK_RET(aclrtMalloc((void **)&dY, y.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "malloc y");
    CHECK_RET(aclrtMalloc((void **)&dCols, colBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "malloc cols");
    CHECK_RET(aclrtMalloc((void **)&dWs, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "malloc ws");
    CHECK_RET(aclrtMalloc((void **)&dTiling, tilingBlob.size(), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "malloc tiling");

    aclrtMemcpy(dX, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dW, w.size() * 4, w.data(), w.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dTiling, tilingBlob.size(), tilingBlob.data(), tilingBlob.size(), ACL_MEMCPY_HOST_TO_DEVICE);

    // the column buffer is reused image after image; stream order serialises the two stages
    for (uint32_t n = 0; n < batch; ++n) {
        uint8_t *xImg = dX + n * imgIn * sizeof(float);
        uint8_t *yImg = dY + n * imgOut * sizeof(float);
        ACLRT_LAUNCH_KERNEL(unfold_conv2d_cols)(vecCores, stream, xImg, dCols, dTiling);
        ACLRT_LAUNCH_KERNEL(unfold_conv2d)(cubeCores, stream, dW, dCols, yImg, dWs, dTiling);
    }
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "sync");

    aclrtMemcpy(y.data(), y.size() * 4, dY, y.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream("./output/y.bin", std::ios::binary).write(reinterpret_cast<char *>(y.data()), y.size() * 4);

    aclrtFree(dX); aclrtFree(dW); aclrtFree(dY);
    aclrtFree(dCols); aclrtFree(dWs); aclrtFree(dTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("y: (%u, %u, %u, %u)\n", batch, OC, OH, OW);
    return 0;
}

// Host side of dense_swish_squash: x(1024x8192) * Wt(8192x8192) + b, fused epilogue.
#include <cstdio>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_dense_swish_squash.h"

static constexpr uint32_t kRows = 1024;   // batch
static constexpr uint32_t kIn = 8192;     // in features
static constexpr uint32_t kOut = 8192;    // out features

static bool ReadBin(const char *path, void *buf, size_t n)
{
    std::ifstream in(path, std::ios::binary);
    if (!in.is_open()) {
        printf("open %s failed\n", path);
        return false;
    }
    in.read(reinterpret_cast<char *>(buf), n);
    return true;
}

static void WriteBin(const char *path, const void *buf, size_t n)
{
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char *>(buf), n);
}

// builds the cube tiling on the host; returns the number of cores it uses
static int32_t BuildTiling(std::vector<uint8_t> &blob)
{
    auto *platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling tiler(*platform);
    const int32_t cores = static_cast<int32_t>(platform->GetCoreNumAic());
    tiler.SetDim(cores);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetShape(kRows, kOut, kIn);
    tiler.SetOrgShape(kRows, kOut, kIn);
    tiler.SetBias(true);
    tiler.SetFixSplit(128, 128, -1);               // result tile = 64 KB of UB
    tiler.SetTraverse(matmul_tiling::MatrixTraverse::FIRSTM);
    tiler.SetBufferSpace(-1, -1, -1);

    optiling::TCubeTiling cube;
    if (tiler.GetTiling(cube) == -1) {
        return -1;
    }
    blob.resize(cube.GetDataSize());
    cube.SaveToBuffer(blob.data(), blob.size());
    return cube.get_usedCoreNum();
}

int main()
{
    const size_t xBytes = (size_t)kRows * kIn * sizeof(float);
    const size_t wBytes = (size_t)kIn * kOut * sizeof(float);
    const size_t bBytes = (size_t)kOut * sizeof(float);
    const size_t yBytes = (size_t)kRows * kOut * sizeof(float);

    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);

    std::vector<uint8_t> tilingBlob;
    int32_t blockDim = BuildTiling(tilingBlob);
    if (blockDim <= 0) {
        printf("tiling failed\n");
        return -1;
    }

    std::vector<float> hx(kRows * (size_t)kIn), hw((size_t)kIn * kOut), hb(kOut), hy((size_t)kRows * kOut);
    if (!ReadBin("./input/x.bin", hx.data(), xBytes) || !ReadBin("./input/w_t.bin", hw.data(), wBytes) ||
        !ReadBin("./input/bias.bin", hb.data(), bBytes)) {
        return -1;
    }

    uint8_t *dx, *dw, *db, *dy, *dws, *dtiling;
    size_t wsBytes = platform_ascendc::PlatformAscendCManager::GetInstance()->GetLibApiWorkSpaceSize();
    aclrtMalloc((void **)&dx, xBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dw, wBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&db, bBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dy, yBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dws, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dtiling, tilingBlob.size(), ACL_MEM_MALLOC_HUGE_FIRST);

    aclrtMemcpy(dx, xBytes, hx.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dw, wBytes, hw.data(), wBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(db, bBytes, hb.data(), bBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dtiling, tilingBlob.size(), tilingBlob.data(), tilingBlob.size(), ACL_MEMCPY_HOST_TO_DEVICE);

    ACLRT_LAUNCH_KERNEL(dense_swish_squash)(blockDim, stream, dx, dw, db, dy, dws, dtiling);
    aclrtSynchronizeStream(stream);

    aclrtMemcpy(hy.data(), yBytes, dy, yBytes, ACL_MEMCPY_DEVICE_TO_HOST);
    WriteBin("./output/output.bin", hy.data(), yBytes);
    printf("done, y[0]=%f y[last]=%f\n", hy[0], hy.back());

    aclrtFree(dx);
    aclrtFree(dw);
    aclrtFree(db);
    aclrtFree(dy);
    aclrtFree(dws);
    aclrtFree(dtiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

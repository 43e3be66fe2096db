// main.cpp -- host program for dense_batchstat_softmax
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_dense_batchstat_softmax_gemm.h"
#include "aclrtlaunch_dense_batchstat_softmax_stats.h"
#include "aclrtlaunch_dense_batchstat_softmax.h"

namespace {
constexpr uint32_t kBatch = 256;
constexpr uint32_t kIn = 2048;
constexpr uint32_t kOut = 2048;
constexpr float kEps = 1e-5f;

// layout must match DenseBatchstatSoftmaxTiling on the device (TCubeTiling appended)
struct Header {
    uint32_t batch, features, colsPerCore, rowsPerStep, rowsPerCore;
    float eps;
};

void Check(aclError e, const char *msg)
{
    if (e != ACL_SUCCESS) {
        std::fprintf(stderr, "[error] %s -> %d\n", msg, e);
        std::exit(1);
    }
}

std::vector<float> ReadFile(const char *path, size_t n)
{
    std::vector<float> v(n);
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char *>(v.data()), n * 4);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path);
        std::exit(1);
    }
    return v;
}

void *Upload(const void *h, size_t bytes)
{
    void *d = nullptr;
    Check(aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    if (h) {
        Check(aclrtMemcpy(d, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE), "H2D");
    }
    return d;
}
}  // namespace

int main()
{
    Check(aclInit(nullptr), "aclInit");
    Check(aclrtSetDevice(0), "aclrtSetDevice");
    aclrtStream stream;
    Check(aclrtCreateStream(&stream), "aclrtCreateStream");

    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    const uint32_t cubeCores = plat->GetCoreNumAic();
    const uint32_t vecCores = plat->GetCoreNumAiv();

    // ---- tiling ----
    matmul_tiling::MultiCoreMatmulTiling mt(*plat);
    mt.SetDim(cubeCores);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(kBatch, kOut, kIn);
    mt.SetOrgShape(kBatch, kOut, kIn);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    if (mt.GetTiling(cube) == -1) {
        std::fprintf(stderr, "GetTiling failed\n");
        return 1;
    }

    Header h{};
    h.batch = kBatch;
    h.features = kOut;
    // 64-column slices: 2048 / 64 = 32 stats cores, every slice full width and 32B aligned
    h.colsPerCore = 64;
    h.rowsPerStep = 16;
    h.rowsPerCore = (kBatch + vecCores - 1) / vecCores;
    h.eps = kEps;
    uint32_t statCores = kOut / h.colsPerCore;
    uint32_t smCores = (kBatch + h.rowsPerCore - 1) / h.rowsPerCore;

    std::vector<uint8_t> tbuf(sizeof(Header) + cube.GetDataSize());
    std::memcpy(tbuf.data(), &h, sizeof(Header));
    cube.SaveToBuffer(tbuf.data() + sizeof(Header), cube.GetDataSize());

    // ---- data ----
    auto x = ReadFile("./input/x.bin", kBatch * kIn);
    auto w = ReadFile("./input/w.bin", kOut * kIn);
    auto b = ReadFile("./input/b.bin", kOut);
    auto gamma = ReadFile("./input/gamma.bin", kOut);
    auto beta = ReadFile("./input/beta.bin", kOut);
    auto scale = ReadFile("./input/scale.bin", 1);

    void *dx = Upload(x.data(), x.size() * 4);
    void *dw = Upload(w.data(), w.size() * 4);
    void *db = Upload(b.data(), b.size() * 4);
    void *dg = Upload(gamma.data(), gamma.size() * 4);
    void *dbeta = Upload(beta.data(), beta.size() * 4);
    void *ds = Upload(scale.data(), 4);
    void *dz = Upload(nullptr, sizeof(float) * kBatch * kOut);
    void *dcoef = Upload(nullptr, sizeof(float) * 2 * kOut);
    void *dy = Upload(nullptr, sizeof(float) * kBatch * kOut);
    void *dws = Upload(nullptr, plat->GetLibApiWorkSpaceSize());
    void *dt = Upload(tbuf.data(), tbuf.size());

    ACLRT_LAUNCH_KERNEL(dense_batchstat_softmax_gemm)(cubeCores, stream, dx, dw, db, dz, dws, dt);
    ACLRT_LAUNCH_KERNEL(dense_batchstat_softmax_stats)(statCores, stream, dz, dg, dbeta, ds, dcoef, dt);
    ACLRT_LAUNCH_KERNEL(dense_batchstat_softmax)(smCores, stream, dz, dcoef, dy, dt);
    Check(aclrtSynchronizeStream(stream), "sync");

    std::vector<float> y(kBatch * kOut);
    Check(aclrtMemcpy(y.data(), y.size() * 4, dy, y.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST), "D2H");
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(y.data()), y.size() * 4);

    for (void *p : {dx, dw, db, dg, dbeta, ds, dz, dcoef, dy, dws, dt}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("ok\n");
    return 0;
}

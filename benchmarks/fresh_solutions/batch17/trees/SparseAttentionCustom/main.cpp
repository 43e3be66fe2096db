/*
 * Host program for banded_mha.
 *   x [B, S, E] --proj(W_in, b_in)--> qkv [B*S, 3E] --banded_mha--> ctx [B*S, E]
 *               --proj(W_out, b_out)--> out [B, S, E]
 * All three launches go to one stream, so they run in order.
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_banded_mha.h"
#include "aclrtlaunch_banded_mha_proj.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

struct BandedMhaTiling {
    uint32_t batch;
    uint32_t seq;
    uint32_t embed;
    uint32_t heads;
    uint32_t headDim;
    uint32_t halfWin;
    uint32_t qTile;
    float scale;
};

#define ACL_CALL(expr)                                                                  \
    do {                                                                                \
        aclError e_ = (expr);                                                           \
        if (e_ != ACL_SUCCESS) {                                                        \
            fprintf(stderr, "%s returned %d (%s:%d)\n", #expr, e_, __FILE__, __LINE__); \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

static std::vector<float> ReadFloats(const std::string &path, size_t n)
{
    std::vector<float> buf(n);
    std::ifstream f(path, std::ios::binary);
    f.read(reinterpret_cast<char *>(buf.data()), n * sizeof(float));
    if (!f) {
        fprintf(stderr, "short read: %s\n", path.c_str());
    }
    return buf;
}

// Matmul tiling for C[M,N] = A[M,K] * W[N,K]^T + bias, serialized for the device.
static std::vector<uint8_t> ProjTiling(uint32_t M, uint32_t N, uint32_t K, uint32_t cores)
{
    using namespace matmul_tiling;
    MultiCoreMatmulTiling mt(*platform_ascendc::PlatformAscendCManager::GetInstance());
    mt.SetDim(cores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling td;
    std::vector<uint8_t> blob;
    if (mt.GetTiling(td) == -1) {
        fprintf(stderr, "matmul tiling failed for %ux%ux%u\n", M, N, K);
        return blob;
    }
    blob.resize(td.GetDataSize());
    td.SaveToBuffer(blob.data(), blob.size());
    return blob;
}

int main()
{
    const uint32_t B = 16, S = 128, E = 512, H = 4, D = E / H, WIN = 32;
    const uint32_t rows = B * S;
    const uint32_t cubeCores = 24, vecCores = 48;

    BandedMhaTiling at{};
    at.batch = B;
    at.seq = S;
    at.embed = E;
    at.heads = H;
    at.headDim = D;
    at.halfWin = WIN;
    at.qTile = 16;
    at.scale = 1.0f / std::sqrt(static_cast<float>(D));

    std::vector<uint8_t> inTiling = ProjTiling(rows, 3 * E, E, cubeCores);
    std::vector<uint8_t> outTiling = ProjTiling(rows, E, E, cubeCores);
    if (inTiling.empty() || outTiling.empty()) {
        return 1;
    }

    auto x = ReadFloats("./input/x.bin", (size_t)rows * E);
    auto wIn = ReadFloats("./input/in_proj_weight.bin", (size_t)3 * E * E);
    auto bIn = ReadFloats("./input/in_proj_bias.bin", 3 * E);
    auto wOut = ReadFloats("./input/out_proj_weight.bin", (size_t)E * E);
    auto bOut = ReadFloats("./input/out_proj_bias.bin", E);

    ACL_CALL(aclInit(nullptr));
    ACL_CALL(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_CALL(aclrtCreateStream(&stream));

    auto upload = [](const void *src, size_t bytes, void **dev) -> aclError {
        aclError e = aclrtMalloc(dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        if (e != ACL_SUCCESS || src == nullptr) {
            return e;
        }
        return aclrtMemcpy(*dev, bytes, src, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    };

    void *dX, *dWin, *dBin, *dWout, *dBout, *dQkv, *dCtx, *dOut, *dInT, *dOutT, *dAttT, *dWs;
    size_t wsBytes = platform_ascendc::PlatformAscendCManager::GetInstance()->GetLibApiWorkSpaceSize();
    ACL_CALL(upload(x.data(), x.size() * 4, &dX));
    ACL_CALL(upload(wIn.data(), wIn.size() * 4, &dWin));
    ACL_CALL(upload(bIn.data(), bIn.size() * 4, &dBin));
    ACL_CALL(upload(wOut.data(), wOut.size() * 4, &dWout));
    ACL_CALL(upload(bOut.data(), bOut.size() * 4, &dBout));
    ACL_CALL(upload(nullptr, (size_t)rows * 3 * E * 4, &dQkv));
    ACL_CALL(upload(nullptr, (size_t)rows * E * 4, &dCtx));
    ACL_CALL(upload(nullptr, (size_t)rows * E * 4, &dOut));
    ACL_CALL(upload(nullptr, wsBytes, &dWs));
    ACL_CALL(upload(inTiling.data(), inTiling.size(), &dInT));
    ACL_CALL(upload(outTiling.data(), outTiling.size(), &dOutT));
    ACL_CALL(upload(&at, sizeof(at), &dAttT));

    ACLRT_LAUNCH_KERNEL(banded_mha_proj)(cubeCores, stream, dX, dWin, dBin, dQkv, dWs, dInT);
    ACLRT_LAUNCH_KERNEL(banded_mha)(vecCores, stream, dQkv, dCtx, dAttT);
    ACLRT_LAUNCH_KERNEL(banded_mha_proj)(cubeCores, stream, dCtx, dWout, dBout, dOut, dWs, dOutT);
    ACL_CALL(aclrtSynchronizeStream(stream));

    std::vector<float> out((size_t)rows * E);
    ACL_CALL(aclrtMemcpy(out.data(), out.size() * 4, dOut, out.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(out.data()), out.size() * 4);

    for (void *p : {dX, dWin, dBin, dWout, dBout, dQkv, dCtx, dOut, dInT, dOutT, dAttT, dWs}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

// Host program for token_mixing_attention: three launches on one stream
//   1. token_mixing_linear     qkv = x @ Win^T + bin      (B*S, 3E)
//   2. token_mixing_attention  ctx = per-head softmax(QK^T/sqrt(d)) V
//   3. token_mixing_linear     y = ctx @ Wout^T + bout    (B*S, E)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_token_mixing_attention.h"
#include "aclrtlaunch_token_mixing_linear.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace {
constexpr uint32_t BATCH = 16;
constexpr uint32_t SEQ = 256;
constexpr uint32_t EMBED = 512;
constexpr uint32_t HEADS = 8;
constexpr uint32_t HEAD_DIM = EMBED / HEADS;

struct LinearTiling {
    TCubeTiling cube;
};

struct AttentionTiling {
    uint32_t batch, seqLen, embed, heads, headDim;
    uint32_t pairTotal, pairPerCore, kChunk, qBlock;
    float scale;
};

void Die(const char *msg)
{
    fprintf(stderr, "%s\n", msg);
    exit(1);
}

void AclCheck(aclError e, const char *what)
{
    if (e != ACL_SUCCESS) {
        fprintf(stderr, "%s failed with %d\n", what, e);
        exit(1);
    }
}

std::vector<float> ReadInput(const char *path, size_t n)
{
    std::vector<float> v(n);
    std::ifstream f(path, std::ios::binary);
    if (!f.read(reinterpret_cast<char *>(v.data()), n * sizeof(float))) {
        Die(path);
    }
    return v;
}

// cube tiling for (m x k) @ (n x k)^T + bias, returns the number of cores to launch
uint32_t MakeLinearTiling(uint32_t m, uint32_t n, uint32_t k, LinearTiling &out)
{
    using namespace matmul_tiling;
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    MultiCoreMatmulTiling tiler(*plat);
    tiler.SetDim(plat->GetCoreNumAic());
    tiler.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    tiler.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    tiler.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    tiler.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    tiler.SetShape(m, n, k);
    tiler.SetOrgShape(m, n, k);
    tiler.SetBias(true);
    tiler.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling t;
    if (tiler.GetTiling(t) == -1) {
        Die("matmul tiling failed");
    }
    t.SaveToBuffer(&out.cube, sizeof(TCubeTiling));
    uint32_t mb = (m + t.get_singleCoreM() - 1) / t.get_singleCoreM();
    uint32_t nb = (n + t.get_singleCoreN() - 1) / t.get_singleCoreN();
    return mb * nb;
}

void *DevAlloc(size_t bytes)
{
    void *p = nullptr;
    AclCheck(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    return p;
}

void *Upload(const void *src, size_t bytes)
{
    void *p = DevAlloc(bytes);
    AclCheck(aclrtMemcpy(p, bytes, src, bytes, ACL_MEMCPY_HOST_TO_DEVICE), "H2D");
    return p;
}
}  // namespace

int main()
{
    const uint32_t tokens = BATCH * SEQ;
    auto x = ReadInput("./input/x.bin", size_t(tokens) * EMBED);
    auto wIn = ReadInput("./input/in_proj_weight.bin", size_t(3) * EMBED * EMBED);
    auto bIn = ReadInput("./input/in_proj_bias.bin", size_t(3) * EMBED);
    auto wOut = ReadInput("./input/out_proj_weight.bin", size_t(EMBED) * EMBED);
    auto bOut = ReadInput("./input/out_proj_bias.bin", EMBED);

    LinearTiling inTiling{}, outTiling{};
    uint32_t inBlocks = MakeLinearTiling(tokens, 3 * EMBED, EMBED, inTiling);
    uint32_t outBlocks = MakeLinearTiling(tokens, EMBED, EMBED, outTiling);

    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    uint32_t aivNum = plat->GetCoreNumAiv();
    AttentionTiling at{};
    at.batch = BATCH;
    at.seqLen = SEQ;
    at.embed = EMBED;
    at.heads = HEADS;
    at.headDim = HEAD_DIM;
    at.pairTotal = BATCH * HEADS;
    at.pairPerCore = (at.pairTotal + aivNum - 1) / aivNum;
    at.kChunk = 64;
    at.qBlock = 32;
    at.scale = 1.0f / std::sqrt(static_cast<float>(HEAD_DIM));
    uint32_t attBlocks = (at.pairTotal + at.pairPerCore - 1) / at.pairPerCore;

    AclCheck(aclInit(nullptr), "aclInit");
    AclCheck(aclrtSetDevice(0), "aclrtSetDevice");
    aclrtStream stream = nullptr;
    AclCheck(aclrtCreateStream(&stream), "aclrtCreateStream");

    void *dX = Upload(x.data(), x.size() * 4);
    void *dWin = Upload(wIn.data(), wIn.size() * 4);
    void *dBin = Upload(bIn.data(), bIn.size() * 4);
    void *dWout = Upload(wOut.data(), wOut.size() * 4);
    void *dBout = Upload(bOut.data(), bOut.size() * 4);
    void *dQkv = DevAlloc(size_t(tokens) * 3 * EMBED * 4);
    void *dCtx = DevAlloc(size_t(tokens) * EMBED * 4);
    void *dY = DevAlloc(size_t(tokens) * EMBED * 4);
    void *dWs = DevAlloc(plat->GetLibApiWorkSpaceSize());
    void *dInT = Upload(&inTiling, sizeof(inTiling));
    void *dOutT = Upload(&outTiling, sizeof(outTiling));
    void *dAttT = Upload(&at, sizeof(at));

    ACLRT_LAUNCH_KERNEL(token_mixing_linear)(inBlocks, stream, dX, dWin, dBin, dQkv, dWs, dInT);
    ACLRT_LAUNCH_KERNEL(token_mixing_attention)(attBlocks, stream, dQkv, dCtx, dAttT);
    ACLRT_LAUNCH_KERNEL(token_mixing_linear)(outBlocks, stream, dCtx, dWout, dBout, dY, dWs, dOutT);
    AclCheck(aclrtSynchronizeStream(stream), "sync");

    std::vector<float> y(size_t(tokens) * EMBED);
    AclCheck(aclrtMemcpy(y.data(), y.size() * 4, dY, y.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST), "D2H");
    std::ofstream("./output/output.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(y.data()), y.size() * 4);

    for (void *p : {dX, dWin, dBin, dWout, dBout, dQkv, dCtx, dY, dWs, dInT, dOutT, dAttT}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("attention output (%u, %u, %u) written\n", BATCH, SEQ, EMBED);
    return 0;
}

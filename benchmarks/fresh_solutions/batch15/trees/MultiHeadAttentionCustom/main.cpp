// main.cpp - host side of headwise_self_attn (batch-first multi-head self-attention).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_headwise_self_attn_proj.h"
#include "aclrtlaunch_headwise_self_attn.h"

#define CHECK_RET(x)                                                      \
    do {                                                                  \
        int r_ = (int)(x);                                                \
        if (r_ != 0) {                                                    \
            printf("error %d at %s:%d (%s)\n", r_, __FILE__, __LINE__, #x); \
            return 1;                                                     \
        }                                                                 \
    } while (0)

struct ProjHead {
    uint32_t batch, transB, hasBias, strideA, strideB, strideC;
};

struct HeadwiseSelfAttnTiling {
    uint32_t batch, seqLen, dModel, numHeads, headDim, rowsPerTask, numTasks;
    float softmaxScale;
};

static std::vector<uint8_t> BuildProjArgs(const ProjHead &head, uint32_t M, uint32_t N, uint32_t K, uint32_t cores)
{
    matmul_tiling::MultiCoreMatmulTiling tiler(*platform_ascendc::PlatformAscendCManager::GetInstance());
    tiler.SetDim(cores);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT,
                   head.transB != 0);
    tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetShape(M, N, K);
    tiler.SetOrgShape(M, N, K);
    tiler.SetBias(head.hasBias != 0);
    tiler.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling td;
    std::vector<uint8_t> out;
    if (tiler.GetTiling(td) == -1) {
        return out;
    }
    out.resize(sizeof(head) + td.GetDataSize());
    std::memcpy(out.data(), &head, sizeof(head));
    td.SaveToBuffer(out.data() + sizeof(head), td.GetDataSize());
    return out;
}

static bool Load(const char *file, std::vector<float> &v)
{
    std::ifstream f(file, std::ios::binary);
    return static_cast<bool>(f.read(reinterpret_cast<char *>(v.data()), v.size() * sizeof(float)));
}

int main()
{
    const uint32_t B = 4, L = 256, E = 512, H = 8, D = E / H;
    const uint32_t cubeCores = 24, vecCores = 48;

    std::vector<float> x((size_t)B * L * E), wIn((size_t)3 * E * E), bIn(3 * E), wOut((size_t)E * E), bOut(E);
    if (!Load("./input/x.bin", x) || !Load("./input/in_proj_weight.bin", wIn) || !Load("./input/in_proj_bias.bin", bIn) ||
        !Load("./input/out_proj_weight.bin", wOut) || !Load("./input/out_proj_bias.bin", bOut)) {
        printf("missing input files, run scripts/gen_data.py first\n");
        return 1;
    }

    // pass 1: QKV^T[b] (3E, L) = Win (3E, E) @ x[b]^T, x[b] is (L, E) -> B transposed
    ProjHead p1{B, 1, 0, 0, L * E, 3 * E * L};
    std::vector<uint8_t> args1 = BuildProjArgs(p1, 3 * E, L, E, cubeCores);
    // pass 2: out[b] (L, E) = O[b] (L, E) @ Wout^T + bout
    ProjHead p2{B, 1, 1, L * E, 0, L * E};
    std::vector<uint8_t> args2 = BuildProjArgs(p2, L, E, E, cubeCores);
    if (args1.empty() || args2.empty()) {
        printf("matmul tiling failed\n");
        return 1;
    }

    HeadwiseSelfAttnTiling at{};
    at.batch = B; at.seqLen = L; at.dModel = E; at.numHeads = H; at.headDim = D;
    at.rowsPerTask = 8;
    at.numTasks = B * H * (L / at.rowsPerTask);
    at.softmaxScale = 1.0f / std::sqrt(static_cast<float>(D));

    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK_RET(aclrtCreateStream(&stream));

    auto upload = [](const void *src, size_t n, void **dev) -> int {
        int r = aclrtMalloc(dev, n, ACL_MEM_MALLOC_HUGE_FIRST);
        if (r != 0) return r;
        return aclrtMemcpy(*dev, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE);
    };
    void *dX, *dWin, *dBin, *dWout, *dBout, *dA1, *dA2, *dAt, *dQkv, *dO, *dOut, *dWs;
    CHECK_RET(upload(x.data(), x.size() * 4, &dX));
    CHECK_RET(upload(wIn.data(), wIn.size() * 4, &dWin));
    CHECK_RET(upload(bIn.data(), bIn.size() * 4, &dBin));
    CHECK_RET(upload(wOut.data(), wOut.size() * 4, &dWout));
    CHECK_RET(upload(bOut.data(), bOut.size() * 4, &dBout));
    CHECK_RET(upload(args1.data(), args1.size(), &dA1));
    CHECK_RET(upload(args2.data(), args2.size(), &dA2));
    CHECK_RET(upload(&at, sizeof(at), &dAt));
    size_t outBytes = (size_t)B * L * E * 4;
    CHECK_RET(aclrtMalloc(&dQkv, (size_t)B * 3 * E * L * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&dO, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&dOut, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    size_t wsBytes = platform_ascendc::PlatformAscendCManager::GetInstance()->GetLibApiWorkSpaceSize();
    CHECK_RET(aclrtMalloc(&dWs, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST));

    ACLRT_LAUNCH_KERNEL(headwise_self_attn_proj)(cubeCores, stream, dWin, dX, nullptr, dQkv, dWs, dA1);
    ACLRT_LAUNCH_KERNEL(headwise_self_attn)(vecCores, stream, dQkv, dBin, dO, dAt);
    ACLRT_LAUNCH_KERNEL(headwise_self_attn_proj)(cubeCores, stream, dO, dWout, dBout, dOut, dWs, dA2);
    CHECK_RET(aclrtSynchronizeStream(stream));

    std::vector<float> out((size_t)B * L * E);
    CHECK_RET(aclrtMemcpy(out.data(), outBytes, dOut, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<const char *>(out.data()), outBytes);

    for (void *p : {dX, dWin, dBin, dWout, dBout, dA1, dA2, dAt, dQkv, dO, dOut, dWs}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("headwise_self_attn: wrote output/output.bin (%u x %u x %u)\n", B, L, E);
    return 0;
}

/**
 * main.cpp - pixel_token_attn host program.
 *
 * Launch order on one stream:
 *   pixel_token_attn_gemm  : QKV^T = Win @ x[b]           (B, 3E, L)
 *   pixel_token_attn_core  : O = attention(QKV^T)         (B, L, E)
 *   pixel_token_attn_gemm  : Y^T = Wout @ O[b]^T          (B, E, L)
 *   pixel_token_attn       : out = LayerNorm_E(Y^T + bout + x)   (B, E, H, W)
 */
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
#include "aclrtlaunch_pixel_token_attn_gemm.h"
#include "aclrtlaunch_pixel_token_attn_core.h"
#include "aclrtlaunch_pixel_token_attn.h"

#define ACL_CALL(expr)                                                                 \
    do {                                                                               \
        int err_ = static_cast<int>(expr);                                             \
        if (err_ != 0) {                                                               \
            fprintf(stderr, "[%s:%d] %s -> %d\n", __FILE__, __LINE__, #expr, err_);    \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

struct GemmHeader {            // leading part of PixelTokenAttnGemmArgs
    uint32_t batch;
    uint32_t transB;
    uint32_t strideA;
    uint32_t strideB;
    uint32_t strideC;
    uint32_t reserved;
};

struct PixelTokenAttnCoreTiling {
    uint32_t batch, embed, seq, heads, headDim, qRows, kChunk, tasks;
    float scale;
};

struct PixelTokenAttnTiling {
    uint32_t batch, embed, seq, cols, tasks;
    float eps;
};

static std::vector<uint8_t> GemmArgs(uint32_t M, uint32_t N, uint32_t K, bool transB, const GemmHeader &hdr,
                                     uint32_t cores)
{
    using namespace matmul_tiling;
    MultiCoreMatmulTiling mt(*platform_ascendc::PlatformAscendCManager::GetInstance());
    mt.SetDim(cores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, transB);
    mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    if (mt.GetTiling(cube) == -1) {
        fprintf(stderr, "GetTiling failed for %ux%ux%u\n", M, N, K);
        exit(1);
    }
    std::vector<uint8_t> buf(sizeof(GemmHeader) + cube.GetDataSize());
    memcpy(buf.data(), &hdr, sizeof(hdr));
    cube.SaveToBuffer(buf.data() + sizeof(hdr), cube.GetDataSize());
    return buf;
}

static void *ToDevice(const void *host, size_t bytes)
{
    void *dev = nullptr;
    ACL_CALL(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    return dev;
}

static void *FileToDevice(const char *path, size_t bytes)
{
    std::vector<char> h(bytes);
    std::ifstream f(path, std::ios::binary);
    if (!f.read(h.data(), bytes)) {
        fprintf(stderr, "read error: %s\n", path);
        exit(1);
    }
    return ToDevice(h.data(), bytes);
}

int main()
{
    const uint32_t B = 2, E = 128, HEADS = 4, IMG_H = 32, IMG_W = 32;
    const uint32_t L = IMG_H * IMG_W, D = E / HEADS;
    const uint32_t cubeCores = 24, vecCores = 48;

    ACL_CALL(aclInit(nullptr));
    ACL_CALL(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_CALL(aclrtCreateStream(&stream));

    void *x = FileToDevice("./input/x.bin", (size_t)B * E * L * 4);
    void *wIn = FileToDevice("./input/in_proj_weight.bin", (size_t)3 * E * E * 4);
    void *bIn = FileToDevice("./input/in_proj_bias.bin", (size_t)3 * E * 4);
    void *wOut = FileToDevice("./input/out_proj_weight.bin", (size_t)E * E * 4);
    void *bOut = FileToDevice("./input/out_proj_bias.bin", (size_t)E * 4);
    void *gamma = FileToDevice("./input/ln_weight.bin", (size_t)E * 4);
    void *beta = FileToDevice("./input/ln_bias.bin", (size_t)E * 4);

    size_t outBytes = (size_t)B * E * L * 4;
    void *qkvT, *o, *yT, *out, *ws;
    ACL_CALL(aclrtMalloc(&qkvT, (size_t)B * 3 * E * L * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&o, (size_t)B * L * E * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&yT, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&out, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    size_t wsBytes = platform_ascendc::PlatformAscendCManager::GetInstance()->GetLibApiWorkSpaceSize();
    ACL_CALL(aclrtMalloc(&ws, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST));

    // --- tilings -----------------------------------------------------------------------------
    GemmHeader h1{B, 0, 0, E * L, 3 * E * L, 0};
    auto g1 = GemmArgs(3 * E, L, E, false, h1, cubeCores);
    GemmHeader h2{B, 1, 0, L * E, E * L, 0};
    auto g2 = GemmArgs(E, L, E, true, h2, cubeCores);

    PixelTokenAttnCoreTiling at{};
    at.batch = B; at.embed = E; at.seq = L; at.heads = HEADS; at.headDim = D;
    at.qRows = 4;
    at.kChunk = 512;
    at.tasks = B * HEADS * (L / at.qRows);
    at.scale = 1.0f / std::sqrt((float)D);

    PixelTokenAttnTiling nt{};
    nt.batch = B; nt.embed = E; nt.seq = L;
    nt.cols = 64;
    nt.tasks = B * (L / nt.cols);
    nt.eps = 1e-5f;

    void *g1Dev = ToDevice(g1.data(), g1.size());
    void *g2Dev = ToDevice(g2.data(), g2.size());
    void *atDev = ToDevice(&at, sizeof(at));
    void *ntDev = ToDevice(&nt, sizeof(nt));

    // --- launches ------------------------------------------------------------------------------
    ACLRT_LAUNCH_KERNEL(pixel_token_attn_gemm)(cubeCores, stream, wIn, x, qkvT, ws, g1Dev);
    ACLRT_LAUNCH_KERNEL(pixel_token_attn_core)(vecCores, stream, qkvT, bIn, o, atDev);
    ACLRT_LAUNCH_KERNEL(pixel_token_attn_gemm)(cubeCores, stream, wOut, o, yT, ws, g2Dev);
    uint32_t lnBlocks = nt.tasks < vecCores ? nt.tasks : vecCores;
    ACLRT_LAUNCH_KERNEL(pixel_token_attn)(lnBlocks, stream, yT, x, bOut, gamma, beta, out, ntDev);
    ACL_CALL(aclrtSynchronizeStream(stream));

    std::vector<float> result((size_t)B * E * L);
    ACL_CALL(aclrtMemcpy(result.data(), outBytes, out, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write((const char *)result.data(), outBytes);
    printf("pixel_token_attn finished, out (%u, %u, %u, %u)\n", B, E, IMG_H, IMG_W);

    for (void *p : {x, wIn, bIn, wOut, bOut, gamma, beta, qkvT, o, yT, out, ws, g1Dev, g2Dev, atDev, ntDev}) {
        aclrtFree(p);
    }
    ACL_CALL(aclrtDestroyStream(stream));
    ACL_CALL(aclrtResetDevice(0));
    ACL_CALL(aclFinalize());
    return 0;
}

/*
 * main.cpp - host program for prenorm_decoder_layer.
 *
 * Launch sequence (single stream):
 *   ln1   = norm(x)                          prenorm_decoder_layer_norm
 *   qkv   = ln1 @ Wqkv^T + bqkv              prenorm_decoder_layer_dense (none)
 *   att   = causal_attention(qkv)            prenorm_decoder_layer
 *   h     = att @ Wo^T + bo + x              prenorm_decoder_layer_dense (residual)
 *   ln2   = norm(h)                          prenorm_decoder_layer_norm
 *   f     = gelu(ln2 @ W1^T + b1)            prenorm_decoder_layer_dense (gelu)
 *   y     = f @ W2^T + b2 + h                prenorm_decoder_layer_dense (residual)
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_prenorm_decoder_layer_norm.h"
#include "aclrtlaunch_prenorm_decoder_layer_dense.h"
#include "aclrtlaunch_prenorm_decoder_layer.h"

namespace {
constexpr uint32_t B = 2;
constexpr uint32_t T = 128;
constexpr uint32_t C = 768;
constexpr uint32_t NH = 8;
constexpr uint32_t HD = C / NH;      // 96
constexpr uint32_t FF = 4 * C;       // 3072
constexpr uint32_t TOK = B * T;
constexpr uint32_t BASE_M = 64;
constexpr uint32_t BASE_N = 64;

// must mirror the scalar prefix of PrenormDecoderLayerTiling
struct Header {
    uint32_t tokens, embed, tokensPerCore;
    float lnEps;
    uint32_t batch, seqLen, heads, headDim;
    float attnScale;
    uint32_t epilogue, baseM, baseN;
};

void Ok(aclError e, const char *what)
{
    if (e != ACL_SUCCESS) {
        std::fprintf(stderr, "%s: acl error %d\n", what, static_cast<int>(e));
        std::exit(1);
    }
}

struct DevBuf {
    void *ptr = nullptr;
    size_t bytes = 0;
};

DevBuf Alloc(size_t bytes, const void *src = nullptr)
{
    DevBuf d;
    d.bytes = bytes;
    Ok(aclrtMalloc(&d.ptr, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    if (src != nullptr) {
        Ok(aclrtMemcpy(d.ptr, bytes, src, bytes, ACL_MEMCPY_HOST_TO_DEVICE), "H2D");
    }
    return d;
}

DevBuf LoadParam(const std::string &name, size_t count)
{
    std::vector<float> h(count);
    std::ifstream f("./input/" + name + ".bin", std::ios::binary);
    if (!f.read(reinterpret_cast<char *>(h.data()), count * sizeof(float))) {
        std::fprintf(stderr, "missing input/%s.bin\n", name.c_str());
        std::exit(1);
    }
    return Alloc(count * sizeof(float), h.data());
}

Header BaseHeader(uint32_t vecCores)
{
    Header h{};
    h.tokens = TOK;
    h.embed = C;
    h.tokensPerCore = (TOK + vecCores - 1) / vecCores;
    h.lnEps = 1e-5f;
    h.batch = B;
    h.seqLen = T;
    h.heads = NH;
    h.headDim = HD;
    h.attnScale = 1.0f / std::sqrt(static_cast<float>(HD));
    h.epilogue = 0;
    h.baseM = BASE_M;
    h.baseN = BASE_N;
    return h;
}

// header + TCubeTiling for an [m, k] x [n, k]^T product
DevBuf DenseTiling(const Header &base, uint32_t m, uint32_t n, uint32_t k, uint32_t epilogue, uint32_t cores)
{
    using namespace matmul_tiling;
    MultiCoreMatmulTiling mt(*platform_ascendc::PlatformAscendCManager::GetInstance());
    mt.SetDim(cores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    mt.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k);
    mt.SetBias(true);
    mt.SetFixSplit(BASE_M, BASE_N, -1);
    mt.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    if (mt.GetTiling(cube) == -1) {
        std::fprintf(stderr, "matmul tiling failed (%u x %u x %u)\n", m, n, k);
        std::exit(1);
    }
    Header h = base;
    h.epilogue = epilogue;
    std::vector<uint8_t> blob(sizeof(Header) + cube.GetDataSize());
    std::memcpy(blob.data(), &h, sizeof(Header));
    cube.SaveToBuffer(blob.data() + sizeof(Header), cube.GetDataSize());
    return Alloc(blob.size(), blob.data());
}
}  // namespace

int main()
{
    Ok(aclInit(nullptr), "aclInit");
    Ok(aclrtSetDevice(0), "aclrtSetDevice");
    aclrtStream stream;
    Ok(aclrtCreateStream(&stream), "aclrtCreateStream");

    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    const uint32_t aic = plat->GetCoreNumAic();
    const uint32_t aiv = plat->GetCoreNumAiv();

    // parameters (nn.Linear layout: [out, in])
    DevBuf x = LoadParam("x", TOK * C);
    DevBuf ln1g = LoadParam("ln1_w", C), ln1b = LoadParam("ln1_b", C);
    DevBuf wqkv = LoadParam("attn_w", 3 * C * C), bqkv = LoadParam("attn_b", 3 * C);
    DevBuf wo = LoadParam("proj_w", C * C), bo = LoadParam("proj_b", C);
    DevBuf ln2g = LoadParam("ln2_w", C), ln2b = LoadParam("ln2_b", C);
    DevBuf w1 = LoadParam("fc_w", FF * C), b1 = LoadParam("fc_b", FF);
    DevBuf w2 = LoadParam("out_w", C * FF), b2 = LoadParam("out_b", C);

    // activations
    DevBuf ln = Alloc(sizeof(float) * TOK * C);
    DevBuf qkv = Alloc(sizeof(float) * TOK * 3 * C);
    DevBuf att = Alloc(sizeof(float) * TOK * C);
    DevBuf h = Alloc(sizeof(float) * TOK * C);
    DevBuf ff = Alloc(sizeof(float) * TOK * FF);
    DevBuf y = Alloc(sizeof(float) * TOK * C);
    DevBuf ws = Alloc(plat->GetLibApiWorkSpaceSize());

    Header base = BaseHeader(aiv);
    DevBuf tVec = Alloc(sizeof(Header) + 512, nullptr);   // LN / attention only read the header
    Ok(aclrtMemcpy(tVec.ptr, sizeof(Header), &base, sizeof(Header), ACL_MEMCPY_HOST_TO_DEVICE), "H2D hdr");
    DevBuf tQkv = DenseTiling(base, TOK, 3 * C, C, 0, aic);
    DevBuf tProj = DenseTiling(base, TOK, C, C, 2, aic);
    DevBuf tFc = DenseTiling(base, TOK, FF, C, 1, aic);
    DevBuf tOut = DenseTiling(base, TOK, C, FF, 2, aic);
    const uint32_t lnCores = (TOK + base.tokensPerCore - 1) / base.tokensPerCore;
    const uint32_t attCores = B * NH < aiv ? B * NH : aiv;

    // attention half
    ACLRT_LAUNCH_KERNEL(prenorm_decoder_layer_norm)(lnCores, stream, x.ptr, ln1g.ptr, ln1b.ptr, ln.ptr, tVec.ptr);
    ACLRT_LAUNCH_KERNEL(prenorm_decoder_layer_dense)(aic, stream, ln.ptr, wqkv.ptr, bqkv.ptr, nullptr, qkv.ptr,
                                                     ws.ptr, tQkv.ptr);
    ACLRT_LAUNCH_KERNEL(prenorm_decoder_layer)(attCores, stream, qkv.ptr, att.ptr, tVec.ptr);
    ACLRT_LAUNCH_KERNEL(prenorm_decoder_layer_dense)(aic, stream, att.ptr, wo.ptr, bo.ptr, x.ptr, h.ptr, ws.ptr,
                                                     tProj.ptr);
    // MLP half
    ACLRT_LAUNCH_KERNEL(prenorm_decoder_layer_norm)(lnCores, stream, h.ptr, ln2g.ptr, ln2b.ptr, ln.ptr, tVec.ptr);
    ACLRT_LAUNCH_KERNEL(prenorm_decoder_layer_dense)(aic, stream, ln.ptr, w1.ptr, b1.ptr, nullptr, ff.ptr, ws.ptr,
                                                     tFc.ptr);
    ACLRT_LAUNCH_KERNEL(prenorm_decoder_layer_dense)(aic, stream, ff.ptr, w2.ptr, b2.ptr, h.ptr, y.ptr, ws.ptr,
                                                     tOut.ptr);
    Ok(aclrtSynchronizeStream(stream), "sync");

    std::vector<float> out(TOK * C);
    Ok(aclrtMemcpy(out.data(), y.bytes, y.ptr, y.bytes, ACL_MEMCPY_DEVICE_TO_HOST), "D2H");
    std::ofstream("./output/output.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(out.data()), out.size() * sizeof(float));
    std::printf("decoder layer done, y[0] = %f\n", out[0]);

    for (DevBuf *d : {&x, &ln1g, &ln1b, &wqkv, &bqkv, &wo, &bo, &ln2g, &ln2b, &w1, &b1, &w2, &b2, &ln, &qkv, &att,
                      &h, &ff, &y, &ws, &tVec, &tQkv, &tProj, &tFc, &tOut}) {
        aclrtFree(d->ptr);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

#include <cmath>
#include "pre_ln_decoder_layer_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
namespace {
// Configure one "x @ W^T + b" GEMM split over all cube cores.
bool BuildLinearTiling(const platform_ascendc::PlatformAscendC& plat, uint32_t cubeCores,
                       int32_t m, int32_t n, int32_t k, TCubeTiling& out)
{
    MultiCoreMatmulTiling mt(plat);
    mt.SetDim(cubeCores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mt.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mt.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    return mt.GetTiling(out) != -1;
}
}

ge::graphStatus PreLnDecoderLayerTiling(gert::TilingContext* ctx)
{
    const auto& xs = ctx->GetInputShape(0)->GetStorageShape();     // (B, T, C)
    const auto& fcW = ctx->GetInputShape(7)->GetStorageShape();    // (H, C)
    if (xs.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = ctx->GetAttrs();
    uint32_t heads = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    float eps = *attrs->GetAttrPointer<float>(1);

    uint32_t b = xs.GetDim(0), t = xs.GetDim(1), c = xs.GetDim(2);
    uint32_t hid = fcW.GetDim(0);
    if (heads == 0 || c % heads != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hd = c / heads;
    int32_t m = static_cast<int32_t>(b * t);

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t aic = plat.GetCoreNumAic();
    uint32_t aiv = plat.GetCoreNumAiv();

    PreLnDecoderLayerTilingData td;
    td.set_batch(b);
    td.set_seqLen(t);
    td.set_embed(c);
    td.set_hidden(hid);
    td.set_numHeads(heads);
    td.set_headDim(hd);
    td.set_headDimPad((hd + 7) / 8 * 8);
    // keys per pass: K block + V block (+ product scratch) must stay well under UB
    uint32_t kb = 16 * 1024 / ((hd + 7) / 8 * 8);
    kb = kb / 8 * 8;
    td.set_keyBlock(kb < 8 ? 8 : kb);
    td.set_eps(eps);
    td.set_scale(1.0f / std::sqrt(static_cast<float>(hd)));
    td.set_vecCores(aiv);

    if (!BuildLinearTiling(plat, aic, m, 3 * c, c, td.qkvMm) ||
        !BuildLinearTiling(plat, aic, m, c, c, td.projMm) ||
        !BuildLinearTiling(plat, aic, m, hid, c, td.fcMm) ||
        !BuildLinearTiling(plat, aic, m, c, hid, td.outMm)) {
        return ge::GRAPH_FAILED;
    }

    // mixed AIC:AIV = 1:2 launch; block dim counts cube cores
    ctx->SetBlockDim(aic);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // user workspace: ln-out, qkv, attn-out, residual-1, mlp hidden
    uint64_t rows = static_cast<uint64_t>(m);
    uint64_t user = rows * (c + 3 * c + c + c + hid) * sizeof(float);
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = user + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

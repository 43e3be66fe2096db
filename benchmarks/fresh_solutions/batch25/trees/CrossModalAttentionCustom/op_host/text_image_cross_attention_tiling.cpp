#include "text_image_cross_attention_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <algorithm>
#include <cmath>

namespace optiling {
using namespace matmul_tiling;

static int32_t MakeTiling(const platform_ascendc::PlatformAscendC &plat, DataType dt, bool transB, bool bias,
                          int32_t m, int32_t n, int32_t k, TCubeTiling &out)
{
    MatmulApiTiling t(plat);
    t.SetAType(TPosition::GM, CubeFormat::ND, dt, false);
    t.SetBType(TPosition::GM, CubeFormat::ND, dt, transB);
    t.SetCType(TPosition::GM, CubeFormat::ND, dt);
    t.SetBiasType(TPosition::GM, CubeFormat::ND, dt);
    t.SetShape(m, n, k);
    t.SetOrgShape(m, n, k);
    t.SetBias(bias);
    t.SetBufferSpace(-1, -1, -1);
    return t.GetTiling(out);
}

ge::graphStatus TextImageCrossAttentionTiling(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto text = context->GetInputShape(0)->GetStorageShape();  // [B, Lq, D]
    auto img = context->GetInputShape(1)->GetStorageShape();   // [B, Lk, Di]
    uint32_t B = text.GetDim(0), Lq = text.GetDim(1), D = text.GetDim(2);
    uint32_t Lk = img.GetDim(1), Di = img.GetDim(2);
    if (img.GetDim(0) != B) {
        return ge::GRAPH_FAILED;
    }
    uint32_t H = static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0));
    if (H == 0 || D % H != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hd = D / H;

    bool f16 = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    DataType dt = f16 ? DataType::DT_FLOAT16 : DataType::DT_FLOAT;
    uint32_t esz = f16 ? 2 : 4;

    uint32_t cores = plat.GetCoreNumAic();
    uint32_t maxRows = std::max(B * Lq, B * Lk);
    uint32_t slab = (maxRows + cores - 1) / cores;
    slab = (slab + 15) / 16 * 16;
    uint32_t kvPad = (Lk + 15) / 16 * 16;

    TextImageCrossAttentionTilingData td;
    td.set_batch(B);
    td.set_lenQ(Lq);
    td.set_lenKv(Lk);
    td.set_dModel(D);
    td.set_dImg(Di);
    td.set_heads(H);
    td.set_headDim(hd);
    td.set_rowSlab(slab);
    td.set_kvPad(kvPad);
    td.set_scale(1.0f / std::sqrt(static_cast<float>(hd)));

    if (MakeTiling(plat, dt, true, true, slab, D, std::max(D, Di), td.linear) == -1 ||
        MakeTiling(plat, dt, true, false, Lq, kvPad, hd, td.score) == -1 ||
        MakeTiling(plat, dt, false, false, Lq, hd, kvPad, td.mix) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // text proj, image proj, Q, K, V, context, plus per-core score scratch
    size_t q = static_cast<size_t>(B) * Lq * D;
    size_t kv = static_cast<size_t>(B) * Lk * D;
    size_t elems = 3 * q + 3 * kv + static_cast<size_t>(cores) * Lq * kvPad;
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize() + elems * esz;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

#include "relu_feature_map_attention_tiling.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
static bool BuildCubeTiling(const platform_ascendc::PlatformAscendC &platform, uint32_t cubeCores,
                            int32_t m, int32_t n, int32_t k, bool transA, TCubeTiling &out)
{
    MultiCoreMatmulTiling mt(platform);
    mt.SetDim(cubeCores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, transA);
    mt.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mt.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);
    return mt.GetTiling(out) != -1;
}

ge::graphStatus ReluFeatureMapAttentionTilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cubeCores = platform.GetCoreNumAic();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::Shape &qs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ks = context->GetInputShape(1)->GetStorageShape();
    const gert::Shape &vs = context->GetInputShape(2)->GetStorageShape();
    if (qs.GetDimNum() != 3 || ks.GetDimNum() != 3 || vs.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t b = qs.GetDim(0), lq = qs.GetDim(1), d = qs.GetDim(2);
    uint32_t lk = ks.GetDim(1), dv = vs.GetDim(2);
    if (ks.GetDim(0) != b || vs.GetDim(0) != b || ks.GetDim(2) != d || vs.GetDim(1) != lk) {
        return ge::GRAPH_FAILED;
    }

    ReluFeatureMapAttentionTilingData td;
    td.set_batch(b);
    td.set_qLen(lq);
    td.set_kLen(lk);
    td.set_headDim(d);
    td.set_valueDim(dv);
    const float *epsAttr = context->GetAttrs()->GetAttrPointer<float>(0);
    td.set_eps(epsAttr == nullptr ? 1e-6f : *epsAttr);

    // feature map stage: in + out queues, double buffered -> 4 float tiles
    uint32_t tile = static_cast<uint32_t>((ubSize - 16 * 1024) / 4 / sizeof(float));
    tile = tile / 64 * 64;
    td.set_mapTile(tile);

    if (!BuildCubeTiling(platform, cubeCores, d, dv, lk, true, td.kvTiling) ||
        !BuildCubeTiling(platform, cubeCores, lq, dv, d, false, td.outTiling)) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(cubeCores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // user workspace: phi(Q), phi(K) and the per-batch KV state, all float
    size_t user = (static_cast<size_t>(b) * lq * d + static_cast<size_t>(b) * lk * d +
                   static_cast<size_t>(b) * d * dv) * sizeof(float);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + user;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

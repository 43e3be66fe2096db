#include <cmath>
#include "headwise_softmax_attention_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
using namespace matmul_tiling;

static bool BuildCubeTiling(platform_ascendc::PlatformAscendC &plat, uint32_t m, uint32_t n, uint32_t k,
                            bool transB, TCubeTiling &out)
{
    MatmulApiTiling t(plat);
    t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, transB);
    t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    t.SetShape(m, n, k);
    t.SetOrgShape(m, n, k);
    t.SetBias(false);
    t.SetBufferSpace(-1, -1, -1);
    return t.GetTiling(out) != -1;
}

ge::graphStatus HeadwiseSoftmaxAttentionTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &q = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &k = context->GetInputShape(1)->GetStorageShape();
    const gert::Shape &v = context->GetInputShape(2)->GetStorageShape();
    const size_t rank = q.GetDimNum();
    if (rank < 2 || k.GetDimNum() != rank || v.GetDimNum() != rank) {
        return ge::GRAPH_FAILED;
    }
    // every leading dim is folded into an independent "head"
    uint64_t heads = 1;
    for (size_t i = 0; i + 2 < rank; ++i) {
        heads *= static_cast<uint64_t>(q.GetDim(i));
    }
    const uint32_t sq = static_cast<uint32_t>(q.GetDim(rank - 2));
    const uint32_t d = static_cast<uint32_t>(q.GetDim(rank - 1));
    const uint32_t sk = static_cast<uint32_t>(k.GetDim(rank - 2));
    const uint32_t dv = static_cast<uint32_t>(v.GetDim(rank - 1));
    if (static_cast<uint32_t>(k.GetDim(rank - 1)) != d || static_cast<uint32_t>(v.GetDim(rank - 2)) != sk) {
        return ge::GRAPH_FAILED;
    }

    float scale = 0.0f;
    const auto *attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetAttrPointer<float>(0) != nullptr) {
        scale = *attrs->GetAttrPointer<float>(0);
    }
    if (scale <= 0.0f) {
        scale = 1.0f / std::sqrt(static_cast<float>(d));
    }

    uint32_t aiv = plat.GetCoreNumAiv();
    aiv = aiv == 0 ? 1 : aiv;
    uint32_t perCore = static_cast<uint32_t>((heads + aiv - 1) / aiv);
    uint32_t used = static_cast<uint32_t>((heads + perCore - 1) / perCore);

    // softmax pass: in (x2) + out (x2) + one scratch row block
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t rowBytes = (sk + 7) / 8 * 8 * sizeof(float);
    uint32_t rows = static_cast<uint32_t>((ubSize - 16 * 1024) / (5 * rowBytes));
    if (rows == 0) {
        return ge::GRAPH_FAILED; // key length too long for a single UB row
    }
    rows = rows > 64 ? 64 : rows;
    rows = rows > sq ? sq : rows;

    HeadwiseSoftmaxAttentionTilingData td;
    if (!BuildCubeTiling(plat, sq, sk, d, true, td.qkTiling) ||
        !BuildCubeTiling(plat, sq, dv, sk, false, td.pvTiling)) {
        return ge::GRAPH_FAILED;
    }
    td.set_headCount(static_cast<uint32_t>(heads));
    td.set_qLen(sq);
    td.set_kvLen(sk);
    td.set_headDim(d);
    td.set_valueDim(dv);
    td.set_headsPerCore(perCore);
    td.set_usedCores(used);
    td.set_softmaxRows(rows);
    td.set_scale(scale);

    context->SetBlockDim((used + 1) / 2);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // one private Sq x Sk probability matrix per vector core
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(used) * sq * sk * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

#include "channel_mix_conv1x1_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus ChannelMixConv1x1TilingFunc(gert::TilingContext *context)
{
    ChannelMixConv1x1Tiling td;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const auto &xs = context->GetInputShape(0)->GetStorageShape();   // (N, Ci, H, W)
    const auto &ws = context->GetInputShape(1)->GetStorageShape();   // (Co, Ci, 1, 1) or (Co, Ci)
    if (xs.GetDimNum() != 4 || ws.GetDimNum() < 2 || ws.GetDim(1) != xs.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    for (size_t i = 2; i < ws.GetDimNum(); ++i) {
        if (ws.GetDim(i) != 1) {
            return ge::GRAPH_FAILED;   // only 1x1 kernels
        }
    }
    uint32_t batch = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint64_t hw = static_cast<uint64_t>(xs.GetDim(2)) * xs.GetDim(3);
    uint32_t cout = ws.GetDim(0);

    matmul_tiling::DataType dt = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ?
                                 matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    // One image: Y(Co, HW) = W(Co, Ci) * X(Ci, HW). The same split is reused for every image.
    matmul_tiling::MultiCoreMatmulTiling mt(plat);
    mt.SetDim(plat.GetCoreNumAiv());
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mt.SetShape(cout, static_cast<int32_t>(hw), cin);
    mt.SetOrgShape(cout, static_cast<int32_t>(hw), cin);
    mt.SetBias(false);                 // the bias runs along M here; it is added by the vector epilogue
    mt.SetBufferSpace(-1, -1, -1);
    if (mt.GetTiling(td.mm) == -1) {
        return ge::GRAPH_FAILED;
    }

    td.set_batch(batch);
    td.set_cin(cin);
    td.set_cout(cout);
    td.set_spatial(hw);
    td.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);
    td.set_biasChunk(8192);

    context->SetBlockDim(plat.GetCoreNumAic());
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

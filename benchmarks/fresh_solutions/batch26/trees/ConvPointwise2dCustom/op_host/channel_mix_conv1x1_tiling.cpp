#include "channel_mix_conv1x1_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus ChannelMixConv1x1TilingFunc(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();   // [N, Cin, H, W]
    auto ws = context->GetInputShape(1)->GetStorageShape();   // [Cout, Cin, 1, 1]
    if (xs.GetDimNum() != 4 || ws.GetDim(1) != xs.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t batch = xs.GetDim(0);
    const uint32_t cin = xs.GetDim(1);
    const uint32_t hw = xs.GetDim(2) * xs.GetDim(3);
    const uint32_t cout = ws.GetDim(0);
    const bool withBias = context->GetOptionalInputShape(2) != nullptr;

    // Task = [rows x cols] block of one image's [Cout, HW] output.
    uint32_t rows = cout < 256 ? cout : 256;
    uint32_t cols = hw < 512 ? hw : 512;

    auto dtype = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16
                                                                            : matmul_tiling::DataType::DT_FLOAT;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    ChannelMixConv1x1TilingData tiling;
    tiling.set_batch(batch);
    tiling.set_inChannels(cin);
    tiling.set_outChannels(cout);
    tiling.set_spatial(hw);
    tiling.set_colsPerTask(cols);
    tiling.set_rowsPerTask(rows);
    tiling.set_withBias(withBias ? 1 : 0);
    tiling.set_biasTile(8192);

    matmul_tiling::MatmulApiTiling mmTiling(plat);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dtype, false);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dtype, false);
    mmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dtype);
    mmTiling.SetOrgShape(cout, hw, cin);
    mmTiling.SetShape(rows, cols, cin);
    mmTiling.SetBias(false);
    mmTiling.SetBufferSpace(-1, -1, -1);
    if (mmTiling.GetTiling(tiling.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(plat.GetCoreNumAic());
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

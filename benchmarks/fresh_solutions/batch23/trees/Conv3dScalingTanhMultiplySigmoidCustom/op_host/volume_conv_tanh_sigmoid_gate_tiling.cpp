#include "volume_conv_tanh_sigmoid_gate_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus VolumeConvTanhSigmoidGateTiling(gert::TilingContext* context)
{
    auto x = context->GetInputShape(0)->GetStorageShape();   // N C D H W
    auto w = context->GetInputShape(1)->GetStorageShape();   // O C KD KH KW
    if (x.GetDimNum() != 5 || w.GetDimNum() != 5 || x.GetDim(1) != w.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    VolumeConvTanhSigmoidGateTilingData td;
    uint32_t od = x.GetDim(2) - w.GetDim(2) + 1;
    uint32_t oh = x.GetDim(3) - w.GetDim(3) + 1;
    uint32_t ow = x.GetDim(4) - w.GetDim(4) + 1;
    uint32_t stride = (ow + 7) / 8 * 8;
    uint32_t oc = w.GetDim(0);

    // accumulators for chPerPass rows + 2 input rows + 2 output rows + 1 scratch row
    const uint32_t ubFloats = 170 * 1024 / 4;
    uint32_t chPerPass = oc;
    while (chPerPass > 1 && (chPerPass + 5) * stride > ubFloats) {
        chPerPass = (chPerPass + 1) / 2;
    }

    td.set_batch(x.GetDim(0));
    td.set_inCh(x.GetDim(1));
    td.set_inD(x.GetDim(2));
    td.set_inH(x.GetDim(3));
    td.set_inW(x.GetDim(4));
    td.set_outCh(oc);
    td.set_kD(w.GetDim(2));
    td.set_kH(w.GetDim(3));
    td.set_kW(w.GetDim(4));
    td.set_outD(od);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_rowStride(stride);
    td.set_chPerPass(chPerPass);
    uint32_t rows = x.GetDim(0) * od * oh;
    td.set_rowCount(rows);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(rows < cores ? rows : cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

// Tiling for DenseBlockBnReluConv.
// Every layer is split over all vector cores by output line (image, row); the kernel
// synchronises all cores between layers because layer l+1 reads what layer l wrote.
#include "dense_block_bn_relu_conv_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus DenseBlockBnReluConvTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    uint32_t layers = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t growth = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    if (layers == 0 || growth == 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t batch = xs.GetDim(0);
    uint32_t c0 = xs.GetDim(1);
    uint32_t h = xs.GetDim(2);
    uint32_t w = xs.GetDim(3);
    uint32_t wAlign = (w + 7) / 8 * 8;

    // weights must hold growth * sum_l (c0 + l*growth) * 9 values
    uint64_t expectW = 0;
    for (uint32_t l = 0; l < layers; ++l) {
        expectW += static_cast<uint64_t>(growth) * (c0 + l * growth) * 9;
    }
    if (context->GetInputShape(3)->GetStorageShape().GetShapeSize() != static_cast<int64_t>(expectW)) {
        return ge::GRAPH_FAILED;
    }

    // accumulators get ~96 KB of UB
    uint32_t gBlock = growth;
    while (gBlock > 1 && (static_cast<uint64_t>(gBlock) * wAlign * 4 > 96 * 1024 || growth % gBlock != 0)) {
        --gBlock;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }

    DenseBlockBnReluConvTilingData td;
    td.set_batch(batch);
    td.set_inChannels(c0);
    td.set_outChannels(c0 + layers * growth);
    td.set_height(h);
    td.set_width(w);
    td.set_widthAlign(wAlign);
    td.set_numLayers(layers);
    td.set_growth(growth);
    td.set_gBlock(gBlock);
    td.set_copyTile(16 * 1024);
    td.set_coreNum(cores);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    // SyncAll needs the library workspace
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

#include "conv_depthwise_2d_asymmetric_input_square_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_BYTES = 32 * 1024;   // budget for one row-block buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    auto attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    // kernel below handles the unit-stride, unpadded case
    if (stride != 1 || pad != 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t k = ws.GetDim(2);
    uint32_t oh = h - k + 1;
    uint32_t ow = w - k + 1;
    uint32_t owAlign = (ow + 7) / 8 * 8;

    uint32_t rows = TILE_BYTES / (owAlign * sizeof(float));
    if (rows == 0) rows = 1;
    if (rows > oh) rows = oh;
    uint32_t tilesPerPlane = (oh + rows - 1) / rows;
    uint32_t total = n * c * tilesPerPlane;

    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (total + cores - 1) / cores;
    uint32_t used = (total + perCore - 1) / perCore;

    ConvDepthwise2dAsymmetricInputSquareKernelCustomTilingData td;
    td.set_batch(n);
    td.set_channels(c);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_outWAlign(owAlign);
    td.set_kSize(k);
    td.set_rowsPerTile(rows);
    td.set_tilesPerPlane(tilesPerPlane);
    td.set_totalTiles(total);
    td.set_tilesPerCore(perCore);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t k = ws->GetDim(2);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, (xs->GetDim(2) + 2 * p - k) / s + 1);
    ys->SetDim(3, (xs->GetDim(3) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvDepthwise2dAsymmetricInputSquareKernelCustom : public OpDef {
public:
    explicit ConvDepthwise2dAsymmetricInputSquareKernelCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvDepthwise2dAsymmetricInputSquareKernelCustom);
}

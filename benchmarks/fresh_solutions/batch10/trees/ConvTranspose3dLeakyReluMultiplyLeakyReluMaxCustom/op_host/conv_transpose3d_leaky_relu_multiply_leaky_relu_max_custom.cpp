#include "conv_transpose3d_leaky_relu_multiply_leaky_relu_max_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t N = shape.GetDim(0);
    uint32_t C = shape.GetDim(1);
    uint32_t D = shape.GetDim(2);
    uint32_t H = shape.GetDim(3);
    uint32_t W = shape.GetDim(4);
    uint32_t OD = D / 2, OH = H / 2, OW = W / 2;

    uint32_t wAlign = (W + 15) / 16 * 16;
    // 4 input rows per output row; keep one input tile at <= 8K floats (32 KB, double buffered)
    uint32_t rowsPerTile = 8192 / (4 * wAlign);
    if (rowsPerTile == 0) rowsPerTile = 1;
    if (rowsPerTile > OH) rowsPerTile = OH;
    uint32_t tilesPerSlice = (OH + rowsPerTile - 1) / rowsPerTile;
    uint32_t numTiles = N * C * OD * tilesPerSlice;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blockDim = plat.GetCoreNumAiv();
    if (blockDim > numTiles) blockDim = numTiles;
    if (blockDim == 0) blockDim = 1;

    float slope = *context->GetAttrs()->GetAttrPointer<float>(0);

    tiling.set_c(C);
    tiling.set_d(D);
    tiling.set_h(H);
    tiling.set_w(W);
    tiling.set_od(OD);
    tiling.set_oh(OH);
    tiling.set_ow(OW);
    tiling.set_wAlign(wAlign);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_tilesPerSlice(tilesPerSlice);
    tiling.set_numTiles(numTiles);
    tiling.set_slope(slope);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    *out = *in;
    for (size_t i = 2; i < 5; ++i) {
        out->SetDim(i, in->GetDim(i) / 2);
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustom : public OpDef {
public:
    explicit ConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("multiplier")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.2f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustom);
}

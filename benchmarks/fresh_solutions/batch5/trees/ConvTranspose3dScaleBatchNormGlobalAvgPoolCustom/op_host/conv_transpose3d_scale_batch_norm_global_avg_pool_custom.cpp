#include "conv_transpose3d_scale_batch_norm_global_avg_pool_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LEN = 4096;  // floats per spatial tile (16 KB)

// The kernel consumes the conv_transpose3d output (N, C, D, H, W) and produces
// avgpool(batchnorm(scale * x)) of shape (N, C, 1, 1, 1). Batch-norm uses batch
// statistics (training mode), so every channel needs a full pass over N*D*H*W
// elements; channels are therefore the unit of work split across cores.
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ConvTranspose3dScaleBatchNormGlobalAvgPoolCustomTilingData tiling;
    const gert::Shape &xShape = context->GetInputShape(0)->GetStorageShape();
    if (xShape.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(xShape.GetDim(0));
    uint32_t c = static_cast<uint32_t>(xShape.GetDim(1));
    uint32_t s = static_cast<uint32_t>(xShape.GetDim(2) * xShape.GetDim(3) * xShape.GetDim(4));

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    float scale = *(attrs->GetAttrPointer<float>(0));
    float eps = *(attrs->GetAttrPointer<float>(1));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    if (cores > c) {
        cores = c;
    }

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_spatial(s);
    tiling.set_tileLen(s < TILE_LEN ? (s + 7) / 8 * 8 : TILE_LEN);
    tiling.set_chPerCore(c / cores);
    tiling.set_chRemainder(c % cores);
    tiling.set_scaleFactor(scale);
    tiling.set_eps(eps);

    context->SetBlockDim(cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    yShape->SetDimNum(5);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, xShape->GetDim(1));
    yShape->SetDim(2, 1);
    yShape->SetDim(3, 1);
    yShape->SetDim(4, 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ConvTranspose3dScaleBatchNormGlobalAvgPoolCustom : public OpDef {
public:
    explicit ConvTranspose3dScaleBatchNormGlobalAvgPoolCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale_factor").AttrType(REQUIRED).Float(1.0f);
        this->Attr("eps").AttrType(REQUIRED).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose3dScaleBatchNormGlobalAvgPoolCustom);
} // namespace ops

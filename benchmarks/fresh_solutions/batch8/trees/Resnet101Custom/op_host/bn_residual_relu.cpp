#include "bn_residual_relu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CHUNK = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t n = xs.GetDim(0);
    const uint32_t c = xs.GetDim(1);
    const uint32_t hw = xs.GetDim(2) * xs.GetDim(3);
    const uint32_t cAligned = (c + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint32_t cores = plat.GetCoreNumAiv();

    // scale + shift resident; x, residual, y double buffered (6 chunk buffers).
    const uint64_t fixedBytes = 2ULL * cAligned * sizeof(float) + 1024;
    if (fixedBytes >= ub) {
        return ge::GRAPH_FAILED;
    }
    uint32_t chunk = static_cast<uint32_t>((ub - fixedBytes) / 6 / sizeof(float)) / 64 * 64;
    if (chunk > MAX_CHUNK) {
        chunk = MAX_CHUNK;
    }
    const uint32_t hwAligned = (hw + 7) / 8 * 8;
    if (chunk > hwAligned) {
        chunk = hwAligned;   // small planes: one pass per plane
    }
    const uint32_t chunksPerPlane = (hw + chunk - 1) / chunk;
    const uint32_t work = n * c * chunksPerPlane;

    BnResidualReluTilingData td;
    td.set_channels(c);
    td.set_planes(n * c);
    td.set_planeSize(hw);
    td.set_chunkLen(chunk);
    td.set_chunksPerPlane(chunksPerPlane);
    context->SetBlockDim(work < cores ? work : cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class BnResidualReluCustom : public OpDef {
public:
    explicit BnResidualReluCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("residual")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BnResidualReluCustom);
} // namespace ops

#include "leaky_offset_saturate_gelu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include <vector>

namespace optiling {
static constexpr uint32_t MAX_TILE = 8192;
static constexpr uint32_t REPEAT_ELEMS = 64;
static constexpr uint32_t NUM_TILE_BUFS = 5;   // x (x2), y (x2), scaled copy for erf

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const auto &shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t c = static_cast<uint32_t>(shape.GetDim(1));
    uint32_t planeSize = 1;
    for (size_t i = 2; i < shape.GetDimNum(); ++i) {
        planeSize *= static_cast<uint32_t>(shape.GetDim(i));
    }
    uint32_t planes = n * c;

    auto attrs = context->GetAttrs();
    const float *slope = attrs->GetAttrPointer<float>(0);
    const float *lo = attrs->GetAttrPointer<float>(1);
    const float *hi = attrs->GetAttrPointer<float>(2);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    if (cores > planes) {
        cores = planes;
    }
    if (cores == 0) {
        cores = 1;
    }

    // Erf keeps ~3 live float temporaries per element; find the largest tile whose
    // buffers plus the Erf scratch fit in UB.
    uint32_t maxLive = 0;
    uint32_t extra = 0;
    AscendC::GetErfTmpBufferFactorSize(sizeof(float), maxLive, extra);
    uint64_t bytesPerElem = (NUM_TILE_BUFS + maxLive) * sizeof(float);
    uint32_t tileLen = static_cast<uint32_t>((ubSize - extra - 1024) / bytesPerElem);
    tileLen = tileLen / REPEAT_ELEMS * REPEAT_ELEMS;
    if (tileLen > MAX_TILE) {
        tileLen = MAX_TILE;
    }
    uint32_t planeAligned = (planeSize + REPEAT_ELEMS - 1) / REPEAT_ELEMS * REPEAT_ELEMS;
    if (tileLen > planeAligned) {
        tileLen = planeAligned;
    }

    // ask the Erf tiling helper what a tile of this length needs
    uint32_t erfMax = 0;
    uint32_t erfMin = 0;
    std::vector<int64_t> dims = {static_cast<int64_t>(tileLen)};
    ge::Shape erfShape(dims);
    AscendC::GetErfMaxMinTmpSize(erfShape, sizeof(float), false, erfMax, erfMin);
    uint64_t used = static_cast<uint64_t>(NUM_TILE_BUFS) * tileLen * sizeof(float);
    uint32_t erfTmp = (used + erfMax <= ubSize - 1024) ? erfMax : erfMin;

    LeakyOffsetSaturateGeluTiling td;
    td.set_planes(planes);
    td.set_channels(c);
    td.set_planeSize(planeSize);
    td.set_planesPerCore(planes / cores);
    td.set_planesRemainder(planes % cores);
    td.set_tileLen(tileLen);
    td.set_erfTmpBytes(erfTmp);
    td.set_slope(slope ? *slope : 0.2f);
    td.set_clipMin(lo ? *lo : -1.0f);
    td.set_clipMax(hi ? *hi : 1.0f);

    context->SetBlockDim(cores);
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
class LeakyOffsetSaturateGeluCustom : public OpDef {
public:
    explicit LeakyOffsetSaturateGeluCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("offset")
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
        this->Attr("clip_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clip_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LeakyOffsetSaturateGeluCustom);
} // namespace ops

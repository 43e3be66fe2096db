#include "swin_mlp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const auto &xs = context->GetInputShape(0)->GetStorageShape();
    uint32_t hidden = static_cast<uint32_t>(xs.GetDim(xs.GetDimNum() - 1));
    uint32_t totalRows = static_cast<uint32_t>(xs.GetShapeSize() / hidden);
    if (hidden % 8 != 0) {
        return ge::GRAPH_FAILED;   // LayerNorm API wants a 32B-aligned last axis
    }

    float eps = 1e-5f;
    const float *epsAttr = context->GetAttrs()->GetAttrPointer<float>(0);
    if (epsAttr != nullptr) {
        eps = *epsAttr;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    uint32_t rowsPerCore = (totalRows + coreNum - 1) / coreNum;
    uint32_t usedCores = (totalRows + rowsPerCore - 1) / rowsPerCore;

    // rows per tile: in (x2) + out (x2) + gamma + beta, tmp buffer sized by the API below
    uint32_t rowsPerTile = 64;
    uint32_t tmpSize = 0;
    while (true) {
        std::vector<int64_t> dims = {1, static_cast<int64_t>(rowsPerTile), static_cast<int64_t>(hidden)};
        ge::Shape tileShape(dims);
        uint32_t maxTmp = 0, minTmp = 0;
        AscendC::GetLayerNormMaxMinTmpSize(tileShape, sizeof(float), false, maxTmp, minTmp);
        uint64_t dataBytes = (4ULL * rowsPerTile * hidden + 2ULL * hidden) * sizeof(float) +
                             2ULL * ((rowsPerTile + 7) / 8 * 8) * sizeof(float);
        if (dataBytes + minTmp <= ubSize - 1024 || rowsPerTile == 1) {
            uint64_t left = ubSize - 1024 - dataBytes;
            tmpSize = maxTmp < left ? maxTmp : static_cast<uint32_t>(left);
            if (tmpSize < minTmp) tmpSize = minTmp;
            break;
        }
        rowsPerTile /= 2;
    }
    if (rowsPerTile > rowsPerCore) {
        rowsPerTile = rowsPerCore;
    }

    SwinMlpCustomTilingData tiling;
    std::vector<int64_t> dims = {1, static_cast<int64_t>(rowsPerTile), static_cast<int64_t>(hidden)};
    ge::Shape tileShape(dims);
    AscendC::GetLayerNormNDTilingInfo(tileShape, tmpSize, sizeof(float), false, tiling.lnTiling);

    tiling.set_totalRows(totalRows);
    tiling.set_hidden(hidden);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_tmpBufSize(tmpSize);
    tiling.set_epsilon(eps);

    context->SetBlockDim(usedCores);
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
class SwinMlpCustom : public OpDef {
public:
    explicit SwinMlpCustom(const char *name) : OpDef(name)
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
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SwinMlpCustom);
} // namespace ops

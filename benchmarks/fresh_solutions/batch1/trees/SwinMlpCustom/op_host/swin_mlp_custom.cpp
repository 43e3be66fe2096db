#include "swin_mlp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const auto& shape = context->GetInputShape(0)->GetOriginShape();
    size_t rank = shape.GetDimNum();
    uint32_t dim = static_cast<uint32_t>(shape.GetDim(rank - 1));
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / dim);
    uint32_t dimAlign = (dim + 7) / 8 * 8;

    float eps = 1e-5f;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetFloat(0) != nullptr) {
        eps = *attrs->GetFloat(0);
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    uint32_t rowsPerCore = (rows + cores - 1) / cores;
    uint32_t blockDim = (rows + rowsPerCore - 1) / rowsPerCore;

    // in(x2) + out(x2) + tmp per row, gamma/beta/work once
    uint64_t fixed = 3ULL * dimAlign * sizeof(float) + 16 * 1024;
    uint64_t perRow = 5ULL * dimAlign * sizeof(float);
    uint32_t tileRows = ub > fixed ? static_cast<uint32_t>((ub - fixed) / perRow) : 1;
    if (tileRows > 64) tileRows = 64;
    if (tileRows > rowsPerCore) tileRows = rowsPerCore;
    if (tileRows == 0) tileRows = 1;

    SwinMlpCustomTilingData tiling;
    tiling.set_numRows(rows);
    tiling.set_dim(dim);
    tiling.set_dimAlign(dimAlign);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_tileRows(tileRows);
    tiling.set_epsilon(eps);
    tiling.set_invDim(1.0f / static_cast<float>(dim));

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SwinMlpCustom : public OpDef {
public:
    explicit SwinMlpCustom(const char* name) : OpDef(name)
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
}

#include "conv_transpose3d_multiply_max_global_avg_pool_clamp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustomTilingData td;
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    if (s.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = s.GetDim(0), c = s.GetDim(1), d = s.GetDim(2), h = s.GetDim(3), w = s.GetDim(4);
    // MaxPool3d(kernel_size=2) -> stride 2, floor mode
    uint32_t pd = d / 2, ph = h / 2, pw = w / 2;
    if (pd == 0 || ph == 0 || pw == 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t pitch = (w + 15) / 16 * 16;
    uint32_t rowsPerPass = 8192 / (4 * pitch);     // 2 slices * 2 rows per pooled row
    if (rowsPerPass == 0) rowsPerPass = 1;
    if (rowsPerPass > ph) rowsPerPass = ph;

    uint32_t planes = n * c;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > planes) cores = planes;
    if (cores == 0) cores = 1;
    uint32_t per = planes / cores;
    uint32_t extra = planes % cores;
    uint32_t maxPlanes = per + (extra ? 1 : 0);

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    td.set_scale(*attrs->GetAttrPointer<float>(0));
    td.set_clampMin(*attrs->GetAttrPointer<float>(1));
    td.set_clampMax(*attrs->GetAttrPointer<float>(2));

    td.set_planes(planes);
    td.set_inD(d);
    td.set_inH(h);
    td.set_inW(w);
    td.set_poolD(pd);
    td.set_poolH(ph);
    td.set_poolW(pw);
    td.set_rowPitch(pitch);
    td.set_rowsPerPass(rowsPerPass);
    td.set_planesPerCore(per);
    td.set_extraPlanes(extra);
    td.set_resCapacity((maxPlanes + 7) / 8 * 8);
    td.set_invCount(1.0f / static_cast<float>(pd * ph * pw));

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, 1);
    y->SetDim(3, 1);
    y->SetDim(4, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustom : public OpDef {
public:
    explicit ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(0.5f);
        this->Attr("clamp_min").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("clamp_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustom);
}

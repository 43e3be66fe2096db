#include "convtranspose3d_relu_groupnorm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Convtranspose3dReluGroupnormCustomTilingData tiling;
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetOriginShape();
    auto attrs = context->GetAttrs();
    const int64_t* groupsPtr = attrs->GetInt(0);
    const float* epsPtr = attrs->GetFloat(1);

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1);
    uint32_t d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t cout = ws.GetDim(1);   // weight: [Cin, Cout, K, K, K]
    uint32_t k = ws.GetDim(2);
    uint32_t groups = groupsPtr ? static_cast<uint32_t>(*groupsPtr) : 8;
    if (groups == 0 || cout % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    // stride 1, padding 0
    uint32_t od = d + k - 1, oh = h + k - 1, ow = w + k - 1;
    uint32_t rowStride = (ow + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t units = n * groups;
    uint32_t blockDim = units < coreNum ? units : coreNum;

    tiling.set_batch(n);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_inD(d);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_ksize(k);
    tiling.set_outD(od);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_rowStride(rowStride);
    tiling.set_groups(groups);
    tiling.set_chPerGroup(cout / groups);
    tiling.set_unitsPerCore(units / blockDim);
    tiling.set_extraUnits(units % blockDim);
    tiling.set_eps(epsPtr ? *epsPtr : 1e-5f);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* wsSize = context->GetWorkspaceSizes(1);
    wsSize[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    int64_t k = ws->GetDim(2);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    ys->SetDim(2, xs->GetDim(2) + k - 1);
    ys->SetDim(3, xs->GetDim(3) + k - 1);
    ys->SetDim(4, xs->GetDim(4) + k - 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Convtranspose3dReluGroupnormCustom : public OpDef {
public:
    explicit Convtranspose3dReluGroupnormCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("groups").AttrType(OPTIONAL).Int(8);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Convtranspose3dReluGroupnormCustom);
}

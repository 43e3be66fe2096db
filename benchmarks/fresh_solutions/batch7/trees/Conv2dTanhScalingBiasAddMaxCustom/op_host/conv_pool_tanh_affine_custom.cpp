#include "conv_pool_tanh_affine_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t AlignUp(uint32_t v, uint32_t a)
{
    return (v + a - 1) / a * a;
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const auto &xs = context->GetInputShape(0)->GetStorageShape();
    const auto &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    float scale = *context->GetAttrs()->GetAttrPointer<float>(0);
    uint32_t pool = static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(1));

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    uint32_t oh = h - k + 1, ow = w - k + 1;
    uint32_t ph = oh / pool, pw = ow / pool;     // MaxPool2d floor mode, stride == kernel
    if (pool == 0 || ph == 0 || pw == 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t taps = cin * k * k;
    uint64_t fixedBytes = AlignUp(cout * taps, 8) * sizeof(float) + 16 * 1024;
    // per conv column: taps + running extreme per channel + 1 accumulator,
    // plus per pooled column: output per channel + 5 temporaries
    double perCol = (taps + cout + 1) * 4.0 + (cout + 5) * 4.0 / pool;
    uint32_t cols = static_cast<uint32_t>((ub - fixedBytes) / perCol);
    cols = cols / 64 * 64;
    uint32_t needCols = AlignUp(pw * pool, 64);
    if (cols > needCols) {
        cols = needCols;
    }
    if (cols < 64) {
        return ge::GRAPH_FAILED;
    }
    uint32_t pwPerSeg = cols / pool;
    if (pwPerSeg > pw) {
        pwPerSeg = pw;
    }
    uint32_t segs = (pw + pwPerSeg - 1) / pwPerSeg;

    ConvPoolTanhAffineTiling td;
    td.set_n(n);
    td.set_cin(cin);
    td.set_cout(cout);
    td.set_h(h);
    td.set_w(w);
    td.set_k(k);
    td.set_pool(pool);
    td.set_ph(ph);
    td.set_pw(pw);
    td.set_pwPerSeg(pwPerSeg);
    td.set_colPitch(cols);
    td.set_segs(segs);
    td.set_tasks(n * ph * segs);
    td.set_useMin(scale < 0.0f ? 1 : 0);
    td.set_scale(scale);

    uint32_t aiv = plat.GetCoreNumAiv();
    uint32_t tasks = n * ph * segs;
    context->SetBlockDim(tasks < aiv ? tasks : aiv);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    const gert::Shape *ws = context->GetInputShape(1);
    int64_t pool = *context->GetAttrs()->GetAttrPointer<int64_t>(1);
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, (xs->GetDim(2) - ws->GetDim(2) + 1) / pool);
    ys->SetDim(3, (xs->GetDim(3) - ws->GetDim(3) + 1) / pool);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ConvPoolTanhAffineCustom : public OpDef {
public:
    explicit ConvPoolTanhAffineCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("conv_weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("conv_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("post_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale").Float();
        this->Attr("pool_size").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvPoolTanhAffineCustom);
} // namespace ops

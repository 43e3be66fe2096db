#include "conv_standard_2d_asymmetric_input_asymmetric_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    // x: [N, C, H, W]; weight_t: [C, KH, KW, OC] (pre-permuted on the host so that the OC values
    // of one tap are contiguous). stride 1, padding 0, dilation 1.
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t kh = ws.GetDim(1), kw = ws.GetDim(2), oc = ws.GetDim(3);
    if (ws.GetDim(0) != c || kh > h || kw > w) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h - kh + 1;
    uint32_t ow = w - kw + 1;
    uint32_t owA = (ow + 7) / 8 * 8;

    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    ascendc.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    // acc (ocTile * owA) + weights of one input channel (kh*kw*ocTile) + 2 input slices
    uint32_t ocTile = oc;
    while (ocTile > 8) {
        uint64_t need = ((uint64_t)ocTile * owA + (uint64_t)kh * kw * ocTile + 2ULL * owA) * sizeof(float);
        if (need <= ub / 2 && oc % ocTile == 0) {
            break;
        }
        ocTile /= 2;
    }
    if (ocTile % 8 != 0 || oc % ocTile != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t ocTiles = oc / ocTile;
    uint32_t tasks = n * oh * ocTiles;
    uint32_t cores = ascendc.GetCoreNumAiv();
    if (cores > tasks) cores = tasks;

    ConvStandard2dAsymmetricInputAsymmetricKernelCustomTilingData t;
    t.set_batch(n);
    t.set_inC(c);
    t.set_inH(h);
    t.set_inW(w);
    t.set_outC(oc);
    t.set_kH(kh);
    t.set_kW(kw);
    t.set_outH(oh);
    t.set_outW(ow);
    t.set_outWAlign(owA);
    t.set_ocTile(ocTile);
    t.set_ocTiles(ocTiles);
    t.set_taskNum(tasks);
    t.set_taskPerCore(tasks / cores);
    t.set_taskTail(tasks % cores);

    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
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
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(3));
    ys->SetDim(2, xs->GetDim(2) - ws->GetDim(1) + 1);
    ys->SetDim(3, xs->GetDim(3) - ws->GetDim(2) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvStandard2dAsymmetricInputAsymmetricKernelCustom : public OpDef {
public:
    explicit ConvStandard2dAsymmetricInputAsymmetricKernelCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight_t")
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
OP_ADD(ConvStandard2dAsymmetricInputAsymmetricKernelCustom);
}

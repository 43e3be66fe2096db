#include "conv_transposed_3d_asymmetric_input_square_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    // x: [N, Cin, D, H, W]; weight (re-laid out by the binding): [K, K, K, Cout, Cin]
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    const uint32_t n = xs.GetDim(0);
    const uint32_t cin = xs.GetDim(1);
    const uint32_t d = xs.GetDim(2);
    const uint32_t h = xs.GetDim(3);
    const uint32_t w = xs.GetDim(4);
    const uint32_t k = ws.GetDim(0);
    const uint32_t cout = ws.GetDim(3);
    const uint32_t taps = k * k * k;
    const uint32_t wAlign = (w + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t aiv = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    // UB: x rows (2 bufs) + accumulators (2 bufs) + resident weights of an oc group
    const uint64_t xBytes = 2ULL * cin * wAlign * sizeof(float);
    uint32_t ocPerGroup = cout;
    auto need = [&](uint32_t oc) {
        return xBytes + 2ULL * oc * wAlign * sizeof(float) + (uint64_t)taps * oc * cin * sizeof(float) + 16 * 1024;
    };
    while (ocPerGroup > 1 && need(ocPerGroup) > ub) {
        do {
            ocPerGroup--;
        } while (cout % ocPerGroup != 0);
    }
    const uint32_t groupNum = cout / ocPerGroup;

    const uint32_t inRows = n * d * h;
    uint32_t coresPerGroup = aiv / groupNum;
    if (coresPerGroup == 0) coresPerGroup = 1;
    uint32_t rowsPerCore = (inRows + coresPerGroup - 1) / coresPerGroup;
    coresPerGroup = (inRows + rowsPerCore - 1) / rowsPerCore;

    ConvTransposed3dAsymmetricInputSquareKernelCustomTilingData td;
    td.set_batch(n);
    td.set_cin(cin);
    td.set_cout(cout);
    td.set_inD(d);
    td.set_inH(h);
    td.set_inW(w);
    td.set_inWAlign(wAlign);
    td.set_ksize(k);
    td.set_outD(d + k - 1);
    td.set_outH(h + k - 1);
    td.set_outW(w + k - 1);
    td.set_ocPerGroup(ocPerGroup);
    td.set_groupNum(groupNum);
    td.set_inRows(inRows);
    td.set_rowsPerCore(rowsPerCore);

    context->SetBlockDim(groupNum * coresPerGroup);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    const int64_t k = ws->GetDim(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(3));
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
class ConvTransposed3dAsymmetricInputSquareKernelCustom : public OpDef {
public:
    explicit ConvTransposed3dAsymmetricInputSquareKernelCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
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
OP_ADD(ConvTransposed3dAsymmetricInputSquareKernelCustom);
}

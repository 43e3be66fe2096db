#include "conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustomTilingData td;
    auto xs = context->GetInputShape(0)->GetStorageShape();   // [N, Cin, H, W]
    auto ws = context->GetInputShape(1)->GetStorageShape();   // [Cin, Cout, KH, KW]
    auto attrs = context->GetAttrs();
    uint32_t padH = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t padW = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), hin = xs.GetDim(2), win = xs.GetDim(3);
    uint32_t cout = ws.GetDim(1), kh = ws.GetDim(2), kw = ws.GetDim(3);
    // stride 1, no output padding: out = in - 1 - 2 * pad + k
    uint32_t hout = hin - 1 - 2 * padH + kh;
    uint32_t wout = win - 1 - 2 * padW + kw;
    if (kw > padW + 1 && kw - 1 - padW > 8) {
        return ge::GRAPH_FAILED;   // left pad of a shifted row must stay within one 32B block
    }

    uint64_t ubSize = 0;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    uint32_t weightLen = cin * cout * kh * kw;
    uint32_t weightLenAlign = (weightLen + 7) / 8 * 8;
    // UB: weights + cout accumulator rows + 2 shifted input rows (+ some headroom)
    uint64_t budget = ubSize - weightLenAlign * sizeof(float) - 8 * 1024;
    uint32_t chunkW = static_cast<uint32_t>(budget / ((cout + 2) * sizeof(float)));
    chunkW = chunkW / 64 * 64;
    uint32_t woutAlign = (wout + 7) / 8 * 8;
    if (chunkW > 512) chunkW = 512;
    if (chunkW > woutAlign) chunkW = woutAlign;
    if (chunkW == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t chunksPerRow = (wout + chunkW - 1) / chunkW;
    uint32_t items = n * hout * chunksPerRow;
    uint32_t cores = platform.GetCoreNumAiv();
    if (cores > items) cores = items;

    td.set_n(n);
    td.set_cin(cin);
    td.set_cout(cout);
    td.set_hin(hin);
    td.set_win(win);
    td.set_kh(kh);
    td.set_kw(kw);
    td.set_padH(padH);
    td.set_padW(padW);
    td.set_hout(hout);
    td.set_wout(wout);
    td.set_chunkW(chunkW);
    td.set_chunksPerRow(chunksPerRow);
    td.set_weightLenAlign(weightLenAlign);
    td.set_totalItems(items);
    td.set_itemsPerCore(items / cores);
    td.set_itemsRemain(items % cores);

    context->SetBlockDim(cores);
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
    auto attrs = context->GetAttrs();
    int64_t padH = *attrs->GetAttrPointer<int64_t>(0);
    int64_t padW = *attrs->GetAttrPointer<int64_t>(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    ys->SetDim(2, xs->GetDim(2) - 1 - 2 * padH + ws->GetDim(2));
    ys->SetDim(3, xs->GetDim(3) - 1 - 2 * padW + ws->GetDim(3));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustom : public OpDef {
public:
    explicit ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustom(const char* name) : OpDef(name)
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
        this->Attr("pad_h").AttrType(OPTIONAL).Int(1);
        this->Attr("pad_w").AttrType(OPTIONAL).Int(3);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustom);
}

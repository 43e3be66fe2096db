#include "conv_transposed_3d_square_input_square_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

// ConvTranspose3d with stride 1 / padding 0 is a plain "valid" 3D convolution of the
// input zero-padded by K-1 with the spatially flipped, in/out-swapped weight.
// The binding prepares both tensors; this op runs that convolution.
namespace optiling {
static uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();   // [N, Cin, Dp, Hp, Wp]
    auto ws = context->GetInputShape(1)->GetStorageShape();   // [Cout, Cin, K, K, K]
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1);
    uint32_t dp = xs.GetDim(2), hp = xs.GetDim(3), wp = xs.GetDim(4);
    uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    uint32_t od = dp - k + 1, oh = hp - k + 1, ow = wp - k + 1;
    uint32_t owAlign = RoundUp(ow, 8);
    uint32_t taps = k * k * k;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint64_t budget = ubSize - 16 * 1024;

    // resident weights of an oc group: target <= 1/4 of UB
    uint32_t ocTile = cout;
    while (ocTile > 1 && (uint64_t)ocTile * cin * taps * sizeof(float) > budget / 4) {
        ocTile--;
        while (cout % ocTile != 0) ocTile--;
    }
    uint64_t weightBytes = RoundUp(ocTile * cin * taps, 8) * sizeof(float);
    uint64_t accBytes = 2ULL * ocTile * owAlign * sizeof(float);      // double-buffered output
    // taps double buffered: 2 * icTile * taps * owAlign floats
    uint64_t left = budget - weightBytes - accBytes;
    uint32_t icTile = static_cast<uint32_t>(left / (2ULL * taps * owAlign * sizeof(float)));
    if (icTile > cin) icTile = cin;
    if (icTile == 0) icTile = 1;

    uint32_t ocGroups = cout / ocTile;
    uint32_t totalRows = n * od * oh;
    uint32_t parts = coreNum / ocGroups;
    if (parts == 0) parts = 1;
    uint32_t rowsPerPart = (totalRows + parts - 1) / parts;
    parts = (totalRows + rowsPerPart - 1) / rowsPerPart;

    ConvTransposed3dSquareInputSquareKernelCustomTilingData t;
    t.set_batch(n);
    t.set_inChannels(cin);
    t.set_outChannels(cout);
    t.set_padD(dp);
    t.set_padH(hp);
    t.set_padW(wp);
    t.set_kernel(k);
    t.set_outD(od);
    t.set_outH(oh);
    t.set_outW(ow);
    t.set_outWAlign(owAlign);
    t.set_ocTile(ocTile);
    t.set_ocGroups(ocGroups);
    t.set_icTile(icTile);
    t.set_totalRows(totalRows);
    t.set_rowsPerPart(rowsPerPart);

    context->SetBlockDim(ocGroups * parts);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
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
    int64_t k = ws->GetDim(2);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) - k + 1);
    ys->SetDim(3, xs->GetDim(3) - k + 1);
    ys->SetDim(4, xs->GetDim(4) - k + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed3dSquareInputSquareKernelCustom : public OpDef {
public:
    explicit ConvTransposed3dSquareInputSquareKernelCustom(const char* name) : OpDef(name)
    {
        this->Input("x_padded")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight_flipped")
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
OP_ADD(ConvTransposed3dSquareInputSquareKernelCustom);
}

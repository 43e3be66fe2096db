#include "conv_standard_2d_asymmetric_input_square_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t FLOAT_PER_BLOCK = 8;
static constexpr uint32_t MAX_TILE_W = 512;
static constexpr uint64_t UB_HEADROOM = 16 * 1024;

static uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvStandard2dAsymmetricInputSquareKernelCustomTilingData tiling;
    auto xs = context->GetInputShape(0)->GetOriginShape();
    auto ws = context->GetInputShape(1)->GetOriginShape();
    auto attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t dil = *attrs->GetAttrPointer<int64_t>(1);
    if (stride != 1 || dil < 1) {
        return ge::GRAPH_FAILED;   // kernel is specialised for unit stride
    }

    uint32_t n = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint32_t h = xs.GetDim(2);
    uint32_t w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0);
    uint32_t k = ws.GetDim(2);
    uint32_t span = static_cast<uint32_t>(dil) * (k - 1) + 1;
    if (h < span || w < span || ws.GetDim(1) != cin) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h - span + 1;
    uint32_t ow = w - span + 1;
    uint32_t kStride = RoundUp(k * k, FLOAT_PER_BLOCK);

    // UB: accumulator (cout x tileW) + double-buffered window (k*k x tileW) + weight slice (cout x kStride)
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint64_t weightBytes = static_cast<uint64_t>(cout) * kStride * sizeof(float);
    uint64_t budget = ub > weightBytes + UB_HEADROOM ? ub - weightBytes - UB_HEADROOM : 0;
    uint64_t perCol = static_cast<uint64_t>(cout + 2 * k * k) * sizeof(float);
    uint32_t tileW = static_cast<uint32_t>(budget / perCol);
    tileW = tileW / 64 * 64;
    if (tileW > MAX_TILE_W) tileW = MAX_TILE_W;
    if (tileW == 0) tileW = FLOAT_PER_BLOCK;
    if (tileW > RoundUp(ow, FLOAT_PER_BLOCK)) tileW = RoundUp(ow, FLOAT_PER_BLOCK);

    uint32_t tilesPerRow = (ow + tileW - 1) / tileW;
    uint32_t tasks = n * oh * tilesPerRow;
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t blockDim = tasks < coreNum ? tasks : coreNum;
    if (blockDim == 0) blockDim = 1;

    tiling.set_batch(n);
    tiling.set_inChannels(cin);
    tiling.set_outChannels(cout);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_kSize(k);
    tiling.set_dilation(static_cast<uint32_t>(dil));
    tiling.set_kStride(kStride);
    tiling.set_tileW(tileW);
    tiling.set_tilesPerRow(tilesPerRow);
    tiling.set_totalTasks(tasks);
    tiling.set_tasksPerCore(tasks / blockDim);
    tiling.set_tasksTail(tasks % blockDim);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
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
    const int64_t* stride = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const int64_t* dil = context->GetAttrs()->GetAttrPointer<int64_t>(1);
    int64_t span = (*dil) * (ws->GetDim(2) - 1) + 1;
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, (xs->GetDim(2) - span) / (*stride) + 1);
    ys->SetDim(3, (xs->GetDim(3) - span) / (*stride) + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvStandard2dAsymmetricInputSquareKernelCustom : public OpDef {
public:
    explicit ConvStandard2dAsymmetricInputSquareKernelCustom(const char* name) : OpDef(name)
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
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvStandard2dAsymmetricInputSquareKernelCustom);
}

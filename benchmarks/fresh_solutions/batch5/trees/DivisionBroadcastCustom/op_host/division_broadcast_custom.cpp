#include "division_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LENGTH = 8192;

/*
 * 广播规则：scale 右对齐到 x 的形状，要求 scale 中非 1 的维度是连续的一段且与 x 对应维度相等，
 * 于是 x 可以看作 [outer, channel, inner]，scale 看作 [channel]。
 * 本用例：x (8,3,32,128)，scale (3,1,1) -> outer=8, channel=3, inner=4096。
 */
static bool ParseBroadcast(const gert::Shape& xs, const gert::Shape& ss, uint32_t& channel, uint32_t& inner)
{
    int64_t xr = static_cast<int64_t>(xs.GetDimNum());
    int64_t sr = static_cast<int64_t>(ss.GetDimNum());
    if (sr > xr) {
        return false;
    }
    int64_t first = -1;
    int64_t last = -1;
    for (int64_t i = 0; i < sr; ++i) {
        int64_t xi = xr - sr + i;
        int64_t sd = ss.GetDim(i);
        if (sd == 1) {
            continue;
        }
        if (sd != xs.GetDim(xi)) {
            return false;
        }
        if (first < 0) {
            first = xi;
        }
        if (last >= 0 && xi != last + 1) {
            return false;   // 非 1 维度不连续，不支持
        }
        last = xi;
    }
    uint64_t c = 1;
    uint64_t in = 1;
    if (first < 0) {
        // scale 只有一个元素：整体看成 channel=1
        for (int64_t i = 0; i < xr; ++i) {
            in *= xs.GetDim(i);
        }
    } else {
        for (int64_t i = first; i <= last; ++i) {
            c *= xs.GetDim(i);
        }
        for (int64_t i = last + 1; i < xr; ++i) {
            in *= xs.GetDim(i);
        }
    }
    channel = static_cast<uint32_t>(c);
    inner = static_cast<uint32_t>(in);
    return true;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    DivisionBroadcastCustomTilingData tiling;
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& sShape = context->GetInputShape(1)->GetStorageShape();
    uint32_t channel = 1;
    uint32_t inner = 1;
    if (!ParseBroadcast(xShape, sShape, channel, inner)) {
        return ge::GRAPH_FAILED;
    }
    uint64_t total = static_cast<uint64_t>(xShape.GetShapeSize());

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + 7) / 8 * 8;
    if (perCore == 0) {
        perCore = 8;
    }
    uint32_t blockDim = static_cast<uint32_t>((total + perCore - 1) / perCore);
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_totalLength(total);
    tiling.set_channel(channel);
    tiling.set_inner(inner);
    tiling.set_perCore(perCore);
    tiling.set_tileLength(TILE_LENGTH);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    // scale 只在 x 上广播，输出与 x 同形
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
class DivisionBroadcastCustom : public OpDef {
public:
    explicit DivisionBroadcastCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale")
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

OP_ADD(DivisionBroadcastCustom);
}

#include "rms_scaled_descent_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t BLOCK_ELEMS = 8;      // floats per 32B block
const uint32_t TILE_LENGTH = 4096;   // 3 inputs x 2 + out x 2 + 1 scratch = 9 x 16 KB

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    RmsScaledDescentTilingData tiling;
    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();

    // distribute whole 32B blocks; the first `formerNum` cores get one extra block,
    // the very last block may be partial (handled with DataCopyPad in the kernel)
    uint32_t totalBlocks = (totalLength + BLOCK_ELEMS - 1) / BLOCK_ELEMS;
    if (coreNum > totalBlocks) {
        coreNum = totalBlocks;
    }
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t baseBlocks = totalBlocks / coreNum;
    uint32_t formerNum = totalBlocks % coreNum;

    const auto *attrs = context->GetAttrs();
    const float *lr = attrs->GetAttrPointer<float>(0);
    const float *alpha = attrs->GetAttrPointer<float>(1);
    const float *eps = attrs->GetAttrPointer<float>(2);

    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength((baseBlocks + 1) * BLOCK_ELEMS);
    tiling.set_tailLength(baseBlocks * BLOCK_ELEMS);
    tiling.set_tileLength(TILE_LENGTH);
    tiling.set_lr(lr ? *lr : 1e-3f);
    tiling.set_alpha(alpha ? *alpha : 0.99f);
    tiling.set_eps(eps ? *eps : 1e-8f);

    context->SetBlockDim(coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *paramShape = context->GetInputShape(0);
    gert::Shape *outShape = context->GetOutputShape(0);
    *outShape = *paramShape;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class RmsScaledDescentCustom : public OpDef {
public:
    explicit RmsScaledDescentCustom(const char *name) : OpDef(name)
    {
        this->Input("param")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("grad")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("sq_avg")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("param_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("lr").AttrType(OPTIONAL).Float(1e-3f);
        this->Attr("alpha").AttrType(OPTIONAL).Float(0.99f);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-8f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RmsScaledDescentCustom);
} // namespace ops

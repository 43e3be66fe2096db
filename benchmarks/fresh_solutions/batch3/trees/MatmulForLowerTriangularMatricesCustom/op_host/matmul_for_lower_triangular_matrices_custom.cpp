#include "matmul_for_lower_triangular_matrices_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
constexpr uint32_t BLOCK_EDGE = 256;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MatmulForLowerTriangularMatricesCustomTilingData td;

    const auto& a_shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = static_cast<uint32_t>(a_shape.GetDim(0));
    uint32_t bs = n < BLOCK_EDGE ? n : BLOCK_EDGE;
    uint32_t nb = (n + bs - 1) / bs;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aic_num = plat.GetCoreNumAic();
    uint32_t pair_num = nb * (nb + 1) / 2;
    uint32_t blk_num = pair_num < aic_num ? pair_num : aic_num;
    if (blk_num == 0) {
        blk_num = 1;
    }

    // single-core tiling for one bs x bs output block with the full K as upper bound;
    // the kernel narrows K per block with SetTail
    MatmulApiTiling mm(plat);
    mm.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBias(false);
    mm.SetOrgShape(n, n, n);
    mm.SetShape(bs, bs, n);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(td.mm_tiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    td.set_n(n);
    td.set_bs(bs);
    td.set_nb(nb);
    td.set_blk_num(blk_num);

    context->SetBlockDim(blk_num);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* a = context->GetInputShape(0);
    const gert::Shape* b = context->GetInputShape(1);
    gert::Shape* c = context->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulForLowerTriangularMatricesCustom : public OpDef {
public:
    explicit MatmulForLowerTriangularMatricesCustom(const char* name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MatmulForLowerTriangularMatricesCustom);
}

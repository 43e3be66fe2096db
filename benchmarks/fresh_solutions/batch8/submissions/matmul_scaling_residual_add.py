project_json_src='''
[
    {
        "op": "LinearRescaleResidualCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "scaling_factor", "param_type": "optional", "type": "float", "default_value": "0.5"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearRescaleResidualTilingData)
  TILING_DATA_FIELD_DEF(float, gain);
  TILING_DATA_FIELD_DEF(uint32_t, vecTile);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearRescaleResidualCustom, LinearRescaleResidualTilingData)
}
"""

host_operator_src="""
#include "linear_rescale_residual_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    int32_t M = xShape.GetDim(0);
    int32_t K = xShape.GetDim(1);
    int32_t N = wShape.GetDim(0);   // nn.Linear weight is [out, in]

    const float* sf = context->GetAttrs()->GetFloat(0);
    float s = sf == nullptr ? 0.5f : *sf;

    uint32_t aivNum = plat.GetCoreNumAiv();
    MultiCoreMatmulTiling mmTiling(plat);
    mmTiling.SetDim(aivNum);
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mmTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.SetBias(true);
    mmTiling.SetBufferSpace(-1, -1, -1);

    LinearRescaleResidualTilingData td;
    if (mmTiling.GetTiling(td.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    // x*s + x == x*(1+s)
    td.set_gain(1.0f + s);
    td.set_vecTile(8192);

    uint32_t used = td.mm.get_usedCoreNum();
    context->SetBlockDim((used + 1) / 2);   // mix kernel: one cube core drives two vector cores
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class LinearRescaleResidualCustom : public OpDef {
public:
    explicit LinearRescaleResidualCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scaling_factor").AttrType(OPTIONAL).Float(0.5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LinearRescaleResidualCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

class LinearRescaleResidual {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline LinearRescaleResidual() {}

    __aicore__ inline bool Init(TPipe* pipeIn, GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const LinearRescaleResidualTilingData& td)
    {
        pipe = pipeIn;
        tiling = td.mm;
        gain = td.gain;
        vecTile = td.vecTile;
        if (GetBlockIdx() >= (uint32_t)tiling.usedCoreNum) {
            return false;
        }
        uint32_t mBlocks = CeilDivU(tiling.M, tiling.singleCoreM);
        uint32_t mIdx = GetBlockIdx() % mBlocks;
        uint32_t nIdx = GetBlockIdx() / mBlocks;

        uint64_t rowStart = (uint64_t)mIdx * tiling.singleCoreM;
        uint64_t colStart = (uint64_t)nIdx * tiling.singleCoreN;
        rows = tiling.M - rowStart < (uint64_t)tiling.singleCoreM ? tiling.M - rowStart : tiling.singleCoreM;
        cols = tiling.N - colStart < (uint64_t)tiling.singleCoreN ? tiling.N - colStart : tiling.singleCoreN;
        ldc = tiling.N;

        xGm.SetGlobalBuffer((__gm__ float*)x + rowStart * tiling.Ka);
        wGm.SetGlobalBuffer((__gm__ float*)w + colStart * tiling.Kb);
        biasGm.SetGlobalBuffer((__gm__ float*)bias + colStart);
        yGm.SetGlobalBuffer((__gm__ float*)y + rowStart * tiling.N + colStart);

        pipe->InitBuffer(inQue, 2, vecTile * sizeof(float));
        pipe->InitBuffer(outQue, 2, vecTile * sizeof(float));
        return true;
    }

    __aicore__ inline void Process()
    {
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        mm.SetTail(rows, cols);
        mm.IterateAll(yGm);
        mm.End();
        PipeBarrier<PIPE_ALL>();
        Rescale();
    }

private:
    // second sweep over this core's output block: y = y * (1 + s)
    __aicore__ inline void Rescale()
    {
        uint32_t colChunk = cols < vecTile ? cols : vecTile;
        uint32_t rowsPerTile = vecTile / colChunk;
        if (rowsPerTile == 0) rowsPerTile = 1;
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};

        for (uint32_t c0 = 0; c0 < cols; c0 += colChunk) {
            uint32_t cw = cols - c0 < colChunk ? cols - c0 : colChunk;
            uint32_t cwPad = (cw + 7) / 8 * 8;
            uint32_t rpt = vecTile / cwPad;
            if (rpt > rowsPerTile) rpt = rowsPerTile;
            if (rpt == 0) rpt = 1;
            for (uint32_t r0 = 0; r0 < rows; r0 += rpt) {
                uint32_t nr = rows - r0 < rpt ? rows - r0 : rpt;
                DataCopyExtParams gmRows{(uint16_t)nr, (uint32_t)(cw * sizeof(float)),
                                         (uint32_t)((ldc - cw) * sizeof(float)), 0, 0};

                LocalTensor<float> in = inQue.AllocTensor<float>();
                DataCopyPad(in, yGm[(uint64_t)r0 * ldc + c0], gmRows, pad);
                inQue.EnQue(in);

                in = inQue.DeQue<float>();
                LocalTensor<float> out = outQue.AllocTensor<float>();
                Muls(out, in, gain, nr * cwPad);
                outQue.EnQue(out);
                inQue.FreeTensor(in);

                out = outQue.DeQue<float>();
                DataCopyExtParams ubRows{(uint16_t)nr, (uint32_t)(cw * sizeof(float)), 0,
                                         (uint32_t)((ldc - cw) * sizeof(float)), 0};
                DataCopyPad(yGm[(uint64_t)r0 * ldc + c0], out, ubRows);
                outQue.FreeTensor(out);
            }
        }
    }

    TPipe* pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    GlobalTensor<float> xGm, wGm, biasGm, yGm;
    TCubeTiling tiling;
    float gain;
    uint32_t vecTile, rows, cols, ldc;
};

extern "C" __global__ __aicore__ void linear_rescale_residual_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    LinearRescaleResidual op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    if (!op.Init(&pipe, x, weight, bias, y, td)) {
        return;
    }
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y = (x @ W^T + b) * scaling_factor + (x @ W^T + b)
at::Tensor linear_rescale_residual_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                            const at::Tensor& bias, double scalingFactor)
{
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    float s = static_cast<float>(scalingFactor);
    EXEC_NPU_CMD(aclnnLinearRescaleResidualCustom, x, weight, bias, s, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("linear_rescale_residual_custom", &linear_rescale_residual_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("linear_rescale_residual_custom", &linear_rescale_residual_impl_npu,
          "linear layer followed by y*s + y");
}
"""

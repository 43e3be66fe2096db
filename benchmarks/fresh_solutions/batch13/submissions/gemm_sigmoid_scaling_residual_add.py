project_json_src='''
[
    {
        "op": "GemmSigmoidScalingResidualAddCustom",
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
            {"name": "scaling_factor", "param_type": "optional", "type": "float", "default_value": "2.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmSigmoidScalingResidualAddCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
  TILING_DATA_FIELD_DEF(float, scalingFactor);
  TILING_DATA_FIELD_DEF(uint32_t, epiCols);     // columns per epilogue chunk
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmSigmoidScalingResidualAddCustom, GemmSigmoidScalingResidualAddCustomTilingData)
}
"""

host_operator_src="""
#include "gemm_sigmoid_scaling_residual_add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    int32_t M = static_cast<int32_t>(xShape.GetDim(0));
    int32_t K = static_cast<int32_t>(xShape.GetDim(1));
    int32_t N = static_cast<int32_t>(wShape.GetDim(0));   // nn.Linear weight is (out, in)
    float scaling = *(context->GetAttrs()->GetAttrPointer<float>(0));

    MultiCoreMatmulTiling cubeTiling(ascendcPlatform);
    cubeTiling.SetDim(ascendcPlatform.GetCoreNumAiv());
    cubeTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    cubeTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    cubeTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetShape(M, N, K);
    cubeTiling.SetOrgShape(M, N, K);
    cubeTiling.SetBias(true);
    cubeTiling.SetBufferSpace(-1, -1, -1);

    GemmSigmoidScalingResidualAddCustomTilingData tiling;
    if (cubeTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_scalingFactor(scaling);
    tiling.set_epiCols(2048);

    // block dim counts cube cores; each drives two vector cores (1:2 mix)
    context->SetBlockDim(ascendcPlatform.GetCoreNumAic());
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(2);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GemmSigmoidScalingResidualAddCustom : public OpDef {
public:
    explicit GemmSigmoidScalingResidualAddCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scaling_factor").AttrType(OPTIONAL).Float(2.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GemmSigmoidScalingResidualAddCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
__aicore__ inline T CeilDiv(T a, T b) { return (a + b - 1) / b; }

using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;   // weight used transposed
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

// z = x @ W^T + b on the cube unit (each core owns a singleCoreM x singleCoreN block of y),
// then the vector cores rewrite their own block in place:  y = z + s * sigmoid(z)
class GemmSigmoidScaleResidual {
public:
    __aicore__ inline GemmSigmoidScaleResidual() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const GemmSigmoidScalingResidualAddCustomTilingData &td, TPipe *pipe)
    {
        tiling = td.cubeTilingData;
        scale = td.scalingFactor;
        epiCols = td.epiCols;

        uint32_t M = tiling.M, N = tiling.N, K = tiling.Ka;
        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)M * K);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)N * K);
        biasGm.SetGlobalBuffer((__gm__ float *)bias, N);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)M * N);

        uint32_t blockIdx = GetBlockIdx();
        uint32_t mBlocks = CeilDiv<uint32_t>(M, tiling.singleCoreM);
        uint32_t mIdx = blockIdx % mBlocks;
        uint32_t nIdx = blockIdx / mBlocks;
        rowStart = mIdx * tiling.singleCoreM;
        colStart = nIdx * tiling.singleCoreN;
        valid = (rowStart < M) && (colStart < N);
        rows = valid ? ((M - rowStart) < (uint32_t)tiling.singleCoreM ? (M - rowStart) : tiling.singleCoreM) : 0;
        cols = valid ? ((N - colStart) < (uint32_t)tiling.singleCoreN ? (N - colStart) : tiling.singleCoreN) : 0;

        offsetX = (uint64_t)rowStart * K;
        offsetW = (uint64_t)colStart * K;     // rows of W == columns of y
        offsetY = (uint64_t)rowStart * N + colStart;

        pipe->InitBuffer(zQueue, 2, epiCols * sizeof(float));
        pipe->InitBuffer(yQueue, 2, epiCols * sizeof(float));
        pipe->InitBuffer(tmpBuf, epiCols * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (!valid || GetBlockIdx() >= (uint32_t)tiling.usedCoreNum) {
            return;
        }
        mm.SetTensorA(xGm[offsetX]);
        mm.SetTensorB(wGm[offsetW], true);
        mm.SetBias(biasGm[colStart]);
        mm.SetTail(rows, cols);
        mm.IterateAll(yGm[offsetY]);
        mm.End();
        PipeBarrier<PIPE_ALL>();

        Epilogue();
    }

    Matmul<AType, BType, CType, BiasType> mm;

private:
    __aicore__ inline void Epilogue()
    {
        uint32_t N = tiling.N;
        for (uint32_t r = 0; r < rows; ++r) {
            uint64_t rowOff = offsetY + (uint64_t)r * N;
            for (uint32_t c = 0; c < cols; c += epiCols) {
                uint32_t len = (cols - c) < epiCols ? (cols - c) : epiCols;
                DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};

                LocalTensor<float> z = zQueue.AllocTensor<float>();
                DataCopyPad(z, yGm[rowOff + c], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                zQueue.EnQue(z);

                z = zQueue.DeQue<float>();
                LocalTensor<float> out = yQueue.AllocTensor<float>();
                LocalTensor<float> t = tmpBuf.Get<float>();
                // sigmoid(z) = 1 / (1 + exp(-z))
                Muls(t, z, -1.0f, len);
                Exp(t, t, len);
                Adds(t, t, 1.0f, len);
                Duplicate(out, scale, len);
                Div(out, out, t, len);      // s * sigmoid(z)
                Add(out, out, z, len);      // + residual z
                yQueue.EnQue(out);
                zQueue.FreeTensor(z);

                out = yQueue.DeQue<float>();
                DataCopyPad(yGm[rowOff + c], out, cp);
                yQueue.FreeTensor(out);
            }
        }
    }

    TCubeTiling tiling;
    TQue<QuePosition::VECIN, 2> zQueue;
    TQue<QuePosition::VECOUT, 2> yQueue;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm, wGm, biasGm, yGm;
    uint64_t offsetX = 0, offsetW = 0, offsetY = 0;
    uint32_t rowStart = 0, colStart = 0, rows = 0, cols = 0, epiCols = 0;
    float scale = 1.0f;
    bool valid = false;
};

extern "C" __global__ __aicore__ void gemm_sigmoid_scaling_residual_add_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                              GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    TPipe pipe;
    GemmSigmoidScaleResidual op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cubeTilingData);
    op.Init(x, weight, bias, y, td, &pipe);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor gemm_sigmoid_scaling_residual_add_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                            const at::Tensor& bias, double scaling_factor)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "expected 2D x and weight");
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnGemmSigmoidScalingResidualAddCustom, xc, wc, bc, scaling_factor, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_sigmoid_scaling_residual_add_custom", &gemm_sigmoid_scaling_residual_add_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_sigmoid_scaling_residual_add_custom", &gemm_sigmoid_scaling_residual_add_custom_impl_npu,
          "linear + sigmoid * scale + residual");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, input_size, hidden_size, scaling_factor):
        super(ModelNew, self).__init__()
        self.gemm = torch.nn.Linear(input_size, hidden_size)
        self.scaling_factor = float(scaling_factor)

    def forward(self, x):
        return custom_ops_lib.gemm_sigmoid_scaling_residual_add_custom(
            x, self.gemm.weight, self.gemm.bias, self.scaling_factor)
'''

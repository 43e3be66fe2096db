project_json_src='''
[
    {
        "op": "MatmulSwishScalingCustom",
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
            {"name": "scaling_factor", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulSwishScalingCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
  TILING_DATA_FIELD_DEF(float, scalingFactor);
  TILING_DATA_FIELD_DEF(uint32_t, epilogueTile);   // floats per vector epilogue chunk
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulSwishScalingCustom, MatmulSwishScalingCustomTilingData)
}
"""

host_operator_src="""
#include "matmul_swish_scaling_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xShape = context->GetInputShape(0)->GetOriginShape();
    auto wShape = context->GetInputShape(1)->GetOriginShape();
    int32_t M = xShape.GetDim(0);
    int32_t K = xShape.GetDim(1);
    int32_t N = wShape.GetDim(0);       // nn.Linear weight is [out_features, in_features]

    uint32_t aicNum = ascendcPlatform.GetCoreNumAic();
    uint32_t aivNum = ascendcPlatform.GetCoreNumAiv();
    MultiCoreMatmulTiling mm(ascendcPlatform);
    // every vector core owns one output block (and its epilogue)
    mm.SetDim(aivNum);
    mm.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    mm.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    mm.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);

    MatmulSwishScalingCustomTilingData tiling;
    if (mm.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }
    const float* scale = context->GetAttrs()->GetAttrPointer<float>(0);
    tiling.set_scalingFactor(*scale);
    tiling.set_epilogueTile(4096);

    // one cube core drives two vector cores on 910B (mix mode)
    context->SetBlockDim(aicNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = ascendcPlatform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    const gert::Shape* wShape = context->GetInputShape(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(2);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, wShape->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulSwishScalingCustom : public OpDef {
public:
    explicit MatmulSwishScalingCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scaling_factor").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulSwishScalingCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// y = scale * swish(x @ W^T + b)
// Stage 1: the cube unit computes the [singleCoreM x singleCoreN] block with bias into y.
// Stage 2: the vector unit re-reads that block row by row and applies swish * scale in place.
class MatmulSwishScalingKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline MatmulSwishScalingKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const TCubeTiling& tiling, float scale, uint32_t chunk)
    {
        cube = tiling;
        scaling = scale;
        chunkLen = chunk;
        aGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)cube.M * cube.Ka);
        bGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)cube.N * cube.Kb);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, cube.N);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)cube.M * cube.N);

        pipe.InitBuffer(inQ, 2, chunkLen * sizeof(float));
        pipe.InitBuffer(outQ, 2, chunkLen * sizeof(float));
        pipe.InitBuffer(sigBuf, chunkLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t blockIdx = GetBlockIdx();
        uint32_t mBlocks = (cube.M + cube.singleCoreM - 1) / cube.singleCoreM;
        uint32_t mIdx = blockIdx % mBlocks;
        uint32_t nIdx = blockIdx / mBlocks;
        uint32_t mOff = mIdx * cube.singleCoreM;
        uint32_t nOff = nIdx * cube.singleCoreN;
        if (mOff >= (uint32_t)cube.M || nOff >= (uint32_t)cube.N) {
            return;
        }
        uint32_t curM = (cube.M - mOff < (uint32_t)cube.singleCoreM) ? (cube.M - mOff) : cube.singleCoreM;
        uint32_t curN = (cube.N - nOff < (uint32_t)cube.singleCoreN) ? (cube.N - nOff) : cube.singleCoreN;

        // ---- cube stage ----
        mm.SetTensorA(aGm[(uint64_t)mOff * cube.Ka]);
        mm.SetTensorB(bGm[(uint64_t)nOff * cube.Kb], true);
        mm.SetBias(biasGm[nOff]);
        mm.SetTail(curM, curN, cube.Ka);
        mm.IterateAll(yGm[(uint64_t)mOff * cube.N + nOff]);
        mm.End();
        PipeBarrier<PIPE_ALL>();

        // ---- vector epilogue on the block this core just produced ----
        for (uint32_t r = 0; r < curM; ++r) {
            uint64_t rowBase = (uint64_t)(mOff + r) * cube.N + nOff;
            for (uint32_t c = 0; c < curN; c += chunkLen) {
                uint32_t len = (curN - c < chunkLen) ? (curN - c) : chunkLen;
                Epilogue(rowBase + c, len);
            }
        }
    }

private:
    __aicore__ inline void Epilogue(uint64_t offset, uint32_t len)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        LocalTensor<float> xin = inQ.AllocTensor<float>();
        DataCopyPad(xin, yGm[offset], cp, pad);
        inQ.EnQue(xin);

        xin = inQ.DeQue<float>();
        LocalTensor<float> res = outQ.AllocTensor<float>();
        LocalTensor<float> sig = sigBuf.Get<float>();
        // sigmoid(v) = 1 / (1 + exp(-v))
        Muls(sig, xin, -1.0f, len);
        Exp(sig, sig, len);
        Adds(sig, sig, 1.0f, len);
        Div(res, xin, sig, len);            // v * sigmoid(v)
        Muls(res, res, scaling, len);
        inQ.FreeTensor(xin);
        outQ.EnQue(res);

        res = outQ.DeQue<float>();
        DataCopyPad(yGm[offset], res, cp);
        outQ.FreeTensor(res);
    }

public:
    Matmul<AType, BType, CType, BiasType> mm;

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<QuePosition::VECCALC> sigBuf;
    GlobalTensor<float> aGm, bGm, biasGm, yGm;
    TCubeTiling cube;
    float scaling;
    uint32_t chunkLen;
};

extern "C" __global__ __aicore__ void matmul_swish_scaling_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                  GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    if (userWs == nullptr) {
        return;
    }
    MatmulSwishScalingKernel op;
    op.Init(x, weight, bias, y, tilingData.cubeTilingData, tilingData.scalingFactor, tilingData.epilogueTile);
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_swish_scaling_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                         const at::Tensor& bias, double scaling_factor)
{
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    float scale = static_cast<float>(scaling_factor);
    EXEC_NPU_CMD(aclnnMatmulSwishScalingCustom, x, weight, bias, scale, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_swish_scaling_custom", &matmul_swish_scaling_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_swish_scaling_custom", &matmul_swish_scaling_impl_npu, "linear + swish + scaling");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features, scaling_factor):
        super(ModelNew, self).__init__()
        self.matmul = torch.nn.Linear(in_features, out_features)
        self.scaling_factor = scaling_factor

    def forward(self, x):
        return custom_ops_lib.matmul_swish_scaling_custom(
            x, self.matmul.weight, self.matmul.bias, float(self.scaling_factor))
'''

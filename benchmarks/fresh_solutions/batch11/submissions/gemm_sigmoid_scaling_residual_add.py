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

    // x: [M, K], weight: [N, K] (nn.Linear layout, used transposed), bias: [N]
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    int32_t M = static_cast<int32_t>(xShape.GetDim(0));
    int32_t K = static_cast<int32_t>(xShape.GetDim(1));
    int32_t N = static_cast<int32_t>(wShape.GetDim(0));
    const float* scale = context->GetAttrs()->GetAttrPointer<float>(0);

    uint32_t aicNum = ascendcPlatform.GetCoreNumAic();
    if (aicNum == 0) {
        aicNum = 1;
    }

    MultiCoreMatmulTiling cubeTiling(ascendcPlatform);
    // one cube core drives two vector cores (mix 1:2), so the split is over the AIV count
    cubeTiling.SetDim(aicNum * 2);
    cubeTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    cubeTiling.SetCType(TPosition::VECIN, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetShape(M, N, K);
    cubeTiling.SetOrgShape(M, N, K);
    // base block 128 x 128 floats = 64 KB in UB for the epilogue
    cubeTiling.SetFixSplit(128, 128, -1);
    cubeTiling.SetBias(true);
    cubeTiling.SetBufferSpace(-1, -1, -1);

    GemmSigmoidScalingResidualAddCustomTilingData tiling;
    if (cubeTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_scalingFactor(scale == nullptr ? 2.0f : *scale);

    context->SetBlockDim(aicNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t userWorkspaceSize = 0;
    size_t systemWorkspaceSize = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = userWorkspaceSize + systemWorkspaceSize;
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
class GemmSigmoidScalingResidualAddCustom : public OpDef {
public:
    explicit GemmSigmoidScalingResidualAddCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scaling_factor").AttrType(OPTIONAL).Float(2.0f);

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

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

// y = h + s * sigmoid(h),  h = x @ W^T + b
// The cube computes baseM x baseN blocks of h; each block is pulled into UB and the
// sigmoid / scale / residual epilogue runs on the vector unit before it goes to GM.
template <typename T>
class KernelGemmSigmoidScaleRes {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, T>;

    __aicore__ inline KernelGemmSigmoidScaleRes() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const TCubeTiling& t, float scale, TPipe* pipe)
    {
        tiling = t;
        scaling = scale;
        uint32_t mBlocks = CeilDiv(tiling.M, tiling.singleCoreM);
        uint32_t idx = GetBlockIdx();
        mIdx = idx % mBlocks;
        nIdx = idx / mBlocks;
        active = (nIdx * tiling.singleCoreN < static_cast<uint32_t>(tiling.N)) &&
                 (mIdx * tiling.singleCoreM < static_cast<uint32_t>(tiling.M));

        uint64_t offA = (uint64_t)mIdx * tiling.singleCoreM * tiling.Ka;
        uint64_t offB = (uint64_t)nIdx * tiling.singleCoreN * tiling.Kb;   // B is [N, K]
        uint64_t offC = (uint64_t)mIdx * tiling.singleCoreM * tiling.N + (uint64_t)nIdx * tiling.singleCoreN;
        uint64_t offBias = (uint64_t)nIdx * tiling.singleCoreN;

        xGm.SetGlobalBuffer((__gm__ T*)x + offA);
        wGm.SetGlobalBuffer((__gm__ T*)w + offB);
        biasGm.SetGlobalBuffer((__gm__ T*)bias + offBias);
        yGm.SetGlobalBuffer((__gm__ T*)y + offC);

        // tail of the last core in each direction
        int32_t remM = tiling.M - static_cast<int32_t>(mIdx * tiling.singleCoreM);
        int32_t remN = tiling.N - static_cast<int32_t>(nIdx * tiling.singleCoreN);
        curM = remM < tiling.singleCoreM ? remM : tiling.singleCoreM;
        curN = remN < tiling.singleCoreN ? remN : tiling.singleCoreN;

        uint32_t blockElems = tiling.baseM * tiling.baseN;
        pipe->InitBuffer(cQueue, 1, blockElems * sizeof(T));
        pipe->InitBuffer(tmpBuf, blockElems * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (!active) {
            return;
        }
        mm.SetTail(curM, curN);
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        uint32_t round = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<T> c = cQueue.AllocTensor<T>();
            mm.template GetTensorC<true>(c, false, true);
            Epilogue(c);
            cQueue.EnQue(c);
            CopyOut(round);
            ++round;
        }
        mm.End();
    }

    Matmul<AType, BType, CType, BiasType> mm;
    TCubeTiling tiling;

private:
    __aicore__ inline void Epilogue(LocalTensor<T>& c)
    {
        LocalTensor<T> t = tmpBuf.Get<T>();
        uint32_t cnt = tiling.baseM * tiling.baseN;
        // t = s / (1 + exp(-h))
        Muls(t, c, static_cast<T>(-1.0f), cnt);
        Exp(t, t, cnt);
        Adds(t, t, static_cast<T>(1.0f), cnt);
        Reciprocal(t, t, cnt);
        Muls(t, t, static_cast<T>(scaling), cnt);
        // residual
        Add(c, c, t, cnt);
    }

    __aicore__ inline void CopyOut(uint32_t round)
    {
        LocalTensor<T> c = cQueue.DeQue<T>();
        uint32_t roundM = CeilDiv(curM, tiling.baseM);
        uint32_t mi = round % roundM;
        uint32_t ni = round / roundM;
        uint32_t rows = curM - mi * tiling.baseM;
        if (rows > static_cast<uint32_t>(tiling.baseM)) rows = tiling.baseM;
        uint32_t cols = curN - ni * tiling.baseN;
        if (cols > static_cast<uint32_t>(tiling.baseN)) cols = tiling.baseN;

        uint64_t dst = (uint64_t)mi * tiling.baseM * tiling.N + (uint64_t)ni * tiling.baseN;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = cols * sizeof(T);
        cp.srcStride = (tiling.baseN - cols) * sizeof(T) / 32;   // UB gap in 32B blocks
        cp.dstStride = (tiling.N - cols) * sizeof(T);            // GM gap in bytes
        cp.rsv = 0;
        DataCopyPad(yGm[dst], c, cp);
        cQueue.FreeTensor(c);
    }

    TQue<QuePosition::VECIN, 1> cQueue;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<T> xGm, wGm, biasGm, yGm;
    uint32_t mIdx, nIdx;
    int32_t curM, curN;
    bool active;
    float scaling;
};

extern "C" __global__ __aicore__ void gemm_sigmoid_scaling_residual_add_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    TPipe pipe;
    KernelGemmSigmoidScaleRes<float> op;
    op.Init(x, weight, bias, y, tilingData.cubeTilingData, tilingData.scalingFactor, &pipe);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &op.tiling);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor gemm_sigmoid_scaling_residual_add_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                      const at::Tensor& bias, double scaling_factor)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "expected 2D x and weight");
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    float scale = static_cast<float>(scaling_factor);
    EXEC_NPU_CMD(aclnnGemmSigmoidScalingResidualAddCustom, xc, wc, bc, scale, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_sigmoid_scaling_residual_add_custom", &gemm_sigmoid_scaling_residual_add_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_sigmoid_scaling_residual_add_custom", &gemm_sigmoid_scaling_residual_add_impl_npu,
          "linear + sigmoid * s + residual");
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
        self.scaling_factor = scaling_factor

    def forward(self, x):
        return custom_ops_lib.gemm_sigmoid_scaling_residual_add_custom(
            x, self.gemm.weight, self.gemm.bias, self.scaling_factor)
'''

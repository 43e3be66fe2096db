project_json_src='''
[
    {
        "op": "GemmAddReluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmAddReluCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmAddReluCustom, GemmAddReluCustomTilingData)
}
"""

host_operator_src="""
#include "gemm_add_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    // x: [M, K], weight: [N, K] (nn.Linear layout, used transposed), bias: [N]
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& wShape = context->GetInputShape(1)->GetStorageShape();
    int32_t M = static_cast<int32_t>(xShape.GetDim(0));
    int32_t K = static_cast<int32_t>(xShape.GetDim(1));
    int32_t N = static_cast<int32_t>(wShape.GetDim(0));

    uint32_t coreNum = ascendcPlatform.GetCoreNumAic();
    MultiCoreMatmulTiling mmTiling(ascendcPlatform);
    mmTiling.SetDim(coreNum);
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mmTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.SetBias(true);
    // 128x128 fp32 base block: 64 KB in L0C and in the UB relu buffer
    mmTiling.SetFixSplit(128, 128, -1);
    mmTiling.SetBufferSpace(-1, -1, -1);

    GemmAddReluCustomTilingData tiling;
    if (mmTiling.GetTiling(tiling.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // the matmul library needs its system workspace
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize());
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
class GemmAddReluCustom : public OpDef {
public:
    explicit GemmAddReluCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GemmAddReluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// y = relu(x @ W^T + bias)
// The cube unit computes each [baseM, baseN] block of the per-core C tile (bias added by the
// matmul itself); the vector core pulls every block into UB, applies ReLU and writes it out.
class GemmAddReluKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline GemmAddReluKernel() {}

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, const TCubeTiling& t, TPipe* pipe)
    {
        tiling = t;
        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(t.M) * t.Ka);
        wGm.SetGlobalBuffer((__gm__ float*)w, static_cast<uint64_t>(t.N) * t.Kb);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, t.N);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(t.M) * t.N);

        uint32_t blk = GetBlockIdx();
        if (blk >= static_cast<uint32_t>(t.usedCoreNum)) {
            return false;
        }
        uint32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        uint32_t mIdx = blk % mBlocks;
        uint32_t nIdx = blk / mBlocks;

        mStart = mIdx * t.singleCoreM;
        nStart = nIdx * t.singleCoreN;
        curM = (t.M - mStart) < static_cast<uint32_t>(t.singleCoreM) ? (t.M - mStart) : t.singleCoreM;
        curN = (t.N - nStart) < static_cast<uint32_t>(t.singleCoreN) ? (t.N - nStart) : t.singleCoreN;

        xOffset = static_cast<uint64_t>(mStart) * t.Ka;
        wOffset = static_cast<uint64_t>(nStart) * t.Kb;     // W is [N, K], rows = output features
        pipe->InitBuffer(reluQueue, 1, t.baseM * t.baseN * sizeof(float));
        return true;
    }

    __aicore__ inline void Process()
    {
        mm.SetTensorA(xGm[xOffset]);
        mm.SetTensorB(wGm[wOffset], true);
        mm.SetBias(biasGm[nStart]);
        mm.SetTail(curM, curN);

        uint32_t mRounds = (curM + tiling.baseM - 1) / tiling.baseM;
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> blkC = reluQueue.AllocTensor<float>();
            mm.template GetTensorC<true>(blkC, false, true);
            Relu(blkC, blkC, tiling.baseM * tiling.baseN);
            reluQueue.EnQue(blkC);
            StoreBlock(step % mRounds, step / mRounds);
            ++step;
        }
        mm.End();
    }

    Matmul<AType, BType, CType, BiasType> mm;

private:
    __aicore__ inline void StoreBlock(uint32_t mi, uint32_t ni)
    {
        LocalTensor<float> blkC = reluQueue.DeQue<float>();
        uint32_t rows = curM - mi * tiling.baseM;
        rows = rows < static_cast<uint32_t>(tiling.baseM) ? rows : tiling.baseM;
        uint32_t cols = curN - ni * tiling.baseN;
        cols = cols < static_cast<uint32_t>(tiling.baseN) ? cols : tiling.baseN;

        uint64_t dst = static_cast<uint64_t>(mStart + mi * tiling.baseM) * tiling.N + nStart + ni * tiling.baseN;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = cols * static_cast<uint32_t>(sizeof(float));
        cp.srcStride = (tiling.baseN - cols) * sizeof(float) / 32;       // UB side, 32B blocks
        cp.dstStride = (tiling.N - cols) * sizeof(float);                // GM side, bytes
        cp.rsv = 0;
        DataCopyPad(yGm[dst], blkC, cp);
        reluQueue.FreeTensor(blkC);
    }

    TCubeTiling tiling;
    GlobalTensor<float> xGm, wGm, biasGm, yGm;
    TQue<QuePosition::VECOUT, 1> reluQueue;
    uint32_t mStart = 0, nStart = 0, curM = 0, curN = 0;
    uint64_t xOffset = 0, wOffset = 0;
};

extern "C" __global__ __aicore__ void gemm_add_relu_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(tilingData, tiling);
    if (GetUserWorkspace(workspace) == nullptr) {
        return;
    }
    TPipe pipe;
    GemmAddReluKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTiling);
    if (!op.Init(x, weight, bias, y, tilingData.cubeTiling, &pipe)) {
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

at::Tensor gemm_add_relu_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias)
{
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor y = at::empty({xc.size(0), wc.size(0)}, xc.options());
    EXEC_NPU_CMD(aclnnGemmAddReluCustom, xc, wc, bc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_add_relu_custom", &gemm_add_relu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_add_relu_custom", &gemm_add_relu_custom_impl_npu, "relu(x @ W^T + b)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features, bias_shape):
        super().__init__()
        self.gemm = torch.nn.Linear(in_features, out_features, bias=False)
        self.bias = torch.nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        return custom_ops_lib.gemm_add_relu_custom(x, self.gemm.weight, self.bias)
'''

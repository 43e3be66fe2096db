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
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
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
    auto xShape = context->GetInputShape(0)->GetOriginShape();   // [M, K]
    auto wShape = context->GetInputShape(1)->GetOriginShape();   // [N, K] (nn.Linear layout)
    int32_t M = static_cast<int32_t>(xShape.GetDim(0));
    int32_t K = static_cast<int32_t>(xShape.GetDim(1));
    int32_t N = static_cast<int32_t>(wShape.GetDim(0));

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = ascendcPlatform.GetCoreNumAiv();

    MultiCoreMatmulTiling mmTiling(ascendcPlatform);
    // Matmul is driven from the vector cores in MIX mode, so the split is over AIV cores
    mmTiling.SetDim(static_cast<int32_t>(aivNum));
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mmTiling.SetCType(TPosition::VECIN, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.SetBias(true);
    // base block 128 x 128 fp32 = 64 KB, which is also what the relu epilogue holds in UB
    mmTiling.SetFixSplit(128, 128, -1);
    mmTiling.SetBufferSpace(-1, -1, -1);

    GemmAddReluCustomTilingData tiling;
    if (mmTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }

    // AIC : AIV = 1 : 2 -> one block drives two vector cores
    uint32_t usedAiv = static_cast<uint32_t>(tiling.cubeTilingData.get_usedCoreNum());
    context->SetBlockDim((usedAiv + 1) / 2);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = ascendcPlatform.GetLibApiWorkSpaceSize();   // matmul message queues etc.
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
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
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

using namespace matmul;

// y = relu(x @ W^T + b)
// The cube unit does the GEMM with the bias folded in by the Matmul API; each finished
// baseM x baseN block is handed to the vector core (VECIN), where ReLU is applied before
// the block is written to its place in y. The pre-activation never touches global memory.
using A_T = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using B_T = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, true>;   // W is [N, K]
using C_T = MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, float>;
using BIAS_T = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

__aicore__ inline int32_t CeilDiv(int32_t a, int32_t b)
{
    return b == 0 ? 0 : (a + b - 1) / b;
}

class GemmAddReluKernel {
public:
    __aicore__ inline GemmAddReluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, const TCubeTiling &tiling,
                                AscendC::TPipe *pipe)
    {
        t = tiling;
        int32_t idx = AscendC::GetBlockIdx();
        active = idx < t.usedCoreNum;
        if (!active) {
            return;
        }

        // which (M, N) single-core tile this vector core owns
        int32_t mTiles = CeilDiv(t.M, t.singleCoreM);
        int32_t mIdx = idx % mTiles;
        int32_t nIdx = idx / mTiles;
        int32_t mStart = mIdx * t.singleCoreM;
        int32_t nStart = nIdx * t.singleCoreN;
        myM = (t.M - mStart) < t.singleCoreM ? (t.M - mStart) : t.singleCoreM;
        myN = (t.N - nStart) < t.singleCoreN ? (t.N - nStart) : t.singleCoreN;

        xGm.SetGlobalBuffer((__gm__ float *)x + (uint64_t)mStart * t.Ka);
        wGm.SetGlobalBuffer((__gm__ float *)w + (uint64_t)nStart * t.Kb);
        biasGm.SetGlobalBuffer((__gm__ float *)bias + nStart);
        yGm.SetGlobalBuffer((__gm__ float *)y + (uint64_t)mStart * t.N + nStart);

        pipe->InitBuffer(blockQue, 2, t.baseM * t.baseN * sizeof(float));

        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        if (myM != t.singleCoreM || myN != t.singleCoreN) {
            mm.SetTail(myM, myN);
        }
        mBlocks = CeilDiv(myM, t.baseM);
    }

    __aicore__ inline void Process()
    {
        if (!active) {
            return;
        }
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            // block coordinates inside this core's tile (M is walked first)
            int32_t bm = static_cast<int32_t>(step) % mBlocks;
            int32_t bn = static_cast<int32_t>(step) / mBlocks;
            int32_t rows = myM - bm * t.baseM;
            rows = rows < t.baseM ? rows : t.baseM;
            int32_t cols = myN - bn * t.baseN;
            cols = cols < t.baseN ? cols : t.baseN;

            AscendC::LocalTensor<float> blk = blockQue.AllocTensor<float>();
            mm.template GetTensorC<true>(blk, false, true);
            AscendC::Relu(blk, blk, rows * cols);
            blockQue.EnQue(blk);
            WriteBlock(bm, bn, rows, cols);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void WriteBlock(int32_t bm, int32_t bn, int32_t rows, int32_t cols)
    {
        AscendC::LocalTensor<float> blk = blockQue.DeQue<float>();
        uint64_t dst = (uint64_t)bm * t.baseM * t.N + (uint64_t)bn * t.baseN;
        AscendC::DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = static_cast<uint32_t>(cols * sizeof(float));
        cp.srcStride = 0;
        cp.dstStride = static_cast<uint32_t>((t.N - cols) * sizeof(float));
        cp.rsv = 0;
        AscendC::DataCopyPad(yGm[dst], blk, cp);
        blockQue.FreeTensor(blk);
    }

public:
    Matmul<A_T, B_T, C_T, BIAS_T> mm;

private:
    TCubeTiling t;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> blockQue;
    AscendC::GlobalTensor<float> xGm, wGm, biasGm, yGm;
    int32_t myM = 0, myN = 0, mBlocks = 1;
    bool active = false;
};

extern "C" __global__ __aicore__ void gemm_add_relu_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    AscendC::TPipe pipe;
    GemmAddReluKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTilingData);
    op.Init(x, weight, bias, y, tilingData.cubeTilingData, &pipe);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor gemm_add_relu_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias) {
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "x and weight must be 2-D");
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.reshape({-1}).contiguous();
    at::Tensor y = at::empty({xc.size(0), wc.size(0)}, xc.options());
    EXEC_NPU_CMD(aclnnGemmAddReluCustom, xc, wc, bc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_add_relu_custom", &gemm_add_relu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_add_relu_custom", &gemm_add_relu_custom_impl_npu, "relu(x @ W^T + bias)");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias_shape):
        super(ModelNew, self).__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        return custom_ops_lib.gemm_add_relu_custom(x, self.gemm.weight, self.bias)
'''

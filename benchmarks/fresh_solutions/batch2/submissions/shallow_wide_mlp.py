project_json_src='''
[
    {
        "op": "ShallowWideMlpCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "weight",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "bias",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "attr": [
            {
                "name": "with_relu",
                "param_type": "optional",
                "type": "bool",
                "default_value": "true"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
// One fully connected layer y = x * W^T + b (optionally followed by ReLU).
BEGIN_TILING_DATA_DEF(ShallowWideMlpCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, withRelu);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ShallowWideMlpCustom, ShallowWideMlpCustomTilingData)
}
"""

host_operator_src="""
#include "shallow_wide_mlp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();   // [M, K]
    const gert::Shape& wShape = context->GetInputShape(1)->GetStorageShape();   // [N, K]
    int32_t M = static_cast<int32_t>(xShape.GetDim(0));
    int32_t K = static_cast<int32_t>(xShape.GetDim(1));
    int32_t N = static_cast<int32_t>(wShape.GetDim(0));
    if (wShape.GetDim(1) != K) {
        return ge::GRAPH_FAILED;
    }

    const bool* reluAttr = context->GetAttrs()->GetBool(0);
    bool withRelu = (reluAttr == nullptr) ? true : *reluAttr;

    uint32_t aivNum = plat.GetCoreNumAiv();
    MultiCoreMatmulTiling mmTiling(plat);
    mmTiling.SetDim(aivNum);
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);   // nn.Linear weight is [N, K]
    mmTiling.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
    mmTiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.SetBias(true);
    // 128 x 128 fp32 output tile = 64 KB, leaves UB room for the ReLU epilogue
    mmTiling.SetFixSplit(128, 128, -1);
    mmTiling.SetBufferSpace(-1, -1, -1);

    ShallowWideMlpCustomTilingData tiling;
    if (mmTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_withRelu(withRelu ? 1 : 0);

    // mixed AIC:AIV = 1:2 kernel; block dim counts cube cores
    uint32_t usedAiv = static_cast<uint32_t>(tiling.cubeTilingData.get_usedCoreNum());
    uint32_t blockDim = (usedAiv + 1) / 2;
    if (blockDim == 0) {
        blockDim = 1;
    }
    context->SetBlockDim(blockDim);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
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
class ShallowWideMlpCustom : public OpDef {
public:
    explicit ShallowWideMlpCustom(const char* name) : OpDef(name)
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
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("with_relu").AttrType(OPTIONAL).Bool(true);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ShallowWideMlpCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return b == 0 ? 0 : (a + b - 1) / b;
}

// Linear layer on the cube unit, bias fused into the matmul, ReLU applied on the
// vector unit to every baseM x baseN tile before it is written back to GM.
class KernelLinearRelu {
public:
    using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CType = matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

    matmul::Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline KernelLinearRelu() {}
    __aicore__ inline TPipe* pipeRef() { return &pipe; }

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const TCubeTiling& t, uint32_t relu)
    {
        tiling = t;
        withRelu = relu;
        uint32_t blockIdx = GetBlockIdx();
        if (blockIdx >= static_cast<uint32_t>(tiling.usedCoreNum)) {
            return false;
        }
        M = tiling.M;
        N = tiling.N;
        K = tiling.Ka;

        // split C into singleCoreM x singleCoreN blocks, M index varies fastest
        uint32_t mBlocks = CeilDiv(M, tiling.singleCoreM);
        uint32_t mIdx = blockIdx % mBlocks;
        uint32_t nIdx = blockIdx / mBlocks;
        rowBase = mIdx * tiling.singleCoreM;
        colBase = nIdx * tiling.singleCoreN;
        if (rowBase >= M || colBase >= N) {
            return false;
        }
        curM = (M - rowBase) < static_cast<uint32_t>(tiling.singleCoreM) ? (M - rowBase) : tiling.singleCoreM;
        curN = (N - colBase) < static_cast<uint32_t>(tiling.singleCoreN) ? (N - colBase) : tiling.singleCoreN;

        xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(rowBase) * K);
        wGm.SetGlobalBuffer((__gm__ float*)w + static_cast<uint64_t>(colBase) * K);
        biasGm.SetGlobalBuffer((__gm__ float*)bias + colBase);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(cQue, 1, tiling.baseM * tiling.baseN * sizeof(float));
        return true;
    }

    __aicore__ inline void Process()
    {
        mm.SetTail(curM, curN);
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);

        uint32_t mIters = CeilDiv(curM, tiling.baseM);
        uint32_t nIters = CeilDiv(curN, tiling.baseN);
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            uint32_t mi, ni;
            if (tiling.iterateOrder == 0) {
                mi = step % mIters;
                ni = step / mIters;
            } else {
                ni = step % nIters;
                mi = step / nIters;
            }
            LocalTensor<float> cLocal = cQue.AllocTensor<float>();
            mm.template GetTensorC<true>(cLocal, false, true);
            if (withRelu) {
                Relu(cLocal, cLocal, tiling.baseM * tiling.baseN);
            }
            cQue.EnQue(cLocal);
            WriteTile(mi, ni);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void WriteTile(uint32_t mi, uint32_t ni)
    {
        LocalTensor<float> cLocal = cQue.DeQue<float>();
        uint32_t r0 = mi * tiling.baseM;
        uint32_t c0 = ni * tiling.baseN;
        uint32_t rows = (curM - r0) < static_cast<uint32_t>(tiling.baseM) ? (curM - r0) : tiling.baseM;
        uint32_t cols = (curN - c0) < static_cast<uint32_t>(tiling.baseN) ? (curN - c0) : tiling.baseN;
        uint32_t colsAligned = (cols + 7) / 8 * 8;

        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = cols * sizeof(float);
        cp.srcStride = (tiling.baseN - colsAligned) / 8;          // UB gap in 32B blocks
        cp.dstStride = (N - cols) * sizeof(float);                 // GM gap in bytes
        cp.rsv = 0;
        uint64_t off = static_cast<uint64_t>(rowBase + r0) * N + colBase + c0;
        DataCopyPad(yGm[off], cLocal, cp);
        cQue.FreeTensor(cLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> cQue;
    GlobalTensor<float> xGm, wGm, biasGm, yGm;
    TCubeTiling tiling;
    uint32_t withRelu = 1;
    uint32_t M = 0, N = 0, K = 0;
    uint32_t rowBase = 0, colBase = 0, curM = 0, curN = 0;
};

extern "C" __global__ __aicore__ void shallow_wide_mlp_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    KernelLinearRelu op;
    REGIST_MATMUL_OBJ(op.pipeRef(), GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTilingData);
    if (op.Init(x, weight, bias, y, tilingData.cubeTilingData, tilingData.withRelu)) {
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// single layer: relu(x @ w^T + b) (relu optional)
static at::Tensor linear_layer(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b, bool withRelu)
{
    at::Tensor out = at::empty({x.size(0), w.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnShallowWideMlpCustom, x, w, b, withRelu, out);
    return out;
}

at::Tensor shallow_wide_mlp_custom_impl_npu(const at::Tensor& x,
                                            const std::vector<at::Tensor>& weights,
                                            const std::vector<at::Tensor>& biases)
{
    TORCH_CHECK(weights.size() == biases.size() && !weights.empty(), "weights/biases mismatch");
    at::Tensor h = x.contiguous();
    for (size_t i = 0; i < weights.size(); ++i) {
        bool last = (i + 1 == weights.size());
        h = linear_layer(h, weights[i].contiguous(), biases[i].contiguous(), !last);
    }
    return h;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("shallow_wide_mlp_custom", &shallow_wide_mlp_custom_impl_npu, "MLP built from fused linear+relu kernels");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_layer_sizes, output_size):
        super(ModelNew, self).__init__()
        layers = []
        cur = input_size
        for h in hidden_layer_sizes:
            layers.append(nn.Linear(cur, h))
            layers.append(nn.ReLU())
            cur = h
        layers.append(nn.Linear(cur, output_size))
        self.network = nn.Sequential(*layers)
        self.linears = [m for m in self.network if isinstance(m, nn.Linear)]

    def forward(self, x):
        return custom_ops_lib.shallow_wide_mlp_custom(
            x, [l.weight for l in self.linears], [l.bias for l in self.linears])
'''

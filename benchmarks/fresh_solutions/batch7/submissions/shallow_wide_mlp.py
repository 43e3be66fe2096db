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
                "name": "apply_relu",
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
BEGIN_TILING_DATA_DEF(ShallowWideMlpCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
  TILING_DATA_FIELD_DEF(uint32_t, reluFlag);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ShallowWideMlpCustom, ShallowWideMlpCustomTilingData)
}
"""

host_operator_src="""
#include "shallow_wide_mlp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();

    // x: [M, K], weight: [N, K] (nn.Linear layout, used transposed)
    int32_t rows = static_cast<int32_t>(xShape.GetDim(0));
    int32_t inDim = static_cast<int32_t>(xShape.GetDim(1));
    int32_t outDim = static_cast<int32_t>(wShape.GetDim(0));

    uint32_t aivCnt = plat.GetCoreNumAiv();
    uint32_t aicCnt = plat.GetCoreNumAic();

    MultiCoreMatmulTiling mmt(plat);
    mmt.SetDim(aivCnt);
    mmt.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mmt.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mmt.SetCType(TPosition::VECIN, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmt.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmt.SetShape(rows, outDim, inDim);
    mmt.SetOrgShape(rows, outDim, inDim);
    mmt.SetBias(true);
    // keep the C block small enough for one UB buffer pair
    mmt.SetFixSplit(64, 128, -1);
    mmt.SetBufferSpace(-1, -1, -1);

    ShallowWideMlpCustomTilingData td;
    if (mmt.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    const bool* reluAttr = context->GetAttrs()->GetAttrPointer<bool>(0);
    uint32_t relu = 1;
    if (reluAttr != nullptr && !(*reluAttr)) {
        relu = 0;
    }
    td.set_reluFlag(relu);

    context->SetBlockDim(aicCnt);
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
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(2);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
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
        this->Attr("apply_relu").AttrType(OPTIONAL).Bool(true);

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
using namespace matmul;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t MinU(uint32_t a, uint32_t b) { return a < b ? a : b; }

// Linear layer (x @ W^T + b) with optional ReLU applied on each C block before it leaves UB.
class LinearReluKernel {
public:
    using AT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CT = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<AT, BT, CT, BiasT> mm;

    __aicore__ inline LinearReluKernel() {}

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const TCubeTiling& t, uint32_t relu, TPipe* pipe)
    {
        tl = t;
        useRelu = relu;
        uint32_t bid = GetBlockIdx();
        if (bid >= static_cast<uint32_t>(tl.usedCoreNum)) {
            return false;
        }
        uint32_t mParts = CeilDivU(tl.M, tl.singleCoreM);
        uint32_t mIdx = bid % mParts;
        uint32_t nIdx = bid / mParts;

        mStart = mIdx * tl.singleCoreM;
        nStart = nIdx * tl.singleCoreN;
        if (mStart >= static_cast<uint32_t>(tl.M) || nStart >= static_cast<uint32_t>(tl.N)) {
            return false;
        }
        curM = MinU(tl.singleCoreM, tl.M - mStart);
        curN = MinU(tl.singleCoreN, tl.N - nStart);

        xG.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + static_cast<uint64_t>(mStart) * tl.Ka);
        wG.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(w) + static_cast<uint64_t>(nStart) * tl.Kb);
        bG.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b) + nStart);
        yG.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));

        pipe->InitBuffer(cQue, 2, tl.baseM * tl.baseN * sizeof(float));
        return true;
    }

    __aicore__ inline void Run()
    {
        mm.SetTensorA(xG);
        mm.SetTensorB(wG, true);
        mm.SetBias(bG);
        mm.SetTail(curM, curN);

        uint32_t mSteps = CeilDivU(curM, tl.baseM);
        uint32_t iter = 0;
        while (mm.Iterate()) {
            LocalTensor<float> cBlk = cQue.AllocTensor<float>();
            mm.GetTensorC(cBlk, false, true);
            if (useRelu) {
                Maxs(cBlk, cBlk, 0.0f, tl.baseM * tl.baseN);
            }
            cQue.EnQue(cBlk);
            WriteBlock(iter, mSteps);
            iter++;
        }
        mm.End();
    }

private:
    __aicore__ inline void WriteBlock(uint32_t iter, uint32_t mSteps)
    {
        LocalTensor<float> cBlk = cQue.DeQue<float>();
        uint32_t bm = iter % mSteps;
        uint32_t bn = iter / mSteps;
        uint32_t rowOff = bm * tl.baseM;
        uint32_t colOff = bn * tl.baseN;
        uint32_t rowsHere = MinU(tl.baseM, curM - rowOff);
        uint32_t colsHere = MinU(tl.baseN, curN - colOff);

        uint64_t gOff = static_cast<uint64_t>(mStart + rowOff) * tl.N + nStart + colOff;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rowsHere);
        cp.blockLen = colsHere * sizeof(float);
        cp.srcStride = (tl.baseN - colsHere) * sizeof(float) / 32;
        cp.dstStride = (tl.N - colsHere) * sizeof(float);
        cp.rsv = 0;
        DataCopyPad(yG[gOff], cBlk, cp);
        cQue.FreeTensor(cBlk);
    }

    TCubeTiling tl;
    TQue<QuePosition::VECIN, 2> cQue;
    GlobalTensor<float> xG, wG, bG, yG;
    uint32_t mStart = 0, nStart = 0, curM = 0, curN = 0;
    uint32_t useRelu = 1;
};

extern "C" __global__ __aicore__ void shallow_wide_mlp_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (usr == nullptr) {
        return;
    }
    TPipe pipe;
    LinearReluKernel k;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), k.mm, &td.mmTiling);
    if (!k.Init(x, weight, bias, y, td.mmTiling, td.reluFlag, &pipe)) {
        return;
    }
    k.Run();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

static at::Tensor linear_layer(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b, bool relu)
{
    at::Tensor out = at::empty({x.size(0), w.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnShallowWideMlpCustom, x, w, b, relu, out);
    return out;
}

// weights/biases ordered layer by layer; every layer but the last is followed by ReLU
at::Tensor shallow_wide_mlp_custom_impl_npu(const at::Tensor& x,
                                            const std::vector<at::Tensor>& weights,
                                            const std::vector<at::Tensor>& biases)
{
    TORCH_CHECK(weights.size() == biases.size() && !weights.empty(), "bad layer lists");
    at::Tensor h = x.contiguous();
    size_t n = weights.size();
    for (size_t i = 0; i < n; ++i) {
        h = linear_layer(h, weights[i].contiguous(), biases[i].contiguous(), i + 1 < n);
    }
    return h;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("shallow_wide_mlp_custom", &shallow_wide_mlp_custom_impl_npu, "shallow wide MLP (linear+relu stack)");
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

    def forward(self, x):
        lins = [m for m in self.network if isinstance(m, nn.Linear)]
        return custom_ops_lib.shallow_wide_mlp_custom(
            x, [l.weight for l in lins], [l.bias for l in lins])
'''

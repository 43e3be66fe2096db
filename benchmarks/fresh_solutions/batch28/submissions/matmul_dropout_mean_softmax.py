project_json_src='''
[
    {
        "op": "MatmulDropoutMeanSoftmaxCustom",
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
BEGIN_TILING_DATA_DEF(MatmulDropoutMeanSoftmaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, M);
  TILING_DATA_FIELD_DEF(uint32_t, N);
  TILING_DATA_FIELD_DEF(uint32_t, K);
  TILING_DATA_FIELD_DEF(uint32_t, vecNum);
  TILING_DATA_FIELD_DEF(uint32_t, softmaxTile);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulDropoutMeanSoftmaxCustom, MatmulDropoutMeanSoftmaxCustomTilingData)
}
"""

host_operator_src="""
#include "matmul_dropout_mean_softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t SOFTMAX_TILE = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aicNum = platform.GetCoreNumAic();
    uint32_t aivNum = platform.GetCoreNumAiv();

    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    int32_t M = xs.GetDim(0);
    int32_t K = xs.GetDim(1);
    int32_t N = ws.GetDim(0);
    if (ws.GetDim(1) != K) {
        return ge::GRAPH_FAILED;
    }

    MatmulDropoutMeanSoftmaxCustomTilingData tiling;
    matmul_tiling::MultiCoreMatmulTiling mt(platform);
    mt.SetDim(aivNum);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    if (mt.GetTiling(tiling.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_M(M);
    tiling.set_N(N);
    tiling.set_K(K);
    tiling.set_vecNum(aicNum * 2);
    tiling.set_softmaxTile(SOFTMAX_TILE);

    context->SetBlockDim(aicNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    const gert::Shape *ws = context->GetInputShape(1);
    gert::Shape *ys = context->GetOutputShape(0);
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
class MatmulDropoutMeanSoftmaxCustom : public OpDef {
public:
    explicit MatmulDropoutMeanSoftmaxCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MatmulDropoutMeanSoftmaxCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

using AType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, true>;
using CType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using LinearMM = Matmul<AType, BType, CType, BiasType>;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// y = softmax(dropout(x @ W^T + b), dim=1).
// Dropout is the identity at inference time, so the logits go straight into softmax.
// Phase 1: cube computes the logits into y. Phase 2 (after a global barrier): each vector core
// normalises whole rows in place with a three-sweep (max, sum of exp, write) tiled softmax.
class KernelMatmulSoftmax {
public:
    __aicore__ inline KernelMatmulSoftmax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const MatmulDropoutMeanSoftmaxCustomTilingData &t, AscendC::TPipe *p)
    {
        pipe = p;
        M = t.M; N = t.N; K = t.K; vecNum = t.vecNum; tile = t.softmaxTile;
        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)M * K);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)N * K);
        bGm.SetGlobalBuffer((__gm__ float *)b, N);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)M * N);
        pipe->InitBuffer(inQueue, 2, tile * sizeof(float));
        pipe->InitBuffer(outQueue, 2, tile * sizeof(float));
        pipe->InitBuffer(workBuf, tile * sizeof(float));
        pipe->InitBuffer(redBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Linear(LinearMM &mm, const TCubeTiling &t)
    {
        uint32_t mBlocks = CeilDiv(t.M, t.singleCoreM);
        uint32_t nBlocks = CeilDiv(t.N, t.singleCoreN);
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < mBlocks * nBlocks) {
            uint32_t mIdx = blockIdx % mBlocks;
            uint32_t nIdx = blockIdx / mBlocks;
            uint32_t m0 = mIdx * t.singleCoreM;
            uint32_t n0 = nIdx * t.singleCoreN;
            uint32_t tailM = (t.M - m0) < (uint32_t)t.singleCoreM ? (t.M - m0) : t.singleCoreM;
            uint32_t tailN = (t.N - n0) < (uint32_t)t.singleCoreN ? (t.N - n0) : t.singleCoreN;
            mm.SetTensorA(xGm[(uint64_t)m0 * t.Ka]);
            mm.SetTensorB(wGm[(uint64_t)n0 * t.Kb], true);
            mm.SetBias(bGm[n0]);
            mm.SetTail(tailM, tailN);
            mm.IterateAll(yGm[(uint64_t)m0 * t.N + n0]);
            mm.End();
        }
        AscendC::SyncAll();
    }

    __aicore__ inline void Softmax()
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        for (uint32_t row = blockIdx; row < M; row += vecNum) {
            uint64_t base = (uint64_t)row * N;
            float rowMax = RowMax(base);
            float rowSum = RowExpSum(base, rowMax);
            RowWrite(base, rowMax, 1.0f / rowSum);
        }
    }

private:
    __aicore__ inline uint32_t TileLen(uint32_t c0) { return (N - c0) < tile ? (N - c0) : tile; }

    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> buf = inQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(buf, yGm[off], cp, pad);
        inQueue.EnQue(buf);
    }

    __aicore__ inline float ReadReduced()
    {
        AscendC::LocalTensor<float> red = redBuf.Get<float>();
        event_t ev = static_cast<event_t>(pipe->FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
        return red.GetValue(0);
    }

    __aicore__ inline float RowMax(uint64_t base)
    {
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> red = redBuf.Get<float>();
        float m = -3.402823466e+38f;
        for (uint32_t c0 = 0; c0 < N; c0 += tile) {
            uint32_t len = TileLen(c0);
            CopyIn(base + c0, len);
            AscendC::LocalTensor<float> buf = inQueue.DeQue<float>();
            AscendC::ReduceMax(red, buf, work, len, false);
            float v = ReadReduced();
            m = v > m ? v : m;
            inQueue.FreeTensor(buf);
        }
        return m;
    }

    __aicore__ inline float RowExpSum(uint64_t base, float rowMax)
    {
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> red = redBuf.Get<float>();
        float s = 0.0f;
        for (uint32_t c0 = 0; c0 < N; c0 += tile) {
            uint32_t len = TileLen(c0);
            CopyIn(base + c0, len);
            AscendC::LocalTensor<float> buf = inQueue.DeQue<float>();
            AscendC::Adds(buf, buf, -rowMax, len);
            AscendC::Exp(buf, buf, len);
            AscendC::ReduceSum(red, buf, work, len);
            s += ReadReduced();
            inQueue.FreeTensor(buf);
        }
        return s;
    }

    __aicore__ inline void RowWrite(uint64_t base, float rowMax, float invSum)
    {
        for (uint32_t c0 = 0; c0 < N; c0 += tile) {
            uint32_t len = TileLen(c0);
            CopyIn(base + c0, len);
            AscendC::LocalTensor<float> buf = inQueue.DeQue<float>();
            AscendC::LocalTensor<float> out = outQueue.AllocTensor<float>();
            AscendC::Adds(out, buf, -rowMax, len);
            AscendC::Exp(out, out, len);
            AscendC::Muls(out, out, invSum, len);
            inQueue.FreeTensor(buf);
            outQueue.EnQue(out);
            out = outQueue.DeQue<float>();
            AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
            AscendC::DataCopyPad(yGm[base + c0], out, cp);
            outQueue.FreeTensor(out);
        }
    }

    AscendC::TPipe *pipe = nullptr;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf, redBuf;
    AscendC::GlobalTensor<float> xGm, wGm, bGm, yGm;
    uint32_t M, N, K, vecNum, tile;
};

extern "C" __global__ __aicore__ void matmul_dropout_mean_softmax_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                         GM_ADDR y, GM_ADDR workspace,
                                                                         GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if (workspace == nullptr) {
        return;
    }
    AscendC::SetSysWorkspace(workspace);
    GET_TILING_DATA(td, tiling);

    AscendC::TPipe pipe;
    LinearMM mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.cubeTiling);

    KernelMatmulSoftmax op;
    op.Init(x, weight, bias, y, td, &pipe);
    op.Linear(mm, td.cubeTiling);
    op.Softmax();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_dropout_mean_softmax_custom_impl_npu(const at::Tensor &x, const at::Tensor &weight,
                                                       const at::Tensor &bias)
{
    at::Tensor result = at::empty({x.size(0), weight.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnMatmulDropoutMeanSoftmaxCustom, x, weight, bias, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_dropout_mean_softmax_custom", &matmul_dropout_mean_softmax_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_dropout_mean_softmax_custom", &matmul_dropout_mean_softmax_custom_impl_npu,
          "softmax(dropout(linear(x)), dim=1), dropout in inference mode");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features, dropout_p):
        super(ModelNew, self).__init__()
        self.matmul = torch.nn.Linear(in_features, out_features)
        self.dropout_p = dropout_p

    def forward(self, x):
        return custom_ops_lib.matmul_dropout_mean_softmax_custom(x, self.matmul.weight, self.matmul.bias)
'''

# project json
project_json_src='''
[
    {
        "op": "ScaledDotProductAttentionInferenceCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "q", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "k", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "v", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "o", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

# host tiling
host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaledDotProductAttentionInferenceCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seq);
  TILING_DATA_FIELD_DEF(uint32_t, dim);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerWorker);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qk);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, pv);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaledDotProductAttentionInferenceCustom, ScaledDotProductAttentionInferenceCustomTilingData)
}
"""

# host operator
host_operator_src="""
#include <cmath>
#include "scaled_dot_product_attention_inference_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const gert::Shape& qs = ctx->GetInputShape(0)->GetStorageShape();
    uint32_t b = qs.GetDim(0), s = qs.GetDim(1), d = qs.GetDim(2);
    uint32_t aic = plat.GetCoreNumAic();
    uint32_t aiv = plat.GetCoreNumAiv();
    uint32_t rpw = (s + aiv - 1) / aiv;
    rpw = (rpw + 15) / 16 * 16;
    uint32_t workers = (s + rpw - 1) / rpw;
    uint32_t blocks = (workers + 1) / 2;
    if (blocks > aic) blocks = aic;

    ScaledDotProductAttentionInferenceCustomTilingData t;
    MatmulApiTiling m1(plat);
    m1.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    m1.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    m1.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    m1.SetShape(rpw, s, d);
    m1.SetOrgShape(s, s, d);
    m1.SetBias(false);
    m1.SetBufferSpace(-1, -1, -1);
    if (m1.GetTiling(t.qk) == -1) return ge::GRAPH_FAILED;

    MatmulApiTiling m2(plat);
    m2.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    m2.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    m2.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    m2.SetShape(rpw, d, s);
    m2.SetOrgShape(s, d, s);
    m2.SetBias(false);
    m2.SetBufferSpace(-1, -1, -1);
    if (m2.GetTiling(t.pv) == -1) return ge::GRAPH_FAILED;

    t.set_batch(b);
    t.set_seq(s);
    t.set_dim(d);
    t.set_rowsPerWorker(rpw);
    t.set_scale(1.0f / std::sqrt(static_cast<float>(d)));
    ctx->SetBlockDim(blocks);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + (size_t)blocks * 2 * rpw * s * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ScaledDotProductAttentionInferenceCustom : public OpDef {
public:
    explicit ScaledDotProductAttentionInferenceCustom(const char* name) : OpDef(name)
    {
        this->Input("q").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("k").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("o").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaledDotProductAttentionInferenceCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

using GmF = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using GmFT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using Mm1 = Matmul<GmF, GmFT, GmF, GmF>;
using Mm2 = Matmul<GmF, GmF, GmF, GmF>;

constexpr int32_t BUF = 2;

class KernelSdpa {
public:
    __aicore__ inline KernelSdpa() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, GM_ADDR usr,
                                const ScaledDotProductAttentionInferenceCustomTilingData& td, TPipe* p)
    {
        b = td.batch; s = td.seq; d = td.dim;
        rpw = td.rowsPerWorker;
        scale = td.scale;
        wid = GetBlockIdx();
        r0 = wid * rpw;
        nr = 0;
        if (r0 < s) nr = s - r0 < rpw ? s - r0 : rpw;
        qg.SetGlobalBuffer((__gm__ float*)q);
        kg.SetGlobalBuffer((__gm__ float*)k);
        vg.SetGlobalBuffer((__gm__ float*)v);
        og.SetGlobalBuffer((__gm__ float*)o);
        sg.SetGlobalBuffer((__gm__ float*)usr + (uint64_t)wid * rpw * s, (uint64_t)rpw * s);
        pipe = p;
        pipe->InitBuffer(qin, BUF, s * sizeof(float));
        pipe->InitBuffer(qout, BUF, s * sizeof(float));
        pipe->InitBuffer(wk, s * sizeof(float));
        pipe->InitBuffer(rd, 64 * sizeof(float));
    }
    __aicore__ inline void Process(Mm1& mm1, Mm2& mm2)
    {
        if (nr == 0) return;
        for (uint32_t bi = 0; bi < b; ++bi) {
            uint64_t qo = ((uint64_t)bi * s + r0) * d;
            uint64_t kvo = (uint64_t)bi * s * d;
            mm1.SetTail(nr, s, d);
            mm1.SetTensorA(qg[qo]);
            mm1.SetTensorB(kg[kvo], true);
            mm1.IterateAll(sg);
            mm1.End();
            PipeBarrier<PIPE_ALL>();
            for (uint32_t r = 0; r < nr; ++r) {
                CopyIn(r);
                Softmax();
                CopyOut(r);
            }
            PipeBarrier<PIPE_ALL>();
            mm2.SetTail(nr, d, s);
            mm2.SetTensorA(sg);
            mm2.SetTensorB(vg[kvo]);
            mm2.IterateAll(og[qo]);
            mm2.End();
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r)
    {
        LocalTensor<float> x = qin.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(s * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        DataCopyPad(x, sg[(uint64_t)r * s], cp, pd);
        qin.EnQue(x);
    }
    __aicore__ inline void Softmax()
    {
        LocalTensor<float> x = qin.DeQue<float>();
        LocalTensor<float> y = qout.AllocTensor<float>();
        LocalTensor<float> w = wk.Get<float>();
        LocalTensor<float> red = rd.Get<float>();
        Muls(y, x, scale, s);
        ReduceMax(red, y, w, s, false);
        event_t e0 = static_cast<event_t>(pipe->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e0);
        WaitFlag<HardEvent::V_S>(e0);
        float mx = red.GetValue(0);
        event_t e1 = static_cast<event_t>(pipe->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e1);
        WaitFlag<HardEvent::S_V>(e1);
        Adds(y, y, -mx, s);
        Exp(y, y, s);
        ReduceSum(red, y, w, s);
        event_t e2 = static_cast<event_t>(pipe->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e2);
        WaitFlag<HardEvent::V_S>(e2);
        float sm = red.GetValue(0);
        event_t e3 = static_cast<event_t>(pipe->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e3);
        WaitFlag<HardEvent::S_V>(e3);
        Muls(y, y, 1.0f / sm, s);
        qout.EnQue(y);
        qin.FreeTensor(x);
    }
    __aicore__ inline void CopyOut(uint32_t r)
    {
        LocalTensor<float> y = qout.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(s * sizeof(float)), 0, 0, 0};
        DataCopyPad(sg[(uint64_t)r * s], y, cp);
        qout.FreeTensor(y);
    }

    TPipe* pipe;
    TQue<TPosition::VECIN, BUF> qin;
    TQue<TPosition::VECOUT, BUF> qout;
    TBuf<TPosition::VECCALC> wk, rd;
    GlobalTensor<float> qg, kg, vg, og, sg;
    uint32_t b, s, d, rpw, wid, r0, nr;
    float scale;
};

extern "C" __global__ __aicore__ void scaled_dot_product_attention_inference_custom(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o,
                                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (usr == nullptr) return;
    TPipe pipe;
    Mm1 mm1;
    Mm2 mm2;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm1, &td.qk, mm2, &td.pv);
    KernelSdpa op;
    op.Init(q, k, v, o, usr, td, &pipe);
    op.Process(mm1, mm2);
}
"""

# python binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor scaled_dot_product_attention_inference_custom_impl_npu(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v)
{
    at::Tensor qc = q.contiguous();
    at::Tensor kc = k.contiguous();
    at::Tensor vc = v.contiguous();
    at::Tensor o = at::empty_like(qc);
    EXEC_NPU_CMD(aclnnScaledDotProductAttentionInferenceCustom, qc, kc, vc, o);
    return o;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("scaled_dot_product_attention_inference_custom", &scaled_dot_product_attention_inference_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scaled_dot_product_attention_inference_custom", &scaled_dot_product_attention_inference_custom_impl_npu, "sdpa");
}
"""

# model
model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, Q, K, V):
        return custom_ops_lib.scaled_dot_product_attention_inference_custom(Q, K, V)
'''

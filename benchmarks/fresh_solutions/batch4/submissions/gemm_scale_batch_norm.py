# project json
project_json_src='''
[
    {
        "op": "GemmScaleBatchNormCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "scale", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "beta", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

# tiling
host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmScaleBatchNormCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, colBlk);
  TILING_DATA_FIELD_DEF(uint32_t, rowTile);
  TILING_DATA_FIELD_DEF(uint32_t, nColBlk);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmScaleBatchNormCustom, GemmScaleBatchNormCustomTilingData)
}
"""

# host
host_operator_src="""
#include "gemm_scale_batch_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t COL_BLK = 64;
constexpr uint32_t ROW_TILE = 128;
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    GemmScaleBatchNormCustomTilingData td;
    auto s = ctx->GetInputShape(0)->GetStorageShape();
    uint32_t m = s.GetDim(0), n = s.GetDim(1);
    uint32_t ncb = (n + COL_BLK - 1) / COL_BLK;
    const float* eps = ctx->GetAttrs()->GetAttrPointer<float>(0);
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > ncb) cores = ncb;
    ctx->SetBlockDim(cores);
    td.set_m(m); td.set_n(n); td.set_colBlk(COL_BLK); td.set_rowTile(ROW_TILE); td.set_nColBlk(ncb);
    td.set_eps(eps == nullptr ? 1e-5f : *eps);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = 0;
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
class GemmScaleBatchNormCustom : public OpDef {
public:
    explicit GemmScaleBatchNormCustom(const char* name) : OpDef(name)
    {
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GemmScaleBatchNormCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

class KernelScaleBn {
public:
    __aicore__ inline KernelScaleBn() {}
    __aicore__ inline void Init(GM_ADDR y, GM_ADDR s, GM_ADDR g, GM_ADDR b, GM_ADDR o, const GemmScaleBatchNormCustomTilingData& td)
    {
        M = td.m; N = td.n; CB = td.colBlk; RT = td.rowTile; ncb = td.nColBlk; eps = td.eps;
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)M * N);
        oGm.SetGlobalBuffer((__gm__ float*)o, (uint64_t)M * N);
        sGm.SetGlobalBuffer((__gm__ float*)s, N);
        gGm.SetGlobalBuffer((__gm__ float*)g, N);
        bGm.SetGlobalBuffer((__gm__ float*)b, N);
        pipe.InitBuffer(inQ, 2, RT * CB * sizeof(float));
        pipe.InitBuffer(outQ, 2, RT * CB * sizeof(float));
        pipe.InitBuffer(sqB, RT * CB * sizeof(float));
        pipe.InitBuffer(vecB, 6 * CB * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t cb = GetBlockIdx(); cb < ncb; cb += GetBlockNum()) {
            uint32_t c0 = cb * CB;
            uint32_t cw = (N - c0) < CB ? (N - c0) : CB;
            Stats(c0, cw);
            Apply(c0, cw);
        }
    }

private:
    __aicore__ inline void Load(uint32_t r0, uint32_t rows, uint32_t c0, uint32_t cw)
    {
        LocalTensor<float> t = inQ.AllocTensor<float>();
        DataCopyExtParams cp{(uint16_t)rows, cw * (uint32_t)sizeof(float), (N - cw) * (uint32_t)sizeof(float),
                             (CB - cw) * (uint32_t)sizeof(float) / 32, 0};
        DataCopyPadExtParams<float> pp{true, 0, (uint8_t)((8 - cw % 8) % 8), 0.0f};
        DataCopyPad(t, yGm[(uint64_t)r0 * N + c0], cp, pp);
        inQ.EnQue(t);
    }
    __aicore__ inline void Fold(LocalTensor<float>& t, uint32_t rows)
    {
        while (rows > 1) {
            if (rows & 1) {
                Add(t, t, t[(rows - 1) * CB], CB);
                rows--;
            }
            uint32_t h = rows / 2;
            Add(t, t, t[h * CB], h * CB);
            rows = h;
        }
    }
    __aicore__ inline void Stats(uint32_t c0, uint32_t cw)
    {
        LocalTensor<float> v = vecB.Get<float>();
        LocalTensor<float> sum = v, ssq = v[CB], a = v[2 * CB], c = v[3 * CB], p = v[4 * CB], q = v[5 * CB];
        LocalTensor<float> sq = sqB.Get<float>();
        Duplicate(sum, 0.0f, 2 * CB);
        for (uint32_t r0 = 0; r0 < M; r0 += RT) {
            uint32_t rows = (M - r0) < RT ? (M - r0) : RT;
            Load(r0, rows, c0, cw);
            LocalTensor<float> t = inQ.DeQue<float>();
            Mul(sq, t, t, rows * CB);
            Fold(t, rows);
            Fold(sq, rows);
            Add(sum, sum, t, CB);
            Add(ssq, ssq, sq, CB);
            inQ.FreeTensor(t);
        }
        float invM = 1.0f / (float)M;
        Muls(sum, sum, invM, CB);
        Muls(ssq, ssq, invM, CB);
        Mul(p, sum, sum, CB);
        Sub(ssq, ssq, p, CB);
        DataCopyExtParams cp{1, cw * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(a, sGm[c0], cp, pp);
        DataCopyPad(c, gGm[c0], cp, pp);
        DataCopyPad(q, bGm[c0], cp, pp);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
        Mul(p, a, a, CB);
        Mul(p, p, ssq, CB);
        Adds(p, p, eps, CB);
        Sqrt(p, p, CB);
        Mul(a, a, c, CB);
        Div(a, a, p, CB);
        Mul(p, a, sum, CB);
        Sub(c, q, p, CB);
    }
    __aicore__ inline void Apply(uint32_t c0, uint32_t cw)
    {
        LocalTensor<float> v = vecB.Get<float>();
        LocalTensor<float> a = v[2 * CB], c = v[3 * CB];
        BinaryRepeatParams rp(1, 1, 1, 8, 8, 0);
        for (uint32_t r0 = 0; r0 < M; r0 += RT) {
            uint32_t rows = (M - r0) < RT ? (M - r0) : RT;
            Load(r0, rows, c0, cw);
            LocalTensor<float> t = inQ.DeQue<float>();
            LocalTensor<float> o = outQ.AllocTensor<float>();
            Mul(o, t, a, (uint64_t)CB, (uint8_t)rows, rp);
            Add(o, o, c, (uint64_t)CB, (uint8_t)rows, rp);
            outQ.EnQue(o);
            inQ.FreeTensor(t);
            o = outQ.DeQue<float>();
            DataCopyExtParams cp{(uint16_t)rows, cw * (uint32_t)sizeof(float), (CB - cw) * (uint32_t)sizeof(float) / 32,
                                 (N - cw) * (uint32_t)sizeof(float), 0};
            DataCopyPad(oGm[(uint64_t)r0 * N + c0], o, cp);
            outQ.FreeTensor(o);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<QuePosition::VECCALC> sqB, vecB;
    GlobalTensor<float> yGm, oGm, sGm, gGm, bGm;
    uint32_t M, N, CB, RT, ncb;
    float eps;
};

extern "C" __global__ __aicore__ void gemm_scale_batch_norm_custom(GM_ADDR y, GM_ADDR scale, GM_ADDR gamma, GM_ADDR beta,
                                                                   GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelScaleBn op;
    op.Init(y, scale, gamma, beta, out, td);
    op.Process();
}
"""

# binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor gemm_scale_batch_norm_custom_impl_npu(const at::Tensor& x, const at::Tensor& w, const at::Tensor& bias,
                                                 const at::Tensor& scale, const at::Tensor& gamma, const at::Tensor& beta, double eps)
{
    at::Tensor y = at::addmm(bias, x, w.t()).contiguous();
    at::Tensor out = at::empty_like(y);
    EXEC_NPU_CMD(aclnnGemmScaleBatchNormCustom, y, scale, gamma, beta, eps, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_scale_batch_norm_custom", &gemm_scale_batch_norm_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_scale_batch_norm_custom", &gemm_scale_batch_norm_custom_impl_npu, "");
}
"""

# model
model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, scale_shape, eps=1e-5, momentum=0.1):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.scale = nn.Parameter(torch.randn(scale_shape))
        self.bn = nn.BatchNorm1d(out_features, eps=eps, momentum=momentum)

    def forward(self, x):
        return custom_ops_lib.gemm_scale_batch_norm_custom(x, self.gemm.weight, self.gemm.bias, self.scale,
                                                           self.bn.weight, self.bn.bias, self.bn.eps)
'''

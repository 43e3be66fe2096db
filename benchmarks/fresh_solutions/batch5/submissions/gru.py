# project json
project_json_src='''
[
    {
        "op": "GruCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "gi", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "h0", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "w_hh", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b_hh", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

# host tiling
host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GruCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, seq);
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, hc);
  TILING_DATA_FIELD_DEF(uint32_t, passes);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GruCustom, GruCustomTilingData)
}
"""

# host operator
host_operator_src="""
#include "gru_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const gert::Shape& gs = ctx->GetInputShape(0)->GetStorageShape();
    uint32_t t = gs.GetDim(0), b = gs.GetDim(1);
    uint32_t h = gs.GetDim(2) / 3;
    if (h % 64 != 0) return ge::GRAPH_FAILED;
    uint32_t parts = h / 64;
    uint32_t ps = 0;
    while ((1u << ps) < parts) ps++;
    if ((1u << ps) != parts) return ge::GRAPH_FAILED;
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t hc = (h + cores - 1) / cores;
    hc = (hc + 7) / 8 * 8;
    if (3 * hc * parts > 255) return ge::GRAPH_FAILED;
    uint32_t blocks = (h + hc - 1) / hc;

    GruCustomTilingData td;
    td.set_seq(t);
    td.set_batch(b);
    td.set_hidden(h);
    td.set_hc(hc);
    td.set_passes(ps);
    ctx->SetBlockDim(blocks);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* g = ctx->GetInputShape(0);
    gert::Shape* y = ctx->GetOutputShape(0);
    *y = *g;
    y->SetDim(2, g->GetDim(2) / 3);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GruCustom : public OpDef {
public:
    explicit GruCustom(const char* name) : OpDef(name)
    {
        this->Input("gi").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h0").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("w_hh").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b_hh").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GruCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

class KernelGru {
public:
    __aicore__ inline KernelGru() {}
    __aicore__ inline void Init(GM_ADDR gi, GM_ADDR h0, GM_ADDR whh, GM_ADDR bhh, GM_ADDR y, const GruCustomTilingData& td)
    {
        T = td.seq; B = td.batch; H = td.hidden; hc = td.hc; ps = td.passes;
        j0 = GetBlockIdx() * hc;
        hl = H - j0 < hc ? H - j0 : hc;
        bh = B * hc;
        rows = 3 * hc;
        np = rows * (H / 64);
        gig.SetGlobalBuffer((__gm__ float*)gi);
        h0g.SetGlobalBuffer((__gm__ float*)h0);
        wg.SetGlobalBuffer((__gm__ float*)whh);
        bg.SetGlobalBuffer((__gm__ float*)bhh);
        yg.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(wb, rows * H * sizeof(float));
        pipe.InitBuffer(bb, rows * sizeof(float));
        pipe.InitBuffer(qh, 1, B * H * sizeof(float));
        pipe.InitBuffer(qg, 1, 3 * bh * sizeof(float));
        pipe.InitBuffer(qp, 1, bh * sizeof(float));
        pipe.InitBuffer(qo, 1, bh * sizeof(float));
        pipe.InitBuffer(pb, rows * H * sizeof(float));
        pipe.InitBuffer(rb0, (np + 64) * sizeof(float));
        pipe.InitBuffer(rb1, (np + 64) * sizeof(float));
        pipe.InitBuffer(ghb, 3 * bh * sizeof(float));
        pipe.InitBuffer(tb, 3 * bh * sizeof(float));
        LoadWeights();
    }
    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < T; ++t) {
            CopyIn(t);
            Step();
            CopyOut(t);
            PipeBarrier<PIPE_ALL>();
            SyncAll();
        }
    }

private:
    __aicore__ inline void LoadWeights()
    {
        LocalTensor<float> w = wb.Get<float>();
        LocalTensor<float> bs = bb.Get<float>();
        Duplicate(w, 0.0f, rows * H);
        Duplicate(bs, 0.0f, rows);
        PipeBarrier<PIPE_ALL>();
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        for (uint32_t g = 0; g < 3; ++g) {
            DataCopyExtParams cw{1, static_cast<uint32_t>(hl * H * sizeof(float)), 0, 0, 0};
            DataCopyPad(w[g * hc * H], wg[((uint64_t)g * H + j0) * H], cw, pd);
            DataCopyExtParams cb{1, static_cast<uint32_t>(hl * sizeof(float)), 0, 0, 0};
            DataCopyPad(bs[g * hc], bg[g * H + j0], cb, pd);
        }
        PipeBarrier<PIPE_ALL>();
    }
    __aicore__ inline void CopyIn(uint32_t t)
    {
        LocalTensor<float> ha = qh.AllocTensor<float>();
        LocalTensor<float> gl = qg.AllocTensor<float>();
        LocalTensor<float> hp = qp.AllocTensor<float>();
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        GlobalTensor<float> src = t == 0 ? h0g : yg[(uint64_t)(t - 1) * B * H];
        DataCopyExtParams ca{1, static_cast<uint32_t>(B * H * sizeof(float)), 0, 0, 0};
        DataCopyPad(ha, src, ca, pd);
        uint32_t lb = hl * sizeof(float);
        uint32_t gap = (hc * sizeof(float) - (lb + 31) / 32 * 32) / 32;
        DataCopyExtParams cs{static_cast<uint16_t>(B), lb, (H - hl) * (uint32_t)sizeof(float), gap, 0};
        DataCopyPad(hp, src[j0], cs, pd);
        DataCopyExtParams cg{static_cast<uint16_t>(B), lb, (3 * H - hl) * (uint32_t)sizeof(float), gap, 0};
        uint64_t go = (uint64_t)t * B * 3 * H + j0;
        for (uint32_t g = 0; g < 3; ++g) {
            DataCopyPad(gl[g * bh], gig[go + g * H], cg, pd);
        }
        qh.EnQue(ha);
        qg.EnQue(gl);
        qp.EnQue(hp);
    }
    __aicore__ inline void HiddenProj(const LocalTensor<float>& ha, const LocalTensor<float>& gh)
    {
        LocalTensor<float> w = wb.Get<float>();
        LocalTensor<float> bs = bb.Get<float>();
        LocalTensor<float> pr = pb.Get<float>();
        LocalTensor<float> r0 = rb0.Get<float>();
        LocalTensor<float> r1 = rb1.Get<float>();
        uint8_t rs = static_cast<uint8_t>(H / 8);
        BinaryRepeatParams rp{1, 1, 1, rs, rs, 0};
        for (uint32_t b = 0; b < B; ++b) {
            LocalTensor<float> hb = ha[b * H];
            for (uint32_t j = 0; j < H; j += 64) {
                Mul(pr[j], w[j], hb[j], 64, static_cast<uint8_t>(rows), rp);
            }
            WholeReduceSum(r0, pr, 64, static_cast<int32_t>(np), 1, 1, 8);
            uint32_t L = np;
            LocalTensor<float> s0 = r0;
            LocalTensor<float> s1 = r1;
            for (uint32_t k = 0; k < ps; ++k) {
                for (uint32_t off = 0; off < L; off += 64) {
                    int32_t m = L - off < 64 ? L - off : 64;
                    PairReduceSum(s1[off / 2], s0[off], 1, m, 1, 1, 8);
                }
                L /= 2;
                LocalTensor<float> tmp = s0;
                s0 = s1;
                s1 = tmp;
            }
            for (uint32_t g = 0; g < 3; ++g) {
                Add(gh[(g * B + b) * hc], s0[g * hc], bs[g * hc], hc);
            }
        }
    }
    __aicore__ inline void Step()
    {
        LocalTensor<float> ha = qh.DeQue<float>();
        LocalTensor<float> gl = qg.DeQue<float>();
        LocalTensor<float> hp = qp.DeQue<float>();
        LocalTensor<float> o = qo.AllocTensor<float>();
        LocalTensor<float> gh = ghb.Get<float>();
        LocalTensor<float> tt = tb.Get<float>();
        HiddenProj(ha, gh);
        uint32_t n2 = 2 * bh;
        Add(tt, gl, gh, n2);
        Muls(tt, tt, -1.0f, n2);
        Exp(tt, tt, n2);
        Adds(tt, tt, 1.0f, n2);
        Reciprocal(tt, tt, n2);
        LocalTensor<float> r = tt;
        LocalTensor<float> z = tt[bh];
        LocalTensor<float> nv = tt[n2];
        Mul(nv, r, gh[n2], bh);
        Add(nv, nv, gl[n2], bh);
        Mins(nv, nv, 15.0f, bh);
        Maxs(nv, nv, -15.0f, bh);
        Muls(nv, nv, -2.0f, bh);
        Exp(nv, nv, bh);
        Adds(o, nv, 1.0f, bh);
        Muls(nv, nv, -1.0f, bh);
        Adds(nv, nv, 1.0f, bh);
        Div(nv, nv, o, bh);
        Sub(o, hp, nv, bh);
        Mul(o, o, z, bh);
        Add(o, o, nv, bh);
        qo.EnQue(o);
        qh.FreeTensor(ha);
        qg.FreeTensor(gl);
        qp.FreeTensor(hp);
    }
    __aicore__ inline void CopyOut(uint32_t t)
    {
        LocalTensor<float> o = qo.DeQue<float>();
        uint32_t lb = hl * sizeof(float);
        uint32_t gap = (hc * sizeof(float) - (lb + 31) / 32 * 32) / 32;
        DataCopyExtParams co{static_cast<uint16_t>(B), lb, gap, (H - hl) * (uint32_t)sizeof(float), 0};
        DataCopyPad(yg[(uint64_t)t * B * H + j0], o, co);
        qo.FreeTensor(o);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> qh, qg, qp;
    TQue<TPosition::VECOUT, 1> qo;
    TBuf<TPosition::VECCALC> wb, bb, pb, rb0, rb1, ghb, tb;
    GlobalTensor<float> gig, h0g, wg, bg, yg;
    uint32_t T, B, H, hc, ps, j0, hl, bh, rows, np;
};

extern "C" __global__ __aicore__ void gru_custom(GM_ADDR gi, GM_ADDR h0, GM_ADDR w_hh, GM_ADDR b_hh, GM_ADDR y,
                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelGru op;
    op.Init(gi, h0, w_hh, b_hh, y, td);
    op.Process();
}
"""

# python binding
python_bind_src="""
#include <vector>
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor gru_custom_impl_npu(const at::Tensor& x, const at::Tensor& h0, const std::vector<at::Tensor>& w_ih,
                               const std::vector<at::Tensor>& w_hh, const std::vector<at::Tensor>& b_ih,
                               const std::vector<at::Tensor>& b_hh, bool batch_first)
{
    at::Tensor cur = batch_first ? x.transpose(0, 1).contiguous() : x.contiguous();
    int64_t T = cur.size(0), B = cur.size(1);
    for (size_t l = 0; l < w_ih.size(); ++l) {
        int64_t H = w_hh[l].size(1);
        at::Tensor gi = at::addmm(b_ih[l], cur.reshape({T * B, cur.size(2)}), w_ih[l].t()).view({T, B, 3 * H}).contiguous();
        at::Tensor hl = h0.select(0, l).contiguous();
        at::Tensor wh = w_hh[l].contiguous();
        at::Tensor bh = b_hh[l].contiguous();
        at::Tensor y = at::empty({T, B, H}, cur.options());
        EXEC_NPU_CMD(aclnnGruCustom, gi, hl, wh, bh, y);
        cur = y;
    }
    return batch_first ? cur.transpose(0, 1).contiguous() : cur;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gru_custom", &gru_custom_impl_npu, "multi-layer gru");
}
"""

# model
model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers=3, bias=True, batch_first=False):
        super().__init__()
        self.gru = nn.GRU(input_size, hidden_size, num_layers, bias, batch_first, dropout=0, bidirectional=False)
        self.num_layers = num_layers
        self.hidden_size = hidden_size
        self.batch_first = batch_first

    def forward(self, x, h0):
        wi, wh, bi, bh = [], [], [], []
        for l in range(self.num_layers):
            wi.append(getattr(self.gru, f"weight_ih_l{l}"))
            wh.append(getattr(self.gru, f"weight_hh_l{l}"))
            if self.gru.bias:
                bi.append(getattr(self.gru, f"bias_ih_l{l}"))
                bh.append(getattr(self.gru, f"bias_hh_l{l}"))
            else:
                z = torch.zeros(3 * self.hidden_size, device=x.device, dtype=x.dtype)
                bi.append(z)
                bh.append(z)
        return custom_ops_lib.gru_custom(x, h0.to(x.device), wi, wh, bi, bh, self.batch_first)
'''

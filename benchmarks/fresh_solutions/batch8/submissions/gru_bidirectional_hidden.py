project_json_src='''
[
    {
        "op": "BiGruLayerScanCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "gates_x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "w_hh_t", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b_hh", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "h0", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "h_last", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BiGruLayerScanTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, steps);
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, wRowsPerLoad);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BiGruLayerScanCustom, BiGruLayerScanTilingData)
}
"""

host_operator_src="""
#include "bi_gru_layer_scan_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    // gates_x: [2, T, B, 3H]
    auto gx = context->GetInputShape(0)->GetStorageShape();
    uint32_t T = gx.GetDim(1);
    uint32_t B = gx.GetDim(2);
    uint32_t H = gx.GetDim(3) / 3;

    // stream W_hh^T in slabs of rows; keep a slab near 48KB
    uint32_t rowBytes = 3 * H * sizeof(float);
    uint32_t rowsPerLoad = (48 * 1024) / rowBytes;
    if (rowsPerLoad == 0) rowsPerLoad = 1;
    if (rowsPerLoad > H) rowsPerLoad = H;

    BiGruLayerScanTilingData td;
    td.set_steps(T);
    td.set_batch(B);
    td.set_hidden(H);
    td.set_wRowsPerLoad(rowsPerLoad);

    // one core per (direction, batch row): the recurrences are independent
    context->SetBlockDim(2 * B);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* gx = context->GetInputShape(0);
    const gert::Shape* h0 = context->GetInputShape(3);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(3);
    y->SetDim(0, gx->GetDim(1));
    y->SetDim(1, gx->GetDim(2));
    y->SetDim(2, 2 * (gx->GetDim(3) / 3));
    *context->GetOutputShape(1) = *h0;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    context->SetOutputDataType(1, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class BiGruLayerScanCustom : public OpDef {
public:
    explicit BiGruLayerScanCustom(const char* name) : OpDef(name)
    {
        this->Input("gates_x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("w_hh_t").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b_hh").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h0").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("h_last").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BiGruLayerScanCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline float Sigm(float v) { return 1.0f / (1.0f + expf(-v)); }

class BiGruLayerScan {
public:
    __aicore__ inline BiGruLayerScan() {}
    __aicore__ inline void Init(GM_ADDR gx, GM_ADDR whhT, GM_ADDR bhh, GM_ADDR h0, GM_ADDR y, GM_ADDR hLast,
                                const BiGruLayerScanTilingData& td)
    {
        T = td.steps; B = td.batch; H = td.hidden; slab = td.wRowsPerLoad;
        G = 3 * H;
        dir = GetBlockIdx() / B;
        bi = GetBlockIdx() % B;

        gxGm.SetGlobalBuffer((__gm__ float*)gx + (uint64_t)dir * T * B * G);
        wGm.SetGlobalBuffer((__gm__ float*)whhT + (uint64_t)dir * H * G);
        bGm.SetGlobalBuffer((__gm__ float*)bhh + (uint64_t)dir * G);
        h0Gm.SetGlobalBuffer((__gm__ float*)h0 + ((uint64_t)dir * B + bi) * H);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        hnGm.SetGlobalBuffer((__gm__ float*)hLast + ((uint64_t)dir * B + bi) * H);

        pipe.InitBuffer(wQue, 2, slab * G * sizeof(float));
        pipe.InitBuffer(gxQue, 2, G * sizeof(float));
        pipe.InitBuffer(hOutQue, 2, H * sizeof(float));
        pipe.InitBuffer(accBuf, G * sizeof(float));
        pipe.InitBuffer(tmpBuf, G * sizeof(float));
        pipe.InitBuffer(biasBuf, G * sizeof(float));
        pipe.InitBuffer(stateBuf, H * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> bias = biasBuf.Get<float>();
        LocalTensor<float> h = stateBuf.Get<float>();
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(bias, bGm, DataCopyExtParams{1, (uint32_t)(G * sizeof(float)), 0, 0, 0}, pad);
        DataCopyPad(h, h0Gm, DataCopyExtParams{1, (uint32_t)(H * sizeof(float)), 0, 0, 0}, pad);
        PipeBarrier<PIPE_ALL>();

        for (uint32_t s = 0; s < T; ++s) {
            uint32_t t = dir == 0 ? s : T - 1 - s;
            Step(t, h, bias);
        }

        LocalTensor<float> fin = hOutQue.AllocTensor<float>();
        for (uint32_t j = 0; j < H; ++j) fin.SetValue(j, h.GetValue(j));
        SyncScalarToMte3();
        DataCopyPad(hnGm, fin, DataCopyExtParams{1, (uint32_t)(H * sizeof(float)), 0, 0, 0});
        hOutQue.FreeTensor(fin);
    }

private:
    __aicore__ inline void SyncScalarToMte3()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(e);
        WaitFlag<HardEvent::S_MTE3>(e);
    }

    __aicore__ inline void Step(uint32_t t, LocalTensor<float>& h, LocalTensor<float>& bias)
    {
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};

        LocalTensor<float> gxRow = gxQue.AllocTensor<float>();
        DataCopyPad(gxRow, gxGm[((uint64_t)t * B + bi) * G], DataCopyExtParams{1, (uint32_t)(G * sizeof(float)), 0, 0, 0}, pad);
        gxQue.EnQue(gxRow);

        // gh = b_hh + sum_k h[k] * W_hh^T[k, :]
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        Adds(acc, bias, 0.0f, G);
        for (uint32_t k0 = 0; k0 < H; k0 += slab) {
            uint32_t nr = H - k0 < slab ? H - k0 : slab;
            LocalTensor<float> w = wQue.AllocTensor<float>();
            DataCopyPad(w, wGm[(uint64_t)k0 * G], DataCopyExtParams{(uint16_t)nr, (uint32_t)(G * sizeof(float)), 0, 0, 0}, pad);
            wQue.EnQue(w);
            w = wQue.DeQue<float>();
            for (uint32_t kk = 0; kk < nr; ++kk) {
                float hk = h.GetValue(k0 + kk);
                Muls(tmp, w[kk * G], hk, G);
                Add(acc, acc, tmp, G);
            }
            wQue.FreeTensor(w);
        }

        gxRow = gxQue.DeQue<float>();
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);

        LocalTensor<float> ho = hOutQue.AllocTensor<float>();
        for (uint32_t j = 0; j < H; ++j) {
            float r = Sigm(gxRow.GetValue(j) + acc.GetValue(j));
            float z = Sigm(gxRow.GetValue(H + j) + acc.GetValue(H + j));
            float n = tanhf(gxRow.GetValue(2 * H + j) + r * acc.GetValue(2 * H + j));
            float hn = (1.0f - z) * n + z * h.GetValue(j);
            ho.SetValue(j, hn);
        }
        for (uint32_t j = 0; j < H; ++j) {
            h.SetValue(j, ho.GetValue(j));
        }
        gxQue.FreeTensor(gxRow);

        SyncScalarToMte3();
        uint64_t dst = ((uint64_t)t * B + bi) * 2 * H + (uint64_t)dir * H;
        DataCopyPad(yGm[dst], ho, DataCopyExtParams{1, (uint32_t)(H * sizeof(float)), 0, 0, 0});
        hOutQue.FreeTensor(ho);

        event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e2);
        WaitFlag<HardEvent::S_V>(e2);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> wQue, gxQue;
    TQue<QuePosition::VECOUT, 2> hOutQue;
    TBuf<TPosition::VECCALC> accBuf, tmpBuf, biasBuf, stateBuf;
    GlobalTensor<float> gxGm, wGm, bGm, h0Gm, yGm, hnGm;
    uint32_t T, B, H, G, slab, dir, bi;
};

extern "C" __global__ __aicore__ void bi_gru_layer_scan_custom(GM_ADDR gates_x, GM_ADDR w_hh_t, GM_ADDR b_hh, GM_ADDR h0,
                                                               GM_ADDR y, GM_ADDR h_last, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    BiGruLayerScan op;
    op.Init(gates_x, w_hh_t, b_hh, h0, y, h_last, td);
    op.Process();
}
"""

python_bind_src="""
#include <vector>
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// one bidirectional layer: gates_x [2,T,B,3H], w_hh_t [2,H,3H], b_hh [2,3H], h0 [2,B,H]
std::vector<at::Tensor> bi_gru_layer_scan_impl_npu(const at::Tensor& gx, const at::Tensor& whhT,
                                                   const at::Tensor& bhh, const at::Tensor& h0)
{
    int64_t T = gx.size(1), B = gx.size(2), H = gx.size(3) / 3;
    at::Tensor y = at::empty({T, B, 2 * H}, gx.options());
    at::Tensor hLast = at::empty({2, B, H}, gx.options());
    EXEC_NPU_CMD(aclnnBiGruLayerScanCustom, gx, whhT, bhh, h0, y, hLast);
    return {y, hLast};
}

// stacked bidirectional GRU returning h_n.
// weights follow nn.GRU._flat_weights: per layer, per direction: w_ih, w_hh, b_ih, b_hh
at::Tensor bi_gru_final_hidden_npu(const at::Tensor& x, const at::Tensor& h0,
                                   std::vector<at::Tensor> weights, int64_t numLayers)
{
    at::Tensor layerIn = x.contiguous();
    std::vector<at::Tensor> finals;
    for (int64_t l = 0; l < numLayers; ++l) {
        std::vector<at::Tensor> gxs, whs, bhs;
        for (int64_t d = 0; d < 2; ++d) {
            int64_t base = (l * 2 + d) * 4;
            const at::Tensor& wih = weights[base];
            const at::Tensor& whh = weights[base + 1];
            const at::Tensor& bih = weights[base + 2];
            const at::Tensor& bh = weights[base + 3];
            // input projection for all steps at once on the cube
            gxs.push_back(at::linear(layerIn, wih, bih));
            whs.push_back(whh.t());
            bhs.push_back(bh);
        }
        at::Tensor gx = at::stack(gxs, 0).contiguous();
        at::Tensor whhT = at::stack(whs, 0).contiguous();
        at::Tensor bhh = at::stack(bhs, 0).contiguous();
        at::Tensor hInit = h0.narrow(0, 2 * l, 2).contiguous();
        auto res = bi_gru_layer_scan_impl_npu(gx, whhT, bhh, hInit);
        layerIn = res[0];
        finals.push_back(res[1]);
    }
    return at::cat(finals, 0);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bi_gru_layer_scan_custom", &bi_gru_layer_scan_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bi_gru_layer_scan_custom", &bi_gru_layer_scan_impl_npu, "one bidirectional GRU layer recurrence");
    m.def("bi_gru_final_hidden", &bi_gru_final_hidden_npu, "stacked bidirectional GRU, returns h_n");
}
"""

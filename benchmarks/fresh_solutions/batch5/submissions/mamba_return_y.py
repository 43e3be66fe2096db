project_json_src='''
[
    {
        "op": "MambaReturnYCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "a", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "c", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "block_len", "param_type": "optional", "type": "int", "default_value": "64"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MambaReturnYCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, nHeads);
  TILING_DATA_FIELD_DEF(uint32_t, dHead);
  TILING_DATA_FIELD_DEF(uint32_t, dState);
  TILING_DATA_FIELD_DEF(uint32_t, blockLen);
  TILING_DATA_FIELD_DEF(uint32_t, nChunks);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MambaReturnYCustom, MambaReturnYCustomTilingData)
}
"""

host_operator_src="""
#include "mamba_return_y_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MambaReturnYCustomTilingData td;
    auto xs = context->GetInputShape(0)->GetStorageShape();   // [b, T, h, p]
    auto bs = context->GetInputShape(2)->GetStorageShape();   // [b, T, h, n]
    uint32_t blockLen = (uint32_t)*context->GetAttrs()->GetAttrPointer<int64_t>(0);
    uint32_t T = xs.GetDim(1);
    uint32_t p = xs.GetDim(3);
    uint32_t n = bs.GetDim(3);
    if (blockLen == 0 || T % blockLen != 0 || p % 8 != 0 || n % 8 != 0 || blockLen % 8 != 0) {
        return ge::GRAPH_FAILED;
    }
    td.set_batch(xs.GetDim(0));
    td.set_seqLen(T);
    td.set_nHeads(xs.GetDim(2));
    td.set_dHead(p);
    td.set_dState(n);
    td.set_blockLen(blockLen);
    td.set_nChunks(T / blockLen);
    td.set_totalUnits(xs.GetDim(0) * xs.GetDim(2));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    context->SetBlockDim(plat.GetCoreNumAiv());
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MambaReturnYCustom : public OpDef {
public:
    explicit MambaReturnYCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("block_len").AttrType(OPTIONAL).Int(64);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MambaReturnYCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t MAX_L = 128;
constexpr float NEG_BIG = -1.0e30f;

// SSD chunked scan, one (batch, head) per unit, chunks walked in order with the state
// kept in UB as St[n][p]:
//   Y_diag[l] = sum_{s<=l} (C_l . B_s) exp(cum_l - cum_s) X_s
//   Y_off[l]  = exp(cum_l) * sum_n C[l,n] St[n]
//   St       <- exp(cum_last) St + sum_l B[l,n] exp(cum_last - cum_l) X_l
class KernelMambaY {
public:
    __aicore__ inline KernelMambaY() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR y,
                                const MambaReturnYCustomTilingData& td)
    {
        t = td;
        L = t.blockLen; P = t.dHead; N = t.dState;
        xGm.SetGlobalBuffer((__gm__ float*)x);
        aGm.SetGlobalBuffer((__gm__ float*)a);
        bGm.SetGlobalBuffer((__gm__ float*)b);
        cGm.SetGlobalBuffer((__gm__ float*)c);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(xQ, 1, L * P * sizeof(float));
        pipe.InitBuffer(bcQ, 1, 2 * L * N * sizeof(float));
        pipe.InitBuffer(yQ, 1, L * P * sizeof(float));
        pipe.InitBuffer(mBuf, L * L * sizeof(float));      // decayed C.B^T
        pipe.InitBuffer(maskBuf, L * L * sizeof(float));   // 0 / -big causal bias
        pipe.InitBuffer(stBuf, N * P * sizeof(float));
        pipe.InitBuffer(cumBuf, 4 * L * sizeof(float));
        pipe.InitBuffer(tmpBuf, L * N * sizeof(float));

        LocalTensor<float> mask = maskBuf.Get<float>();
        for (uint32_t l = 0; l < L; ++l) {
            for (uint32_t s = 0; s < L; ++s) {
                mask.SetValue(l * L + s, s <= l ? 0.0f : NEG_BIG);
            }
        }
        SyncSV();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = GetBlockIdx(); u < t.totalUnits; u += GetBlockNum()) {
            uint32_t bi = u / t.nHeads;
            uint32_t hi = u % t.nHeads;
            LocalTensor<float> st = stBuf.Get<float>();
            Duplicate(st, 0.0f, N * P);
            for (uint32_t ch = 0; ch < t.nChunks; ++ch) {
                Chunk(bi, hi, ch);
            }
        }
    }

private:
    __aicore__ inline void SyncSV()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }
    __aicore__ inline void SyncVS()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }

    __aicore__ inline void Chunk(uint32_t bi, uint32_t hi, uint32_t ch)
    {
        uint64_t t0 = (uint64_t)bi * t.seqLen + (uint64_t)ch * L;   // first timestep of the chunk
        uint32_t H = t.nHeads;

        // ---- loads ----
        LocalTensor<float> xl = xQ.AllocTensor<float>();
        DataCopyExtParams cx{(uint16_t)L, (uint32_t)(P * sizeof(float)), (uint32_t)((H - 1) * P * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyPad(xl, xGm[(t0 * H + hi) * P], cx, np);
        xQ.EnQue(xl);

        LocalTensor<float> bc = bcQ.AllocTensor<float>();
        DataCopyExtParams cb{(uint16_t)L, (uint32_t)(N * sizeof(float)), (uint32_t)((H - 1) * N * sizeof(float)), 0, 0};
        DataCopyPad(bc, bGm[(t0 * H + hi) * N], cb, np);
        DataCopyPad(bc[L * N], cGm[(t0 * H + hi) * N], cb, np);
        bcQ.EnQue(bc);

        // cumulative A on the scalar unit
        LocalTensor<float> cum = cumBuf.Get<float>();
        float run = 0.0f;
        for (uint32_t l = 0; l < L; ++l) {
            run += aGm.GetValue((t0 + l) * H + hi);
            cumArr[l] = run;
            cum.SetValue(l, run);
        }
        float cumLast = run;
        SyncSV();
        LocalTensor<float> expCum = cum[L];       // exp(cum_l)
        LocalTensor<float> decay = cum[2 * L];    // exp(cum_last - cum_l)
        Exp(expCum, cum, L);
        Muls(decay, cum, -1.0f, L);
        Adds(decay, decay, cumLast, L);
        Exp(decay, decay, L);
        LocalTensor<float> lastBuf = cum[3 * L];
        Duplicate(lastBuf, cumLast, 8);
        Exp(lastBuf, lastBuf, 8);

        xl = xQ.DeQue<float>();
        bc = bcQ.DeQue<float>();
        LocalTensor<float> Bm = bc;
        LocalTensor<float> Cm = bc[L * N];

        // ---- M[l, s] = (C_l . B_s) * exp(cum_l - cum_s), causal ----
        LocalTensor<float> M = mBuf.Get<float>();
        LocalTensor<float> mask = maskBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        uint8_t repStr = (uint8_t)(N * sizeof(float) / 32);
        for (uint32_t l = 0; l < L; ++l) {
            // tmp[s, :] = B[s, :] * C[l, :]
            Mul(tmp, Bm, Cm[l * N], (uint64_t)N, (uint8_t)L, {1, 1, 1, repStr, repStr, 0});
            // row sums -> M[l, :]
            WholeReduceSum(M[l * L], tmp, (int32_t)N, (int32_t)L, 1, 1, repStr);
        }
        for (uint32_t l = 0; l < L; ++l) {
            LocalTensor<float> seg = tmp[0];
            Duplicate(seg, cumArr[l], L);
            Sub(seg, seg, cum, L);
            Add(seg, seg, mask[l * L], L);
            Exp(seg, seg, L);
            Mul(M[l * L], M[l * L], seg, L);
        }

        LocalTensor<float> yl = yQ.AllocTensor<float>();
        Duplicate(yl, 0.0f, L * P);
        SyncVS();
        // MTE2 data (B, C) is read by the scalar unit below
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);

        // ---- diagonal block ----
        for (uint32_t l = 0; l < L; ++l) {
            for (uint32_t s = 0; s <= l; ++s) {
                Axpy(yl[l * P], xl[s * P], M.GetValue(l * L + s), P);
            }
        }
        // ---- carried state -> output ----
        LocalTensor<float> st = stBuf.Get<float>();
        if (ch > 0) {
            for (uint32_t l = 0; l < L; ++l) {
                float ec = expCum.GetValue(l);
                for (uint32_t n = 0; n < N; ++n) {
                    Axpy(yl[l * P], st[n * P], Cm.GetValue(l * N + n) * ec, P);
                }
            }
        }
        // ---- state update ----
        Muls(st, st, lastBuf.GetValue(0), N * P);
        for (uint32_t l = 0; l < L; ++l) {
            float d = decay.GetValue(l);
            for (uint32_t n = 0; n < N; ++n) {
                Axpy(st[n * P], xl[l * P], Bm.GetValue(l * N + n) * d, P);
            }
        }
        xQ.FreeTensor(xl);
        bcQ.FreeTensor(bc);

        yQ.EnQue(yl);
        yl = yQ.DeQue<float>();
        DataCopyExtParams cy{(uint16_t)L, (uint32_t)(P * sizeof(float)), 0, (uint32_t)((H - 1) * P * sizeof(float)), 0};
        DataCopyPad(yGm[(t0 * H + hi) * P], yl, cy);
        yQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> xQ, bcQ;
    TQue<QuePosition::VECOUT, 1> yQ;
    TBuf<TPosition::VECCALC> mBuf, maskBuf, stBuf, cumBuf, tmpBuf;
    GlobalTensor<float> xGm, aGm, bGm, cGm, yGm;
    MambaReturnYCustomTilingData t;
    float cumArr[MAX_L];
    uint32_t L, P, N;
};

extern "C" __global__ __aicore__ void mamba_return_y_custom(GM_ADDR x, GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                            GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelMambaY op;
    op.Init(x, a, b, c, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// X: [b, T, h, p], A: [b, T, h], B/C: [b, T, h, n]; returns Y like X (zero initial state)
at::Tensor mamba_return_y_impl_npu(const at::Tensor& x, const at::Tensor& a, const at::Tensor& b,
                                   const at::Tensor& c, int64_t block_len)
{
    TORCH_CHECK(x.size(1) % block_len == 0, "seq_length must be divisible by block_len");
    at::Tensor y = at::empty_like(x);
    EXEC_NPU_CMD(aclnnMambaReturnYCustom, x, a, b, c, block_len, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mamba_return_y_custom", &mamba_return_y_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mamba_return_y_custom", &mamba_return_y_impl_npu, "Mamba2 SSD chunked scan, returns Y",
          py::arg("x"), py::arg("a"), py::arg("b"), py::arg("c"), py::arg("block_len") = 64);
}
"""

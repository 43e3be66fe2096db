project_json_src='''
[
    {
        "op": "StridedAtrousConv1dCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x_phase", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "dilation", "param_type": "required", "type": "int"},
            {"name": "out_len", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(StridedAtrousConv1dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, stride);       // number of phases in x_phase
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, phaseLen);     // elements per phase row
  TILING_DATA_FIELD_DEF(uint32_t, outLen);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // output positions per tile (32B multiple)
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);      // output channels accumulated together
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, coBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsTail);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(StridedAtrousConv1dCustom, StridedAtrousConv1dTilingData)
}
"""

host_operator_src="""
#include "strided_atrous_conv1d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t TILE_LEN = 512;
constexpr uint64_t UB_USABLE = 176 * 1024;

// Largest co block whose accumulators, out staging and weight slice fit next to the tap buffers.
uint32_t PickCoBlock(uint32_t cout, uint32_t cin, uint32_t k, uint32_t tileLen, uint32_t elem)
{
    uint64_t taps = (uint64_t)k * tileLen * (2 * elem + sizeof(float));
    for (uint32_t cb = 32; cb > 1; cb /= 2) {
        if (cb > cout) continue;
        uint64_t need = taps + (uint64_t)cb * tileLen * (sizeof(float) + 2 * elem) +
                        (uint64_t)cb * cin * k * sizeof(float) + (uint64_t)cb * cin * k * elem + 1024;
        if (need <= UB_USABLE) return cb;
    }
    return 1;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    StridedAtrousConv1dTilingData td;
    auto xs = context->GetInputShape(0)->GetStorageShape();   // [B, Ci, stride, phaseLen]
    auto ws = context->GetInputShape(1)->GetStorageShape();   // [Co, Ci, K]
    auto attrs = context->GetAttrs();
    uint32_t dil = static_cast<uint32_t>(*attrs->GetInt(0));
    uint32_t outLen = static_cast<uint32_t>(*attrs->GetInt(1));
    uint32_t B = xs.GetDim(0), ci = xs.GetDim(1), st = xs.GetDim(2), pl = xs.GetDim(3);
    uint32_t co = ws.GetDim(0), k = ws.GetDim(2);
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elem = dt == ge::DT_FLOAT16 ? 2 : 4;

    uint32_t tileLen = outLen < TILE_LEN ? (outLen + 15) / 16 * 16 : TILE_LEN;
    uint32_t cb = PickCoBlock(co, ci, k, tileLen, elem);
    uint32_t tilesPerRow = (outLen + tileLen - 1) / tileLen;
    uint32_t coBlocks = (co + cb - 1) / cb;
    uint64_t units = (uint64_t)B * tilesPerRow * coBlocks;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t used = units < cores ? static_cast<uint32_t>(units) : cores;

    td.set_batch(B);
    td.set_cin(ci);
    td.set_cout(co);
    td.set_kernel(k);
    td.set_stride(st);
    td.set_dilation(dil);
    td.set_phaseLen(pl);
    td.set_outLen(outLen);
    td.set_tileLen(tileLen);
    td.set_coBlock(cb);
    td.set_tilesPerRow(tilesPerRow);
    td.set_coBlocks(coBlocks);
    td.set_unitsPerCore(static_cast<uint32_t>(units / used));
    td.set_unitsTail(static_cast<uint32_t>(units % used));

    context->SetBlockDim(used);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    const int64_t* outLen = context->GetAttrs()->GetInt(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(3);
    y->SetDim(0, xs->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, *outLen);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class StridedAtrousConv1dCustom : public OpDef {
public:
    explicit StridedAtrousConv1dCustom(const char* name) : OpDef(name)
    {
        this->Input("x_phase").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dilation").Int();
        this->Attr("out_len").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(StridedAtrousConv1dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
__aicore__ inline void Widen(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
{
    if constexpr (std::is_same<T, float>::value) {
        DataCopy(dst, src, n);
    } else {
        Cast(dst, src, RoundMode::CAST_NONE, n);
    }
}

template <typename T>
__aicore__ inline void Narrow(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n)
{
    if constexpr (std::is_same<T, float>::value) {
        DataCopy(dst, src, n);
    } else {
        Cast(dst, src, RoundMode::CAST_ROUND, n);
    }
}

// Where tap k reads from in the phase-split input: x[s*t + d*k] == phase[(d*k)%s][t + (d*k)/s].
struct TapAddress {
    uint32_t phase;
    uint32_t shift;
};

__aicore__ inline TapAddress LocateTap(uint32_t k, uint32_t stride, uint32_t dilation)
{
    uint32_t p = dilation * k;
    return TapAddress{p % stride, p / stride};
}

template <typename T>
class StridedAtrousConv1d {
public:
    __aicore__ inline StridedAtrousConv1d() {}
    __aicore__ inline void Init(GM_ADDR xs, GM_ADDR w, GM_ADDR y, const StridedAtrousConv1dTilingData& td)
    {
        ci_ = td.cin;
        co_ = td.cout;
        k_ = td.kernel;
        stride_ = td.stride;
        dil_ = td.dilation;
        phaseLen_ = td.phaseLen;
        outLen_ = td.outLen;
        tileLen_ = td.tileLen;
        cb_ = td.coBlock;
        tilesPerRow_ = td.tilesPerRow;
        coBlocks_ = td.coBlocks;
        uint32_t bid = GetBlockIdx();
        unitCnt_ = td.unitsPerCore + (bid < td.unitsTail ? 1 : 0);
        unit0_ = bid * td.unitsPerCore + (bid < td.unitsTail ? bid : td.unitsTail);

        xGm_.SetGlobalBuffer((__gm__ T*)xs);
        wGm_.SetGlobalBuffer((__gm__ T*)w);
        yGm_.SetGlobalBuffer((__gm__ T*)y);

        wSlice_ = cb_ * ci_ * k_;
        pipe_.InitBuffer(tapQ_, BUFFER_NUM, k_ * tileLen_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, cb_ * tileLen_ * sizeof(T));
        pipe_.InitBuffer(wQ_, 1, (wSlice_ * sizeof(T) + 31) / 32 * 32);
        pipe_.InitBuffer(tapF_, k_ * tileLen_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, cb_ * tileLen_ * sizeof(float));
        pipe_.InitBuffer(wF_, (wSlice_ * sizeof(float) + 31) / 32 * 32);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = 0; u < unitCnt_; ++u) {
            uint32_t id = unit0_ + u;
            uint32_t cbIdx = id % coBlocks_;
            uint32_t tile = (id / coBlocks_) % tilesPerRow_;
            uint32_t b = id / coBlocks_ / tilesPerRow_;
            uint32_t c0 = cbIdx * cb_;
            uint32_t nc = co_ - c0 < cb_ ? co_ - c0 : cb_;
            uint32_t t0 = tile * tileLen_;
            uint32_t vt = outLen_ - t0 < tileLen_ ? outLen_ - t0 : tileLen_;
            if (id == unit0_ || cbIdx != lastCb_) {
                LoadWeights(c0, nc);
                lastCb_ = cbIdx;
            }
            LocalTensor<float> acc = accBuf_.Get<float>();
            Duplicate(acc, 0.0f, cb_ * tileLen_);
            for (uint32_t c = 0; c < ci_; ++c) {
                LoadTaps(b, c, t0, vt);
                Accumulate(c, nc);
            }
            StoreTile(b, c0, nc, t0, vt);
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t c0, uint32_t nc)
    {
        LocalTensor<T> wt = wQ_.AllocTensor<T>();
        DataCopyExtParams cp{1, (uint32_t)(nc * ci_ * k_ * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(wt, wGm_[(uint64_t)c0 * ci_ * k_], cp, pad);
        wQ_.EnQue(wt);
        wt = wQ_.DeQue<T>();
        LocalTensor<float> wf = wF_.Get<float>();
        Widen(wf, wt, (nc * ci_ * k_ + 15) / 16 * 16);
        wQ_.FreeTensor(wt);
        // weights are consumed as scalars
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }

    __aicore__ inline void LoadTaps(uint32_t b, uint32_t c, uint32_t t0, uint32_t vt)
    {
        LocalTensor<T> taps = tapQ_.AllocTensor<T>();
        uint64_t rowBase = ((uint64_t)b * ci_ + c) * stride_ * phaseLen_;
        DataCopyExtParams cp{1, (uint32_t)(vt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        for (uint32_t k = 0; k < k_; ++k) {
            TapAddress a = LocateTap(k, stride_, dil_);
            // GM start is unaligned in general; DataCopyPad handles it
            DataCopyPad(taps[k * tileLen_], xGm_[rowBase + (uint64_t)a.phase * phaseLen_ + t0 + a.shift], cp, pad);
        }
        tapQ_.EnQue(taps);
    }

    __aicore__ inline void Accumulate(uint32_t c, uint32_t nc)
    {
        LocalTensor<T> taps = tapQ_.DeQue<T>();
        LocalTensor<float> tf = tapF_.Get<float>();
        Widen(tf, taps, k_ * tileLen_);
        tapQ_.FreeTensor(taps);
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> wf = wF_.Get<float>();
        for (uint32_t o = 0; o < nc; ++o) {
            uint32_t wBase = (o * ci_ + c) * k_;
            for (uint32_t k = 0; k < k_; ++k) {
                Axpy(acc[o * tileLen_], tf[k * tileLen_], wf.GetValue(wBase + k), tileLen_);
            }
        }
    }

    __aicore__ inline void StoreTile(uint32_t b, uint32_t c0, uint32_t nc, uint32_t t0, uint32_t vt)
    {
        LocalTensor<T> o = outQ_.AllocTensor<T>();
        Narrow(o, accBuf_.Get<float>(), cb_ * tileLen_);
        outQ_.EnQue(o);
        o = outQ_.DeQue<T>();
        // tileLen is 32B aligned in UB, so gap between source rows is expressed in blocks
        uint32_t srcGap = (tileLen_ * sizeof(T) - (vt * sizeof(T) + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{(uint16_t)nc, (uint32_t)(vt * sizeof(T)), srcGap,
                             (uint32_t)((outLen_ - vt) * sizeof(T)), 0};
        DataCopyPad(yGm_[((uint64_t)b * co_ + c0) * outLen_ + t0], o, cp);
        outQ_.FreeTensor(o);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> tapQ_;
    TQue<QuePosition::VECIN, 1> wQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<TPosition::VECCALC> tapF_, accBuf_, wF_;
    GlobalTensor<T> xGm_, wGm_, yGm_;
    uint32_t ci_, co_, k_, stride_, dil_, phaseLen_, outLen_, tileLen_, cb_, tilesPerRow_, coBlocks_;
    uint32_t unitCnt_, unit0_, wSlice_;
    uint32_t lastCb_ = 0xFFFFFFFFu;
};

extern "C" __global__ __aicore__ void strided_atrous_conv1d_custom(GM_ADDR xs, GM_ADDR w, GM_ADDR y,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        StridedAtrousConv1d<float> op;
        op.Init(xs, w, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        StridedAtrousConv1d<half> op;
        op.Init(xs, w, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Split the signal into `stride` phases so every dilated tap becomes a contiguous read:
// x[b, c, s*t + r] -> x_phase[b, c, r, t].
at::Tensor strided_atrous_conv1d_impl_npu(const at::Tensor& x, const at::Tensor& weight, int64_t stride,
                                          int64_t dilation)
{
    const int64_t B = x.size(0);
    const int64_t Ci = x.size(1);
    const int64_t L = x.size(2);
    const int64_t K = weight.size(2);
    const int64_t outLen = (L - dilation * (K - 1) - 1) / stride + 1;
    const int64_t phaseLen = (L + stride - 1) / stride;

    at::Tensor xp = x;
    if (phaseLen * stride != L) {
        xp = at::constant_pad_nd(x, {0, phaseLen * stride - L}, 0);
    }
    at::Tensor xPhase = xp.reshape({B, Ci, phaseLen, stride}).permute({0, 1, 3, 2}).contiguous();
    at::Tensor w = weight.contiguous();
    at::Tensor y = at::empty({B, weight.size(0), outLen}, x.options());
    EXEC_NPU_CMD(aclnnStridedAtrousConv1dCustom, xPhase, w, dilation, outLen, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("strided_atrous_conv1d_custom", &strided_atrous_conv1d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("strided_atrous_conv1d_custom", &strided_atrous_conv1d_impl_npu, "conv1d with stride and dilation");
}
"""

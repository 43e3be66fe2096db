project_json_src='''
[
    {
        "op": "VolumeTransposedConvCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x_padded", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight_flipped", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumeTransposedConvTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, inD);          // padded / zero-inserted input extents
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, wTile);        // output columns per tile, 32B multiple
  TILING_DATA_FIELD_DEF(uint32_t, wTiles);
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);
  TILING_DATA_FIELD_DEF(uint32_t, coBlocks);
  TILING_DATA_FIELD_DEF(uint64_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint64_t, unitsTail);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VolumeTransposedConvCustom, VolumeTransposedConvTilingData)
}
"""

host_operator_src="""
#include "volume_transposed_conv_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t W_TILE_MAX = 256;
constexpr uint64_t UB_LIMIT = 180 * 1024;

struct DeconvPlan {
    uint32_t wTile;
    uint32_t coBlock;
};

// taps for one input channel: K^3 rows of wTile (T in x2, float x1),
// plus accumulators / output staging / weight slice per output channel in the block.
DeconvPlan PlanDeconv(uint32_t outW, uint32_t cout, uint32_t k, uint32_t elem)
{
    DeconvPlan p;
    uint32_t align = 32 / elem;
    p.wTile = outW < W_TILE_MAX ? (outW + align - 1) / align * align : W_TILE_MAX;
    if (p.wTile % 16 != 0) p.wTile = (p.wTile + 15) / 16 * 16;
    uint32_t k3 = k * k * k;
    uint64_t taps = (uint64_t)k3 * p.wTile * (2 * elem + sizeof(float));
    p.coBlock = 1;
    for (uint32_t cb = cout; cb >= 1; --cb) {
        uint64_t need = taps + (uint64_t)cb * p.wTile * (sizeof(float) + 2 * elem) +
                        (uint64_t)cb * k3 * (2 * elem + sizeof(float)) + 2048;
        if (need <= UB_LIMIT) {
            p.coBlock = cb;
            break;
        }
    }
    return p;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    VolumeTransposedConvTilingData td;
    auto xs = context->GetInputShape(0)->GetStorageShape();   // [B, Ci, Dp, Hp, Wp]
    auto ws = context->GetInputShape(1)->GetStorageShape();   // [Co, Ci, K, K, K]
    uint32_t B = xs.GetDim(0), ci = xs.GetDim(1);
    uint32_t dp = xs.GetDim(2), hp = xs.GetDim(3), wp = xs.GetDim(4);
    uint32_t co = ws.GetDim(0), k = ws.GetDim(2);
    if (dp < k || hp < k || wp < k) return ge::GRAPH_FAILED;
    uint32_t od = dp - k + 1, oh = hp - k + 1, ow = wp - k + 1;
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elem = dt == ge::DT_FLOAT16 ? 2 : 4;

    DeconvPlan plan = PlanDeconv(ow, co, k, elem);
    uint32_t wTiles = (ow + plan.wTile - 1) / plan.wTile;
    uint32_t coBlocks = (co + plan.coBlock - 1) / plan.coBlock;
    uint64_t units = (uint64_t)B * coBlocks * od * oh * wTiles;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t used = units < cores ? static_cast<uint32_t>(units) : cores;

    td.set_batch(B);
    td.set_cin(ci);
    td.set_cout(co);
    td.set_ksize(k);
    td.set_inD(dp);
    td.set_inH(hp);
    td.set_inW(wp);
    td.set_outD(od);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_wTile(plan.wTile);
    td.set_wTiles(wTiles);
    td.set_coBlock(plan.coBlock);
    td.set_coBlocks(coBlocks);
    td.set_unitsPerCore(units / used);
    td.set_unitsTail(units % used);

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
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    int64_t k = w->GetDim(2);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - k + 1);
    y->SetDim(3, x->GetDim(3) - k + 1);
    y->SetDim(4, x->GetDim(4) - k + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class VolumeTransposedConvCustom : public OpDef {
public:
    explicit VolumeTransposedConvCustom(const char* name) : OpDef(name)
    {
        this->Input("x_padded").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight_flipped").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumeTransposedConvCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
__aicore__ inline void Promote(const LocalTensor<float>& d, const LocalTensor<T>& s, uint32_t n)
{
    if constexpr (std::is_same<T, float>::value) { DataCopy(d, s, n); }
    else { Cast(d, s, RoundMode::CAST_NONE, n); }
}

template <typename T>
__aicore__ inline void Demote(const LocalTensor<T>& d, const LocalTensor<float>& s, uint32_t n)
{
    if constexpr (std::is_same<T, float>::value) { DataCopy(d, s, n); }
    else { Cast(d, s, RoundMode::CAST_ROUND, n); }
}

// Decoded work unit: one output row segment (b, od, oh, ow0..) for a block of output channels.
struct RowUnit {
    uint32_t b, co0, nco, od, oh, ow0, vw;
};

template <typename T>
class VolumeTransposedConv {
public:
    __aicore__ inline VolumeTransposedConv() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const VolumeTransposedConvTilingData& td)
    {
        B_ = td.batch; ci_ = td.cin; co_ = td.cout; k_ = td.ksize;
        k3_ = k_ * k_ * k_;
        inD_ = td.inD; inH_ = td.inH; inW_ = td.inW;
        outD_ = td.outD; outH_ = td.outH; outW_ = td.outW;
        wTile_ = td.wTile; wTiles_ = td.wTiles;
        cb_ = td.coBlock; coBlocks_ = td.coBlocks;
        uint64_t bid = GetBlockIdx();
        unitCnt_ = td.unitsPerCore + (bid < td.unitsTail ? 1 : 0);
        unit0_ = bid * td.unitsPerCore + (bid < td.unitsTail ? bid : td.unitsTail);

        xGm_.SetGlobalBuffer((__gm__ T*)x);
        wGm_.SetGlobalBuffer((__gm__ T*)w);
        yGm_.SetGlobalBuffer((__gm__ T*)y);

        // weight slice row per output channel padded to a 32B multiple
        wPitch_ = (k3_ + 15) / 16 * 16;
        pipe_.InitBuffer(tapQ_, BUFFER_NUM, k3_ * wTile_ * sizeof(T));
        pipe_.InitBuffer(wQ_, BUFFER_NUM, cb_ * wPitch_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, cb_ * wTile_ * sizeof(T));
        pipe_.InitBuffer(tapF_, k3_ * wTile_ * sizeof(float));
        pipe_.InitBuffer(wF_, cb_ * wPitch_ * sizeof(float));
        pipe_.InitBuffer(acc_, cb_ * wTile_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t u = 0; u < unitCnt_; ++u) {
            RowUnit ru = Decode(unit0_ + u);
            LocalTensor<float> acc = acc_.Get<float>();
            Duplicate(acc, 0.0f, cb_ * wTile_);
            for (uint32_t c = 0; c < ci_; ++c) {
                CopyIn(ru, c);
                Accumulate(ru);
            }
            CopyOut(ru);
        }
    }

private:
    __aicore__ inline RowUnit Decode(uint64_t id) const
    {
        RowUnit r;
        uint32_t wt = id % wTiles_;
        id /= wTiles_;
        r.oh = id % outH_;
        id /= outH_;
        r.od = id % outD_;
        id /= outD_;
        uint32_t cbIdx = id % coBlocks_;
        r.b = static_cast<uint32_t>(id / coBlocks_);
        r.co0 = cbIdx * cb_;
        r.nco = co_ - r.co0 < cb_ ? co_ - r.co0 : cb_;
        r.ow0 = wt * wTile_;
        r.vw = outW_ - r.ow0 < wTile_ ? outW_ - r.ow0 : wTile_;
        return r;
    }

    __aicore__ inline void CopyIn(const RowUnit& ru, uint32_t c)
    {
        DataCopyPadExtParams<T> padT{false, 0, 0, 0};
        // all K^3 shifted input rows of channel c feeding this output row
        LocalTensor<T> taps = tapQ_.AllocTensor<T>();
        DataCopyExtParams rowCp{1, (uint32_t)(ru.vw * sizeof(T)), 0, 0, 0};
        uint64_t chanBase = ((uint64_t)ru.b * ci_ + c) * inD_ * inH_ * inW_;
        uint32_t tap = 0;
        for (uint32_t kd = 0; kd < k_; ++kd) {
            for (uint32_t kh = 0; kh < k_; ++kh) {
                uint64_t rowOff = chanBase + ((uint64_t)(ru.od + kd) * inH_ + (ru.oh + kh)) * inW_ + ru.ow0;
                for (uint32_t kw = 0; kw < k_; ++kw, ++tap) {
                    DataCopyPad(taps[tap * wTile_], xGm_[rowOff + kw], rowCp, padT);
                }
            }
        }
        tapQ_.EnQue(taps);

        // wf[co0 .. co0+nco, c, :, :, :] -> nco rows of K^3, stride Ci*K^3 in GM
        LocalTensor<T> wt = wQ_.AllocTensor<T>();
        uint32_t gapBlocks = (wPitch_ * sizeof(T) - (k3_ * sizeof(T) + 31) / 32 * 32) / 32;
        DataCopyExtParams wCp{(uint16_t)ru.nco, (uint32_t)(k3_ * sizeof(T)),
                              (uint32_t)((ci_ - 1) * k3_ * sizeof(T)), gapBlocks, 0};
        DataCopyPad(wt, wGm_[((uint64_t)ru.co0 * ci_ + c) * k3_], wCp, padT);
        wQ_.EnQue(wt);
    }

    __aicore__ inline void Accumulate(const RowUnit& ru)
    {
        LocalTensor<T> taps = tapQ_.DeQue<T>();
        LocalTensor<T> wt = wQ_.DeQue<T>();
        LocalTensor<float> tf = tapF_.Get<float>();
        LocalTensor<float> wf = wF_.Get<float>();
        Promote(tf, taps, k3_ * wTile_);
        Promote(wf, wt, ru.nco * wPitch_);
        tapQ_.FreeTensor(taps);
        wQ_.FreeTensor(wt);
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);

        LocalTensor<float> acc = acc_.Get<float>();
        for (uint32_t o = 0; o < ru.nco; ++o) {
            LocalTensor<float> dst = acc[o * wTile_];
            for (uint32_t t = 0; t < k3_; ++t) {
                Axpy(dst, tf[t * wTile_], wf.GetValue(o * wPitch_ + t), ru.vw);
            }
        }
        event_t ev2 = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev2);
        WaitFlag<HardEvent::V_S>(ev2);
    }

    __aicore__ inline void CopyOut(const RowUnit& ru)
    {
        LocalTensor<T> o = outQ_.AllocTensor<T>();
        Demote(o, acc_.Get<float>(), cb_ * wTile_);
        outQ_.EnQue(o);
        o = outQ_.DeQue<T>();
        uint64_t plane = (uint64_t)outD_ * outH_ * outW_;
        uint32_t srcGap = (wTile_ * sizeof(T) - (ru.vw * sizeof(T) + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{(uint16_t)ru.nco, (uint32_t)(ru.vw * sizeof(T)), srcGap,
                             (uint32_t)((plane - ru.vw) * sizeof(T)), 0};
        uint64_t dst = ((uint64_t)ru.b * co_ + ru.co0) * plane + ((uint64_t)ru.od * outH_ + ru.oh) * outW_ + ru.ow0;
        DataCopyPad(yGm_[dst], o, cp);
        outQ_.FreeTensor(o);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> tapQ_, wQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<TPosition::VECCALC> tapF_, wF_, acc_;
    GlobalTensor<T> xGm_, wGm_, yGm_;
    uint32_t B_, ci_, co_, k_, k3_, inD_, inH_, inW_, outD_, outH_, outW_;
    uint32_t wTile_, wTiles_, cb_, coBlocks_, wPitch_;
    uint64_t unitCnt_, unit0_;
};

extern "C" __global__ __aicore__ void volume_transposed_conv_custom(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        VolumeTransposedConv<float> op;
        op.Init(x, w, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        VolumeTransposedConv<half> op;
        op.Init(x, w, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv_transpose3d == valid correlation of the zero-inserted, (K-1-p)-padded input with the
// spatially flipped, in/out-swapped kernel. The layout change happens here, the MACs in the kernel.
at::Tensor volume_transposed_conv_impl_npu(const at::Tensor& x, const at::Tensor& weight, int64_t stride,
                                           int64_t padding, int64_t output_padding)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected 5-D input and weight");
    const int64_t B = x.size(0), Ci = x.size(1);
    const int64_t D = x.size(2), H = x.size(3), W = x.size(4);
    const int64_t K = weight.size(2);
    const int64_t edge = K - 1 - padding;
    TORCH_CHECK(edge >= 0, "padding larger than kernel_size - 1 is not supported");

    auto grown = [&](int64_t n) { return (n - 1) * stride + 1 + 2 * edge + output_padding; };
    at::Tensor xp = at::zeros({B, Ci, grown(D), grown(H), grown(W)}, x.options());
    using at::indexing::Slice;
    xp.index_put_({Slice(), Slice(),
                   Slice(edge, edge + (D - 1) * stride + 1, stride),
                   Slice(edge, edge + (H - 1) * stride + 1, stride),
                   Slice(edge, edge + (W - 1) * stride + 1, stride)}, x);

    // weight [Ci, Co, K, K, K] -> [Co, Ci, K, K, K], flipped along all spatial axes
    at::Tensor wf = weight.flip({2, 3, 4}).transpose(0, 1).contiguous();

    const int64_t Do = xp.size(2) - K + 1, Ho = xp.size(3) - K + 1, Wo = xp.size(4) - K + 1;
    at::Tensor y = at::empty({B, wf.size(0), Do, Ho, Wo}, x.options());
    EXEC_NPU_CMD(aclnnVolumeTransposedConvCustom, xp, wf, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("volume_transposed_conv_custom", &volume_transposed_conv_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("volume_transposed_conv_custom", &volume_transposed_conv_impl_npu, "3-D transposed convolution");
}
"""

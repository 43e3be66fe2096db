project_json_src='''
[
    {
        "op": "ResidualPostLayerNormCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "shortcut", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "branch", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "gamma", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "beta", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ResidualPostLayerNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, widthPad);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ResidualPostLayerNormCustom, ResidualPostLayerNormTilingData)
}
"""

host_operator_src="""
#include "residual_post_layer_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t TILE_ELEMS = 6144;   // fp32 elements per working tile, rows are packed into it

struct RowTiling {
    uint32_t widthPad;
    uint32_t rowsPerCore;
    uint32_t rowsPerTile;
    uint32_t usedCores;
};

RowTiling PlanRows(uint32_t rows, uint32_t width, uint32_t cores)
{
    RowTiling t;
    t.widthPad = (width + 15) / 16 * 16;   // row starts stay 32 B aligned for both dtypes
    t.rowsPerCore = (rows + cores - 1) / cores;
    if (t.rowsPerCore == 0) {
        t.rowsPerCore = 1;
    }
    t.usedCores = (rows + t.rowsPerCore - 1) / t.rowsPerCore;
    t.rowsPerTile = TILE_ELEMS / t.widthPad;
    if (t.rowsPerTile == 0) {
        t.rowsPerTile = 1;
    }
    if (t.rowsPerTile > t.rowsPerCore) {
        t.rowsPerTile = t.rowsPerCore;
    }
    return t;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ResidualPostLayerNormTilingData td;
    const gert::Shape& s = context->GetInputShape(1)->GetOriginShape();
    uint32_t width = static_cast<uint32_t>(s.GetDim(s.GetDimNum() - 1));
    uint32_t rows = static_cast<uint32_t>(s.GetShapeSize() / width);
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    RowTiling rt = PlanRows(rows, width, plat.GetCoreNumAiv());
    if (rt.widthPad > TILE_ELEMS) {
        return ge::GRAPH_FAILED;
    }

    td.set_rows(rows);
    td.set_width(width);
    td.set_widthPad(rt.widthPad);
    td.set_rowsPerCore(rt.rowsPerCore);
    td.set_rowsPerTile(rt.rowsPerTile);
    td.set_eps(*context->GetAttrs()->GetAttrPointer<float>(0));

    context->SetTilingKey(context->GetInputDesc(1)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(rt.usedCores);
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
class ResidualPostLayerNormCustom : public OpDef {
public:
    explicit ResidualPostLayerNormCustom(const char* name) : OpDef(name)
    {
        const char* names[] = {"shortcut", "branch", "gamma", "beta"};
        for (const char* n : names) {
            this->Input(n).ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("out").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ResidualPostLayerNormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t VEC8 = 8;

template <typename T>
__aicore__ inline void LoadAsFloat(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
{
    if constexpr (std::is_same<T, float>::value) {
        DataCopy(dst, src, n);
    } else {
        Cast(dst, src, RoundMode::CAST_NONE, n);
    }
}

template <typename T>
__aicore__ inline void StoreFromFloat(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n)
{
    if constexpr (std::is_same<T, float>::value) {
        DataCopy(dst, src, n);
    } else {
        Cast(dst, src, RoundMode::CAST_ROUND, n);
    }
}

// out = shortcut + LayerNorm(branch) * gamma + beta   (Swin-V2 post-norm residual)
template <typename T>
class ResidualPostLayerNorm {
public:
    __aicore__ inline ResidualPostLayerNorm() {}
    __aicore__ inline void Init(GM_ADDR sc, GM_ADDR br, GM_ADDR g, GM_ADDR b, GM_ADDR out,
                                const ResidualPostLayerNormTilingData& t)
    {
        td = t;
        rowFirst = GetBlockIdx() * td.rowsPerCore;
        rowLast = rowFirst + td.rowsPerCore;
        if (rowLast > td.rows) {
            rowLast = td.rows;
        }
        scGm.SetGlobalBuffer((__gm__ T*)sc);
        brGm.SetGlobalBuffer((__gm__ T*)br);
        gGm.SetGlobalBuffer((__gm__ T*)g);
        bGm.SetGlobalBuffer((__gm__ T*)b);
        oGm.SetGlobalBuffer((__gm__ T*)out);

        uint32_t tileElems = td.rowsPerTile * td.widthPad;
        pipe.InitBuffer(scQue, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(brQue, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(brF, tileElems * sizeof(float));
        pipe.InitBuffer(scF, tileElems * sizeof(float));
        pipe.InitBuffer(sqBuf, td.widthPad * sizeof(float));
        pipe.InitBuffer(redBuf, td.widthPad * sizeof(float));
        // UB row pitch is widthPad; the copy engine pads each row only to 32 B, so skip the rest
        uint32_t rowBytes = (td.width * sizeof(T) + 31) / 32 * 32;
        gapBlocks = (td.widthPad * sizeof(T) - rowBytes) / 32;
        pipe.InitBuffer(affineBuf, 2 * td.widthPad * sizeof(float));   // gamma | beta in fp32
        pipe.InitBuffer(stageBuf, td.widthPad * sizeof(T));
        pipe.InitBuffer(smallBuf, 2 * VEC8 * sizeof(float));
        LoadAffine();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowFirst; r < rowLast; r += td.rowsPerTile) {
            uint32_t cnt = (rowLast - r) < td.rowsPerTile ? (rowLast - r) : td.rowsPerTile;
            CopyIn(r, cnt);
            Compute(cnt);
            CopyOut(r, cnt);
        }
    }

private:
    __aicore__ inline void LoadAffine()
    {
        LocalTensor<float> aff = affineBuf.Get<float>();
        LocalTensor<T> stage = stageBuf.Get<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(td.width * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        for (uint32_t i = 0; i < 2; ++i) {
            DataCopyPad(stage, i == 0 ? gGm : bGm, cp, pad);
            event_t mv = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
            SetFlag<HardEvent::MTE2_V>(mv);
            WaitFlag<HardEvent::MTE2_V>(mv);
            LoadAsFloat(aff[i * td.widthPad], stage, td.widthPad);
            event_t vm = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE2));
            SetFlag<HardEvent::V_MTE2>(vm);
            WaitFlag<HardEvent::V_MTE2>(vm);
        }
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t cnt)
    {
        LocalTensor<T> s = scQue.AllocTensor<T>();
        LocalTensor<T> b = brQue.AllocTensor<T>();
        // cnt rows of width elements; UB rows padded to widthPad
        DataCopyExtParams cp{static_cast<uint16_t>(cnt), static_cast<uint32_t>(td.width * sizeof(T)), 0, gapBlocks, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        uint64_t off = static_cast<uint64_t>(row) * td.width;
        DataCopyPad(s, scGm[off], cp, pad);
        DataCopyPad(b, brGm[off], cp, pad);
        scQue.EnQue(s);
        brQue.EnQue(b);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        LocalTensor<T> s = scQue.DeQue<T>();
        LocalTensor<T> b = brQue.DeQue<T>();
        LocalTensor<float> xf = brF.Get<float>();
        LocalTensor<float> sf = scF.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> aff = affineBuf.Get<float>();
        LocalTensor<float> sm = smallBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        uint32_t n = cnt * td.widthPad;
        LoadAsFloat(xf, b, n);
        LoadAsFloat(sf, s, n);
        scQue.FreeTensor(s);
        brQue.FreeTensor(b);

        float invW = 1.0f / static_cast<float>(td.width);
        for (uint32_t r = 0; r < cnt; ++r) {
            LocalTensor<float> row = xf[r * td.widthPad];
            ReduceSum<float>(sm, row, red, td.width);
            SyncVS();
            float mean = sm.GetValue(0) * invW;
            SyncSV();
            Adds(row, row, -mean, td.width);
            Mul(sq, row, row, td.width);
            ReduceSum<float>(sm, sq, red, td.width);
            // rstd = 1 / sqrt(var + eps) on a single block
            Muls(sm, sm, invW, VEC8);
            Adds(sm, sm, td.eps, VEC8);
            Sqrt(sm, sm, VEC8);
            Duplicate(sm[VEC8], 1.0f, VEC8);
            Div(sm, sm[VEC8], sm, VEC8);
            SyncVS();
            float rstd = sm.GetValue(0);
            SyncSV();
            Muls(row, row, rstd, td.width);
        }
        // affine + residual over the whole tile, row by row for gamma/beta broadcast
        for (uint32_t r = 0; r < cnt; ++r) {
            LocalTensor<float> row = xf[r * td.widthPad];
            Mul(row, row, aff, td.width);
            Add(row, row, aff[td.widthPad], td.width);
        }
        Add(xf, xf, sf, n);
        LocalTensor<T> o = outQue.AllocTensor<T>();
        StoreFromFloat(o, xf, n);
        outQue.EnQue(o);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t cnt)
    {
        LocalTensor<T> o = outQue.DeQue<T>();
        DataCopyExtParams cp{static_cast<uint16_t>(cnt), static_cast<uint32_t>(td.width * sizeof(T)), gapBlocks, 0, 0};
        DataCopyPad(oGm[static_cast<uint64_t>(row) * td.width], o, cp);
        outQue.FreeTensor(o);
    }

    __aicore__ inline void SyncVS()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void SyncSV()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> scQue, brQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> brF, scF, sqBuf, redBuf, affineBuf, stageBuf, smallBuf;
    GlobalTensor<T> scGm, brGm, gGm, bGm, oGm;
    ResidualPostLayerNormTilingData td;
    uint32_t rowFirst, rowLast;
    uint32_t gapBlocks;
};

extern "C" __global__ __aicore__ void residual_post_layer_norm_custom(GM_ADDR shortcut, GM_ADDR branch, GM_ADDR gamma,
                                                                      GM_ADDR beta, GM_ADDR out,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ResidualPostLayerNorm<float> op;
        op.Init(shortcut, branch, gamma, beta, out, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ResidualPostLayerNorm<half> op;
        op.Init(shortcut, branch, gamma, beta, out, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <cmath>
#include <vector>

namespace {

// Sequential reader over the flattened parameter list (order documented in swinv2_forward).
class ParamCursor {
public:
    explicit ParamCursor(const std::vector<at::Tensor>& p) : params(p) {}
    const at::Tensor& Next() { return params.at(pos++); }
    size_t Consumed() const { return pos; }
private:
    const std::vector<at::Tensor>& params;
    size_t pos = 0;
};

// shortcut + LayerNorm(branch) on the custom kernel
at::Tensor PostNormResidual(const at::Tensor& shortcut, const at::Tensor& branch,
                            const at::Tensor& gamma, const at::Tensor& beta, double eps = 1e-5)
{
    at::Tensor sc = shortcut.contiguous();
    at::Tensor br = branch.contiguous();
    at::Tensor out = at::empty_like(sc);
    EXEC_NPU_CMD(aclnnResidualPostLayerNormCustom, sc, br, gamma, beta, eps, out);
    return out;
}

at::Tensor WindowPartition(const at::Tensor& x, int64_t ws)
{
    int64_t B = x.size(0), H = x.size(1), W = x.size(2), C = x.size(3);
    return x.view({B, H / ws, ws, W / ws, ws, C}).permute({0, 1, 3, 2, 4, 5}).contiguous().view({-1, ws, ws, C});
}

at::Tensor WindowReverse(const at::Tensor& win, int64_t ws, int64_t H, int64_t W)
{
    int64_t B = win.size(0) / ((H / ws) * (W / ws));
    return win.view({B, H / ws, W / ws, ws, ws, -1}).permute({0, 1, 3, 2, 4, 5}).contiguous().view({B, H, W, -1});
}

at::Tensor L2Normalize(const at::Tensor& t)
{
    return t / t.norm(2, {-1}, true).clamp_min(1e-12);
}

struct AttnParams {
    at::Tensor logitScale, qBias, vBias, cpbW1, cpbB1, cpbW2, coordsTable, relIndex, qkvW, projW, projB;
};

at::Tensor CosineWindowAttention(const at::Tensor& x, const AttnParams& p, int64_t heads, const at::Tensor& mask)
{
    int64_t Bw = x.size(0), N = x.size(1), C = x.size(2);
    at::Tensor qkvBias = at::cat({p.qBias, at::zeros_like(p.vBias), p.vBias});
    at::Tensor qkv = at::linear(x, p.qkvW, qkvBias).reshape({Bw, N, 3, heads, -1}).permute({2, 0, 3, 1, 4});
    at::Tensor q = qkv[0], k = qkv[1], v = qkv[2];

    at::Tensor attn = at::matmul(L2Normalize(q), L2Normalize(k).transpose(-2, -1));
    at::Tensor scale = at::clamp_max(p.logitScale, std::log(1.0 / 0.01)).exp();
    attn = attn * scale;

    at::Tensor table = at::linear(at::relu(at::linear(p.coordsTable, p.cpbW1, p.cpbB1)), p.cpbW2).view({-1, heads});
    at::Tensor bias = table.index_select(0, p.relIndex.view({-1})).view({N, N, -1}).permute({2, 0, 1}).contiguous();
    attn = attn + 16.0 * at::sigmoid(bias).unsqueeze(0);

    if (mask.defined() && mask.numel() > 0) {
        int64_t nW = mask.size(0);
        attn = attn.view({Bw / nW, nW, heads, N, N}) + mask.unsqueeze(1).unsqueeze(0);
        attn = attn.view({-1, heads, N, N});
    }
    attn = at::softmax(attn, -1);
    at::Tensor out = at::matmul(attn, v).transpose(1, 2).reshape({Bw, N, C});
    return at::linear(out, p.projW, p.projB);
}

at::Tensor SwinBlock(const at::Tensor& x, ParamCursor& cur, int64_t H, int64_t W, int64_t heads,
                     int64_t ws, int64_t shift)
{
    AttnParams ap;
    ap.logitScale = cur.Next();
    ap.qBias = cur.Next();
    ap.vBias = cur.Next();
    ap.cpbW1 = cur.Next();
    ap.cpbB1 = cur.Next();
    ap.cpbW2 = cur.Next();
    ap.coordsTable = cur.Next();
    ap.relIndex = cur.Next();
    ap.qkvW = cur.Next();
    ap.projW = cur.Next();
    ap.projB = cur.Next();
    const at::Tensor& n1w = cur.Next();
    const at::Tensor& n1b = cur.Next();
    const at::Tensor& fc1w = cur.Next();
    const at::Tensor& fc1b = cur.Next();
    const at::Tensor& fc2w = cur.Next();
    const at::Tensor& fc2b = cur.Next();
    const at::Tensor& n2w = cur.Next();
    const at::Tensor& n2b = cur.Next();
    const at::Tensor& mask = cur.Next();   // empty tensor when shift == 0

    int64_t B = x.size(0), C = x.size(2);
    at::Tensor img = x.view({B, H, W, C});
    if (shift > 0) {
        img = at::roll(img, {-shift, -shift}, {1, 2});
    }
    at::Tensor windows = WindowPartition(img, ws).view({-1, ws * ws, C});
    at::Tensor attn = CosineWindowAttention(windows, ap, heads, mask);
    img = WindowReverse(attn.view({-1, ws, ws, C}), ws, H, W);
    if (shift > 0) {
        img = at::roll(img, {shift, shift}, {1, 2});
    }
    at::Tensor y = PostNormResidual(x, img.reshape({B, H * W, C}), n1w, n1b);
    at::Tensor mlp = at::linear(at::gelu(at::linear(y, fc1w, fc1b)), fc2w, fc2b);
    return PostNormResidual(y, mlp, n2w, n2b);
}

at::Tensor PatchMerge(const at::Tensor& x, ParamCursor& cur, int64_t H, int64_t W)
{
    const at::Tensor& redW = cur.Next();
    const at::Tensor& nw = cur.Next();
    const at::Tensor& nb = cur.Next();
    int64_t B = x.size(0), C = x.size(2);
    at::Tensor v = x.view({B, H, W, C});
    at::Tensor x0 = v.slice(1, 0, H, 2).slice(2, 0, W, 2);
    at::Tensor x1 = v.slice(1, 1, H, 2).slice(2, 0, W, 2);
    at::Tensor x2 = v.slice(1, 0, H, 2).slice(2, 1, W, 2);
    at::Tensor x3 = v.slice(1, 1, H, 2).slice(2, 1, W, 2);
    at::Tensor m = at::cat({x0, x1, x2, x3}, -1).view({B, -1, 4 * C});
    m = at::linear(m, redW);
    return at::layer_norm(m, {m.size(-1)}, nw, nb, 1e-5);
}

}  // namespace

// Parameter order:
//   patch_embed.proj.{weight,bias}, patch_embed.norm.{weight,bias},
//   per stage, per block: attn.{logit_scale,q_bias,v_bias}, cpb_mlp.0.{weight,bias}, cpb_mlp.2.weight,
//     relative_coords_table, relative_position_index, qkv.weight, proj.{weight,bias}, norm1.{weight,bias},
//     mlp.fc1.{weight,bias}, mlp.fc2.{weight,bias}, norm2.{weight,bias}, attn_mask (empty if none);
//   per stage except last: downsample.reduction.weight, downsample.norm.{weight,bias};
//   norm.{weight,bias}, head.{weight,bias}
at::Tensor swinv2_forward_impl_npu(const at::Tensor& x, const std::vector<at::Tensor>& params,
                                   std::vector<int64_t> depths, std::vector<int64_t> heads,
                                   int64_t windowSize, int64_t patchSize)
{
    ParamCursor cur(params);
    const at::Tensor& pw = cur.Next();
    const at::Tensor& pb = cur.Next();
    const at::Tensor& pnw = cur.Next();
    const at::Tensor& pnb = cur.Next();

    at::Tensor t = at::conv2d(x, pw, pb, {patchSize, patchSize});
    int64_t H = t.size(2), W = t.size(3);
    t = t.flatten(2).transpose(1, 2).contiguous();
    t = at::layer_norm(t, {t.size(-1)}, pnw, pnb, 1e-5);

    const size_t stages = depths.size();
    for (size_t s = 0; s < stages; ++s) {
        int64_t ws = windowSize;
        bool fits = std::min(H, W) <= windowSize;
        if (fits) {
            ws = std::min(H, W);
        }
        for (int64_t b = 0; b < depths[s]; ++b) {
            int64_t shift = (b % 2 == 1 && !fits) ? windowSize / 2 : 0;
            t = SwinBlock(t, cur, H, W, heads[s], ws, shift);
        }
        if (s + 1 < stages) {
            t = PatchMerge(t, cur, H, W);
            H /= 2;
            W /= 2;
        }
    }
    const at::Tensor& nw = cur.Next();
    const at::Tensor& nb = cur.Next();
    const at::Tensor& hw = cur.Next();
    const at::Tensor& hb = cur.Next();
    TORCH_CHECK(cur.Consumed() == params.size(), "unexpected number of parameters");
    t = at::layer_norm(t, {t.size(-1)}, nw, nb, 1e-5);
    t = t.mean(1);
    return at::linear(t, hw, hb);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("swinv2_forward", &swinv2_forward_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("swinv2_forward", &swinv2_forward_impl_npu, "Swin Transformer V2 forward with fused post-norm residual");
    m.def("residual_post_layer_norm", [](const at::Tensor& s, const at::Tensor& b, const at::Tensor& g,
                                         const at::Tensor& be, double eps) { return PostNormResidual(s, b, g, be, eps); },
          "shortcut + LayerNorm(branch)");
}
"""

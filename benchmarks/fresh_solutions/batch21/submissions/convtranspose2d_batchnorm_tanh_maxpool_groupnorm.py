project_json_src='''
[
    {
        "op": "PooledTanhGroupNormCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "gamma", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "beta", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "num_groups", "param_type": "required", "type": "int"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PooledTanhGroupNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, inWPad);      // UB row pitch of staged input rows, = 2 * outWPad
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWPad);     // UB row pitch of pooled rows, multiple of 16 elems
  TILING_DATA_FIELD_DEF(uint32_t, gatherRepeat);// 256B repeats covering outH * inWPad floats
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);// (n, group) units
  TILING_DATA_FIELD_DEF(uint32_t, unitsRemain);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PooledTanhGroupNormCustom, PooledTanhGroupNormTilingData)
}
"""

host_operator_src="""
#include "pooled_tanh_group_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;

static inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// UB bytes needed by one core for the chosen layout (mirrors the kernel's InitBuffer calls)
static uint64_t UbNeed(uint32_t typeSize, uint32_t ho, uint32_t wp, uint32_t wq, uint32_t cpg, uint32_t rep)
{
    uint64_t stage = static_cast<uint64_t>(ho) * wp;
    uint64_t padded = static_cast<uint64_t>(rep) * 64;
    uint64_t grp = static_cast<uint64_t>(cpg) * ho * wq;
    uint64_t need = BUFFER_NUM * 2 * stage * typeSize;     // even/odd input rows
    need += 2 * padded * sizeof(float);                    // fp32 even/odd rows
    need += 2 * padded / 2 * sizeof(float);                // gathered columns
    need += 3 * grp * sizeof(float);                       // group values, squares, reduce work
    need += BUFFER_NUM * static_cast<uint64_t>(ho) * wq * typeSize;
    return need + 1024;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PooledTanhGroupNormTilingData td;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 4) return ge::GRAPH_FAILED;
    auto attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetInt(0));
    const float* epsPtr = attrs->GetFloat(1);
    float eps = epsPtr ? *epsPtr : 1e-5f;

    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    if (groups == 0 || c % groups != 0 || h < 2 || w < 2) return ge::GRAPH_FAILED;
    uint32_t ho = h / 2, wo = w / 2;
    uint32_t wq = RoundUp(wo, 16);     // 32B aligned for both fp16 and fp32 rows
    uint32_t wp = 2 * wq;
    uint32_t rep = RoundUp(ho * wp, 64) / 64;
    uint32_t cpg = c / groups;

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dt == ge::DT_FLOAT16 ? 2 : 4;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    if (UbNeed(typeSize, ho, wp, wq, cpg, rep) > ub || ho > 255 || wq / 8 > 255) {
        return ge::GRAPH_FAILED;
    }

    uint32_t units = n * groups;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > units) cores = units;
    if (cores == 0) cores = 1;

    td.set_channels(c);
    td.set_groups(groups);
    td.set_chPerGroup(cpg);
    td.set_inH(h);
    td.set_inW(w);
    td.set_inWPad(wp);
    td.set_outH(ho);
    td.set_outW(wo);
    td.set_outWPad(wq);
    td.set_gatherRepeat(rep);
    td.set_unitsPerCore(units / cores);
    td.set_unitsRemain(units % cores);
    td.set_eps(eps);

    context->SetBlockDim(cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    *ys = *xs;
    ys->SetDim(2, xs->GetDim(2) / 2);
    ys->SetDim(3, xs->GetDim(3) / 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class PooledTanhGroupNormCustom : public OpDef {
public:
    explicit PooledTanhGroupNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PooledTanhGroupNormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint8_t PATTERN_EVEN = 1;
constexpr uint8_t PATTERN_ODD = 2;

__aicore__ inline void VecToScalarSync()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(ev);
    WaitFlag<HardEvent::V_S>(ev);
}

// 2x2 / stride 2 max over one channel plane held as even rows and odd rows (fp32, pitch wp).
// Result rows have pitch wp/2; lanes >= outW are padding.
struct PoolHelper {
    uint32_t repeat;
    __aicore__ inline void Run(const LocalTensor<float>& dst, const LocalTensor<float>& even,
                               const LocalTensor<float>& odd, const LocalTensor<float>& colA,
                               const LocalTensor<float>& colB, uint32_t count)
    {
        Max(even, even, odd, count);                      // vertical pair
        uint64_t kept = 0;
        GatherMaskParams gp{1, static_cast<uint16_t>(repeat), 8, 0};
        GatherMask(colA, even, PATTERN_EVEN, false, 0, gp, kept);
        GatherMask(colB, even, PATTERN_ODD, false, 0, gp, kept);
        PipeBarrier<PIPE_V>();
        Max(dst, colA, colB, count / 2);                   // horizontal pair
    }
};

template <typename T>
class PooledTanhGroupNorm {
public:
    __aicore__ inline PooledTanhGroupNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const PooledTanhGroupNormTilingData& td)
    {
        t = td;
        uint32_t blk = GetBlockIdx();
        unitCount = td.unitsPerCore + (blk < td.unitsRemain ? 1 : 0);
        unitStart = blk * td.unitsPerCore + (blk < td.unitsRemain ? blk : td.unitsRemain);
        stageElems = td.outH * td.inWPad;
        rowElems = td.outH * td.outWPad;
        groupElems = td.chPerGroup * rowElems;
        pool.repeat = td.gatherRepeat;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        gGm.SetGlobalBuffer((__gm__ float*)gamma);
        bGm.SetGlobalBuffer((__gm__ float*)beta);

        uint32_t padded = td.gatherRepeat * 64;
        pipe.InitBuffer(inQue, BUFFER_NUM, 2 * stageElems * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, rowElems * sizeof(T));
        pipe.InitBuffer(evenBuf, padded * sizeof(float));
        pipe.InitBuffer(oddBuf, padded * sizeof(float));
        pipe.InitBuffer(colBuf, padded * sizeof(float));     // two halves: even / odd columns
        pipe.InitBuffer(groupBuf, groupElems * sizeof(float));
        pipe.InitBuffer(sqBuf, groupElems * sizeof(float));
        pipe.InitBuffer(workBuf, groupElems * sizeof(float));
        pipe.InitBuffer(statBuf, 64);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = 0; u < unitCount; ++u) {
            uint32_t unit = unitStart + u;
            uint32_t img = unit / t.groups;
            uint32_t grp = unit - img * t.groups;
            uint32_t c0 = grp * t.chPerGroup;
            LocalTensor<float> gv = groupBuf.Get<float>();
            for (uint32_t k = 0; k < t.chPerGroup; ++k) {
                uint64_t plane = (static_cast<uint64_t>(img) * t.channels + c0 + k) * t.inH * t.inW;
                CopyIn(plane);
                PoolChannel(gv[k * rowElems]);
            }
            float mean, rstd;
            Statistics(gv, mean, rstd);
            for (uint32_t k = 0; k < t.chPerGroup; ++k) {
                uint64_t outPlane = (static_cast<uint64_t>(img) * t.channels + c0 + k) * t.outH * t.outW;
                Normalize(gv[k * rowElems], c0 + k, mean, rstd);
                CopyOut(outPlane);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t plane)
    {
        LocalTensor<T> st = inQue.AllocTensor<T>();
        uint32_t rowBytes = t.inW * sizeof(T);
        uint32_t rowBlocks = (rowBytes + 31) / 32;
        // one descriptor per parity: take every other input row
        DataCopyExtParams prm{static_cast<uint16_t>(t.outH), rowBytes, rowBytes,
                              static_cast<uint32_t>(t.inWPad * sizeof(T) / 32 - rowBlocks), 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(st, xGm[plane], prm, pad);
        DataCopyPad(st[stageElems], xGm[plane + t.inW], prm, pad);
        inQue.EnQue(st);
    }

    __aicore__ inline void PoolChannel(const LocalTensor<float>& dst)
    {
        LocalTensor<T> st = inQue.DeQue<T>();
        LocalTensor<float> ev = evenBuf.Get<float>();
        LocalTensor<float> od = oddBuf.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(ev, st, stageElems);
            DataCopy(od, st[stageElems], stageElems);
        } else {
            Cast(ev, st, RoundMode::CAST_NONE, stageElems);
            Cast(od, st[stageElems], RoundMode::CAST_NONE, stageElems);
        }
        inQue.FreeTensor(st);
        LocalTensor<float> cols = colBuf.Get<float>();
        uint32_t half = t.gatherRepeat * 32;
        pool.Run(dst, ev, od, cols, cols[half], stageElems);
        // tanh is monotonic, so tanh(max(.)) == max(tanh(.)); apply it on the pooled plane only
        Tanh(dst, dst, rowElems);
        ZeroPadLanes(dst);
    }

    // clear lanes [outW, outWPad) of each pooled row so they do not bias the group statistics
    __aicore__ inline void ZeroPadLanes(const LocalTensor<float>& plane)
    {
        if (t.outW == t.outWPad) return;
        uint32_t base = t.outW / 8 * 8;
        uint32_t lo = t.outW - base;
        uint32_t hi = t.outWPad - base;         // <= 23 lanes, inside one 64-lane repeat
        uint64_t bits = ((hi >= 64) ? ~0ULL : ((1ULL << hi) - 1)) & ~((1ULL << lo) - 1);
        uint64_t mask[2] = {bits, 0};
        Duplicate(plane[base], 0.0f, mask, static_cast<uint8_t>(t.outH), 1,
                  static_cast<uint8_t>(t.outWPad / 8));
    }

    __aicore__ inline void Statistics(const LocalTensor<float>& gv, float& mean, float& rstd)
    {
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();
        Mul(sq, gv, gv, groupElems);
        ReduceSum(stat, gv, work, groupElems);
        ReduceSum(stat[8], sq, work, groupElems);
        VecToScalarSync();
        float inv = 1.0f / static_cast<float>(t.chPerGroup * t.outH * t.outW);
        mean = stat.GetValue(0) * inv;
        float var = stat.GetValue(8) * inv - mean * mean;
        var = var > 0.0f ? var : 0.0f;
        // 1/sqrt via vector unit to stay on the same precision path as the rest
        Duplicate(stat, var + t.eps, 8);
        Sqrt(stat, stat, 8);
        VecToScalarSync();
        rstd = 1.0f / stat.GetValue(0);
    }

    __aicore__ inline void Normalize(const LocalTensor<float>& src, uint32_t ch, float mean, float rstd)
    {
        float scale = gGm.GetValue(ch) * rstd;
        float shift = bGm.GetValue(ch) - mean * scale;
        LocalTensor<T> o = outQue.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            Muls(o, src, scale, rowElems);
            Adds(o, o, shift, rowElems);
        } else {
            LocalTensor<float> tmp = sqBuf.Get<float>();
            Muls(tmp, src, scale, rowElems);
            Adds(tmp, tmp, shift, rowElems);
            Cast(o, tmp, RoundMode::CAST_ROUND, rowElems);
        }
        outQue.EnQue(o);
    }

    __aicore__ inline void CopyOut(uint64_t outPlane)
    {
        LocalTensor<T> o = outQue.DeQue<T>();
        uint32_t rowBytes = t.outW * sizeof(T);
        uint32_t rowBlocks = (rowBytes + 31) / 32;
        DataCopyExtParams prm{static_cast<uint16_t>(t.outH), rowBytes,
                              static_cast<uint32_t>(t.outWPad * sizeof(T) / 32 - rowBlocks), 0, 0};
        DataCopyPad(yGm[outPlane], o, prm);
        outQue.FreeTensor(o);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQue;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> evenBuf, oddBuf, colBuf, groupBuf, sqBuf, workBuf, statBuf;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> gGm, bGm;
    PooledTanhGroupNormTilingData t;
    PoolHelper pool;
    uint32_t unitStart, unitCount, stageElems, rowElems, groupElems;
};

extern "C" __global__ __aicore__ void pooled_tanh_group_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                                                    GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        PooledTanhGroupNorm<float> op;
        op.Init(x, gamma, beta, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        PooledTanhGroupNorm<half> op;
        op.Init(x, gamma, beta, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// tanh -> maxpool(2,2) -> GroupNorm(num_groups, affine)
at::Tensor pooled_tanh_group_norm_impl_npu(const at::Tensor& x, const at::Tensor& gamma, const at::Tensor& beta,
                                           int64_t num_groups, double eps)
{
    at::Tensor xc = x.contiguous();
    at::Tensor g = gamma.to(at::kFloat).contiguous();
    at::Tensor b = beta.to(at::kFloat).contiguous();
    at::Tensor y = at::empty({x.size(0), x.size(1), x.size(2) / 2, x.size(3) / 2}, x.options());
    EXEC_NPU_CMD(aclnnPooledTanhGroupNormCustom, xc, g, b, num_groups, eps, y);
    return y;
}

at::Tensor convt_bn_tanh_pool_gn_forward(const at::Tensor& x,
                                         const at::Tensor& ct_w, const at::Tensor& ct_b,
                                         int64_t stride, int64_t padding,
                                         const at::Tensor& bn_w, const at::Tensor& bn_b,
                                         const at::Tensor& bn_rm, const at::Tensor& bn_rv, bool training,
                                         const at::Tensor& gn_w, const at::Tensor& gn_b, int64_t num_groups)
{
    at::Tensor h = at::conv_transpose2d(x, ct_w, ct_b, stride, padding);
    h = at::batch_norm(h, bn_w, bn_b, bn_rm, bn_rv, training, 0.1, 1e-5, true);
    return pooled_tanh_group_norm_impl_npu(h, gn_w, gn_b, num_groups, 1e-5);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("pooled_tanh_group_norm_custom", &pooled_tanh_group_norm_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("pooled_tanh_group_norm_custom", &pooled_tanh_group_norm_impl_npu, "tanh + maxpool2x2 + groupnorm");
    m.def("convt_bn_tanh_pool_gn_forward", &convt_bn_tanh_pool_gn_forward, "full fused model forward");
}
"""

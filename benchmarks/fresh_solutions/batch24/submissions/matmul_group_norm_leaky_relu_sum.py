project_json_src='''
[
    {
        "op": "GroupStandardizeLeakyDoubleCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "gamma", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "beta", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "num_groups", "param_type": "required", "type": "int"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"},
            {"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.01"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupStandardizeLeakyDoubleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, groupSize);
  TILING_DATA_FIELD_DEF(uint32_t, groupsPerChunk);   // whole groups per UB chunk
  TILING_DATA_FIELD_DEF(uint32_t, chunkCount);       // chunks per row
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);
  TILING_DATA_FIELD_DEF(uint32_t, useWholeReduce);   // groupSize fits one repeat, 32B aligned
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, slope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupStandardizeLeakyDoubleCustom, GroupStandardizeLeakyDoubleTilingData)
}
"""

host_operator_src="""
#include "group_standardize_leaky_double_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t CHUNK_ELEMS_MAX = 2048;
constexpr uint32_t MAX_REPEAT = 255;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GroupStandardizeLeakyDoubleTilingData td;
    auto shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t channels = shape.GetDim(shape.GetDimNum() - 1);
    uint32_t rows = shape.GetShapeSize() / channels;
    auto attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetInt(0));
    const float* eps = attrs->GetFloat(1);
    const float* slope = attrs->GetFloat(2);
    if (groups == 0 || channels % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t gs = channels / groups;
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elem = dt == ge::DT_FLOAT16 ? 2 : 4;

    // chunk = whole groups, capped so the float scratch stays small
    uint32_t gpc = CHUNK_ELEMS_MAX / gs;
    if (gpc == 0) gpc = 1;
    if (gpc > groups) gpc = groups;
    if (gpc > MAX_REPEAT) gpc = MAX_REPEAT;
    while (groups % gpc != 0) --gpc;
    // every group must start on a 32B boundary in UB for WholeReduceSum/DataCopy
    bool whole = (gs <= 64) && ((gs * sizeof(float)) % 32 == 0) && ((gs * elem) % 32 == 0);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t used = rows < cores ? rows : cores;

    td.set_rows(rows);
    td.set_channels(channels);
    td.set_groupSize(gs);
    td.set_groupsPerChunk(gpc);
    td.set_chunkCount(groups / gpc);
    td.set_rowsPerCore(rows / used);
    td.set_rowsTail(rows % used);
    td.set_useWholeReduce(whole ? 1 : 0);
    td.set_eps(eps ? *eps : 1e-5f);
    td.set_slope(slope ? *slope : 0.01f);

    context->SetBlockDim(used);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
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
class GroupStandardizeLeakyDoubleCustom : public OpDef {
public:
    explicit GroupStandardizeLeakyDoubleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupStandardizeLeakyDoubleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
__aicore__ inline void CastIn(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
{
    if constexpr (std::is_same<T, float>::value) {
        DataCopy(dst, src, n);
    } else {
        Cast(dst, src, RoundMode::CAST_NONE, n);
    }
}

template <typename T>
__aicore__ inline void CastOut(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n)
{
    if constexpr (std::is_same<T, float>::value) {
        DataCopy(dst, src, n);
    } else {
        Cast(dst, src, RoundMode::CAST_ROUND, n);
    }
}

// Per-group sum of a chunk laid out as [groups][gs]; result is one float per group.
class GroupSummer {
public:
    __aicore__ inline void Setup(uint32_t gs, bool whole, const LocalTensor<float>& scratch)
    {
        gs_ = gs;
        whole_ = whole;
        scratch_ = scratch;
    }
    __aicore__ inline void Sum(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t groups)
    {
        if (whole_) {
            // one repeat per group, groups are 32B aligned so srcRepStride is exact
            WholeReduceSum<float>(dst, src, (int32_t)gs_, (int32_t)groups, 1, 1,
                                  (int32_t)(gs_ * sizeof(float) / 32));
        } else {
            for (uint32_t g = 0; g < groups; ++g) {
                ReduceSum<float>(dst[g], src[g * gs_], scratch_, gs_);
            }
        }
    }

private:
    uint32_t gs_;
    bool whole_;
    LocalTensor<float> scratch_;
};

template <typename T>
class GroupStandardizeLeakyDouble {
public:
    __aicore__ inline GroupStandardizeLeakyDouble() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, uint32_t rows, uint32_t channels,
                                uint32_t gs, uint32_t gpc, uint32_t chunkCount, uint32_t rowsPerCore,
                                uint32_t rowsTail, uint32_t whole, float eps, float slope)
    {
        C_ = channels;
        gs_ = gs;
        gpc_ = gpc;
        chunkCount_ = chunkCount;
        chunkLen_ = gpc * gs;
        eps_ = eps;
        slope_ = slope;
        uint32_t bid = GetBlockIdx();
        rowCnt_ = rowsPerCore + (bid < rowsTail ? 1 : 0);
        row0_ = bid * rowsPerCore + (bid < rowsTail ? bid : rowsTail);

        xGm_.SetGlobalBuffer((__gm__ T*)x);
        yGm_.SetGlobalBuffer((__gm__ T*)y);
        gammaGm_.SetGlobalBuffer((__gm__ T*)gamma);
        betaGm_.SetGlobalBuffer((__gm__ T*)beta);

        pipe_.InitBuffer(inQ_, BUFFER_NUM, chunkLen_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, chunkLen_ * sizeof(T));
        pipe_.InitBuffer(affQ_, 1, 2 * chunkLen_ * sizeof(T));
        pipe_.InitBuffer(xf_, chunkLen_ * sizeof(float));
        pipe_.InitBuffer(sqf_, chunkLen_ * sizeof(float));
        pipe_.InitBuffer(gbf_, 2 * chunkLen_ * sizeof(float));
        // group stats: sum, sumsq, padded to a 32B multiple
        uint32_t statLen = (gpc + 7) / 8 * 8;
        pipe_.InitBuffer(statBuf_, 2 * statLen * sizeof(float));
        statLen_ = statLen;
        pipe_.InitBuffer(scratch_, 256 * sizeof(float));
        summer_.Setup(gs, whole != 0, scratch_.Get<float>());
    }

    __aicore__ inline void Process()
    {
        for (uint32_t c = 0; c < chunkCount_; ++c) {
            uint32_t col0 = c * chunkLen_;
            LoadAffine(col0);
            for (uint32_t r = 0; r < rowCnt_; ++r) {
                uint64_t off = (uint64_t)(row0_ + r) * C_ + col0;
                CopyIn(off);
                Compute();
                CopyOut(off);
            }
        }
    }

private:
    __aicore__ inline void LoadAffine(uint32_t col0)
    {
        LocalTensor<T> a = affQ_.AllocTensor<T>();
        DataCopy(a, gammaGm_[col0], chunkLen_);
        DataCopy(a[chunkLen_], betaGm_[col0], chunkLen_);
        affQ_.EnQue(a);
        a = affQ_.DeQue<T>();
        CastIn(gbf_.Get<float>(), a, 2 * chunkLen_);
        affQ_.FreeTensor(a);
    }

    __aicore__ inline void CopyIn(uint64_t off)
    {
        LocalTensor<T> t = inQ_.AllocTensor<T>();
        DataCopy(t, xGm_[off], chunkLen_);
        inQ_.EnQue(t);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<T> t = inQ_.DeQue<T>();
        LocalTensor<float> xv = xf_.Get<float>();
        LocalTensor<float> sq = sqf_.Get<float>();
        LocalTensor<float> st = statBuf_.Get<float>();
        LocalTensor<float> sum = st;
        LocalTensor<float> sumsq = st[statLen_];
        CastIn(xv, t, chunkLen_);
        inQ_.FreeTensor(t);

        Mul(sq, xv, xv, chunkLen_);
        summer_.Sum(sum, xv, gpc_);
        summer_.Sum(sumsq, sq, gpc_);
        float invGs = 1.0f / static_cast<float>(gs_);
        Muls(sum, sum, invGs, gpc_);          // mean
        Muls(sumsq, sumsq, invGs, gpc_);      // E[x^2]
        Mul(sq, sum, sum, gpc_);
        Sub(sumsq, sumsq, sq, gpc_);          // biased variance
        Adds(sumsq, sumsq, eps_, gpc_);
        Sqrt(sumsq, sumsq, gpc_);

        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        for (uint32_t g = 0; g < gpc_; ++g) {
            float mean = sum.GetValue(g);
            float rstd = 1.0f / sumsq.GetValue(g);
            LocalTensor<float> seg = xv[g * gs_];
            Adds(seg, seg, -mean, gs_);
            Muls(seg, seg, rstd, gs_);
        }
        LocalTensor<float> gb = gbf_.Get<float>();
        Mul(xv, xv, gb, chunkLen_);
        Add(xv, xv, gb[chunkLen_], chunkLen_);
        LeakyRelu(xv, xv, slope_, chunkLen_);
        Muls(xv, xv, 2.0f, chunkLen_);        // x + x

        LocalTensor<T> o = outQ_.AllocTensor<T>();
        CastOut(o, xv, chunkLen_);
        outQ_.EnQue(o);
    }

    __aicore__ inline void CopyOut(uint64_t off)
    {
        LocalTensor<T> o = outQ_.DeQue<T>();
        DataCopy(yGm_[off], o, chunkLen_);
        outQ_.FreeTensor(o);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECIN, 1> affQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<TPosition::VECCALC> xf_, sqf_, gbf_, statBuf_, scratch_;
    GlobalTensor<T> xGm_, yGm_, gammaGm_, betaGm_;
    GroupSummer summer_;
    uint32_t C_, gs_, gpc_, chunkCount_, chunkLen_, rowCnt_, row0_, statLen_;
    float eps_, slope_;
};

extern "C" __global__ __aicore__ void group_standardize_leaky_double_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                                                            GM_ADDR y, GM_ADDR workspace,
                                                                            GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        GroupStandardizeLeakyDouble<float> op;
        op.Init(x, gamma, beta, y, td.rows, td.channels, td.groupSize, td.groupsPerChunk, td.chunkCount,
                td.rowsPerCore, td.rowsTail, td.useWholeReduce, td.eps, td.slope);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        GroupStandardizeLeakyDouble<half> op;
        op.Init(x, gamma, beta, y, td.rows, td.channels, td.groupSize, td.groupsPerChunk, td.chunkCount,
                td.rowsPerCore, td.rowsTail, td.useWholeReduce, td.eps, td.slope);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// fc on the cube (addmm), then group norm + leaky relu + doubling fused in one vector pass.
at::Tensor group_standardize_leaky_double_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                   const at::Tensor& bias, const at::Tensor& gamma,
                                                   const at::Tensor& beta, int64_t num_groups, double eps,
                                                   double negative_slope)
{
    at::Tensor h = at::addmm(bias, x, weight.t()).contiguous();
    at::Tensor y = at::empty_like(h);
    float epsF = static_cast<float>(eps);
    float slopeF = static_cast<float>(negative_slope);
    EXEC_NPU_CMD(aclnnGroupStandardizeLeakyDoubleCustom, h, gamma, beta, num_groups, epsF, slopeF, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("group_standardize_leaky_double_custom", &group_standardize_leaky_double_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("group_standardize_leaky_double_custom", &group_standardize_leaky_double_impl_npu,
          "linear -> group norm -> leaky relu -> x + x");
}
"""

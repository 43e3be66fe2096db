project_json_src='''
[
    {
        "op": "SiluShiftGroupNormCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "h", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "shift", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "gamma", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "beta", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
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
BEGIN_TILING_DATA_DEF(SiluShiftGroupNormTiling)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, features);
  TILING_DATA_FIELD_DEF(uint32_t, featuresPad);   // features rounded up to 64 elements
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, groupSize);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraRows);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SiluShiftGroupNormCustom, SiluShiftGroupNormTiling)
}
"""

host_operator_src="""
#include "silu_shift_group_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
// key = dtype (1 fp32, 2 fp16) + 10 when every group fits one fp32 repeat
// (groupSize <= 64 and 32-byte aligned), so group sums come from one WholeReduceSum.
uint32_t MakeKey(ge::DataType dt, uint32_t groupSize)
{
    uint32_t key = dt == ge::DT_FLOAT16 ? 2 : 1;
    if (groupSize <= 64 && groupSize % 8 == 0) {
        key += 10;
    }
    return key;
}

uint64_t UbNeed(uint32_t fPad, uint32_t groups, uint32_t elemSize)
{
    uint64_t q = 4ULL * fPad * elemSize;             // in/out queues, two slots each
    uint64_t params = 3ULL * fPad * sizeof(float);   // shift, gamma, beta
    uint64_t work = 2ULL * fPad * sizeof(float);     // activated row + squares
    uint64_t stats = 4ULL * ((groups * 8 + 63) / 64 * 64) * sizeof(float);
    return q + params + work + stats;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SiluShiftGroupNormTiling tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::Shape& shp = context->GetInputShape(0)->GetStorageShape();
    uint32_t features = static_cast<uint32_t>(shp.GetDim(shp.GetDimNum() - 1));
    uint32_t rows = static_cast<uint32_t>(shp.GetShapeSize() / features);
    const int64_t* groupsAttr = context->GetAttrs()->GetInt(0);
    const float* epsAttr = context->GetAttrs()->GetFloat(1);
    uint32_t groups = static_cast<uint32_t>(*groupsAttr);
    if (groups == 0 || features % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t groupSize = features / groups;
    uint32_t fPad = (features + 63) / 64 * 64;
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemSize = dt == ge::DT_FLOAT16 ? 2 : 4;
    if (UbNeed(fPad, groups, elemSize) + 4096 > ubSize) {
        return ge::GRAPH_FAILED;  // a full row must stay resident
    }

    uint32_t used = coreNum == 0 ? 1 : coreNum;
    if (rows < used) used = rows == 0 ? 1 : rows;
    tiling.set_rows(rows);
    tiling.set_features(features);
    tiling.set_featuresPad(fPad);
    tiling.set_groups(groups);
    tiling.set_groupSize(groupSize);
    tiling.set_rowsPerCore(rows / used);
    tiling.set_extraRows(rows % used);
    tiling.set_eps(epsAttr == nullptr ? 1e-5f : *epsAttr);

    context->SetTilingKey(MakeKey(dt, groupSize));
    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
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
class SiluShiftGroupNormCustom : public OpDef {
public:
    explicit SiluShiftGroupNormCustom(const char* name) : OpDef(name)
    {
        const char* ins[] = {"h", "shift", "gamma", "beta"};
        for (const char* n : ins) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SiluShiftGroupNormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_REPEAT = 255;

__aicore__ inline void VecToScalarSync()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S));
    AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
}

__aicore__ inline void ScalarToVecSync()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
    AscendC::SetFlag<AscendC::HardEvent::S_V>(ev);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev);
}

// Per-group sums of src (groups x groupSize, contiguous) into dst[0..groups).
template <bool ONE_REPEAT_GROUPS>
__aicore__ inline void GroupSums(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                 const AscendC::LocalTensor<float>& slots, const AscendC::LocalTensor<float>& scratch,
                                 uint32_t groups, uint32_t groupSize)
{
    if constexpr (ONE_REPEAT_GROUPS) {
        // one repeat per group; srcRepStride counts 32-byte blocks
        uint16_t repStride = static_cast<uint16_t>(groupSize * sizeof(float) / 32);
        for (uint32_t g = 0; g < groups; g += MAX_REPEAT) {
            uint32_t rep = groups - g < MAX_REPEAT ? groups - g : MAX_REPEAT;
            AscendC::WholeReduceSum<float>(dst[g], src[g * groupSize], static_cast<int32_t>(groupSize),
                                           static_cast<int32_t>(rep), 1, 1, repStride);
        }
    } else {
        // each result lands in its own 32-byte slot, then gets packed by the scalar unit
        for (uint32_t g = 0; g < groups; ++g) {
            AscendC::ReduceSum<float>(slots[g * 8], src[g * groupSize], scratch, groupSize);
        }
        VecToScalarSync();
        for (uint32_t g = 0; g < groups; ++g) {
            dst.SetValue(g, slots.GetValue(g * 8));
        }
        ScalarToVecSync();
    }
}

template <typename T, bool ONE_REPEAT_GROUPS>
class SiluShiftGroupNorm {
public:
    __aicore__ inline SiluShiftGroupNorm() {}

    __aicore__ inline void Init(GM_ADDR h, GM_ADDR shift, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const SiluShiftGroupNormTiling& td)
    {
        feat_ = td.features;
        fPad_ = td.featuresPad;
        groups_ = td.groups;
        gs_ = td.groupSize;
        eps_ = td.eps;
        uint32_t idx = AscendC::GetBlockIdx();
        myRows_ = td.rowsPerCore + (idx < td.extraRows ? 1 : 0);
        rowBegin_ = idx * td.rowsPerCore + (idx < td.extraRows ? idx : td.extraRows);

        hGm_.SetGlobalBuffer((__gm__ T*)h);
        yGm_.SetGlobalBuffer((__gm__ T*)y);

        pipe_.InitBuffer(inQ_, BUFFER_NUM, fPad_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, fPad_ * sizeof(T));
        pipe_.InitBuffer(paramBuf_, 3 * fPad_ * sizeof(float));
        pipe_.InitBuffer(rowBuf_, fPad_ * sizeof(float));
        pipe_.InitBuffer(sqBuf_, fPad_ * sizeof(float));
        uint32_t gPad = (groups_ * 8 + 63) / 64 * 64;
        pipe_.InitBuffer(statBuf_, 4 * gPad * sizeof(float));

        AscendC::LocalTensor<float> p = paramBuf_.Get<float>();
        shiftF_ = p;
        gammaF_ = p[fPad_];
        betaF_ = p[2 * fPad_];
        AscendC::LocalTensor<float> st = statBuf_.Get<float>();
        mean_ = st;
        rstd_ = st[gPad];
        slots_ = st[2 * gPad];
        scratch_ = st[3 * gPad];

        LoadParam(shift, shiftF_);
        LoadParam(gamma, gammaF_);
        LoadParam(beta, betaF_);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < myRows_; ++r) {
            uint64_t off = static_cast<uint64_t>(rowBegin_ + r) * feat_;
            CopyIn(off);
            Compute();
            CopyOut(off);
        }
    }

private:
    // Parameter vectors are kept resident in fp32 for the whole launch.
    __aicore__ inline void LoadParam(GM_ADDR src, const AscendC::LocalTensor<float>& dst)
    {
        AscendC::GlobalTensor<T> g;
        g.SetGlobalBuffer((__gm__ T*)src, feat_);
        AscendC::LocalTensor<T> stage = inQ_.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(feat_ * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(stage, g, cp, pad);
        inQ_.EnQue(stage);
        stage = inQ_.DeQue<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::Adds(dst, stage, 0.0f, feat_);
        } else {
            AscendC::Cast(dst, stage, AscendC::RoundMode::CAST_NONE, feat_);
        }
        inQ_.FreeTensor(stage);
    }

    __aicore__ inline void CopyIn(uint64_t off)
    {
        AscendC::LocalTensor<T> v = inQ_.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(feat_ * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(v, hGm_[off], cp, pad);
        inQ_.EnQue(v);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> v = inQ_.DeQue<T>();
        AscendC::LocalTensor<float> x = rowBuf_.Get<float>();
        AscendC::LocalTensor<float> sq = sqBuf_.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::Adds(x, v, 0.0f, feat_);
        } else {
            AscendC::Cast(x, v, AscendC::RoundMode::CAST_NONE, feat_);
        }
        inQ_.FreeTensor(v);

        // silu(x) + shift
        AscendC::Muls(sq, x, -1.0f, feat_);
        AscendC::Exp(sq, sq, feat_);
        AscendC::Adds(sq, sq, 1.0f, feat_);
        AscendC::Div(x, x, sq, feat_);
        AscendC::Add(x, x, shiftF_, feat_);

        // group moments
        AscendC::Mul(sq, x, x, feat_);
        GroupSums<ONE_REPEAT_GROUPS>(mean_, x, slots_, scratch_, groups_, gs_);
        GroupSums<ONE_REPEAT_GROUPS>(rstd_, sq, slots_, scratch_, groups_, gs_);
        float inv = 1.0f / static_cast<float>(gs_);
        AscendC::Muls(mean_, mean_, inv, groups_);
        AscendC::Muls(rstd_, rstd_, inv, groups_);           // E[x^2]
        AscendC::Mul(scratch_, mean_, mean_, groups_);
        AscendC::Sub(rstd_, rstd_, scratch_, groups_);       // var
        AscendC::Maxs(rstd_, rstd_, 0.0f, groups_);
        AscendC::Adds(rstd_, rstd_, eps_, groups_);
        AscendC::Sqrt(rstd_, rstd_, groups_);
        AscendC::Duplicate(scratch_, 1.0f, groups_);
        AscendC::Div(rstd_, scratch_, rstd_, groups_);
        VecToScalarSync();

        for (uint32_t g = 0; g < groups_; ++g) {
            float m = mean_.GetValue(g);
            float rs = rstd_.GetValue(g);
            AscendC::LocalTensor<float> seg = x[g * gs_];
            AscendC::Adds(seg, seg, -m, gs_);
            AscendC::Muls(seg, seg, rs, gs_);
        }
        AscendC::Mul(x, x, gammaF_, feat_);
        AscendC::Add(x, x, betaF_, feat_);

        AscendC::LocalTensor<T> o = outQ_.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::Adds(o, x, 0.0f, feat_);
        } else {
            AscendC::Cast(o, x, AscendC::RoundMode::CAST_ROUND, feat_);
        }
        outQ_.EnQue(o);
    }

    __aicore__ inline void CopyOut(uint64_t off)
    {
        AscendC::LocalTensor<T> o = outQ_.DeQue<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(feat_ * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm_[off], o, cp);
        outQ_.FreeTensor(o);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ_;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> paramBuf_, rowBuf_, sqBuf_, statBuf_;
    AscendC::GlobalTensor<T> hGm_, yGm_;
    AscendC::LocalTensor<float> shiftF_, gammaF_, betaF_;
    AscendC::LocalTensor<float> mean_, rstd_, slots_, scratch_;
    uint32_t feat_, fPad_, groups_, gs_, rowBegin_, myRows_;
    float eps_;
};

template <typename T, bool FAST>
__aicore__ inline void RunSiluShiftGroupNorm(GM_ADDR h, GM_ADDR shift, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                             const SiluShiftGroupNormTiling& td)
{
    SiluShiftGroupNorm<T, FAST> op;
    op.Init(h, shift, gamma, beta, y, td);
    op.Process();
}

extern "C" __global__ __aicore__ void silu_shift_group_norm_custom(GM_ADDR h, GM_ADDR shift, GM_ADDR gamma,
                                                                   GM_ADDR beta, GM_ADDR y, GM_ADDR workspace,
                                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        RunSiluShiftGroupNorm<float, false>(h, shift, gamma, beta, y, td);
    } else if (TILING_KEY_IS(2)) {
        RunSiluShiftGroupNorm<half, false>(h, shift, gamma, beta, y, td);
    } else if (TILING_KEY_IS(11)) {
        RunSiluShiftGroupNorm<float, true>(h, shift, gamma, beta, y, td);
    } else if (TILING_KEY_IS(12)) {
        RunSiluShiftGroupNorm<half, true>(h, shift, gamma, beta, y, td);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Linear on the cube unit through at::linear; silu + bias + group norm fused per row.
at::Tensor silu_shift_group_norm_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& lin_bias,
                                          const at::Tensor& shift, const at::Tensor& gamma, const at::Tensor& beta,
                                          int64_t num_groups, double eps)
{
    at::Tensor h = at::linear(x, weight, lin_bias).contiguous();
    auto dt = h.scalar_type();
    at::Tensor s = shift.reshape({-1}).to(dt).contiguous();
    at::Tensor g = gamma.reshape({-1}).to(dt).contiguous();
    at::Tensor b = beta.reshape({-1}).to(dt).contiguous();
    at::Tensor y = at::empty_like(h);
    float epsF = static_cast<float>(eps);
    EXEC_NPU_CMD(aclnnSiluShiftGroupNormCustom, h, s, g, b, num_groups, epsF, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("silu_shift_group_norm_custom", &silu_shift_group_norm_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("silu_shift_group_norm_custom", &silu_shift_group_norm_impl_npu,
          "linear -> silu -> + bias -> group_norm",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("lin_bias"), pybind11::arg("shift"),
          pybind11::arg("gamma"), pybind11::arg("beta"), pybind11::arg("num_groups"), pybind11::arg("eps") = 1e-5);
}
"""

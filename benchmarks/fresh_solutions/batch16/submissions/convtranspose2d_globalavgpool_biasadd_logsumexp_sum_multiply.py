project_json_src='''
[
    {
        "op": "PlaneMeanProjectLseCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "proj", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "offset", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "scale", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PlaneMeanProjectLseTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inCh);
  TILING_DATA_FIELD_DEF(uint32_t, outCh);
  TILING_DATA_FIELD_DEF(uint32_t, outChPad);     // 64-element aligned row of proj in UB
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);    // H*W of input plane
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, batchPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraBatch);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PlaneMeanProjectLseCustom, PlaneMeanProjectLseTiling)
}
"""

host_operator_src="""
#include "plane_mean_project_lse_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

uint32_t ChooseTile(uint64_t ubBytes, uint32_t elemSize, uint32_t plane, uint64_t resident)
{
    // double-buffered input + fp32 accumulator + fp32 cast row
    uint64_t perElem = 2ULL * elemSize + 2ULL * sizeof(float);
    uint64_t avail = ubBytes > resident + 16 * 1024 ? ubBytes - resident - 16 * 1024 : 0;
    uint64_t t = avail / perElem / 64 * 64;
    if (t > 8192) t = 8192;
    if (t > AlignUp(plane, 64)) t = AlignUp(plane, 64);
    return static_cast<uint32_t>(t == 0 ? 64 : t);
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PlaneMeanProjectLseTiling tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ps = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ps.GetDimNum() != 2 || ps.GetDim(0) != xs.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t inCh = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t plane = static_cast<uint32_t>(xs.GetDim(2) * xs.GetDim(3));
    uint32_t outCh = static_cast<uint32_t>(ps.GetDim(1));
    uint32_t outChPad = AlignUp(outCh, 64);
    uint32_t elemSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;

    // proj (fp32) + staging + logits/work rows stay resident
    uint64_t resident = (static_cast<uint64_t>(inCh) * outChPad + 6ULL * outChPad) * sizeof(float) +
                        static_cast<uint64_t>(AlignUp(inCh, 64)) * sizeof(float);
    uint32_t tile = ChooseTile(ubSize, elemSize, plane, resident);

    // one batch item per core: its projection needs every input-channel sum
    uint32_t used = coreNum == 0 ? 1 : coreNum;
    if (batch < used) used = batch == 0 ? 1 : batch;
    const float* scaleAttr = context->GetAttrs()->GetFloat(0);

    tiling.set_batch(batch);
    tiling.set_inCh(inCh);
    tiling.set_outCh(outCh);
    tiling.set_outChPad(outChPad);
    tiling.set_planeSize(plane);
    tiling.set_tileLen(tile);
    tiling.set_batchPerCore(batch / used);
    tiling.set_extraBatch(batch % used);
    tiling.set_scale(scaleAttr == nullptr ? 1.0f : *scaleAttr);

    context->SetTilingKey(elemSize == 2 ? 2 : 1);
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
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(2);
    out->SetDim(0, xs->GetDim(0));
    out->SetDim(1, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class PlaneMeanProjectLseCustom : public OpDef {
public:
    explicit PlaneMeanProjectLseCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("proj")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("offset")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(PlaneMeanProjectLseCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

__aicore__ inline void WaitVecForScalar()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S));
    AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
}

__aicore__ inline void WaitScalarForVec()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
    AscendC::SetFlag<AscendC::HardEvent::S_V>(ev);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev);
}

// scale * log(sum(exp(v))) over n logits; result in out[0]. v is clobbered.
__aicore__ inline void ScaledLse(const AscendC::LocalTensor<float>& out, const AscendC::LocalTensor<float>& v,
                                 const AscendC::LocalTensor<float>& work, uint32_t n, float scale)
{
    AscendC::ReduceMax<float>(out, v, work, n, false);
    WaitVecForScalar();
    float peak = out.GetValue(0);
    WaitScalarForVec();
    AscendC::Adds(v, v, -peak, n);
    AscendC::Exp(v, v, n);
    AscendC::ReduceSum<float>(out, v, work, n);
    AscendC::Ln(out, out, 1);
    AscendC::Adds(out, out, peak, 1);
    AscendC::Muls(out, out, scale, 1);
}

/*
 * mean_{h,w}(conv_transpose2d(x, W) ) for stride-1, unpadded transposed conv equals
 *   sum_ci plane_sum(x[n, ci]) * sum_{kh,kw} W[ci, co] / (Hout * Wout) + conv_bias[co]
 * since every input pixel scatters all k*k taps inside the output. proj holds the
 * pre-divided tap sums, offset = conv_bias + extra bias. Only the input planes are streamed.
 */
template <typename T>
class PlaneMeanProjectLse {
public:
    __aicore__ inline PlaneMeanProjectLse() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR proj, GM_ADDR offset, GM_ADDR y,
                                const PlaneMeanProjectLseTiling& td)
    {
        inCh_ = td.inCh;
        outCh_ = td.outCh;
        ocPad_ = td.outChPad;
        plane_ = td.planeSize;
        tile_ = td.tileLen;
        scale_ = td.scale;
        uint32_t b = AscendC::GetBlockIdx();
        nBatch_ = td.batchPerCore + (b < td.extraBatch ? 1 : 0);
        batch0_ = b * td.batchPerCore + (b < td.extraBatch ? b : td.extraBatch);

        xGm_.SetGlobalBuffer((__gm__ T*)x);
        yGm_.SetGlobalBuffer((__gm__ T*)y);

        pipe_.InitBuffer(inQ_, BUFFER_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(outQ_, 1, 64 * sizeof(T));
        pipe_.InitBuffer(accBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(cvtBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(projBuf_, inCh_ * ocPad_ * sizeof(float));
        pipe_.InitBuffer(rowBuf_, 6 * ocPad_ * sizeof(float));
        pipe_.InitBuffer(sumBuf_, (inCh_ + 63) / 64 * 64 * sizeof(float));

        AscendC::LocalTensor<float> rows = rowBuf_.Get<float>();
        offset_ = rows;
        logits_ = rows[ocPad_];
        work_ = rows[2 * ocPad_];
        stage_ = rows[4 * ocPad_];   // two rows wide, fp16 staging fits

        projF_ = projBuf_.Get<float>();
        for (uint32_t ci = 0; ci < inCh_; ++ci) {
            LoadVector(proj, static_cast<uint64_t>(ci) * outCh_, projF_[ci * ocPad_]);
        }
        LoadVector(offset, 0, offset_);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t k = 0; k < nBatch_; ++k) {
            uint32_t n = batch0_ + k;
            AscendC::LocalTensor<float> sums = sumBuf_.Get<float>();
            for (uint32_t ci = 0; ci < inCh_; ++ci) {
                sums.SetValue(ci, PlaneSum(static_cast<uint64_t>(n) * inCh_ + ci));
            }
            WaitScalarForVec();
            Project(n, sums);
        }
    }

private:
    __aicore__ inline void LoadVector(GM_ADDR src, uint64_t off, const AscendC::LocalTensor<float>& dst)
    {
        AscendC::GlobalTensor<T> g;
        g.SetGlobalBuffer((__gm__ T*)src);
        AscendC::LocalTensor<T> st = stage_.template ReinterpretCast<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(outCh_ * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(st, g[off], cp, pad);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::MTE2_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(ev);
        AscendC::Duplicate(dst, 0.0f, ocPad_);
        if constexpr (std::is_same<T, float>::value) {
            AscendC::Adds(dst, st, 0.0f, outCh_);
        } else {
            AscendC::Cast(dst, st, AscendC::RoundMode::CAST_NONE, outCh_);
        }
        event_t ev2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_MTE2));
        AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(ev2);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(ev2);
    }

    // Streams one input plane and returns its element sum.
    __aicore__ inline float PlaneSum(uint64_t planeIdx)
    {
        AscendC::LocalTensor<float> acc = accBuf_.Get<float>();
        AscendC::LocalTensor<float> cvt = cvtBuf_.Get<float>();
        AscendC::Duplicate(acc, 0.0f, tile_);
        uint64_t base = planeIdx * plane_;
        for (uint32_t pos = 0; pos < plane_; pos += tile_) {
            uint32_t len = plane_ - pos < tile_ ? plane_ - pos : tile_;
            AscendC::LocalTensor<T> t = inQ_.AllocTensor<T>();
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            AscendC::DataCopyPad(t, xGm_[base + pos], cp, pad);
            inQ_.EnQue(t);
            t = inQ_.DeQue<T>();
            if constexpr (std::is_same<T, float>::value) {
                AscendC::Add(acc, acc, t, len);
            } else {
                AscendC::Cast(cvt, t, AscendC::RoundMode::CAST_NONE, len);
                AscendC::Add(acc, acc, cvt, len);
            }
            inQ_.FreeTensor(t);
        }
        uint32_t span = plane_ < tile_ ? plane_ : tile_;
        // staging row is idle after Init; it receives the scalar, cvt is the reduce workspace
        AscendC::ReduceSum<float>(stage_, acc, cvt, span);
        WaitVecForScalar();
        float total = stage_.GetValue(0);
        WaitScalarForVec();
        return total;
    }

    __aicore__ inline void Project(uint32_t n, const AscendC::LocalTensor<float>& sums)
    {
        AscendC::Adds(logits_, offset_, 0.0f, outCh_);
        for (uint32_t ci = 0; ci < inCh_; ++ci) {
            AscendC::Axpy(logits_, projF_[ci * ocPad_], sums.GetValue(ci), outCh_);
        }
        AscendC::LocalTensor<float> res = work_[ocPad_];
        ScaledLse(res, logits_, work_, outCh_, scale_);

        AscendC::LocalTensor<T> o = outQ_.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::Adds(o, res, 0.0f, 1);
        } else {
            AscendC::Cast(o, res, AscendC::RoundMode::CAST_ROUND, 1);
        }
        outQ_.EnQue(o);
        o = outQ_.DeQue<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm_[n], o, cp);
        outQ_.FreeTensor(o);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ_;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf_, cvtBuf_, projBuf_, rowBuf_, sumBuf_;
    AscendC::GlobalTensor<T> xGm_, yGm_;
    AscendC::LocalTensor<float> projF_, offset_, logits_, work_, stage_;
    uint32_t inCh_, outCh_, ocPad_, plane_, tile_, batch0_, nBatch_;
    float scale_;
};

extern "C" __global__ __aicore__ void plane_mean_project_lse_custom(GM_ADDR x, GM_ADDR proj, GM_ADDR offset,
                                                                    GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        PlaneMeanProjectLse<float> op;
        op.Init(x, proj, offset, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        PlaneMeanProjectLse<half> op;
        op.Init(x, proj, offset, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv_transpose2d (stride 1, no padding) -> global mean -> + bias -> logsumexp(C) -> * scale.
// The global mean of the transposed conv is linear in the input plane sums, so the
// conv itself is never materialised; weight tap sums are folded here.
at::Tensor plane_mean_project_lse_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                           const at::Tensor& conv_bias, const at::Tensor& bias, double scale)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected NCHW input and (Cin, Cout, kH, kW) weight");
    at::Tensor src = x.contiguous();
    int64_t outH = src.size(2) + weight.size(2) - 1;
    int64_t outW = src.size(3) + weight.size(3) - 1;
    double inv = 1.0 / static_cast<double>(outH * outW);
    at::Tensor proj = (weight.to(at::kFloat).sum({2, 3}) * inv).to(src.scalar_type()).contiguous();
    at::Tensor offset = (conv_bias.to(at::kFloat) + bias.reshape({-1}).to(at::kFloat))
                            .to(src.scalar_type()).contiguous();
    at::Tensor y = at::empty({src.size(0), 1}, src.options());
    float s = static_cast<float>(scale);
    EXEC_NPU_CMD(aclnnPlaneMeanProjectLseCustom, src, proj, offset, s, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("plane_mean_project_lse_custom", &plane_mean_project_lse_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("plane_mean_project_lse_custom", &plane_mean_project_lse_impl_npu,
          "mean(conv_transpose2d) + bias -> logsumexp over channels -> * scale",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("conv_bias"), pybind11::arg("bias"),
          pybind11::arg("scale") = 10.0);
}
"""

project_json_src='''
[
    {
        "op": "WindowMeanGeluPeakCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "h", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "peak", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "window", "param_type": "required", "type": "int"},
            {"name": "scale", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(WindowMeanGeluPeakTiling)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, colsPad);     // cols rounded to 64
  TILING_DATA_FIELD_DEF(uint32_t, window);
  TILING_DATA_FIELD_DEF(uint32_t, pooled);      // floor(cols / window)
  TILING_DATA_FIELD_DEF(uint32_t, pooledPad);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraRows);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(WindowMeanGeluPeakCustom, WindowMeanGeluPeakTiling)
}
"""

host_operator_src="""
#include "window_mean_gelu_peak_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    WindowMeanGeluPeakTiling tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::Shape& shp = context->GetInputShape(0)->GetStorageShape();
    uint32_t cols = static_cast<uint32_t>(shp.GetDim(shp.GetDimNum() - 1));
    uint32_t rows = static_cast<uint32_t>(shp.GetShapeSize() / cols);
    uint32_t window = static_cast<uint32_t>(*context->GetAttrs()->GetInt(0));
    const float* scaleAttr = context->GetAttrs()->GetFloat(1);
    if (window == 0 || cols < window) {
        return ge::GRAPH_FAILED;
    }
    uint32_t pooled = cols / window;
    uint32_t colsPad = RoundUp(cols, 64);
    uint32_t pooledPad = RoundUp(pooled, 64);
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemSize = dt == ge::DT_FLOAT16 ? 2 : 4;

    // queue(2 rows) + fp32 row + 4 pooled-sized fp32/u32 rows + result slots
    uint64_t need = 2ULL * colsPad * elemSize + colsPad * 4ULL + 4ULL * pooledPad * 4 + 8192;
    if (need > ubSize) {
        return ge::GRAPH_FAILED;
    }

    uint32_t used = coreNum == 0 ? 1 : coreNum;
    if (rows < used) used = rows == 0 ? 1 : rows;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_colsPad(colsPad);
    tiling.set_window(window);
    tiling.set_pooled(pooled);
    tiling.set_pooledPad(pooledPad);
    tiling.set_rowsPerCore(rows / used);
    tiling.set_extraRows(rows % used);
    tiling.set_scale(scaleAttr == nullptr ? 1.0f : *scaleAttr);

    // +10: windows of 8..64 fp32 (32-byte multiples) reduce with one WholeReduceSum repeat each
    uint32_t key = (dt == ge::DT_FLOAT16) ? 2 : 1;
    if (window % 8 == 0 && window <= 64) {
        key += 10;
    }
    context->SetTilingKey(key);
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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(in->GetDimNum() - 1);
    for (size_t i = 0; i + 1 < in->GetDimNum(); ++i) {
        out->SetDim(i, in->GetDim(i));
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class WindowMeanGeluPeakCustom : public OpDef {
public:
    explicit WindowMeanGeluPeakCustom(const char* name) : OpDef(name)
    {
        this->Input("h")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("peak")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("window").Int();
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(WindowMeanGeluPeakCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t REPEAT_CAP = 255;

namespace wmgp {

// Window sums: dst[j] = sum_{i<w} src[j*w + i].
template <bool BLOCK_WINDOWS>
struct WindowSum {
    __aicore__ static inline void Run(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                      const AscendC::LocalTensor<uint32_t>& offs, const AscendC::LocalTensor<float>& tmp,
                                      uint32_t w, uint32_t p)
    {
        if constexpr (BLOCK_WINDOWS) {
            uint16_t stride = static_cast<uint16_t>(w * sizeof(float) / 32);
            for (uint32_t j = 0; j < p; j += REPEAT_CAP) {
                uint32_t rep = p - j < REPEAT_CAP ? p - j : REPEAT_CAP;
                AscendC::WholeReduceSum<float>(dst[j], src[j * w], static_cast<int32_t>(w),
                                               static_cast<int32_t>(rep), 1, 1, stride);
            }
        } else {
            // any window: gather column i of every window and accumulate
            AscendC::Gather(dst, src, offs, 0, p);
            for (uint32_t i = 1; i < w; ++i) {
                AscendC::Gather(tmp, src, offs, static_cast<uint32_t>(i * sizeof(float)), p);
                AscendC::Add(dst, dst, tmp, p);
            }
        }
    }
};

// tanh-form GELU written through a logistic: x * sigmoid(2*sqrt(2/pi)*(x + 0.044715 x^3)).
__aicore__ inline void GeluTanh(const AscendC::LocalTensor<float>& x, const AscendC::LocalTensor<float>& t,
                                uint32_t n)
{
    AscendC::Mul(t, x, x, n);
    AscendC::Muls(t, t, 0.044715f, n);
    AscendC::Adds(t, t, 1.0f, n);
    AscendC::Mul(t, t, x, n);
    AscendC::Muls(t, t, -1.5957691216f, n);
    AscendC::Exp(t, t, n);
    AscendC::Adds(t, t, 1.0f, n);
    AscendC::Div(x, x, t, n);
}

}  // namespace wmgp

template <typename T, bool BLOCK_WINDOWS>
class WindowMeanGeluPeak {
public:
    __aicore__ inline WindowMeanGeluPeak() {}

    __aicore__ inline void Init(GM_ADDR h, GM_ADDR peak, const WindowMeanGeluPeakTiling& td)
    {
        cols_ = td.cols;
        colsPad_ = td.colsPad;
        w_ = td.window;
        p_ = td.pooled;
        pPad_ = td.pooledPad;
        scale_ = td.scale;
        uint32_t b = AscendC::GetBlockIdx();
        nRows_ = td.rowsPerCore + (b < td.extraRows ? 1 : 0);
        row0_ = b * td.rowsPerCore + (b < td.extraRows ? b : td.extraRows);

        hGm_.SetGlobalBuffer((__gm__ T*)h);
        peakGm_.SetGlobalBuffer((__gm__ T*)peak);

        pipe_.InitBuffer(rowQ_, BUFFER_NUM, colsPad_ * sizeof(T));
        resSlots_ = (nRows_ + 63) / 64 * 64 + 64;
        // fp32 maxima in the first half, fp16 copy (if any) in the second
        pipe_.InitBuffer(resQ_, 1, 2 * resSlots_ * sizeof(float));
        pipe_.InitBuffer(rowF_, colsPad_ * sizeof(float));
        pipe_.InitBuffer(poolBuf_, pPad_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, pPad_ * sizeof(float));
        pipe_.InitBuffer(workBuf_, pPad_ * sizeof(float));
        pipe_.InitBuffer(offBuf_, pPad_ * sizeof(uint32_t));

        if constexpr (!BLOCK_WINDOWS) {
            AscendC::LocalTensor<uint32_t> offs = offBuf_.Get<uint32_t>();
            for (uint32_t j = 0; j < p_; ++j) {
                offs.SetValue(j, j * w_ * static_cast<uint32_t>(sizeof(float)));
            }
            event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
            AscendC::SetFlag<AscendC::HardEvent::S_V>(ev);
            AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev);
        }
    }

    __aicore__ inline void Process()
    {
        if (nRows_ == 0) {
            return;
        }
        res_ = resQ_.AllocTensor<float>();
        for (uint32_t r = 0; r < nRows_; ++r) {
            Fetch(row0_ + r);
            Reduce(r);
        }
        Emit();
    }

private:
    __aicore__ inline void Fetch(uint32_t row)
    {
        AscendC::LocalTensor<T> v = rowQ_.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cols_ * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(v, hGm_[static_cast<uint64_t>(row) * cols_], cp, pad);
        rowQ_.EnQue(v);
    }

    __aicore__ inline void Reduce(uint32_t r)
    {
        AscendC::LocalTensor<T> v = rowQ_.DeQue<T>();
        AscendC::LocalTensor<float> xf;
        if constexpr (std::is_same<T, float>::value) {
            xf = v;
        } else {
            xf = rowF_.Get<float>();
            AscendC::Cast(xf, v, AscendC::RoundMode::CAST_NONE, cols_);
        }
        AscendC::LocalTensor<float> pool = poolBuf_.Get<float>();
        AscendC::LocalTensor<float> tmp = tmpBuf_.Get<float>();
        AscendC::LocalTensor<float> work = workBuf_.Get<float>();
        wmgp::WindowSum<BLOCK_WINDOWS>::Run(pool, xf, offBuf_.Get<uint32_t>(), tmp, w_, p_);
        rowQ_.FreeTensor(v);

        AscendC::Muls(pool, pool, 1.0f / static_cast<float>(w_), p_);
        wmgp::GeluTanh(pool, tmp, p_);
        AscendC::Muls(pool, pool, scale_, p_);
        AscendC::ReduceMax<float>(tmp, pool, work, p_, false);

        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
        res_.SetValue(r, tmp.GetValue(0));
        event_t ev2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(ev2);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev2);
    }

    // All row maxima of this core leave in one copy.
    __aicore__ inline void Emit()
    {
        resQ_.EnQue(res_);
        AscendC::LocalTensor<float> r = resQ_.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(nRows_ * sizeof(T)), 0, 0, 0};
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopyPad(peakGm_[row0_], r, cp);
        } else {
            AscendC::LocalTensor<half> rh = r[resSlots_].template ReinterpretCast<half>();
            AscendC::Cast(rh, r, AscendC::RoundMode::CAST_ROUND, nRows_);
            event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_MTE3));
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(ev);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(ev);
            AscendC::DataCopyPad(peakGm_[row0_], rh, cp);
        }
        resQ_.FreeTensor(r);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> rowQ_;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> resQ_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rowF_, poolBuf_, tmpBuf_, workBuf_, offBuf_;
    AscendC::GlobalTensor<T> hGm_, peakGm_;
    AscendC::LocalTensor<float> res_;
    uint32_t cols_, colsPad_, w_, p_, pPad_, row0_, nRows_, resSlots_;
    float scale_;
};

template <typename T, bool BW>
__aicore__ inline void RunWindowMeanGeluPeak(GM_ADDR h, GM_ADDR peak, const WindowMeanGeluPeakTiling& td)
{
    WindowMeanGeluPeak<T, BW> op;
    op.Init(h, peak, td);
    op.Process();
}

extern "C" __global__ __aicore__ void window_mean_gelu_peak_custom(GM_ADDR h, GM_ADDR peak, GM_ADDR workspace,
                                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        RunWindowMeanGeluPeak<float, false>(h, peak, td);
    } else if (TILING_KEY_IS(2)) {
        RunWindowMeanGeluPeak<half, false>(h, peak, td);
    } else if (TILING_KEY_IS(11)) {
        RunWindowMeanGeluPeak<float, true>(h, peak, td);
    } else if (TILING_KEY_IS(12)) {
        RunWindowMeanGeluPeak<half, true>(h, peak, td);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// at::linear for the GEMM; avg-pool(1d) + gelu + scale + row max fused in the custom op.
at::Tensor window_mean_gelu_peak_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                          int64_t window, double scale)
{
    at::Tensor h = at::linear(x, weight, bias).contiguous();
    std::vector<int64_t> outShape(h.sizes().begin(), h.sizes().end() - 1);
    at::Tensor peak = at::empty(outShape, h.options());
    float s = static_cast<float>(scale);
    EXEC_NPU_CMD(aclnnWindowMeanGeluPeakCustom, h, window, s, peak);
    return peak;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("window_mean_gelu_peak_custom", &window_mean_gelu_peak_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("window_mean_gelu_peak_custom", &window_mean_gelu_peak_impl_npu,
          "linear -> avg_pool1d(window) -> gelu -> * scale -> max over features",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("bias"), pybind11::arg("window"),
          pybind11::arg("scale") = 1.0);
}
"""

project_json_src='''
[
    {
        "op": "PlaneBilinearShrinkCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "out_h", "param_type": "required", "type": "int"},
            {"name": "out_w", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PlaneBilinearShrinkTiling)
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, inWPad);      // inW rounded to 64 elements
  TILING_DATA_FIELD_DEF(uint32_t, outWPad);
  TILING_DATA_FIELD_DEF(uint64_t, rowsPerCore); // output rows over all planes
  TILING_DATA_FIELD_DEF(uint64_t, extraRows);
  TILING_DATA_FIELD_DEF(float, scaleH);         // inH / outH (align_corners = false)
  TILING_DATA_FIELD_DEF(float, scaleW);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PlaneBilinearShrinkCustom, PlaneBilinearShrinkTiling)
}
"""

host_operator_src="""
#include "plane_bilinear_shrink_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t Pad64(uint32_t v) { return (v + 63) / 64 * 64; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PlaneBilinearShrinkTiling tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape& shp = context->GetInputShape(0)->GetStorageShape();
    if (shp.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint64_t planes = static_cast<uint64_t>(shp.GetDim(0)) * shp.GetDim(1);
    uint32_t inH = static_cast<uint32_t>(shp.GetDim(2));
    uint32_t inW = static_cast<uint32_t>(shp.GetDim(3));
    uint32_t outH = static_cast<uint32_t>(*context->GetAttrs()->GetInt(0));
    uint32_t outW = static_cast<uint32_t>(*context->GetAttrs()->GetInt(1));
    if (outH == 0 || outW == 0) {
        return ge::GRAPH_FAILED;
    }

    uint64_t rows = planes * outH;
    uint32_t used = coreNum == 0 ? 1 : coreNum;
    if (rows < used) used = static_cast<uint32_t>(rows == 0 ? 1 : rows);

    tiling.set_inH(inH);
    tiling.set_inW(inW);
    tiling.set_outH(outH);
    tiling.set_outW(outW);
    tiling.set_inWPad(Pad64(inW));
    tiling.set_outWPad(Pad64(outW));
    tiling.set_rowsPerCore(rows / used);
    tiling.set_extraRows(rows % used);
    tiling.set_scaleH(static_cast<float>(inH) / static_cast<float>(outH));
    tiling.set_scaleW(static_cast<float>(inW) / static_cast<float>(outW));

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 1);
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
    const auto* attrs = context->GetAttrs();
    *out = *in;
    out->SetDim(2, *attrs->GetInt(0));
    out->SetDim(3, *attrs->GetInt(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class PlaneBilinearShrinkCustom : public OpDef {
public:
    explicit PlaneBilinearShrinkCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("out_h").Int();
        this->Attr("out_w").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(PlaneBilinearShrinkCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Source coordinate for align_corners=false, clamped at 0 like PyTorch.
struct SrcCoord {
    uint32_t lo;
    uint32_t hi;
    float frac;
};

__aicore__ inline SrcCoord MapCoord(uint32_t dst, float scale, uint32_t inLen)
{
    float s = (static_cast<float>(dst) + 0.5f) * scale - 0.5f;
    if (s < 0.0f) {
        s = 0.0f;
    }
    SrcCoord c;
    c.lo = static_cast<uint32_t>(s);
    if (c.lo > inLen - 1) {
        c.lo = inLen - 1;
    }
    c.hi = c.lo + 1 < inLen ? c.lo + 1 : inLen - 1;
    c.frac = s - static_cast<float>(c.lo);
    return c;
}

template <typename T>
class PlaneBilinearShrink {
public:
    __aicore__ inline PlaneBilinearShrink() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const PlaneBilinearShrinkTiling& td)
    {
        inH_ = td.inH;
        inW_ = td.inW;
        outH_ = td.outH;
        outW_ = td.outW;
        inWPad_ = td.inWPad;
        outWPad_ = td.outWPad;
        scaleH_ = td.scaleH;
        uint64_t b = AscendC::GetBlockIdx();
        nRows_ = td.rowsPerCore + (b < td.extraRows ? 1 : 0);
        row0_ = b * td.rowsPerCore + (b < td.extraRows ? b : td.extraRows);

        xGm_.SetGlobalBuffer((__gm__ T*)x);
        yGm_.SetGlobalBuffer((__gm__ T*)y);

        // one queue slot holds the two source rows back to back
        pipe_.InitBuffer(inQ_, BUFFER_NUM, 2 * inWPad_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, outWPad_ * sizeof(T));
        pipe_.InitBuffer(rowsF_, 2 * inWPad_ * sizeof(float));
        pipe_.InitBuffer(gatherBuf_, 2 * outWPad_ * sizeof(float));
        pipe_.InitBuffer(colBuf_, 3 * outWPad_ * sizeof(uint32_t));

        // column taps are the same for every row: byte offsets + weights
        AscendC::LocalTensor<uint32_t> cols = colBuf_.Get<uint32_t>();
        offLo_ = cols;
        offHi_ = cols[outWPad_];
        wx_ = cols[2 * outWPad_].template ReinterpretCast<float>();
        for (uint32_t j = 0; j < outW_; ++j) {
            SrcCoord c = MapCoord(j, td.scaleW, inW_);
            offLo_.SetValue(j, c.lo * static_cast<uint32_t>(sizeof(float)));
            offHi_.SetValue(j, c.hi * static_cast<uint32_t>(sizeof(float)));
            wx_.SetValue(j, c.frac);
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint64_t k = 0; k < nRows_; ++k) {
            uint64_t r = row0_ + k;
            uint64_t plane = r / outH_;
            uint32_t oy = static_cast<uint32_t>(r % outH_);
            SrcCoord cy = MapCoord(oy, scaleH_, inH_);
            LoadRows(plane, cy);
            Blend(cy.frac);
            StoreRow(r);
        }
    }

private:
    __aicore__ inline void LoadRows(uint64_t plane, const SrcCoord& cy)
    {
        AscendC::LocalTensor<T> buf = inQ_.AllocTensor<T>();
        uint64_t base = plane * inH_ * inW_;
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(inW_ * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(buf, xGm_[base + static_cast<uint64_t>(cy.lo) * inW_], cp, pad);
        AscendC::DataCopyPad(buf[inWPad_], xGm_[base + static_cast<uint64_t>(cy.hi) * inW_], cp, pad);
        inQ_.EnQue(buf);
    }

    __aicore__ inline void Blend(float wy)
    {
        AscendC::LocalTensor<T> buf = inQ_.DeQue<T>();
        AscendC::LocalTensor<float> rows = rowsF_.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::Muls(rows, buf, 1.0f - wy, inW_);
            AscendC::Axpy(rows, buf[inWPad_], wy, inW_);
        } else {
            AscendC::Cast(rows, buf, AscendC::RoundMode::CAST_NONE, inW_);
            AscendC::Cast(rows[inWPad_], buf[inWPad_], AscendC::RoundMode::CAST_NONE, inW_);
            AscendC::Muls(rows, rows, 1.0f - wy, inW_);
            AscendC::Axpy(rows, rows[inWPad_], wy, inW_);
        }
        inQ_.FreeTensor(buf);

        // horizontal pass: gather left/right taps from the vertically blended row
        AscendC::LocalTensor<float> g = gatherBuf_.Get<float>();
        AscendC::LocalTensor<float> gLo = g;
        AscendC::LocalTensor<float> gHi = g[outWPad_];
        AscendC::Gather(gLo, rows, offLo_, 0, outW_);
        AscendC::Gather(gHi, rows, offHi_, 0, outW_);
        AscendC::Sub(gHi, gHi, gLo, outW_);
        AscendC::Mul(gHi, gHi, wx_, outW_);
        AscendC::Add(gLo, gLo, gHi, outW_);

        AscendC::LocalTensor<T> o = outQ_.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::Adds(o, gLo, 0.0f, outW_);
        } else {
            AscendC::Cast(o, gLo, AscendC::RoundMode::CAST_ROUND, outW_);
        }
        outQ_.EnQue(o);
    }

    __aicore__ inline void StoreRow(uint64_t r)
    {
        AscendC::LocalTensor<T> o = outQ_.DeQue<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(outW_ * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm_[r * outW_], o, cp);
        outQ_.FreeTensor(o);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ_;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rowsF_, gatherBuf_, colBuf_;
    AscendC::GlobalTensor<T> xGm_, yGm_;
    AscendC::LocalTensor<uint32_t> offLo_, offHi_;
    AscendC::LocalTensor<float> wx_;
    uint32_t inH_, inW_, outH_, outW_, inWPad_, outWPad_;
    uint64_t row0_, nRows_;
    float scaleH_;
};

extern "C" __global__ __aicore__ void plane_bilinear_shrink_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        PlaneBilinearShrink<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        PlaneBilinearShrink<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor plane_bilinear_shrink_impl_npu(const at::Tensor& x, int64_t out_h, int64_t out_w)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    at::Tensor src = x.contiguous();
    at::Tensor y = at::empty({src.size(0), src.size(1), out_h, out_w}, src.options());
    EXEC_NPU_CMD(aclnnPlaneBilinearShrinkCustom, src, out_h, out_w, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("plane_bilinear_shrink_custom", &plane_bilinear_shrink_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("plane_bilinear_shrink_custom", &plane_bilinear_shrink_impl_npu,
          "bilinear resize, align_corners=False",
          pybind11::arg("x"), pybind11::arg("out_h") = 60, pybind11::arg("out_w") = 80);
}
"""

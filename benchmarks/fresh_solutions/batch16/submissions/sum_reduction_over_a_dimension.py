project_json_src='''
[
    {
        "op": "AxisAccumulateCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "axis", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AxisAccumulateTiling)
  TILING_DATA_FIELD_DEF(uint32_t, outer);        // product of dims before axis
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);    // size of axis
  TILING_DATA_FIELD_DEF(uint32_t, inner);        // product of dims after axis
  TILING_DATA_FIELD_DEF(uint32_t, chunk);        // elements per slice (along inner, or along axis if inner == 1)
  TILING_DATA_FIELD_DEF(uint32_t, chunkPad);     // slice stride in UB, 32-byte aligned
  TILING_DATA_FIELD_DEF(uint32_t, chunksPerOuter);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoad);  // reduce rows fetched by one strided DMA
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AxisAccumulateCustom, AxisAccumulateTiling)
}
"""

host_operator_src="""
#include "axis_accumulate_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t SLICE_MAX = 2048;          // elements per slice
constexpr uint32_t LOAD_BYTES = 32 * 1024;    // one input queue slot

struct AxisView {
    uint64_t outer = 1;
    uint64_t len = 1;
    uint64_t inner = 1;
};

AxisView Collapse(const gert::Shape& shp, int64_t axis)
{
    AxisView v;
    int64_t rank = static_cast<int64_t>(shp.GetDimNum());
    if (axis < 0) axis += rank;
    for (int64_t i = 0; i < rank; ++i) {
        if (i < axis) v.outer *= shp.GetDim(i);
        else if (i == axis) v.len = shp.GetDim(i);
        else v.inner *= shp.GetDim(i);
    }
    return v;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AxisAccumulateTiling tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape& shp = context->GetInputShape(0)->GetStorageShape();
    int64_t axis = *context->GetAttrs()->GetInt(0);
    AxisView v = Collapse(shp, axis);
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemSize = dt == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t align = 32 / elemSize;
    bool lastAxis = (v.inner == 1);

    uint64_t span = lastAxis ? v.len : v.inner;
    uint32_t chunk = static_cast<uint32_t>(span < SLICE_MAX ? span : SLICE_MAX);
    uint32_t chunkPad = (chunk + align - 1) / align * align;
    uint32_t chunks = static_cast<uint32_t>((span + chunk - 1) / chunk);
    uint32_t rowsPerLoad = 1;
    if (!lastAxis) {
        rowsPerLoad = LOAD_BYTES / (chunkPad * elemSize);
        if (rowsPerLoad == 0) rowsPerLoad = 1;
        if (rowsPerLoad > v.len) rowsPerLoad = static_cast<uint32_t>(v.len);
        if (rowsPerLoad > 4095) rowsPerLoad = 4095;  // DMA block count limit
    }
    // last-axis mode: one unit per output element; otherwise one unit per (outer, slice)
    uint64_t units = lastAxis ? v.outer : v.outer * chunks;
    uint32_t used = coreNum == 0 ? 1 : coreNum;
    if (units < used) used = static_cast<uint32_t>(units == 0 ? 1 : units);

    tiling.set_outer(static_cast<uint32_t>(v.outer));
    tiling.set_reduceLen(static_cast<uint32_t>(v.len));
    tiling.set_inner(static_cast<uint32_t>(v.inner));
    tiling.set_chunk(chunk);
    tiling.set_chunkPad(chunkPad);
    tiling.set_chunksPerOuter(chunks);
    tiling.set_rowsPerLoad(rowsPerLoad);
    tiling.set_unitsPerCore(static_cast<uint32_t>(units / used));
    tiling.set_extraUnits(static_cast<uint32_t>(units % used));

    uint32_t key = (dt == ge::DT_FLOAT16 ? 2 : 1) + (lastAxis ? 10 : 0);
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
    int64_t axis = *context->GetAttrs()->GetInt(0);
    if (axis < 0) axis += static_cast<int64_t>(in->GetDimNum());
    *out = *in;
    out->SetDim(static_cast<size_t>(axis), 1);  // keepdim
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class AxisAccumulateCustom : public OpDef {
public:
    explicit AxisAccumulateCustom(const char* name) : OpDef(name)
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
        this->Attr("axis").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AxisAccumulateCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Adds a loaded slice (any element type) into an fp32 accumulator.
template <typename T>
__aicore__ inline void AccumulateSlice(const AscendC::LocalTensor<float>& acc, const AscendC::LocalTensor<T>& src,
                                       const AscendC::LocalTensor<float>& cvt, uint32_t n)
{
    if constexpr (std::is_same<T, float>::value) {
        AscendC::Add(acc, acc, src, n);
    } else {
        AscendC::Cast(cvt, src, AscendC::RoundMode::CAST_NONE, n);
        AscendC::Add(acc, acc, cvt, n);
    }
}

template <typename T, bool LAST_AXIS>
class AxisAccumulate {
public:
    __aicore__ inline AxisAccumulate() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AxisAccumulateTiling& td)
    {
        len_ = td.reduceLen;
        inner_ = td.inner;
        chunk_ = td.chunk;
        chunkPad_ = td.chunkPad;
        chunks_ = td.chunksPerOuter;
        rpl_ = td.rowsPerLoad;
        uint32_t b = AscendC::GetBlockIdx();
        nUnits_ = td.unitsPerCore + (b < td.extraUnits ? 1 : 0);
        unit0_ = b * td.unitsPerCore + (b < td.extraUnits ? b : td.extraUnits);

        xGm_.SetGlobalBuffer((__gm__ T*)x);
        yGm_.SetGlobalBuffer((__gm__ T*)y);

        pipe_.InitBuffer(inQ_, BUFFER_NUM, rpl_ * chunkPad_ * sizeof(T));
        pipe_.InitBuffer(accBuf_, chunkPad_ * sizeof(float));
        pipe_.InitBuffer(cvtBuf_, chunkPad_ * sizeof(float));
        if constexpr (LAST_AXIS) {
            resSlots_ = (nUnits_ + 63) / 64 * 64 + 64;
            pipe_.InitBuffer(outQ_, 1, 2 * resSlots_ * sizeof(float));
            pipe_.InitBuffer(workBuf_, chunkPad_ * sizeof(float));
        } else {
            pipe_.InitBuffer(outQ_, BUFFER_NUM, chunkPad_ * sizeof(T));
        }
    }

    __aicore__ inline void Process()
    {
        if (nUnits_ == 0) {
            return;
        }
        if constexpr (LAST_AXIS) {
            ReduceContiguous();
        } else {
            for (uint32_t u = 0; u < nUnits_; ++u) {
                ReduceStrided(unit0_ + u);
            }
        }
    }

private:
    // inner > 1: output slice [o, :, c0:c0+n] = sum over reduce rows
    __aicore__ inline void ReduceStrided(uint32_t unit)
    {
        uint32_t o = unit / chunks_;
        uint32_t c0 = (unit % chunks_) * chunk_;
        uint32_t n = inner_ - c0 < chunk_ ? inner_ - c0 : chunk_;
        uint64_t base = static_cast<uint64_t>(o) * len_ * inner_ + c0;
        AscendC::LocalTensor<float> acc = accBuf_.Get<float>();
        AscendC::LocalTensor<float> cvt = cvtBuf_.Get<float>();
        AscendC::Duplicate(acc, 0.0f, chunkPad_);

        for (uint32_t r = 0; r < len_; r += rpl_) {
            uint32_t rows = len_ - r < rpl_ ? len_ - r : rpl_;
            AscendC::LocalTensor<T> blk = inQ_.AllocTensor<T>();
            // rows strided by inner in GM, packed at chunkPad in UB
            AscendC::DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(n * sizeof(T)),
                                          static_cast<uint32_t>((inner_ - n) * sizeof(T)), 0, 0};
            AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            AscendC::DataCopyPad(blk, xGm_[base + static_cast<uint64_t>(r) * inner_], cp, pad);
            inQ_.EnQue(blk);
            blk = inQ_.DeQue<T>();
            for (uint32_t i = 0; i < rows; ++i) {
                AccumulateSlice<T>(acc, blk[i * chunkPad_], cvt, n);
            }
            inQ_.FreeTensor(blk);
        }

        AscendC::LocalTensor<T> out = outQ_.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::Adds(out, acc, 0.0f, n);
        } else {
            AscendC::Cast(out, acc, AscendC::RoundMode::CAST_ROUND, n);
        }
        outQ_.EnQue(out);
        out = outQ_.DeQue<T>();
        AscendC::DataCopyExtParams wp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm_[static_cast<uint64_t>(o) * inner_ + c0], out, wp);
        outQ_.FreeTensor(out);
    }

    // inner == 1: each unit is one contiguous run of len_ elements -> one scalar
    __aicore__ inline void ReduceContiguous()
    {
        AscendC::LocalTensor<float> acc = accBuf_.Get<float>();
        AscendC::LocalTensor<float> cvt = cvtBuf_.Get<float>();
        AscendC::LocalTensor<float> res = outQ_.AllocTensor<float>();
        for (uint32_t u = 0; u < nUnits_; ++u) {
            uint64_t base = static_cast<uint64_t>(unit0_ + u) * len_;
            AscendC::Duplicate(acc, 0.0f, chunkPad_);
            for (uint32_t c = 0; c < chunks_; ++c) {
                uint32_t off = c * chunk_;
                uint32_t n = len_ - off < chunk_ ? len_ - off : chunk_;
                AscendC::LocalTensor<T> blk = inQ_.AllocTensor<T>();
                AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
                AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
                AscendC::DataCopyPad(blk, xGm_[base + off], cp, pad);
                inQ_.EnQue(blk);
                blk = inQ_.DeQue<T>();
                AccumulateSlice<T>(acc, blk, cvt, n);
                inQ_.FreeTensor(blk);
            }
            AscendC::ReduceSum<float>(cvt, acc, workBuf_.Get<float>(), chunk_);
            event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S));
            AscendC::SetFlag<AscendC::HardEvent::V_S>(vs);
            AscendC::WaitFlag<AscendC::HardEvent::V_S>(vs);
            res.SetValue(u, cvt.GetValue(0));
            event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
            AscendC::SetFlag<AscendC::HardEvent::S_V>(sv);
            AscendC::WaitFlag<AscendC::HardEvent::S_V>(sv);
        }
        outQ_.EnQue(res);
        res = outQ_.DeQue<float>();
        AscendC::DataCopyExtParams wp{1, static_cast<uint32_t>(nUnits_ * sizeof(T)), 0, 0, 0};
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopyPad(yGm_[unit0_], res, wp);
        } else {
            AscendC::LocalTensor<half> rh = res[resSlots_].template ReinterpretCast<half>();
            AscendC::Cast(rh, res, AscendC::RoundMode::CAST_ROUND, nUnits_);
            event_t vm = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_MTE3));
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(vm);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(vm);
            AscendC::DataCopyPad(yGm_[unit0_], rh, wp);
        }
        outQ_.FreeTensor(res);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ_;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf_, cvtBuf_, workBuf_;
    AscendC::GlobalTensor<T> xGm_, yGm_;
    uint32_t len_, inner_, chunk_, chunkPad_, chunks_, rpl_;
    uint32_t unit0_, nUnits_, resSlots_ = 0;
};

extern "C" __global__ __aicore__ void axis_accumulate_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        AxisAccumulate<float, false> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        AxisAccumulate<half, false> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(11)) {
        AxisAccumulate<float, true> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(12)) {
        AxisAccumulate<half, true> op;
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

at::Tensor axis_accumulate_impl_npu(const at::Tensor& x, int64_t dim)
{
    at::Tensor src = x.contiguous();
    int64_t axis = dim < 0 ? dim + src.dim() : dim;
    TORCH_CHECK(axis >= 0 && axis < src.dim(), "dim out of range");
    std::vector<int64_t> outShape(src.sizes().begin(), src.sizes().end());
    outShape[axis] = 1;
    at::Tensor y = at::empty(outShape, src.options());
    EXEC_NPU_CMD(aclnnAxisAccumulateCustom, src, axis, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("axis_accumulate_custom", &axis_accumulate_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("axis_accumulate_custom", &axis_accumulate_impl_npu, "sum over one axis, keepdim=True");
}
"""

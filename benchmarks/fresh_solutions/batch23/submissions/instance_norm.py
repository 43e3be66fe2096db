project_json_src = '''
[
    {
        "op": "PlaneStandardizeCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "attr": [
            {"name": "epsilon", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PlaneStandardizeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // N * C independent planes
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);        // H * W
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsLeft);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, tileCount);
  TILING_DATA_FIELD_DEF(uint32_t, lastTileLen);
  TILING_DATA_FIELD_DEF(float, epsilon);
  TILING_DATA_FIELD_DEF(float, invLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PlaneStandardizeCustom, PlaneStandardizeTilingData)
}
"""

host_operator_src = """
#include "plane_standardize_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

class PlaneTilingPlanner {
public:
    PlaneTilingPlanner(uint64_t ub, uint32_t cores) : ubBytes_(ub), cores_(cores) {}

    void Plan(uint32_t rows, uint32_t rowLen, PlaneStandardizeTilingData &td) const
    {
        uint32_t used = rows < cores_ ? rows : cores_;
        used = used == 0 ? 1 : used;
        // 2 x double-buffered I/O tiles (<= fp32 size) + fp32 work, sum and square accumulators
        uint64_t perElem = 4 * sizeof(float) + 4 * sizeof(float);
        uint64_t tile = (ubBytes_ - 8192) / perElem;
        tile = tile / 64 * 64;
        tile = tile > 6144 ? 6144 : tile;
        uint32_t lenAligned = (rowLen + 63) / 64 * 64;
        uint32_t tileLen = static_cast<uint32_t>(tile < lenAligned ? tile : lenAligned);
        uint32_t tileCount = (rowLen + tileLen - 1) / tileLen;

        td.set_rows(rows);
        td.set_rowLen(rowLen);
        td.set_rowsPerCore(rows / used);
        td.set_rowsLeft(rows % used);
        td.set_tileLen(tileLen);
        td.set_tileCount(tileCount);
        td.set_lastTileLen(rowLen - (tileCount - 1) * tileLen);
        td.set_invLen(1.0f / static_cast<float>(rowLen));
        usedCores = used;
    }

    mutable uint32_t usedCores = 1;

private:
    uint64_t ubBytes_;
    uint32_t cores_;
};

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    const gert::Shape &shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() < 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = shape.GetDim(0) * shape.GetDim(1);
    uint32_t rowLen = 1;
    for (size_t d = 2; d < shape.GetDimNum(); ++d) {
        rowLen *= shape.GetDim(d);
    }

    PlaneStandardizeTilingData td;
    PlaneTilingPlanner planner(ub, plat.GetCoreNumAiv());
    planner.Plan(rows, rowLen, td);
    const float *eps = context->GetAttrs()->GetAttrPointer<float>(0);
    td.set_epsilon(eps != nullptr ? *eps : 1e-5f);

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(planner.usedCores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class PlaneStandardizeCustom : public OpDef {
public:
    explicit PlaneStandardizeCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PlaneStandardizeCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
struct FloatBridge;

template <>
struct FloatBridge<float> {
    __aicore__ static inline void Up(const LocalTensor<float> &d, const LocalTensor<float> &s, uint32_t n)
    {
        Adds(d, s, 0.0f, n);
    }
    __aicore__ static inline void Down(const LocalTensor<float> &d, const LocalTensor<float> &s, uint32_t n)
    {
        Adds(d, s, 0.0f, n);
    }
};

template <>
struct FloatBridge<half> {
    __aicore__ static inline void Up(const LocalTensor<float> &d, const LocalTensor<half> &s, uint32_t n)
    {
        Cast(d, s, RoundMode::CAST_NONE, n);
    }
    __aicore__ static inline void Down(const LocalTensor<half> &d, const LocalTensor<float> &s, uint32_t n)
    {
        Cast(d, s, RoundMode::CAST_ROUND, n);
    }
};

template <typename T>
class PlaneStandardizeKernel {
public:
    __aicore__ inline PlaneStandardizeKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const PlaneStandardizeTilingData &td)
    {
        td_ = td;
        uint32_t bid = GetBlockIdx();
        rowStart_ = bid * td.rowsPerCore + (bid < td.rowsLeft ? bid : td.rowsLeft);
        rowNum_ = td.rowsPerCore + (bid < td.rowsLeft ? 1 : 0);

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ T *)y);
        pipe_.InitBuffer(inQ_, BUFFER_NUM, td.tileLen * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, td.tileLen * sizeof(T));
        pipe_.InitBuffer(fBuf_, td.tileLen * sizeof(float));
        pipe_.InitBuffer(sumBuf_, td.tileLen * sizeof(float));
        pipe_.InitBuffer(sqBuf_, td.tileLen * sizeof(float));
        pipe_.InitBuffer(redBuf_, td.tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowNum_; ++r) {
            uint64_t base = static_cast<uint64_t>(rowStart_ + r) * td_.rowLen;
            float mean = 0.0f;
            float rstd = 0.0f;
            GatherMoments(base, mean, rstd);
            Normalize(base, mean, rstd);
        }
    }

private:
    __aicore__ inline uint32_t TileLen(uint32_t t) const
    {
        return (t + 1 == td_.tileCount) ? td_.lastTileLen : td_.tileLen;
    }

    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        LocalTensor<T> in = inQ_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(in, xGm_[off], cp, pad);
        inQ_.EnQue(in);
    }

    // Element-wise partial sums are kept in tile-sized accumulators and
    // reduced once per plane, which keeps fp32 rounding error small.
    __aicore__ inline void GatherMoments(uint64_t base, float &mean, float &rstd)
    {
        LocalTensor<float> f = fBuf_.Get<float>();
        LocalTensor<float> accS = sumBuf_.Get<float>();
        LocalTensor<float> accQ = sqBuf_.Get<float>();
        LocalTensor<float> red = redBuf_.Get<float>();
        Duplicate(accS, 0.0f, td_.tileLen);
        Duplicate(accQ, 0.0f, td_.tileLen);

        for (uint32_t t = 0; t < td_.tileCount; ++t) {
            uint32_t len = TileLen(t);
            Load(base + static_cast<uint64_t>(t) * td_.tileLen, len);
            LocalTensor<T> in = inQ_.DeQue<T>();
            FloatBridge<T>::Up(f, in, len);
            inQ_.FreeTensor(in);
            Add(accS, accS, f, len);
            Mul(f, f, f, len);
            Add(accQ, accQ, f, len);
        }
        uint32_t span = td_.tileCount > 1 ? td_.tileLen : td_.lastTileLen;
        ReduceSum(f, accS, red, span);
        ReduceSum(f[8], accQ, red, span);
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        mean = f.GetValue(0) * td_.invLen;
        float var = f.GetValue(8) * td_.invLen - mean * mean;
        var = var > 0.0f ? var : 0.0f;

        // 1 / sqrt(var + eps) on the vector unit
        event_t ev2 = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev2);
        WaitFlag<HardEvent::S_V>(ev2);
        Duplicate(f, var + td_.epsilon, 8);
        Sqrt(f, f, 8);
        Reciprocal(f, f, 8);
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        rstd = f.GetValue(0);
    }

    __aicore__ inline void Normalize(uint64_t base, float mean, float rstd)
    {
        LocalTensor<float> f = fBuf_.Get<float>();
        float shift = -mean * rstd;
        for (uint32_t t = 0; t < td_.tileCount; ++t) {
            uint32_t len = TileLen(t);
            uint64_t off = base + static_cast<uint64_t>(t) * td_.tileLen;
            Load(off, len);

            LocalTensor<T> in = inQ_.DeQue<T>();
            LocalTensor<T> out = outQ_.AllocTensor<T>();
            FloatBridge<T>::Up(f, in, len);
            inQ_.FreeTensor(in);
            Muls(f, f, rstd, len);
            Adds(f, f, shift, len);
            FloatBridge<T>::Down(out, f, len);
            outQ_.EnQue(out);

            LocalTensor<T> res = outQ_.DeQue<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm_[off], res, cp);
            outQ_.FreeTensor(res);
        }
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<TPosition::VECCALC> fBuf_, sumBuf_, sqBuf_, redBuf_;
    GlobalTensor<T> xGm_, yGm_;
    PlaneStandardizeTilingData td_;
    uint32_t rowStart_ = 0;
    uint32_t rowNum_ = 0;
};

extern "C" __global__ __aicore__ void plane_standardize_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        PlaneStandardizeKernel<half> k;
        k.Init(x, y, td);
        k.Process();
    } else if (TILING_KEY_IS(0)) {
        PlaneStandardizeKernel<float> k;
        k.Init(x, y, td);
        k.Process();
    }
}
"""

python_bind_src = """
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// InstanceNorm without affine: each (n, c) plane normalised by its own mean / variance
at::Tensor plane_standardize_impl_npu(const at::Tensor &x, double epsilon)
{
    TORCH_CHECK(x.dim() >= 3, "expected (N, C, spatial...) input");
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnPlaneStandardizeCustom, xc, epsilon, y);
    return y;
}

at::Tensor plane_standardize_default(const at::Tensor &x)
{
    return plane_standardize_impl_npu(x, 1e-5);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("plane_standardize_custom", &plane_standardize_default);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("plane_standardize_custom", &plane_standardize_impl_npu, "instance norm",
          pybind11::arg("x"), pybind11::arg("epsilon") = 1e-5);
}
"""

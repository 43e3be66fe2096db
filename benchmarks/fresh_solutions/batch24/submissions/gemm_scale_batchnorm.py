project_json_src='''
[
    {
        "op": "FeatureScaledBatchNormCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "scale", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "gamma", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "beta", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "z", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
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
BEGIN_TILING_DATA_DEF(FeatureScaledBatchNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);         // batch size N (reduction axis)
  TILING_DATA_FIELD_DEF(uint32_t, cols);         // feature count C
  TILING_DATA_FIELD_DEF(uint32_t, colTile);      // columns handled per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, rowChunk);     // rows moved per DataCopyPad
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tilesTail);    // first tilesTail cores take one extra tile
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(FeatureScaledBatchNormCustom, FeatureScaledBatchNormTilingData)
}
"""

host_operator_src="""
#include "feature_scaled_batch_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t UB_BUDGET = 160 * 1024;
constexpr uint32_t COL_TILE = 64;

struct ColumnSplit {
    uint32_t colTile;
    uint32_t rowChunk;
    uint32_t tileCount;
};

// Pick a row chunk so that 2x in + 2x out + float work fit in UB.
ColumnSplit MakeColumnSplit(uint32_t rows, uint32_t cols, uint32_t elemSize)
{
    ColumnSplit s;
    s.colTile = COL_TILE;
    s.tileCount = (cols + COL_TILE - 1) / COL_TILE;
    uint32_t perRow = COL_TILE * (elemSize * 4 + sizeof(float));
    uint32_t fixed = COL_TILE * sizeof(float) * 4;
    uint32_t chunk = (UB_BUDGET - fixed) / perRow;
    if (chunk > 4095) chunk = 4095;   // blockCount is uint16 and we keep headroom
    if (chunk > rows) chunk = rows;
    if (chunk == 0) chunk = 1;
    s.rowChunk = chunk;
    return s;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    FeatureScaledBatchNormTilingData tiling;
    auto shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t rows = shape.GetDim(0);
    uint32_t cols = shape.GetShapeSize() / rows;
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemSize = (dt == ge::DT_FLOAT16) ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    ColumnSplit split = MakeColumnSplit(rows, cols, elemSize);
    uint32_t used = split.tileCount < coreNum ? split.tileCount : coreNum;
    if (used == 0) used = 1;

    const float* eps = context->GetAttrs()->GetFloat(0);
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_colTile(split.colTile);
    tiling.set_rowChunk(split.rowChunk);
    tiling.set_tilesPerCore(split.tileCount / used);
    tiling.set_tilesTail(split.tileCount % used);
    tiling.set_eps(eps == nullptr ? 1e-5f : *eps);

    context->SetBlockDim(used);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
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
class FeatureScaledBatchNormCustom : public OpDef {
public:
    explicit FeatureScaledBatchNormCustom(const char* name) : OpDef(name)
    {
        const char* names[] = {"y", "scale", "gamma", "beta"};
        for (auto n : names) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(FeatureScaledBatchNormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;

__aicore__ inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// Converts a UB tile into the float work buffer (plain copy for float input).
template <typename T>
__aicore__ inline void WidenToFloat(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
{
    if constexpr (std::is_same<T, float>::value) {
        DataCopy(dst, src, n);
    } else {
        Cast(dst, src, RoundMode::CAST_NONE, n);
    }
}

template <typename T>
__aicore__ inline void NarrowFromFloat(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n)
{
    if constexpr (std::is_same<T, float>::value) {
        DataCopy(dst, src, n);
    } else {
        Cast(dst, src, RoundMode::CAST_ROUND, n);
    }
}

// Per-column batch norm of (y * scale): stats over the row axis, affine gamma/beta.
template <typename T>
class FeatureScaledBatchNorm {
public:
    __aicore__ inline FeatureScaledBatchNorm() {}
    __aicore__ inline void Init(GM_ADDR y, GM_ADDR scale, GM_ADDR gamma, GM_ADDR beta, GM_ADDR z,
                                uint32_t rows, uint32_t cols, uint32_t colTile, uint32_t rowChunk,
                                uint32_t tilesPerCore, uint32_t tilesTail, float eps)
    {
        rows_ = rows;
        cols_ = cols;
        colTile_ = colTile;
        rowChunk_ = rowChunk;
        eps_ = eps;
        uint32_t idx = GetBlockIdx();
        tileCnt_ = tilesPerCore + (idx < tilesTail ? 1 : 0);
        firstTile_ = idx * tilesPerCore + (idx < tilesTail ? idx : tilesTail);

        yGm_.SetGlobalBuffer((__gm__ T*)y);
        zGm_.SetGlobalBuffer((__gm__ T*)z);
        scaleGm_.SetGlobalBuffer((__gm__ T*)scale);
        gammaGm_.SetGlobalBuffer((__gm__ T*)gamma);
        betaGm_.SetGlobalBuffer((__gm__ T*)beta);

        // colTile is a multiple of 16, so each row of the tile is 32B aligned for both dtypes
        uint32_t tileElems = rowChunk_ * colTile_;
        pipe_.InitBuffer(inQue_, BUFFER_NUM, tileElems * sizeof(T));
        pipe_.InitBuffer(outQue_, BUFFER_NUM, tileElems * sizeof(T));
        pipe_.InitBuffer(workBuf_, tileElems * sizeof(float));
        pipe_.InitBuffer(statBuf_, colTile_ * sizeof(float) * 4);
        pipe_.InitBuffer(paramBuf_, colTile_ * sizeof(T) * 3);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < tileCnt_; ++t) {
            uint32_t c0 = (firstTile_ + t) * colTile_;
            uint32_t width = cols_ - c0 < colTile_ ? cols_ - c0 : colTile_;
            AccumulateStats(c0, width);
            BuildAffine(c0, width);
            ApplyAffine(c0, width);
        }
    }

private:
    __aicore__ inline void LoadChunk(uint32_t r0, uint32_t nr, uint32_t c0, uint32_t width)
    {
        LocalTensor<T> in = inQue_.AllocTensor<T>();
        DataCopyExtParams cp{(uint16_t)nr, (uint32_t)(width * sizeof(T)),
                             (uint32_t)((cols_ - width) * sizeof(T)), 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(in, yGm_[(uint64_t)r0 * cols_ + c0], cp, pad);
        inQue_.EnQue(in);
    }

    __aicore__ inline void AccumulateStats(uint32_t c0, uint32_t width)
    {
        LocalTensor<float> stat = statBuf_.Get<float>();
        LocalTensor<float> sum = stat;
        LocalTensor<float> sq = stat[colTile_];
        LocalTensor<float> work = workBuf_.Get<float>();
        Duplicate(sum, 0.0f, colTile_);
        Duplicate(sq, 0.0f, colTile_);
        for (uint32_t r0 = 0; r0 < rows_; r0 += rowChunk_) {
            uint32_t nr = rows_ - r0 < rowChunk_ ? rows_ - r0 : rowChunk_;
            LoadChunk(r0, nr, c0, width);
            LocalTensor<T> in = inQue_.DeQue<T>();
            WidenToFloat(work, in, nr * colTile_);
            inQue_.FreeTensor(in);
            PipeBarrier<PIPE_V>();
            for (uint32_t r = 0; r < nr; ++r) {
                LocalTensor<float> row = work[r * colTile_];
                Add(sum, sum, row, colTile_);
                Mul(row, row, row, colTile_);
                Add(sq, sq, row, colTile_);
            }
        }
    }

    // A = s*g/sqrt(s^2*var + eps), B = beta - A*mean (stats of the unscaled column).
    __aicore__ inline void BuildAffine(uint32_t c0, uint32_t width)
    {
        LocalTensor<float> stat = statBuf_.Get<float>();
        LocalTensor<float> mean = stat;
        LocalTensor<float> var = stat[colTile_];
        LocalTensor<float> a = stat[2 * colTile_];
        LocalTensor<float> b = stat[3 * colTile_];
        LocalTensor<T> prm = paramBuf_.Get<T>();
        DataCopyExtParams cp{1, (uint32_t)(width * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(prm, scaleGm_[c0], cp, pad);
        DataCopyPad(prm[colTile_], gammaGm_[c0], cp, pad);
        DataCopyPad(prm[2 * colTile_], betaGm_[c0], cp, pad);
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);

        float invN = 1.0f / static_cast<float>(rows_);
        Muls(mean, mean, invN, colTile_);
        Muls(var, var, invN, colTile_);
        Mul(a, mean, mean, colTile_);
        Sub(var, var, a, colTile_);                 // biased variance
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> s = work;
        LocalTensor<float> g = work[colTile_];
        LocalTensor<float> be = work[2 * colTile_];
        WidenToFloat(s, prm, colTile_);
        WidenToFloat(g, prm[colTile_], colTile_);
        WidenToFloat(be, prm[2 * colTile_], colTile_);
        Mul(a, s, s, colTile_);
        Mul(var, var, a, colTile_);
        Adds(var, var, eps_, colTile_);
        Sqrt(var, var, colTile_);
        Mul(a, s, g, colTile_);
        Div(a, a, var, colTile_);
        Mul(b, a, mean, colTile_);
        Sub(b, be, b, colTile_);
    }

    __aicore__ inline void ApplyAffine(uint32_t c0, uint32_t width)
    {
        LocalTensor<float> stat = statBuf_.Get<float>();
        LocalTensor<float> a = stat[2 * colTile_];
        LocalTensor<float> b = stat[3 * colTile_];
        LocalTensor<float> work = workBuf_.Get<float>();
        for (uint32_t r0 = 0; r0 < rows_; r0 += rowChunk_) {
            uint32_t nr = rows_ - r0 < rowChunk_ ? rows_ - r0 : rowChunk_;
            LoadChunk(r0, nr, c0, width);
            LocalTensor<T> in = inQue_.DeQue<T>();
            WidenToFloat(work, in, nr * colTile_);
            inQue_.FreeTensor(in);
            PipeBarrier<PIPE_V>();
            for (uint32_t r = 0; r < nr; ++r) {
                LocalTensor<float> row = work[r * colTile_];
                Mul(row, row, a, colTile_);
                Add(row, row, b, colTile_);
            }
            LocalTensor<T> out = outQue_.AllocTensor<T>();
            NarrowFromFloat(out, work, nr * colTile_);
            outQue_.EnQue(out);
            out = outQue_.DeQue<T>();
            DataCopyExtParams cp{(uint16_t)nr, (uint32_t)(width * sizeof(T)), 0,
                                 (uint32_t)((cols_ - width) * sizeof(T)), 0};
            DataCopyPad(zGm_[(uint64_t)r0 * cols_ + c0], out, cp);
            outQue_.FreeTensor(out);
        }
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue_;
    TBuf<TPosition::VECCALC> workBuf_, statBuf_, paramBuf_;
    GlobalTensor<T> yGm_, zGm_, scaleGm_, gammaGm_, betaGm_;
    uint32_t rows_, cols_, colTile_, rowChunk_, tileCnt_, firstTile_;
    float eps_;
};

extern "C" __global__ __aicore__ void feature_scaled_batch_norm_custom(GM_ADDR y, GM_ADDR scale, GM_ADDR gamma,
                                                                       GM_ADDR beta, GM_ADDR z, GM_ADDR workspace,
                                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        FeatureScaledBatchNorm<float> op;
        op.Init(y, scale, gamma, beta, z, td.rows, td.cols, td.colTile, td.rowChunk, td.tilesPerCore,
                td.tilesTail, td.eps);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        FeatureScaledBatchNorm<half> op;
        op.Init(y, scale, gamma, beta, z, td.rows, td.cols, td.colTile, td.rowChunk, td.tilesPerCore,
                td.tilesTail, td.eps);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Linear layer on the cube via addmm, then the fused scale + batch-statistics norm kernel.
at::Tensor feature_scaled_batch_norm_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                              const at::Tensor& scale, const at::Tensor& gamma,
                                              const at::Tensor& beta, double eps)
{
    at::Tensor y = at::addmm(bias, x, weight.t()).contiguous();
    at::Tensor z = at::empty_like(y);
    float epsF = static_cast<float>(eps);
    EXEC_NPU_CMD(aclnnFeatureScaledBatchNormCustom, y, scale, gamma, beta, epsF, z);
    return z;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("feature_scaled_batch_norm_custom", &feature_scaled_batch_norm_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("feature_scaled_batch_norm_custom", &feature_scaled_batch_norm_impl_npu,
          "linear -> per-feature scale -> batch-stat batch norm");
}
"""

project_json_src='''
[
    {
        "op": "ColumnStatNormSwishCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "z",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            },
            {
                "name": "gamma",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float"]
            },
            {
                "name": "beta",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "attr": [
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"},
            {"name": "shift", "param_type": "optional", "type": "float", "default_value": "0.0"},
            {"name": "divisor", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ColumnStatNormSwishTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);
  TILING_DATA_FIELD_DEF(uint32_t, rowChunk);
  TILING_DATA_FIELD_DEF(uint32_t, slabs);
  TILING_DATA_FIELD_DEF(uint32_t, slabsPerCore);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, shift);
  TILING_DATA_FIELD_DEF(float, invDivisor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ColumnStatNormSwishCustom, ColumnStatNormSwishTilingData)
}
"""

host_operator_src="""
#include "column_stat_norm_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t COL_TILE = 64;      // 256B of float per row: whole 32B blocks for both dtypes
constexpr uint32_t BLOCK_ELEMS = 4096; // rowChunk * colTile per staged block (in/out queues double-buffered)

static float AttrOr(gert::TilingContext* ctx, size_t idx, float dflt)
{
    const float* p = ctx->GetAttrs()->GetAttrPointer<float>(idx);
    return p == nullptr ? dflt : *p;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& zs = context->GetInputShape(0)->GetStorageShape();
    if (zs.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = zs.GetDim(0);
    uint32_t cols = zs.GetDim(1);
    float divisor = AttrOr(context, 2, 1.0f);
    if (rows == 0 || divisor == 0.0f) {
        return ge::GRAPH_FAILED;
    }

    uint32_t colTile = cols < COL_TILE ? (cols + 15) / 16 * 16 : COL_TILE;
    uint32_t rowChunk = BLOCK_ELEMS / colTile;
    if (rowChunk > rows) {
        rowChunk = rows;
    }
    uint32_t slabs = (cols + colTile - 1) / colTile;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (slabs + cores - 1) / cores;

    ColumnStatNormSwishTilingData td;
    td.set_rows(rows);
    td.set_cols(cols);
    td.set_colTile(colTile);
    td.set_rowChunk(rowChunk);
    td.set_slabs(slabs);
    td.set_slabsPerCore(perCore);
    td.set_eps(AttrOr(context, 0, 1e-5f));
    td.set_shift(AttrOr(context, 1, 0.0f));
    td.set_invDivisor(1.0f / divisor);

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim((slabs + perCore - 1) / perCore);
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
class ColumnStatNormSwishCustom : public OpDef {
public:
    explicit ColumnStatNormSwishCustom(const char* name) : OpDef(name)
    {
        this->Input("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("shift").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("divisor").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ColumnStatNormSwishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct SlabParams {
    uint32_t rows, cols, colTile, rowChunk, slabs, slabsPerCore;
    float eps, shift, invDiv;
};

// Per-column affine coefficients: y = x * a + b, where
// a = gamma / sqrt(var + eps) / div, b = (beta - mean * gamma / sqrt(var + eps) + shift) / div
struct ColumnAffine {
    __aicore__ static inline void Build(const LocalTensor<float>& a, const LocalTensor<float>& b,
                                        const LocalTensor<float>& mean, const LocalTensor<float>& var,
                                        const LocalTensor<float>& gamma, const LocalTensor<float>& beta,
                                        const SlabParams& p, uint32_t n)
    {
        Adds(var, var, p.eps, n);
        PipeBarrier<PIPE_V>();
        Sqrt(var, var, n);
        PipeBarrier<PIPE_V>();
        Div(a, gamma, var, n);
        PipeBarrier<PIPE_V>();
        Mul(b, mean, a, n);
        PipeBarrier<PIPE_V>();
        Sub(b, beta, b, n);
        PipeBarrier<PIPE_V>();
        Adds(b, b, p.shift, n);
        Muls(a, a, p.invDiv, n);
        PipeBarrier<PIPE_V>();
        Muls(b, b, p.invDiv, n);
        PipeBarrier<PIPE_V>();
    }
};

template <typename T>
class ColumnStatNormSwish {
public:
    __aicore__ inline ColumnStatNormSwish() {}

    __aicore__ inline void Init(GM_ADDR z, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, const SlabParams& prm)
    {
        p = prm;
        blockElems = p.rowChunk * p.colTile;
        zGm.SetGlobalBuffer((__gm__ T*)z);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        gGm.SetGlobalBuffer((__gm__ float*)gamma, p.cols);
        bGm.SetGlobalBuffer((__gm__ float*)beta, p.cols);

        pipe.InitBuffer(inQue, BUFFER_NUM, blockElems * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, blockElems * sizeof(T));
        pipe.InitBuffer(paramQue, 1, 2 * p.colTile * sizeof(float));
        pipe.InitBuffer(workBuf, blockElems * sizeof(float));
        pipe.InitBuffer(tmpBuf, blockElems * sizeof(float));
        // mean, var, a, b rows
        pipe.InitBuffer(statBuf, 4 * p.colTile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t s0 = GetBlockIdx() * p.slabsPerCore;
        uint32_t s1 = s0 + p.slabsPerCore < p.slabs ? s0 + p.slabsPerCore : p.slabs;
        for (uint32_t s = s0; s < s1; ++s) {
            uint32_t col0 = s * p.colTile;
            uint32_t width = p.cols - col0 < p.colTile ? p.cols - col0 : p.colTile;
            LocalTensor<float> st = statBuf.Get<float>();
            LocalTensor<float> mean = st;
            LocalTensor<float> var = st[p.colTile];
            ColumnMoment(col0, width, mean, nullptr);
            ColumnMoment(col0, width, var, &mean);
            PrepareAffine(col0, width);
            Apply(col0, width);
        }
    }

private:
    __aicore__ inline void LoadBlock(uint32_t r0, uint32_t nRows, uint32_t col0, uint32_t width)
    {
        LocalTensor<T> blk = inQue.AllocTensor<T>();
        // nRows strided bursts; every UB row padded to colTile
        DataCopyExtParams cp{static_cast<uint16_t>(nRows), static_cast<uint32_t>(width * sizeof(T)),
                             static_cast<uint32_t>((p.cols - width) * sizeof(T)),
                             static_cast<uint32_t>((p.colTile * sizeof(T) - (width * sizeof(T) + 31) / 32 * 32) / 32), 0};
        DataCopyPadExtParams<T> np{false, 0, 0, 0};
        DataCopyPad(blk, zGm[(uint64_t)r0 * p.cols + col0], cp, np);
        inQue.EnQue(blk);
    }

    __aicore__ inline LocalTensor<float> WidenBlock(uint32_t nRows)
    {
        LocalTensor<T> blk = inQue.DeQue<T>();
        LocalTensor<float> w = workBuf.Get<float>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(w, blk, nRows * p.colTile);
        } else {
            Cast(w, blk, RoundMode::CAST_NONE, nRows * p.colTile);
        }
        inQue.FreeTensor(blk);
        PipeBarrier<PIPE_V>();
        return w;
    }

    // center == nullptr: column mean; otherwise biased variance around *center
    __aicore__ inline void ColumnMoment(uint32_t col0, uint32_t width, const LocalTensor<float>& dst,
                                        const LocalTensor<float>* center)
    {
        Duplicate(dst, 0.0f, p.colTile);
        PipeBarrier<PIPE_V>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        for (uint32_t r0 = 0; r0 < p.rows; r0 += p.rowChunk) {
            uint32_t nRows = p.rows - r0 < p.rowChunk ? p.rows - r0 : p.rowChunk;
            LoadBlock(r0, nRows, col0, width);
            LocalTensor<float> w = WidenBlock(nRows);
            for (uint32_t r = 0; r < nRows; ++r) {
                if (center == nullptr) {
                    Add(dst, dst, w[r * p.colTile], p.colTile);
                } else {
                    Sub(tmp[r * p.colTile], w[r * p.colTile], *center, p.colTile);
                    PipeBarrier<PIPE_V>();
                    Mul(tmp[r * p.colTile], tmp[r * p.colTile], tmp[r * p.colTile], p.colTile);
                    PipeBarrier<PIPE_V>();
                    Add(dst, dst, tmp[r * p.colTile], p.colTile);
                }
                PipeBarrier<PIPE_V>();
            }
        }
        Muls(dst, dst, 1.0f / static_cast<float>(p.rows), p.colTile);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void PrepareAffine(uint32_t col0, uint32_t width)
    {
        LocalTensor<float> gb = paramQue.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(width * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0};
        DataCopyPad(gb, gGm[col0], cp, np);
        DataCopyPad(gb[p.colTile], bGm[col0], cp, np);
        paramQue.EnQue(gb);
        gb = paramQue.DeQue<float>();
        LocalTensor<float> st = statBuf.Get<float>();
        ColumnAffine::Build(st[2 * p.colTile], st[3 * p.colTile], st, st[p.colTile], gb, gb[p.colTile], p,
                            p.colTile);
        paramQue.FreeTensor(gb);
    }

    __aicore__ inline void Apply(uint32_t col0, uint32_t width)
    {
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> a = st[2 * p.colTile];
        LocalTensor<float> b = st[3 * p.colTile];
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        for (uint32_t r0 = 0; r0 < p.rows; r0 += p.rowChunk) {
            uint32_t nRows = p.rows - r0 < p.rowChunk ? p.rows - r0 : p.rowChunk;
            uint32_t n = nRows * p.colTile;
            LoadBlock(r0, nRows, col0, width);
            LocalTensor<float> w = WidenBlock(nRows);
            for (uint32_t r = 0; r < nRows; ++r) {
                Mul(w[r * p.colTile], w[r * p.colTile], a, p.colTile);
                PipeBarrier<PIPE_V>();
                Add(w[r * p.colTile], w[r * p.colTile], b, p.colTile);
            }
            PipeBarrier<PIPE_V>();
            // swish: v / (1 + exp(-v))
            Muls(tmp, w, -1.0f, n);
            PipeBarrier<PIPE_V>();
            Exp(tmp, tmp, n);
            PipeBarrier<PIPE_V>();
            Adds(tmp, tmp, 1.0f, n);
            PipeBarrier<PIPE_V>();
            Div(w, w, tmp, n);
            PipeBarrier<PIPE_V>();

            LocalTensor<T> out = outQue.AllocTensor<T>();
            if constexpr (IsSameType<T, float>::value) {
                DataCopy(out, w, n);
            } else {
                Cast(out, w, RoundMode::CAST_ROUND, n);
            }
            outQue.EnQue(out);
            out = outQue.DeQue<T>();
            DataCopyExtParams cp{static_cast<uint16_t>(nRows), static_cast<uint32_t>(width * sizeof(T)),
                                 static_cast<uint32_t>((p.colTile * sizeof(T) - (width * sizeof(T) + 31) / 32 * 32) / 32),
                                 static_cast<uint32_t>((p.cols - width) * sizeof(T)), 0};
            DataCopyPad(yGm[(uint64_t)r0 * p.cols + col0], out, cp);
            outQue.FreeTensor(out);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECIN, 1> paramQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> workBuf, tmpBuf, statBuf;
    GlobalTensor<T> zGm, yGm;
    GlobalTensor<float> gGm, bGm;
    SlabParams p;
    uint32_t blockElems;
};

extern "C" __global__ __aicore__ void column_stat_norm_swish_custom(GM_ADDR z, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SlabParams prm{td.rows, td.cols, td.colTile, td.rowChunk, td.slabs, td.slabsPerCore,
                   td.eps, td.shift, td.invDivisor};
    if (TILING_KEY_IS(1)) {
        ColumnStatNormSwish<half> op;
        op.Init(z, gamma, beta, y, prm);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        ColumnStatNormSwish<float> op;
        op.Init(z, gamma, beta, y, prm);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y = swish((batchnorm_train(z) + shift) / divisor), statistics over dim 0
at::Tensor column_stat_norm_swish_impl_npu(const at::Tensor& z, const at::Tensor& gamma, const at::Tensor& beta,
                                           double eps, double shift, double divisor)
{
    TORCH_CHECK(z.dim() == 2, "expected a 2-D (batch, features) tensor");
    at::Tensor zc = z.contiguous();
    at::Tensor g = gamma.to(at::kFloat).contiguous();
    at::Tensor b = beta.to(at::kFloat).contiguous();
    at::Tensor y = at::empty_like(zc);
    EXEC_NPU_CMD(aclnnColumnStatNormSwishCustom, zc, g, b, eps, shift, divisor, y);
    return y;
}

// Linear on the cube through aten, then the fused statistics/normalise/swish kernel.
at::Tensor linear_bn_swish_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& linBias,
                                    const at::Tensor& gamma, const at::Tensor& beta, const at::Tensor& extraBias,
                                    double eps, double divisor)
{
    at::Tensor z = at::addmm(linBias, x, weight.t());
    double shift = extraBias.item<double>();
    return column_stat_norm_swish_impl_npu(z, gamma, beta, eps, shift, divisor);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("column_stat_norm_swish_custom", &column_stat_norm_swish_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("column_stat_norm_swish_custom", &column_stat_norm_swish_impl_npu,
          "batch-statistics norm + shift + divide + swish");
    m.def("linear_bn_swish", &linear_bn_swish_impl_npu, "linear + batchnorm(train) + bias + divide + swish");
}
"""

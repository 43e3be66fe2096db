project_json_src='''
[
    {
        "op": "ColumnBatchNormSwishCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "beta", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "shift", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "output_desc": [
            {"name": "z", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "attr": [
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"},
            {"name": "divisor", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ColumnBatchNormSwishTiling)
  TILING_DATA_FIELD_DEF(uint32_t, rows);       // batch dimension (reduced over)
  TILING_DATA_FIELD_DEF(uint32_t, cols);       // feature dimension
  TILING_DATA_FIELD_DEF(uint32_t, stripCols);  // columns handled per strip
  TILING_DATA_FIELD_DEF(uint32_t, stripNum);
  TILING_DATA_FIELD_DEF(uint32_t, rowChunk);   // rows moved per DataCopy
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invDivisor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ColumnBatchNormSwishCustom, ColumnBatchNormSwishTiling)
}
"""

host_operator_src="""
#include "column_batch_norm_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t STRIP_COLS = 128;   // multiple of 16 -> 32B aligned for half and float
constexpr uint32_t UB_BUDGET = 160 * 1024;

// Bytes of UB used by one (rowChunk x stripCols) step:
// in/out queues double buffered in T, two float work tiles, six float vectors of stripCols.
uint32_t PickRowChunk(uint32_t rows, uint32_t typeSize)
{
    uint32_t perRow = STRIP_COLS * (4 * typeSize + 2 * sizeof(float));
    uint32_t fixed = 6 * STRIP_COLS * sizeof(float) + 2 * STRIP_COLS * typeSize;
    uint32_t chunk = (UB_BUDGET - fixed) / perRow;
    chunk = chunk > 64 ? 64 : chunk;
    return chunk > rows ? rows : chunk;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ColumnBatchNormSwishTiling tiling;
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    if (shape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(1));
    if (cols % 16 != 0) {
        return ge::GRAPH_FAILED;   // strided copies need 32B aligned rows
    }
    auto dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dtype == ge::DT_FLOAT16) ? 2 : 4;

    auto attrs = context->GetAttrs();
    float eps = *attrs->GetAttrPointer<float>(0);
    float divisor = *attrs->GetAttrPointer<float>(1);

    uint32_t stripNum = (cols + STRIP_COLS - 1) / STRIP_COLS;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t blockDim = stripNum < coreNum ? stripNum : coreNum;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_stripCols(STRIP_COLS);
    tiling.set_stripNum(stripNum);
    tiling.set_rowChunk(PickRowChunk(rows, typeSize));
    tiling.set_eps(eps);
    tiling.set_invDivisor(1.0f / divisor);

    context->SetBlockDim(blockDim);
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
class ColumnBatchNormSwishCustom : public OpDef {
public:
    explicit ColumnBatchNormSwishCustom(const char* name) : OpDef(name)
    {
        const char* ins[] = {"y", "gamma", "beta", "shift"};
        for (const char* n : ins) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("divisor").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ColumnBatchNormSwishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
__aicore__ inline void WidenTo(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
{
    if constexpr (IsSameType<T, float>::value) {
        Adds(dst, src, 0.0f, n);
    } else {
        Cast(dst, src, RoundMode::CAST_NONE, n);
    }
}

template <typename T>
__aicore__ inline void NarrowTo(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n)
{
    if constexpr (IsSameType<T, float>::value) {
        Adds(dst, src, 0.0f, n);
    } else {
        Cast(dst, src, RoundMode::CAST_ROUND, n);
    }
}

// x * sigmoid(x) = x / (1 + exp(-x)), tmp is clobbered
__aicore__ inline void SwishInPlace(const LocalTensor<float>& x, const LocalTensor<float>& tmp, uint32_t n)
{
    Muls(tmp, x, -1.0f, n);
    Exp(tmp, tmp, n);
    Adds(tmp, tmp, 1.0f, n);
    Div(x, x, tmp, n);
}

template <typename T>
class ColumnBnSwishKernel {
public:
    __aicore__ inline ColumnBnSwishKernel() {}
    __aicore__ inline void Init(GM_ADDR y, GM_ADDR gamma, GM_ADDR beta, GM_ADDR shift, GM_ADDR z,
                                const ColumnBatchNormSwishTiling& t)
    {
        rows = t.rows;
        cols = t.cols;
        stripCols = t.stripCols;
        stripNum = t.stripNum;
        rowChunk = t.rowChunk;
        eps = t.eps;
        invDiv = t.invDivisor;

        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)rows * cols);
        zGm.SetGlobalBuffer((__gm__ T*)z, (uint64_t)rows * cols);
        gammaGm.SetGlobalBuffer((__gm__ T*)gamma, cols);
        betaGm.SetGlobalBuffer((__gm__ T*)beta, cols);
        shiftGm.SetGlobalBuffer((__gm__ T*)shift, 1);

        uint32_t tileElems = rowChunk * stripCols;
        pipe.InitBuffer(inQue, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(workBuf, tileElems * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileElems * sizeof(float));
        pipe.InitBuffer(paramQue, 1, 2 * stripCols * sizeof(T));
        // sum | sumSq | scale | offset | gammaF | betaF
        pipe.InitBuffer(vecBuf, 6 * stripCols * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        float shiftVal = static_cast<float>(shiftGm.GetValue(0));
        for (uint32_t s = GetBlockIdx(); s < stripNum; s += GetBlockNum()) {
            uint32_t col0 = s * stripCols;
            uint32_t width = (col0 + stripCols <= cols) ? stripCols : (cols - col0);
            GatherStats(col0, width);
            BuildAffine(col0, width, shiftVal);
            Normalize(col0, width);
        }
    }

private:
    __aicore__ inline void CopyInChunk(uint32_t row0, uint32_t nRows, uint32_t col0, uint32_t width)
    {
        LocalTensor<T> buf = inQue.AllocTensor<T>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(nRows);
        p.blockLen = static_cast<uint16_t>(width * sizeof(T) / 32);
        p.srcStride = static_cast<uint16_t>((cols - width) * sizeof(T) / 32);
        p.dstStride = 0;
        DataCopy(buf, yGm[(uint64_t)row0 * cols + col0], p);
        inQue.EnQue(buf);
    }

    __aicore__ inline void GatherStats(uint32_t col0, uint32_t width)
    {
        LocalTensor<float> vec = vecBuf.Get<float>();
        LocalTensor<float> sum = vec;
        LocalTensor<float> sq = vec[stripCols];
        LocalTensor<float> work = workBuf.Get<float>();
        Duplicate(sum, 0.0f, width);
        Duplicate(sq, 0.0f, width);
        for (uint32_t r = 0; r < rows; r += rowChunk) {
            uint32_t n = (r + rowChunk <= rows) ? rowChunk : (rows - r);
            CopyInChunk(r, n, col0, width);
            LocalTensor<T> in = inQue.DeQue<T>();
            WidenTo<T>(work, in, n * width);
            inQue.FreeTensor(in);
            for (uint32_t i = 0; i < n; ++i) {
                Add(sum, sum, work[i * width], width);
            }
            Mul(work, work, work, n * width);
            for (uint32_t i = 0; i < n; ++i) {
                Add(sq, sq, work[i * width], width);
            }
        }
    }

    __aicore__ inline void BuildAffine(uint32_t col0, uint32_t width, float shiftVal)
    {
        LocalTensor<float> vec = vecBuf.Get<float>();
        LocalTensor<float> mean = vec;
        LocalTensor<float> var = vec[stripCols];
        LocalTensor<float> scale = vec[2 * stripCols];
        LocalTensor<float> offset = vec[3 * stripCols];
        LocalTensor<float> g = vec[4 * stripCols];
        LocalTensor<float> b = vec[5 * stripCols];

        LocalTensor<T> prm = paramQue.AllocTensor<T>();
        DataCopy(prm, gammaGm[col0], width);
        DataCopy(prm[stripCols], betaGm[col0], width);
        paramQue.EnQue(prm);
        prm = paramQue.DeQue<T>();
        WidenTo<T>(g, prm, width);
        WidenTo<T>(b, prm[stripCols], width);
        paramQue.FreeTensor(prm);

        float invRows = 1.0f / static_cast<float>(rows);
        Muls(mean, mean, invRows, width);
        Muls(var, var, invRows, width);
        Mul(offset, mean, mean, width);          // offset used as scratch for mean^2
        Sub(var, var, offset, width);            // biased variance, as BN training mode
        Adds(var, var, eps, width);
        Sqrt(var, var, width);
        Div(scale, g, var, width);               // gamma / sqrt(var + eps)
        Muls(scale, scale, invDiv, width);
        // offset = (beta + shift) / div - mean * scale
        Adds(b, b, shiftVal, width);
        Muls(b, b, invDiv, width);
        Mul(offset, mean, scale, width);
        Sub(offset, b, offset, width);
    }

    __aicore__ inline void Normalize(uint32_t col0, uint32_t width)
    {
        LocalTensor<float> vec = vecBuf.Get<float>();
        LocalTensor<float> scale = vec[2 * stripCols];
        LocalTensor<float> offset = vec[3 * stripCols];
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        for (uint32_t r = 0; r < rows; r += rowChunk) {
            uint32_t n = (r + rowChunk <= rows) ? rowChunk : (rows - r);
            CopyInChunk(r, n, col0, width);
            LocalTensor<T> in = inQue.DeQue<T>();
            WidenTo<T>(work, in, n * width);
            inQue.FreeTensor(in);
            for (uint32_t i = 0; i < n; ++i) {
                Mul(work[i * width], work[i * width], scale, width);
                Add(work[i * width], work[i * width], offset, width);
            }
            SwishInPlace(work, tmp, n * width);

            LocalTensor<T> out = outQue.AllocTensor<T>();
            NarrowTo<T>(out, work, n * width);
            outQue.EnQue(out);
            out = outQue.DeQue<T>();
            DataCopyParams p;
            p.blockCount = static_cast<uint16_t>(n);
            p.blockLen = static_cast<uint16_t>(width * sizeof(T) / 32);
            p.srcStride = 0;
            p.dstStride = static_cast<uint16_t>((cols - width) * sizeof(T) / 32);
            DataCopy(zGm[(uint64_t)r * cols + col0], out, p);
            outQue.FreeTensor(out);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TQue<QuePosition::VECIN, 1> paramQue;
    TBuf<QuePosition::VECCALC> workBuf, tmpBuf, vecBuf;
    GlobalTensor<T> yGm, zGm, gammaGm, betaGm, shiftGm;
    uint32_t rows, cols, stripCols, stripNum, rowChunk;
    float eps, invDiv;
};

extern "C" __global__ __aicore__ void column_batch_norm_swish_custom(GM_ADDR y, GM_ADDR gamma, GM_ADDR beta,
                                                                     GM_ADDR shift, GM_ADDR z,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ColumnBnSwishKernel<DTYPE_Y> op;
    op.Init(y, gamma, beta, shift, z, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Linear layer on the cube unit through aten, then the fused batch-stat normalisation,
// scalar bias, division and swish in one custom kernel.
at::Tensor column_batch_norm_swish_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                            const at::Tensor& linearBias, const at::Tensor& gamma,
                                            const at::Tensor& beta, const at::Tensor& shift,
                                            double eps, double divisor)
{
    at::Tensor y = at::linear(x, weight, linearBias).contiguous();
    at::Tensor g = gamma.to(y.scalar_type()).contiguous();
    at::Tensor b = beta.to(y.scalar_type()).contiguous();
    at::Tensor s = shift.to(y.scalar_type()).reshape({1}).contiguous();
    at::Tensor out = at::empty_like(y);
    EXEC_NPU_CMD(aclnnColumnBatchNormSwishCustom, y, g, b, s, eps, divisor, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("column_batch_norm_swish_custom", &column_batch_norm_swish_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("column_batch_norm_swish_custom", &column_batch_norm_swish_impl_npu,
          "swish((batchnorm(linear(x)) + shift) / divisor)");
}
"""

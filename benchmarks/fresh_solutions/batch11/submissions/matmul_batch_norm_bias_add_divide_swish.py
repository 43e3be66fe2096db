project_json_src='''
[
    {
        "op": "FeatureNormSwishCustom",
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
            },
            {
                "name": "bias",
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
            {
                "name": "eps",
                "param_type": "optional",
                "type": "float",
                "default_value": "1e-5"
            },
            {
                "name": "divisor",
                "param_type": "optional",
                "type": "float",
                "default_value": "1.0"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FeatureNormSwishTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // batch
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // features
  TILING_DATA_FIELD_DEF(uint32_t, sliceW);        // features per column slice (multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, numSlices);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, slicesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, biasLen);       // 1 (broadcast scalar) or cols
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invDivisor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(FeatureNormSwishCustom, FeatureNormSwishTilingData)
}
"""

host_operator_src="""
#include "feature_norm_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t SLICE_W = 128;
constexpr uint32_t TILE_ELEMS = 4096;   // rowsPerTile * sliceW, fp32

struct SliceLayout {
    uint32_t width;
    uint32_t slices;
    uint32_t rowsPerTile;
};

SliceLayout PlanSlices(uint32_t rows, uint32_t cols, uint32_t cores)
{
    SliceLayout s;
    s.width = SLICE_W;
    // narrow the slices when there are too few to occupy every core
    while (s.width > 16 && (cols + s.width - 1) / s.width < cores) {
        s.width /= 2;
    }
    s.slices = (cols + s.width - 1) / s.width;
    s.rowsPerTile = TILE_ELEMS / s.width;
    if (s.rowsPerTile > rows) {
        s.rowsPerTile = rows;
    }
    return s;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& zs = context->GetInputShape(0)->GetOriginShape();
    if (zs.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = zs.GetDim(0);
    uint32_t cols = zs.GetDim(1);
    uint32_t biasLen = context->GetInputShape(3)->GetOriginShape().GetShapeSize();
    if (biasLen != 1 && biasLen != cols) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    float eps = *attrs->GetFloat(0);
    float divisor = *attrs->GetFloat(1);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    SliceLayout lay = PlanSlices(rows, cols, cores);
    uint32_t perCore = (lay.slices + cores - 1) / cores;

    FeatureNormSwishTilingData td;
    td.set_rows(rows);
    td.set_cols(cols);
    td.set_sliceW(lay.width);
    td.set_numSlices(lay.slices);
    td.set_rowsPerTile(lay.rowsPerTile);
    td.set_slicesPerCore(perCore);
    td.set_biasLen(biasLen);
    td.set_eps(eps);
    td.set_invDivisor(1.0f / divisor);

    // key 0: half activations, key 1: float
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 0 : 1);
    context->SetBlockDim((lay.slices + perCore - 1) / perCore);
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
class FeatureNormSwishCustom : public OpDef {
public:
    explicit FeatureNormSwishCustom(const char* name) : OpDef(name)
    {
        this->Input("z").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
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
OP_ADD(FeatureNormSwishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Column-slice view of a row-major [rows, cols] matrix: each UB row is sliceW wide,
// GM rows are cols apart; DataCopyPad pads a narrow tail slice up to a 32 B block.
template <typename T>
struct SliceCopy {
    __aicore__ static inline DataCopyExtParams Params(uint32_t nRows, uint32_t width, uint32_t sliceW, uint32_t cols)
    {
        constexpr uint32_t perBlk = 32 / sizeof(T);
        uint32_t ubGap = (sliceW - (width + perBlk - 1) / perBlk * perBlk) / perBlk;
        return DataCopyExtParams{static_cast<uint16_t>(nRows), static_cast<uint32_t>(width * sizeof(T)),
                                 static_cast<uint32_t>((cols - width) * sizeof(T)), ubGap, 0};
    }
};

// swish(((z - mean) * rstd * gamma + beta + bias) / divisor), batch statistics per column
template <typename T>
class FeatureNormSwish {
public:
    __aicore__ inline FeatureNormSwish() {}

    __aicore__ inline void Init(GM_ADDR z, GM_ADDR gamma, GM_ADDR beta, GM_ADDR bias, GM_ADDR y,
                                const FeatureNormSwishTilingData& td)
    {
        p = td;
        zGm.SetGlobalBuffer((__gm__ T*)z, (uint64_t)p.rows * p.cols);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)p.rows * p.cols);
        gGm.SetGlobalBuffer((__gm__ float*)gamma, p.cols);
        bGm.SetGlobalBuffer((__gm__ float*)beta, p.cols);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, p.biasLen);

        uint32_t tileElems = p.rowsPerTile * p.sliceW;
        pipe.InitBuffer(inQ, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(paramQ, 1, 3 * p.sliceW * sizeof(float));   // gamma | beta | bias slice
        pipe.InitBuffer(workBuf, tileElems * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileElems * sizeof(float));
        pipe.InitBuffer(statBuf, 4 * p.sliceW * sizeof(float));     // sum | sumsq | scale | shift
    }

    __aicore__ inline void Process()
    {
        uint32_t s0 = GetBlockIdx() * p.slicesPerCore;
        uint32_t s1 = s0 + p.slicesPerCore < p.numSlices ? s0 + p.slicesPerCore : p.numSlices;
        for (uint32_t s = s0; s < s1; ++s) {
            uint32_t c0 = s * p.sliceW;
            uint32_t width = c0 + p.sliceW <= p.cols ? p.sliceW : p.cols - c0;
            Statistics(c0, width);
            FoldParams(c0, width);
            Apply(c0, width);
        }
    }

private:
    __aicore__ inline uint32_t RowsAt(uint32_t r0) const
    {
        return r0 + p.rowsPerTile <= p.rows ? p.rowsPerTile : p.rows - r0;
    }

    __aicore__ inline void CopyIn(uint32_t r0, uint32_t nRows, uint32_t c0, uint32_t width)
    {
        LocalTensor<T> t = inQ.AllocTensor<T>();
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(t, zGm[(uint64_t)r0 * p.cols + c0], SliceCopy<T>::Params(nRows, width, p.sliceW, p.cols), pad);
        inQ.EnQue(t);
    }

    __aicore__ inline LocalTensor<float> Widen(uint32_t count)
    {
        LocalTensor<T> t = inQ.DeQue<T>();
        LocalTensor<float> w = workBuf.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(w, t, count);
        } else {
            Cast(w, t, RoundMode::CAST_NONE, count);
        }
        inQ.FreeTensor(t);
        return w;
    }

    __aicore__ inline void Statistics(uint32_t c0, uint32_t width)
    {
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> sum = st;
        LocalTensor<float> sq = st[p.sliceW];
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        Duplicate(sum, 0.0f, 2 * p.sliceW);
        for (uint32_t r0 = 0; r0 < p.rows; r0 += p.rowsPerTile) {
            uint32_t nRows = RowsAt(r0);
            CopyIn(r0, nRows, c0, width);
            LocalTensor<float> w = Widen(nRows * p.sliceW);
            Mul(tmp, w, w, nRows * p.sliceW);
            for (uint32_t r = 0; r < nRows; ++r) {
                Add(sum, sum, w[r * p.sliceW], p.sliceW);
                Add(sq, sq, tmp[r * p.sliceW], p.sliceW);
            }
        }
    }

    // scale = gamma * rstd / div ; shift = (beta + bias - mean * gamma * rstd) / div
    __aicore__ inline void FoldParams(uint32_t c0, uint32_t width)
    {
        LocalTensor<float> pr = paramQ.AllocTensor<float>();
        DataCopyExtParams one{1, static_cast<uint32_t>(width * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(pr, gGm[c0], one, pad);
        DataCopyPad(pr[p.sliceW], bGm[c0], one, pad);
        if (p.biasLen != 1) {
            DataCopyPad(pr[2 * p.sliceW], biasGm[c0], one, pad);
        }
        paramQ.EnQue(pr);
        pr = paramQ.DeQue<float>();
        LocalTensor<float> gam = pr;
        LocalTensor<float> bet = pr[p.sliceW];
        LocalTensor<float> bia = pr[2 * p.sliceW];
        if (p.biasLen == 1) {
            Duplicate(bia, biasGm.GetValue(0), p.sliceW);
        }

        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> mean = st;
        LocalTensor<float> var = st[p.sliceW];
        LocalTensor<float> scale = st[2 * p.sliceW];
        LocalTensor<float> shift = st[3 * p.sliceW];
        float invN = 1.0f / static_cast<float>(p.rows);
        uint32_t w = p.sliceW;

        Muls(mean, mean, invN, w);
        Muls(var, var, invN, w);
        Mul(scale, mean, mean, w);
        Sub(var, var, scale, w);               // E[x^2] - E[x]^2
        Maxs(var, var, 0.0f, w);
        Adds(var, var, p.eps, w);
        Sqrt(var, var, w);
        Div(scale, gam, var, w);               // gamma * rstd
        Mul(shift, mean, scale, w);
        Sub(shift, bet, shift, w);
        Add(shift, shift, bia, w);
        Muls(scale, scale, p.invDivisor, w);
        Muls(shift, shift, p.invDivisor, w);
        paramQ.FreeTensor(pr);
    }

    __aicore__ inline void Apply(uint32_t c0, uint32_t width)
    {
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> scale = st[2 * p.sliceW];
        LocalTensor<float> shift = st[3 * p.sliceW];
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        for (uint32_t r0 = 0; r0 < p.rows; r0 += p.rowsPerTile) {
            uint32_t nRows = RowsAt(r0);
            uint32_t cnt = nRows * p.sliceW;
            CopyIn(r0, nRows, c0, width);
            LocalTensor<float> w = Widen(cnt);
            for (uint32_t r = 0; r < nRows; ++r) {
                Mul(w[r * p.sliceW], w[r * p.sliceW], scale, p.sliceW);
                Add(w[r * p.sliceW], w[r * p.sliceW], shift, p.sliceW);
            }
            // v / (1 + e^{-v})
            Muls(tmp, w, -1.0f, cnt);
            Exp(tmp, tmp, cnt);
            Adds(tmp, tmp, 1.0f, cnt);
            Div(w, w, tmp, cnt);

            LocalTensor<T> o = outQ.AllocTensor<T>();
            if constexpr (std::is_same<T, float>::value) {
                DataCopy(o, w, cnt);
            } else {
                Cast(o, w, RoundMode::CAST_ROUND, cnt);
            }
            outQ.EnQue(o);
            o = outQ.DeQue<T>();
            DataCopyPad(yGm[(uint64_t)r0 * p.cols + c0], o, SliceCopy<T>::Params(nRows, width, p.sliceW, p.cols));
            outQ.FreeTensor(o);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TQue<QuePosition::VECIN, 1> paramQ;
    TBuf<QuePosition::VECCALC> workBuf, tmpBuf, statBuf;
    GlobalTensor<T> zGm, yGm;
    GlobalTensor<float> gGm, bGm, biasGm;
    FeatureNormSwishTilingData p;
};

extern "C" __global__ __aicore__ void feature_norm_swish_custom(GM_ADDR z, GM_ADDR gamma, GM_ADDR beta, GM_ADDR bias,
                                                                GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        FeatureNormSwish<half> op;
        op.Init(z, gamma, beta, bias, y, td);
        op.Process();
    } else {
        FeatureNormSwish<float> op;
        op.Init(z, gamma, beta, bias, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor feature_norm_swish_impl_npu(const at::Tensor& z, const at::Tensor& gamma, const at::Tensor& beta,
                                       const at::Tensor& bias, double eps, double divisor)
{
    TORCH_CHECK(z.dim() == 2, "expected [batch, features]");
    at::Tensor zc = z.contiguous();
    at::Tensor g = gamma.to(at::kFloat).contiguous();
    at::Tensor b = beta.to(at::kFloat).contiguous();
    at::Tensor bb = bias.to(at::kFloat).reshape({-1}).contiguous();
    at::Tensor y = at::empty_like(zc);
    EXEC_NPU_CMD(aclnnFeatureNormSwishCustom, zc, g, b, bb, eps, divisor, y);
    return y;
}

// Linear on the cube unit via addmm, then the fused BN(batch stats) + bias + divide + swish
at::Tensor linear_norm_swish_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& lin_bias,
                                 const at::Tensor& gamma, const at::Tensor& beta, const at::Tensor& bias,
                                 double eps, double divisor)
{
    at::Tensor z = at::addmm(lin_bias, x, weight.t());
    return feature_norm_swish_impl_npu(z, gamma, beta, bias, eps, divisor);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("feature_norm_swish_custom", &feature_norm_swish_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("feature_norm_swish_custom", &feature_norm_swish_impl_npu, "batch-norm + bias + divide + swish");
    m.def("linear_norm_swish", &linear_norm_swish_npu, "linear + batch-norm + bias + divide + swish");
}
"""

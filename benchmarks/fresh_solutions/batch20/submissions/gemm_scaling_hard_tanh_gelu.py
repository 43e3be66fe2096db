project_json_src='''
[
    {
        "op": "ScaledClampErfGeluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "attr": [
            {"name": "scale", "param_type": "optional", "type": "float", "default_value": "1.0"},
            {"name": "clamp_min", "param_type": "optional", "type": "float", "default_value": "-1.0"},
            {"name": "clamp_max", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaledClampErfGeluTiling)
  TILING_DATA_FIELD_DEF(uint64_t, totalLen);
  TILING_DATA_FIELD_DEF(uint64_t, perCore);    // elements per core, multiple of 16
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(float, lo);
  TILING_DATA_FIELD_DEF(float, hi);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaledClampErfGeluCustom, ScaledClampErfGeluTiling)
}
"""

host_operator_src="""
#include "scaled_clamp_erf_gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LEN = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaledClampErfGeluTiling tiling;
    uint64_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    auto attrs = context->GetAttrs();
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t coreNum = platform.GetCoreNumAiv();

    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + 15) / 16 * 16;           // keep every core's start 32B aligned
    uint32_t blockDim = static_cast<uint32_t>((total + perCore - 1) / perCore);

    tiling.set_totalLen(total);
    tiling.set_perCore(perCore);
    tiling.set_tileLen(TILE_LEN);
    tiling.set_scale(*attrs->GetAttrPointer<float>(0));
    tiling.set_lo(*attrs->GetAttrPointer<float>(1));
    tiling.set_hi(*attrs->GetAttrPointer<float>(2));
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
class ScaledClampErfGeluCustom : public OpDef {
public:
    explicit ScaledClampErfGeluCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("clamp_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clamp_max").AttrType(OPTIONAL).Float(1.0f);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaledClampErfGeluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Exact (erf) GELU. With a = |x|, Phi(x) = 1 - q/2 for x >= 0 and q/2 for x < 0, where
// q = erfc(a / sqrt(2)) ~ poly(t) * exp(-a^2 / 2), t = 1 / (1 + p * a / sqrt(2))  (A&S 7.1.26).
// Hence gelu(x) = relu(x) - 0.5 * a * q, which needs no sign select.
struct ErfGelu {
    static constexpr float P = 0.3275911f;
    static constexpr float A1 = 0.254829592f;
    static constexpr float A2 = -0.284496736f;
    static constexpr float A3 = 1.421413741f;
    static constexpr float A4 = -1.453152027f;
    static constexpr float A5 = 1.061405429f;
    static constexpr float INV_SQRT2 = 0.70710678f;

    // x: in/out, a/t/e: scratch
    __aicore__ static inline void Apply(const LocalTensor<float>& x, const LocalTensor<float>& a,
                                        const LocalTensor<float>& t, const LocalTensor<float>& e, uint32_t n)
    {
        Abs(a, x, n);
        Muls(t, a, P * INV_SQRT2, n);
        Adds(t, t, 1.0f, n);
        Reciprocal(t, t, n);
        // Horner: ((((A5 t + A4) t + A3) t + A2) t + A1) t
        Muls(e, t, A5, n);
        Adds(e, e, A4, n);
        Mul(e, e, t, n);
        Adds(e, e, A3, n);
        Mul(e, e, t, n);
        Adds(e, e, A2, n);
        Mul(e, e, t, n);
        Adds(e, e, A1, n);
        Mul(e, e, t, n);
        // t <- exp(-a^2 / 2)
        Mul(t, a, a, n);
        Muls(t, t, -0.5f, n);
        Exp(t, t, n);
        Mul(e, e, t, n);          // q
        Mul(e, e, a, n);
        Muls(e, e, 0.5f, n);      // 0.5 * a * q
        Relu(x, x, n);
        Sub(x, x, e, n);
    }
};

template <typename T>
class ScaledClampErfGelu {
public:
    __aicore__ inline ScaledClampErfGelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaledClampErfGeluTiling& t)
    {
        tileLen = t.tileLen;
        scale = t.scale;
        lo = t.lo;
        hi = t.hi;
        uint64_t start = t.perCore * GetBlockIdx();
        uint64_t remain = t.totalLen > start ? t.totalLen - start : 0;
        myLen = remain < t.perCore ? remain : t.perCore;

        xGm.SetGlobalBuffer((__gm__ T*)x + start, myLen);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, myLen);
        pipe.InitBuffer(inQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(calcBuf, 4 * tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t off = 0; off < myLen; off += tileLen) {
            uint32_t len = static_cast<uint32_t>((off + tileLen <= myLen) ? tileLen : (myLen - off));
            CopyIn(off, len);
            Compute(len);
            CopyOut(off, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<T> xl = inQue.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[off], cp, pad);
        inQue.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<T> xl = inQue.DeQue<T>();
        LocalTensor<float> c = calcBuf.Get<float>();
        LocalTensor<float> v = c;
        if constexpr (IsSameType<T, float>::value) {
            Muls(v, xl, scale, len);
        } else {
            Cast(v, xl, RoundMode::CAST_NONE, len);
            Muls(v, v, scale, len);
        }
        inQue.FreeTensor(xl);
        Maxs(v, v, lo, len);
        Mins(v, v, hi, len);
        ErfGelu::Apply(v, c[tileLen], c[2 * tileLen], c[3 * tileLen], len);

        LocalTensor<T> yl = outQue.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            Adds(yl, v, 0.0f, len);
        } else {
            Cast(yl, v, RoundMode::CAST_ROUND, len);
        }
        outQue.EnQue(yl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<T> yl = outQue.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, cp);
        outQue.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<QuePosition::VECCALC> calcBuf;
    GlobalTensor<T> xGm, yGm;
    uint64_t myLen;
    uint32_t tileLen;
    float scale, lo, hi;
};

extern "C" __global__ __aicore__ void scaled_clamp_erf_gelu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ScaledClampErfGelu<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// GEMM + bias on the cube unit through aten; scale, hardtanh and exact GELU fused in the kernel.
at::Tensor scaled_clamp_erf_gelu_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                     double scale, double clampMin, double clampMax)
{
    at::Tensor h = at::linear(x, weight, bias).contiguous();
    at::Tensor y = at::empty_like(h);
    EXEC_NPU_CMD(aclnnScaledClampErfGeluCustom, h, scale, clampMin, clampMax, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("scaled_clamp_erf_gelu", &scaled_clamp_erf_gelu_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scaled_clamp_erf_gelu", &scaled_clamp_erf_gelu_npu, "gelu(hardtanh(linear(x) * scale))");
}
"""

project_json_src='''
[
    {
        "op": "BatchStatsAffineScaleCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "beta", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"},
            {"name": "scale", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BatchStatsAffineScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BatchStatsAffineScaleCustom, BatchStatsAffineScaleTilingData)
}
"""

host_operator_src="""
#include "batch_stats_affine_scale_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_ELEMS = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BatchStatsAffineScaleTilingData tiling;
    auto shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t hw = shape.GetDim(2) * shape.GetDim(3);

    auto attrs = context->GetAttrs();
    const float* epsPtr = attrs->GetFloat(0);
    const float* scalePtr = attrs->GetFloat(1);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t blockDim = c < cores ? c : cores;

    uint32_t tile = hw < TILE_ELEMS ? (hw + 7) / 8 * 8 : TILE_ELEMS;

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_planeSize(hw);
    tiling.set_tileLen(tile);
    tiling.set_eps(epsPtr ? *epsPtr : 1e-5f);
    tiling.set_scale(scalePtr ? *scalePtr : 1.0f);

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
class BatchStatsAffineScaleCustom : public OpDef {
public:
    explicit BatchStatsAffineScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BatchStatsAffineScaleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;

// Training-mode BatchNorm (batch statistics) followed by a constant scale.
// One channel at a time per core: pass 1 gathers sum / sum of squares, pass 2 applies y = x*a + b.
class BatchStatsAffineScale {
public:
    __aicore__ inline BatchStatsAffineScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const BatchStatsAffineScaleTilingData& t)
    {
        n = t.batch; c = t.channels; hw = t.planeSize; tileLen = t.tileLen;
        eps = t.eps; scale = t.scale;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma);
        betaGm.SetGlobalBuffer((__gm__ float*)beta);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(sumBuf, tileLen * sizeof(float));
        pipe.InitBuffer(sqBuf, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t ch = GetBlockIdx(); ch < c; ch += GetBlockNum()) {
            float mean, var;
            Stats(ch, mean, var);
            float g = gammaGm.GetValue(ch);
            float b = betaGm.GetValue(ch);
            float inv = 1.0f / sqrtf(var + eps);
            float a = g * inv * scale;
            float shift = (b - mean * g * inv) * scale;
            Apply(ch, a, shift);
        }
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        LocalTensor<float> t = inQ.AllocTensor<float>();
        DataCopyExtParams p{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(t, xGm[off], p, pad);
        inQ.EnQue(t);
    }

    __aicore__ inline void Stats(uint32_t ch, float& mean, float& var)
    {
        LocalTensor<float> s1 = sumBuf.Get<float>();
        LocalTensor<float> s2 = sqBuf.Get<float>();
        LocalTensor<float> sq = tmpBuf.Get<float>();
        Duplicate(s1, 0.0f, tileLen);
        Duplicate(s2, 0.0f, tileLen);

        for (uint32_t b = 0; b < n; ++b) {
            uint64_t base = ((uint64_t)b * c + ch) * hw;
            for (uint32_t off = 0; off < hw; off += tileLen) {
                uint32_t len = hw - off < tileLen ? hw - off : tileLen;
                Load(base + off, len);
                LocalTensor<float> xt = inQ.DeQue<float>();
                Add(s1, s1, xt, len);
                Mul(sq, xt, xt, len);
                Add(s2, s2, sq, len);
                inQ.FreeTensor(xt);
            }
        }

        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);

        float total = 0.0f, totalSq = 0.0f;
        for (uint32_t i = 0; i < tileLen; ++i) {
            total += s1.GetValue(i);
            totalSq += s2.GetValue(i);
        }
        float cnt = (float)n * (float)hw;
        mean = total / cnt;
        var = totalSq / cnt - mean * mean;
        if (var < 0.0f) var = 0.0f;

        event_t ev2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev2);
        WaitFlag<HardEvent::S_V>(ev2);
    }

    __aicore__ inline void Apply(uint32_t ch, float a, float shift)
    {
        for (uint32_t b = 0; b < n; ++b) {
            uint64_t base = ((uint64_t)b * c + ch) * hw;
            for (uint32_t off = 0; off < hw; off += tileLen) {
                uint32_t len = hw - off < tileLen ? hw - off : tileLen;
                Load(base + off, len);

                LocalTensor<float> xt = inQ.DeQue<float>();
                LocalTensor<float> yt = outQ.AllocTensor<float>();
                Muls(yt, xt, a, len);
                Adds(yt, yt, shift, len);
                outQ.EnQue(yt);
                inQ.FreeTensor(xt);

                yt = outQ.DeQue<float>();
                DataCopyExtParams p{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
                DataCopyPad(yGm[base + off], yt, p);
                outQ.FreeTensor(yt);
            }
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> sumBuf, sqBuf, tmpBuf;
    GlobalTensor<float> xGm, yGm, gammaGm, betaGm;
    uint32_t n, c, hw, tileLen;
    float eps, scale;
};

extern "C" __global__ __aicore__ void batch_stats_affine_scale_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    BatchStatsAffineScale op;
    op.Init(x, gamma, beta, y, t);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor batch_stats_affine_scale_impl_npu(const at::Tensor& x, const at::Tensor& gamma, const at::Tensor& beta,
                                             double eps, double scale)
{
    at::Tensor y = at::empty_like(x);
    float epsF = static_cast<float>(eps);
    float scaleF = static_cast<float>(scale);
    EXEC_NPU_CMD(aclnnBatchStatsAffineScaleCustom, x, gamma, beta, epsF, scaleF, y);
    return y;
}

// conv (cube, through at::conv2d) -> custom batch-stat norm + scale
at::Tensor conv_batch_stats_scale_npu(const at::Tensor& x, const at::Tensor& convW, const at::Tensor& convB,
                                      const at::Tensor& gamma, const at::Tensor& beta, double eps, double scale)
{
    at::Tensor z = at::conv2d(x, convW, convB).contiguous();
    return batch_stats_affine_scale_impl_npu(z, gamma, beta, eps, scale);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("batch_stats_affine_scale_custom", &batch_stats_affine_scale_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("batch_stats_affine_scale_custom", &batch_stats_affine_scale_impl_npu,
          "batch norm with batch statistics, then multiply by scale");
    m.def("conv_batch_stats_scale", &conv_batch_stats_scale_npu, "conv2d + batch norm + scale");
}
"""

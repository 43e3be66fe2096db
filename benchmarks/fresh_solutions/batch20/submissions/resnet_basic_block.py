project_json_src='''
[
    {
        "op": "PlaneStatNormActCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "beta", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "residual", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "attr": [
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"},
            {"name": "add_residual", "param_type": "optional", "type": "bool", "default_value": "false"},
            {"name": "apply_relu", "param_type": "optional", "type": "bool", "default_value": "true"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PlaneStatNormActTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);   // H * W
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, addResidual);
  TILING_DATA_FIELD_DEF(uint32_t, applyRelu);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PlaneStatNormActCustom, PlaneStatNormActTiling)
}
"""

host_operator_src="""
#include "plane_stat_norm_act_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t KEY_FP16 = 1;
constexpr uint64_t KEY_FP32 = 2;

struct PlaneTilingHelper {
    static uint32_t TileLen(uint32_t planeSize)
    {
        // 2 in + 2 residual + 2 out queues (<= 4B each) plus 3 float scratch tiles
        constexpr uint32_t MAX_TILE = 6144;
        uint32_t t = planeSize < MAX_TILE ? planeSize : MAX_TILE;
        return (t + 15) / 16 * 16;
    }
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PlaneStatNormActTiling tiling;
    const gert::Shape& s = context->GetInputShape(0)->GetOriginShape();
    uint32_t batch = s.GetDim(0);
    uint32_t channels = s.GetDim(1);
    uint32_t plane = 1;
    for (size_t i = 2; i < s.GetDimNum(); ++i) {
        plane *= static_cast<uint32_t>(s.GetDim(i));
    }
    auto attrs = context->GetAttrs();
    float eps = *attrs->GetAttrPointer<float>(0);
    bool addRes = *attrs->GetAttrPointer<bool>(1);
    bool relu = *attrs->GetAttrPointer<bool>(2);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    // each core owns whole channels so batch statistics need no cross-core reduction
    context->SetBlockDim(channels < coreNum ? channels : coreNum);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? KEY_FP16 : KEY_FP32);

    tiling.set_batch(batch);
    tiling.set_channels(channels);
    tiling.set_planeSize(plane);
    tiling.set_tileLen(PlaneTilingHelper::TileLen(plane));
    tiling.set_addResidual(addRes ? 1 : 0);
    tiling.set_applyRelu(relu ? 1 : 0);
    tiling.set_eps(eps);
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
class PlaneStatNormActCustom : public OpDef {
public:
    explicit PlaneStatNormActCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
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
        this->Input("residual").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("add_residual").AttrType(OPTIONAL).Bool(false);
        this->Attr("apply_relu").AttrType(OPTIONAL).Bool(true);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PlaneStatNormActCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Training-mode batch norm over (N, H, W) for each channel, optional residual add, optional ReLU.
template <typename T>
class PlaneStatNormAct {
public:
    __aicore__ inline PlaneStatNormAct() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR res, GM_ADDR y,
                                const PlaneStatNormActTiling& t)
    {
        tl = t;
        uint64_t total = (uint64_t)tl.batch * tl.channels * tl.planeSize;
        xGm.SetGlobalBuffer((__gm__ T*)x, total);
        rGm.SetGlobalBuffer((__gm__ T*)res, total);
        yGm.SetGlobalBuffer((__gm__ T*)y, total);
        gGm.SetGlobalBuffer((__gm__ float*)gamma, tl.channels);
        bGm.SetGlobalBuffer((__gm__ float*)beta, tl.channels);

        pipe.InitBuffer(xQue, BUFFER_NUM, tl.tileLen * sizeof(T));
        pipe.InitBuffer(rQue, BUFFER_NUM, tl.tileLen * sizeof(T));
        pipe.InitBuffer(yQue, BUFFER_NUM, tl.tileLen * sizeof(T));
        pipe.InitBuffer(sumBuf, tl.tileLen * sizeof(float));
        pipe.InitBuffer(sqBuf, tl.tileLen * sizeof(float));
        pipe.InitBuffer(workBuf, tl.tileLen * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t c = GetBlockIdx(); c < tl.channels; c += GetBlockNum()) {
            float scale, shift;
            ChannelAffine(c, scale, shift);
            ApplyChannel(c, scale, shift);
        }
    }

private:
    __aicore__ inline uint64_t PlaneOffset(uint32_t n, uint32_t c) const
    {
        return ((uint64_t)n * tl.channels + c) * tl.planeSize;
    }

    __aicore__ inline void LoadTile(TQue<QuePosition::VECIN, BUFFER_NUM>& q, GlobalTensor<T>& src,
                                    uint64_t off, uint32_t len)
    {
        LocalTensor<T> buf = q.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(buf, src[off], cp, pad);
        q.EnQue(buf);
    }

    __aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t len)
    {
        if constexpr (IsSameType<T, float>::value) {
            Adds(dst, src, 0.0f, len);
        } else {
            Cast(dst, src, RoundMode::CAST_NONE, len);
        }
    }

    __aicore__ inline float ReduceToScalar(const LocalTensor<float>& v)
    {
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        ReduceSum<float>(red, v, work, tl.tileLen);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return red.GetValue(0);
    }

    // scale = gamma * rstd, shift = beta - mean * scale
    __aicore__ inline void ChannelAffine(uint32_t c, float& scale, float& shift)
    {
        LocalTensor<float> sum = sumBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        Duplicate(sum, 0.0f, tl.tileLen);
        Duplicate(sq, 0.0f, tl.tileLen);
        for (uint32_t n = 0; n < tl.batch; ++n) {
            uint64_t base = PlaneOffset(n, c);
            for (uint32_t p = 0; p < tl.planeSize; p += tl.tileLen) {
                uint32_t len = (p + tl.tileLen <= tl.planeSize) ? tl.tileLen : (tl.planeSize - p);
                LoadTile(xQue, xGm, base + p, len);
                LocalTensor<T> xt = xQue.DeQue<T>();
                ToFloat(work, xt, len);
                xQue.FreeTensor(xt);
                Add(sum, sum, work, len);
                Mul(work, work, work, len);
                Add(sq, sq, work, len);
            }
        }
        float count = static_cast<float>(tl.batch) * static_cast<float>(tl.planeSize);
        float mean = ReduceToScalar(sum) / count;
        float var = ReduceToScalar(sq) / count - mean * mean;
        var = var > 0.0f ? var : 0.0f;
        LocalTensor<float> red = redBuf.Get<float>();
        Duplicate(red, var + tl.eps, 8);
        Sqrt(red, red, 8);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        float rstd = 1.0f / red.GetValue(0);
        scale = gGm.GetValue(c) * rstd;
        shift = bGm.GetValue(c) - mean * scale;
    }

    __aicore__ inline void ApplyChannel(uint32_t c, float scale, float shift)
    {
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> rf = sqBuf.Get<float>();
        for (uint32_t n = 0; n < tl.batch; ++n) {
            uint64_t base = PlaneOffset(n, c);
            for (uint32_t p = 0; p < tl.planeSize; p += tl.tileLen) {
                uint32_t len = (p + tl.tileLen <= tl.planeSize) ? tl.tileLen : (tl.planeSize - p);
                LoadTile(xQue, xGm, base + p, len);
                if (tl.addResidual) {
                    LoadTile(rQue, rGm, base + p, len);
                }
                LocalTensor<T> xt = xQue.DeQue<T>();
                ToFloat(work, xt, len);
                xQue.FreeTensor(xt);
                Muls(work, work, scale, len);
                Adds(work, work, shift, len);
                if (tl.addResidual) {
                    LocalTensor<T> rt = rQue.DeQue<T>();
                    ToFloat(rf, rt, len);
                    rQue.FreeTensor(rt);
                    Add(work, work, rf, len);
                }
                if (tl.applyRelu) {
                    Relu(work, work, len);
                }
                LocalTensor<T> yt = yQue.AllocTensor<T>();
                if constexpr (IsSameType<T, float>::value) {
                    Adds(yt, work, 0.0f, len);
                } else {
                    Cast(yt, work, RoundMode::CAST_ROUND, len);
                }
                yQue.EnQue(yt);
                yt = yQue.DeQue<T>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
                DataCopyPad(yGm[base + p], yt, cp);
                yQue.FreeTensor(yt);
            }
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue, rQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    TBuf<QuePosition::VECCALC> sumBuf, sqBuf, workBuf, redBuf;
    GlobalTensor<T> xGm, rGm, yGm;
    GlobalTensor<float> gGm, bGm;
    PlaneStatNormActTiling tl;
};

extern "C" __global__ __aicore__ void plane_stat_norm_act_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                                                 GM_ADDR residual, GM_ADDR y,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        PlaneStatNormAct<half> op;
        op.Init(x, gamma, beta, residual, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        PlaneStatNormAct<float> op;
        op.Init(x, gamma, beta, residual, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

static at::Tensor plane_stat_norm_act(const at::Tensor& x, const at::Tensor& gamma, const at::Tensor& beta,
                                      const at::Tensor& residual, bool addResidual, bool relu, double eps)
{
    at::Tensor xin = x.contiguous();
    at::Tensor g = gamma.to(at::kFloat).contiguous();
    at::Tensor b = beta.to(at::kFloat).contiguous();
    at::Tensor r = residual.contiguous();
    at::Tensor y = at::empty_like(xin);
    EXEC_NPU_CMD(aclnnPlaneStatNormActCustom, xin, g, b, r, eps, addResidual, relu, y);
    return y;
}

// BasicBlock: convolutions on the cube unit via aten, every BN (+add, +ReLU) in the custom kernel.
at::Tensor residual_basic_block_npu(const at::Tensor& x,
                                    const at::Tensor& conv1W, const at::Tensor& bn1G, const at::Tensor& bn1B,
                                    const at::Tensor& conv2W, const at::Tensor& bn2G, const at::Tensor& bn2B,
                                    const at::Tensor& downW, const at::Tensor& downG, const at::Tensor& downB,
                                    int64_t stride)
{
    const double eps = 1e-5;
    at::Tensor idt = at::conv2d(x, downW, {}, {stride, stride}, {0, 0});
    idt = plane_stat_norm_act(idt, downG, downB, idt, false, false, eps);

    at::Tensor out = at::conv2d(x, conv1W, {}, {stride, stride}, {1, 1});
    out = plane_stat_norm_act(out, bn1G, bn1B, out, false, true, eps);

    out = at::conv2d(out, conv2W, {}, {1, 1}, {1, 1});
    return plane_stat_norm_act(out, bn2G, bn2B, idt, true, true, eps);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("residual_basic_block", &residual_basic_block_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("plane_stat_norm_act", &plane_stat_norm_act, "batch-stat norm + residual + relu");
    m.def("residual_basic_block", &residual_basic_block_npu, "ResNet basic block forward");
}
"""

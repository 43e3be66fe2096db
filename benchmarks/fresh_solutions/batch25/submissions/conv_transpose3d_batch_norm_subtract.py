project_json_src='''
[
    {
        "op": "BatchNormPlaneCenterCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "gamma", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
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
BEGIN_TILING_DATA_DEF(BatchNormPlaneCenterTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeLen);
  TILING_DATA_FIELD_DEF(uint32_t, channelsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerPlane);
  TILING_DATA_FIELD_DEF(uint32_t, lastTileLen);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BatchNormPlaneCenterCustom, BatchNormPlaneCenterTilingData)
}
"""

host_operator_src="""
#include "batch_norm_plane_center_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t TILE_ELEMS = 8192;   // fp32 scratch per tile = 32 KB

static void PlanTiles(uint32_t planeLen, BatchNormPlaneCenterTilingData& td)
{
    uint32_t tile = planeLen < TILE_ELEMS ? (planeLen + 15) / 16 * 16 : TILE_ELEMS;
    uint32_t tiles = (planeLen + tile - 1) / tile;
    td.set_tileLen(tile);
    td.set_tilesPerPlane(tiles);
    td.set_lastTileLen(planeLen - (tiles - 1) * tile);
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BatchNormPlaneCenterTilingData td;
    const gert::Shape& s = context->GetInputShape(0)->GetOriginShape();
    if (s.GetDimNum() < 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = s.GetDim(0);
    uint32_t c = s.GetDim(1);
    uint64_t plane = 1;
    for (size_t i = 2; i < s.GetDimNum(); ++i) {
        plane *= s.GetDim(i);
    }

    // channels are independent (batch statistics are per channel), so cores split channels
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (c + cores - 1) / cores;
    uint32_t used = (c + perCore - 1) / perCore;

    td.set_batch(n);
    td.set_channels(c);
    td.set_planeLen(static_cast<uint32_t>(plane));
    td.set_channelsPerCore(perCore);
    td.set_eps(*context->GetAttrs()->GetAttrPointer<float>(0));
    PlanTiles(static_cast<uint32_t>(plane), td);

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(used);
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
class BatchNormPlaneCenterCustom : public OpDef {
public:
    explicit BatchNormPlaneCenterCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BatchNormPlaneCenterCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t VEC8 = 8;

// BN (batch statistics) followed by subtracting the per-(n, c) spatial mean:
//   bn = (x - mu_c) * g_c / sqrt(var_c + eps) + beta_c
//   y  = bn - mean_s(bn) = (x - mean_s(x)) * g_c / sqrt(var_c + eps)
// so beta and mu_c cancel; only per-plane means and the channel variance are needed.
template <typename T>
class BatchNormPlaneCenter {
public:
    __aicore__ inline BatchNormPlaneCenter() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, const BatchNormPlaneCenterTilingData& t)
    {
        td = t;
        cBegin = GetBlockIdx() * td.channelsPerCore;
        cEnd = cBegin + td.channelsPerCore;
        if (cEnd > td.channels) {
            cEnd = td.channels;
        }
        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        gGm.SetGlobalBuffer((__gm__ float*)gamma);
        pipe.InitBuffer(inQue, BUFFER_NUM, td.tileLen * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, td.tileLen * sizeof(T));
        pipe.InitBuffer(fBuf, td.tileLen * sizeof(float));
        pipe.InitBuffer(redBuf, td.tileLen * sizeof(float));
        pipe.InitBuffer(smallBuf, 2 * VEC8 * sizeof(float));
        // per-plane means of the channel being processed
        pipe.InitBuffer(meanBuf, ((td.batch + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t c = cBegin; c < cEnd; ++c) {
            float scale = Statistics(c);
            Normalize(c, scale);
        }
    }

private:
    __aicore__ inline uint64_t PlaneBase(uint32_t n, uint32_t c) const
    {
        return (static_cast<uint64_t>(n) * td.channels + c) * td.planeLen;
    }
    __aicore__ inline uint32_t TileLen(uint32_t t) const
    {
        return (t + 1 == td.tilesPerPlane) ? td.lastTileLen : td.tileLen;
    }

    __aicore__ inline void Load(uint64_t off, uint32_t n)
    {
        LocalTensor<T> x = inQue.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(x, xGm[off], cp, pad);
        inQue.EnQue(x);
    }

    __aicore__ inline LocalTensor<float> TakeAsFloat(uint32_t n)
    {
        LocalTensor<T> x = inQue.DeQue<T>();
        LocalTensor<float> f = fBuf.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(f, x, (n + 7) / 8 * 8);
        } else {
            Cast(f, x, RoundMode::CAST_NONE, n);
        }
        inQue.FreeTensor(x);
        return f;
    }

    __aicore__ inline void SyncVS()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }

    // returns g_c / sqrt(var_c + eps); leaves per-plane means in meanBuf
    __aicore__ inline float Statistics(uint32_t c)
    {
        LocalTensor<float> means = meanBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> sm = smallBuf.Get<float>();
        float invS = 1.0f / static_cast<float>(td.planeLen);
        float meanAcc = 0.0f;
        float m2Acc = 0.0f;   // sum over planes of (E_s[x^2])
        for (uint32_t n = 0; n < td.batch; ++n) {
            float s1 = 0.0f;
            float s2 = 0.0f;
            for (uint32_t t = 0; t < td.tilesPerPlane; ++t) {
                uint32_t len = TileLen(t);
                Load(PlaneBase(n, c) + static_cast<uint64_t>(t) * td.tileLen, len);
                LocalTensor<float> f = TakeAsFloat(len);
                ReduceSum<float>(sm, f, red, len);
                Mul(f, f, f, len);
                ReduceSum<float>(sm[VEC8], f, red, len);
                SyncVS();
                s1 += sm.GetValue(0);
                s2 += sm.GetValue(VEC8);
            }
            float mn = s1 * invS;
            means.SetValue(n, mn);
            meanAcc += mn;
            m2Acc += s2 * invS;
        }
        float invN = 1.0f / static_cast<float>(td.batch);
        float mu = meanAcc * invN;
        float var = m2Acc * invN - mu * mu;   // biased variance, as BN uses for normalisation
        var = var > 0.0f ? var : 0.0f;

        event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Duplicate(sm, var + td.eps, VEC8);
        Sqrt(sm, sm, VEC8);
        SyncVS();
        return gGm.GetValue(c) / sm.GetValue(0);
    }

    __aicore__ inline void Normalize(uint32_t c, float scale)
    {
        LocalTensor<float> means = meanBuf.Get<float>();
        for (uint32_t n = 0; n < td.batch; ++n) {
            float shift = -means.GetValue(n);
            for (uint32_t t = 0; t < td.tilesPerPlane; ++t) {
                uint32_t len = TileLen(t);
                uint64_t off = PlaneBase(n, c) + static_cast<uint64_t>(t) * td.tileLen;
                Load(off, len);
                LocalTensor<float> f = TakeAsFloat(len);
                Adds(f, f, shift, len);
                Muls(f, f, scale, len);
                LocalTensor<T> o = outQue.AllocTensor<T>();
                if constexpr (std::is_same<T, float>::value) {
                    DataCopy(o, f, (len + 7) / 8 * 8);
                } else {
                    Cast(o, f, RoundMode::CAST_ROUND, len);
                }
                outQue.EnQue(o);
                o = outQue.DeQue<T>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
                DataCopyPad(yGm[off], o, cp);
                outQue.FreeTensor(o);
            }
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> fBuf, redBuf, smallBuf, meanBuf;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> gGm;
    BatchNormPlaneCenterTilingData td;
    uint32_t cBegin, cEnd;
};

extern "C" __global__ __aicore__ void batch_norm_plane_center_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        BatchNormPlaneCenter<float> op;
        op.Init(x, gamma, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        BatchNormPlaneCenter<half> op;
        op.Init(x, gamma, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// ConvTranspose3d (vendor) -> BatchNorm3d with batch statistics -> subtract spatial mean (custom).
at::Tensor deconv3d_bn_center_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& convBias,
                                       const at::Tensor& bnWeight, int64_t stride, int64_t padding, double eps)
{
    at::Tensor conv = at::conv_transpose3d(x, weight, convBias, {stride, stride, stride}, {padding, padding, padding})
                          .contiguous();
    at::Tensor gamma = bnWeight.to(at::kFloat).contiguous();
    at::Tensor y = at::empty_like(conv);
    EXEC_NPU_CMD(aclnnBatchNormPlaneCenterCustom, conv, gamma, eps, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("deconv3d_bn_center", &deconv3d_bn_center_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("deconv3d_bn_center", &deconv3d_bn_center_impl_npu, "ConvTranspose3d + BatchNorm3d + spatial-mean subtract");
}
"""

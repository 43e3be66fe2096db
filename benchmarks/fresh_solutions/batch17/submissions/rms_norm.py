project_json_src='''
[
    {
        "op": "ChannelRmsScaleCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
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
BEGIN_TILING_DATA_DEF(ChannelRmsScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);        // batch
  TILING_DATA_FIELD_DEF(uint32_t, channels);     // reduced axis
  TILING_DATA_FIELD_DEF(uint32_t, inner);        // flattened trailing dims
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // inner positions per tile (16-aligned)
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerOuter);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invChannels);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelRmsScaleCustom, ChannelRmsScaleTilingData)
}
"""

host_operator_src="""
#include "channel_rms_scale_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// Budget, in fp32-element units, for one (channels x tileLen) slab counted across all buffers:
// 2 in + 2 out slots, one fp32 square buffer and one fp32 widened copy (half only).
constexpr uint64_t SLAB_BUDGET_BYTES = 160 * 1024;

struct RmsTiler {
    uint32_t tileLen = 0;
    bool Solve(uint32_t channels, uint32_t inner, uint32_t typeSize)
    {
        uint64_t bytesPerPos = (uint64_t)channels * (4 * typeSize + 2 * sizeof(float)) + 2 * sizeof(float);
        uint64_t t = SLAB_BUDGET_BYTES / bytesPerPos;
        t = t / 16 * 16;
        if (t == 0) return false;
        uint64_t innerUp = (inner + 15) / 16 * 16;
        tileLen = static_cast<uint32_t>(t < innerUp ? t : innerUp);
        return true;
    }
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    if (s.GetDimNum() < 2) return ge::GRAPH_FAILED;
    uint32_t outer = s.GetDim(0);
    uint32_t channels = s.GetDim(1);
    uint32_t inner = 1;
    for (size_t i = 2; i < s.GetDimNum(); ++i) inner *= s.GetDim(i);
    const float* eps = context->GetAttrs()->GetAttrPointer<float>(0);

    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    RmsTiler tiler;
    if (!tiler.Solve(channels, inner, isHalf ? 2 : 4)) return ge::GRAPH_FAILED;

    uint32_t tilesPerOuter = (inner + tiler.tileLen - 1) / tiler.tileLen;
    uint32_t totalTiles = outer * tilesPerOuter;
    uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t per = (totalTiles + cores - 1) / cores;

    ChannelRmsScaleTilingData td;
    td.set_outer(outer);
    td.set_channels(channels);
    td.set_inner(inner);
    td.set_tileLen(tiler.tileLen);
    td.set_tilesPerOuter(tilesPerOuter);
    td.set_totalTiles(totalTiles);
    td.set_tilesPerCore(per);
    td.set_eps(*eps);
    td.set_invChannels(1.0f / static_cast<float>(channels));

    context->SetBlockDim((totalTiles + per - 1) / per);
    context->SetTilingKey(isHalf ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelRmsScaleCustom : public OpDef {
public:
    explicit ChannelRmsScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelRmsScaleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Reduction across the channel rows of a (C x L) slab held in UB.
struct SlabMath {
    // rms[l] = 1 / sqrt(mean_c(x[c][l]^2) + eps)
    __aicore__ static inline void InvRms(AscendC::LocalTensor<float>& inv, AscendC::LocalTensor<float>& sq,
                                         const AscendC::LocalTensor<float>& x, uint32_t C, uint32_t L,
                                         float invC, float eps)
    {
        AscendC::Mul(sq, x, x, C * L);
        AscendC::Adds(inv, sq, 0.0f, L);
        for (uint32_t c = 1; c < C; ++c) {
            AscendC::Add(inv, inv, sq[c * L], L);
        }
        AscendC::Muls(inv, inv, invC, L);
        AscendC::Adds(inv, inv, eps, L);
        AscendC::Sqrt(inv, inv, L);
        AscendC::Duplicate(sq, 1.0f, L);
        AscendC::Div(inv, sq, inv, L);
    }
};

template <typename T>
class ChannelRmsScale {
public:
    __aicore__ inline ChannelRmsScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ChannelRmsScaleTilingData& td)
    {
        td_ = td;
        C = td.channels;
        L = td.tileLen;
        uint64_t total = (uint64_t)td.outer * C * td.inner;
        xGm.SetGlobalBuffer((__gm__ T*)x, total);
        yGm.SetGlobalBuffer((__gm__ T*)y, total);
        pipe.InitBuffer(inQ, BUFFER_NUM, C * L * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, C * L * sizeof(T));
        pipe.InitBuffer(sqBuf, C * L * sizeof(float));
        pipe.InitBuffer(invBuf, L * sizeof(float));
        if constexpr (!AscendC::IsSameType<T, float>::value) {
            pipe.InitBuffer(wideBuf, C * L * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint32_t first = AscendC::GetBlockIdx() * td_.tilesPerCore;
        uint32_t last = first + td_.tilesPerCore;
        if (last > td_.totalTiles) last = td_.totalTiles;
        for (uint32_t t = first; t < last; ++t) {
            uint32_t o = t / td_.tilesPerOuter;
            uint32_t pos = (t % td_.tilesPerOuter) * L;
            uint32_t len = td_.inner - pos < L ? td_.inner - pos : L;
            uint64_t base = (uint64_t)o * C * td_.inner + pos;
            CopyIn(base, len);
            Compute();
            CopyOut(base, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t base, uint32_t len)
    {
        AscendC::LocalTensor<T> xl = inQ.AllocTensor<T>();
        uint32_t blk = 32 / sizeof(T);
        uint32_t lenUp = (len + blk - 1) / blk * blk;
        // C strided bursts (one per channel), each landing in an L-wide UB row
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(C), static_cast<uint32_t>(len * sizeof(T)),
                                      static_cast<uint32_t>((td_.inner - len) * sizeof(T)),
                                      static_cast<uint32_t>((L - lenUp) / blk), 0};
        AscendC::DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(lenUp - len), static_cast<T>(0)};
        AscendC::DataCopyPad(xl, xGm[base], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> xl = inQ.DeQue<T>();
        AscendC::LocalTensor<T> yl = outQ.AllocTensor<T>();
        AscendC::LocalTensor<float> sq = sqBuf.Get<float>();
        AscendC::LocalTensor<float> inv = invBuf.Get<float>();
        if constexpr (AscendC::IsSameType<T, float>::value) {
            SlabMath::InvRms(inv, sq, xl, C, L, td_.invChannels, td_.eps);
            for (uint32_t c = 0; c < C; ++c) {
                AscendC::Mul(yl[c * L], xl[c * L], inv, L);
            }
        } else {
            AscendC::LocalTensor<float> xf = wideBuf.Get<float>();
            AscendC::Cast(xf, xl, AscendC::RoundMode::CAST_NONE, C * L);
            SlabMath::InvRms(inv, sq, xf, C, L, td_.invChannels, td_.eps);
            for (uint32_t c = 0; c < C; ++c) {
                AscendC::Mul(xf[c * L], xf[c * L], inv, L);
            }
            AscendC::Cast(yl, xf, AscendC::RoundMode::CAST_ROUND, C * L);
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t base, uint32_t len)
    {
        AscendC::LocalTensor<T> yl = outQ.DeQue<T>();
        uint32_t blk = 32 / sizeof(T);
        uint32_t lenUp = (len + blk - 1) / blk * blk;
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(C), static_cast<uint32_t>(len * sizeof(T)),
                                      static_cast<uint32_t>((L - lenUp) / blk),
                                      static_cast<uint32_t>((td_.inner - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[base], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sqBuf, invBuf, wideBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    ChannelRmsScaleTilingData td_;
    uint32_t C, L;
};

extern "C" __global__ __aicore__ void channel_rms_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ChannelRmsScale<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ChannelRmsScale<half> op;
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

at::Tensor channel_rms_scale_npu(const at::Tensor& x, double eps)
{
    TORCH_CHECK(x.dim() >= 2, "expected (N, C, ...) input");
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    float epsF = static_cast<float>(eps);
    EXEC_NPU_CMD(aclnnChannelRmsScaleCustom, xc, epsF, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_rms_scale_custom", &channel_rms_scale_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_rms_scale_custom", &channel_rms_scale_npu, "x / sqrt(mean_c(x^2) + eps)",
          pybind11::arg("x"), pybind11::arg("eps") = 1e-5);
}
"""

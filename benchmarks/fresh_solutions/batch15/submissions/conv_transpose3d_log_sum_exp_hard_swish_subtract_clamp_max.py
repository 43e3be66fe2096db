project_json_src='''
[
    {
        "op": "ChannelLseSwishClampCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "shift",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelLseSwishClampTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);       // product of all dims after the channel dim
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // elements per channel row in one tile, 32B aligned
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerBatch);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF(float, clampLow);
  TILING_DATA_FIELD_DEF(float, clampHigh);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelLseSwishClampCustom, ChannelLseSwishClampTilingData)
}
"""

host_operator_src="""
#include "channel_lse_swish_clamp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t KEY_FP32 = 1;
constexpr uint32_t KEY_FP16 = 2;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t ALIGN_ELEMS = 64;       // keeps every row start 32B aligned for both fp16 and fp32
constexpr uint64_t UB_RESERVE = 8 * 1024;

// Largest per-channel tile length that fits: double-buffered input rows (C * L * sizeof(T)),
// an fp32 staging block for the cast (C * L * 4, fp16 only), and four fp32 row scratches.
uint32_t PickTileLen(uint64_t ubBytes, uint32_t channels, uint32_t elemBytes, uint32_t spatial)
{
    uint64_t perElem = static_cast<uint64_t>(channels) * elemBytes * BUFFER_NUM
                     + (elemBytes == 2 ? static_cast<uint64_t>(channels) * 4 : 0)
                     + 4 * sizeof(float) + BUFFER_NUM * elemBytes;
    uint64_t budget = ubBytes > UB_RESERVE ? ubBytes - UB_RESERVE : ubBytes / 2;
    uint64_t len = budget / perElem;
    len = (len / ALIGN_ELEMS) * ALIGN_ELEMS;
    if (len < ALIGN_ELEMS) {
        len = ALIGN_ELEMS;
    }
    uint64_t spatialAligned = (static_cast<uint64_t>(spatial) + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;
    return static_cast<uint32_t>(len < spatialAligned ? len : spatialAligned);
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ChannelLseSwishClampTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t channels = static_cast<uint32_t>(shape.GetDim(1));
    uint64_t spatial = 1;
    for (size_t i = 2; i < shape.GetDimNum(); ++i) {
        spatial *= static_cast<uint64_t>(shape.GetDim(i));
    }

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemBytes = (dt == ge::DT_FLOAT16) ? 2 : 4;
    uint32_t tileLen = PickTileLen(ubSize, channels, elemBytes, static_cast<uint32_t>(spatial));
    uint32_t tilesPerBatch = static_cast<uint32_t>((spatial + tileLen - 1) / tileLen);
    uint32_t totalTiles = tilesPerBatch * batch;

    tiling.set_batch(batch);
    tiling.set_channels(channels);
    tiling.set_spatial(static_cast<uint32_t>(spatial));
    tiling.set_tileLen(tileLen);
    tiling.set_tilesPerBatch(tilesPerBatch);
    tiling.set_totalTiles(totalTiles);
    tiling.set_clampLow(-1.0f);
    tiling.set_clampHigh(1.0f);

    uint32_t blockDim = totalTiles < coreNum ? totalTiles : coreNum;
    context->SetBlockDim(blockDim == 0 ? 1 : blockDim);
    context->SetTilingKey(elemBytes == 2 ? KEY_FP16 : KEY_FP32);
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
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    yShape->SetDim(1, 1);   // channel dim is reduced, keepdim
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelLseSwishClampCustom : public OpDef {
public:
    explicit ChannelLseSwishClampCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("shift")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ChannelLseSwishClampCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct LseTileInfo {
    uint32_t gmOffsetIn;    // offset of channel 0 for this tile
    uint32_t gmOffsetOut;
    uint32_t count;         // valid elements in this tile
    uint32_t countAligned;  // count rounded to 32B for vector ops
};

// Epilogue on one fp32 row: v * sigmoid(v + 3) / 6 - shift, clamped.
__aicore__ inline void GatedShiftClamp(const LocalTensor<float>& v, const LocalTensor<float>& tmp,
                                       float shift, float lo, float hi, uint32_t n)
{
    Adds(tmp, v, 3.0f, n);
    Muls(tmp, tmp, -1.0f, n);
    Exp(tmp, tmp, n);
    Adds(tmp, tmp, 1.0f, n);
    Div(tmp, v, tmp, n);                 // v / (1 + exp(-(v + 3)))
    Muls(tmp, tmp, 1.0f / 6.0f, n);
    Adds(tmp, tmp, -shift, n);
    Maxs(tmp, tmp, lo, n);
    Mins(v, tmp, hi, n);
}

template <typename T>
class ChannelLseSwishClamp {
public:
    __aicore__ inline ChannelLseSwishClamp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR shift, GM_ADDR y, const ChannelLseSwishClampTilingData& t)
    {
        channels = t.channels;
        spatial = t.spatial;
        tileLen = t.tileLen;
        tilesPerBatch = t.tilesPerBatch;
        totalTiles = t.totalTiles;
        lo = t.clampLow;
        hi = t.clampHigh;

        xGm.SetGlobalBuffer((__gm__ T*)x, static_cast<uint64_t>(t.batch) * channels * spatial);
        yGm.SetGlobalBuffer((__gm__ T*)y, static_cast<uint64_t>(t.batch) * spatial);
        GlobalTensor<T> shiftGm;
        shiftGm.SetGlobalBuffer((__gm__ T*)shift, 1);
        shiftVal = static_cast<float>(shiftGm.GetValue(0));

        pipe.InitBuffer(inQ, BUFFER_NUM, channels * tileLen * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(maxBuf, tileLen * sizeof(float));
        pipe.InitBuffer(sumBuf, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
        pipe.InitBuffer(tmp2Buf, tileLen * sizeof(float));
        if constexpr (!IsSameType<T, float>::value) {
            pipe.InitBuffer(castBuf, channels * tileLen * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint32_t step = GetBlockNum();
        for (uint32_t tile = GetBlockIdx(); tile < totalTiles; tile += step) {
            LseTileInfo info = Locate(tile);
            CopyIn(info);
            Compute(info);
            CopyOut(info);
        }
    }

private:
    __aicore__ inline LseTileInfo Locate(uint32_t tile)
    {
        LseTileInfo info;
        uint32_t b = tile / tilesPerBatch;
        uint32_t s0 = (tile % tilesPerBatch) * tileLen;
        info.count = (spatial - s0) < tileLen ? (spatial - s0) : tileLen;
        constexpr uint32_t perBlock = 32 / sizeof(T);
        info.countAligned = (info.count + perBlock - 1) / perBlock * perBlock;
        info.gmOffsetIn = b * channels * spatial + s0;
        info.gmOffsetOut = b * spatial + s0;
        return info;
    }

    __aicore__ inline void CopyIn(const LseTileInfo& info)
    {
        LocalTensor<T> xLocal = inQ.AllocTensor<T>();
        // one strided burst per channel: rows are `spatial` apart in GM, `tileLen` apart in UB
        uint32_t rowBytes = info.count * sizeof(T);
        uint32_t gapGm = (spatial - info.count) * sizeof(T);
        uint32_t gapUb = (tileLen - info.countAligned) * sizeof(T) / 32;
        DataCopyExtParams params{static_cast<uint16_t>(channels), rowBytes, gapGm, gapUb, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(xLocal, xGm[info.gmOffsetIn], params, pad);
        inQ.EnQue(xLocal);
    }

    __aicore__ inline void Compute(const LseTileInfo& info)
    {
        LocalTensor<T> xLocal = inQ.DeQue<T>();
        LocalTensor<float> rows;
        uint32_t n = info.countAligned;
        if constexpr (IsSameType<T, float>::value) {
            rows = xLocal;
        } else {
            rows = castBuf.Get<float>();
            for (uint32_t c = 0; c < channels; ++c) {
                Cast(rows[c * tileLen], xLocal[c * tileLen], RoundMode::CAST_NONE, n);
            }
        }

        LocalTensor<float> mx = maxBuf.Get<float>();
        LocalTensor<float> acc = sumBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> tmp2 = tmp2Buf.Get<float>();

        // running max over channels for numerical stability
        Adds(mx, rows, 0.0f, n);
        for (uint32_t c = 1; c < channels; ++c) {
            Max(mx, mx, rows[c * tileLen], n);
        }
        Duplicate(acc, 0.0f, n);
        for (uint32_t c = 0; c < channels; ++c) {
            Sub(tmp, rows[c * tileLen], mx, n);
            Exp(tmp, tmp, n);
            Add(acc, acc, tmp, n);
        }
        Ln(acc, acc, n);
        Add(acc, acc, mx, n);
        inQ.FreeTensor(xLocal);

        GatedShiftClamp(acc, tmp2, shiftVal, lo, hi, n);

        LocalTensor<T> yLocal = outQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            Adds(yLocal, acc, 0.0f, n);
        } else {
            Cast(yLocal, acc, RoundMode::CAST_ROUND, n);
        }
        outQ.EnQue(yLocal);
    }

    __aicore__ inline void CopyOut(const LseTileInfo& info)
    {
        LocalTensor<T> yLocal = outQ.DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(info.count * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[info.gmOffsetOut], yLocal, params);
        outQ.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> maxBuf, sumBuf, tmpBuf, tmp2Buf, castBuf;
    GlobalTensor<T> xGm, yGm;
    uint32_t channels = 0, spatial = 0, tileLen = 0, tilesPerBatch = 0, totalTiles = 0;
    float lo = -1.0f, hi = 1.0f, shiftVal = 0.0f;
};

extern "C" __global__ __aicore__ void channel_lse_swish_clamp_custom(GM_ADDR x, GM_ADDR shift, GM_ADDR y,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        ChannelLseSwishClamp<float> op;
        op.Init(x, shift, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        ChannelLseSwishClamp<half> op;
        op.Init(x, shift, y, tilingData);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Channel-reduced log-sum-exp followed by the gated shift/clamp epilogue (custom kernel).
at::Tensor channel_lse_swish_clamp_impl_npu(const at::Tensor& x, const at::Tensor& shift)
{
    at::Tensor xc = x.contiguous();
    std::vector<int64_t> outSize = xc.sizes().vec();
    outSize[1] = 1;
    at::Tensor result = at::empty(outSize, xc.options());
    at::Tensor s = shift.reshape({1}).to(xc.scalar_type()).contiguous();
    EXEC_NPU_CMD(aclnnChannelLseSwishClampCustom, xc, s, result);
    return result;
}

// Full block: transposed 3D conv (framework), then the fused reduction/epilogue kernel.
at::Tensor deconv3d_lse_swish_clamp_npu(const at::Tensor& x, const at::Tensor& weight,
                                        const c10::optional<at::Tensor>& convBias, const at::Tensor& shift,
                                        int64_t stride, int64_t padding)
{
    at::Tensor y = at::conv_transpose3d(x, weight, convBias,
                                        {stride, stride, stride}, {padding, padding, padding},
                                        {0, 0, 0}, 1, {1, 1, 1});
    return channel_lse_swish_clamp_impl_npu(y, shift);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_lse_swish_clamp_custom", &channel_lse_swish_clamp_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_lse_swish_clamp_custom", &channel_lse_swish_clamp_impl_npu,
          "clamp(lse_c(x) * sigmoid(lse_c(x) + 3) / 6 - shift, -1, 1)");
    m.def("deconv3d_lse_swish_clamp", &deconv3d_lse_swish_clamp_npu,
          "conv_transpose3d + channel logsumexp + gated shift clamp");
}
"""

project_json_src='''
[
    {
        "op": "ChannelMixReluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "bias", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelMixReluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inCh);
  TILING_DATA_FIELD_DEF(uint32_t, outCh);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);         // pixels per tile, also the UB pitch between channels
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerImage);
  TILING_DATA_FIELD_DEF(uint32_t, lastTileLen);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsLeft);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelMixReluCustom, ChannelMixReluTilingData)
}
"""

host_operator_src="""
#include "channel_mix_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t UB_BUDGET = 160 * 1024;
constexpr uint32_t MAX_TILE = 8192;

// Largest 16-aligned pixel tile such that: 2 x (inCh tiles of T) + inCh fp32 tiles
// + 2 output tiles of T + 1 fp32 accumulator fit in the budget.
static uint32_t ChooseTile(uint32_t inCh, uint32_t spatial, uint32_t elemBytes)
{
    uint32_t perPixel = 2 * inCh * elemBytes + inCh * 4 + 2 * elemBytes + 4;
    uint32_t tile = UB_BUDGET / perPixel;
    tile = tile > MAX_TILE ? MAX_TILE : tile;
    tile = tile / 16 * 16;
    uint32_t need = (spatial + 15) / 16 * 16;
    if (tile > need) {
        tile = need;
    }
    return tile < 16 ? 16 : tile;
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    uint32_t batch = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t inCh = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t outCh = static_cast<uint32_t>(ws.GetDim(0));
    uint64_t spatial = 1;
    for (size_t i = 2; i < xs.GetDimNum(); ++i) {
        spatial *= static_cast<uint64_t>(xs.GetDim(i));
    }

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemBytes = dt == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t tile = ChooseTile(inCh, static_cast<uint32_t>(spatial), elemBytes);
    uint32_t tiles = static_cast<uint32_t>((spatial + tile - 1) / tile);
    uint32_t last = static_cast<uint32_t>(spatial - static_cast<uint64_t>(tiles - 1) * tile);

    uint32_t units = batch * tiles;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    cores = units < cores ? (units == 0 ? 1 : units) : cores;

    ChannelMixReluTilingData td;
    td.set_batch(batch);
    td.set_inCh(inCh);
    td.set_outCh(outCh);
    td.set_spatial(static_cast<uint32_t>(spatial));
    td.set_tileLen(tile);
    td.set_tilesPerImage(tiles);
    td.set_lastTileLen(last);
    td.set_unitsPerCore(units / cores);
    td.set_unitsLeft(units % cores);

    context->SetBlockDim(cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    const gert::Shape *ws = context->GetInputShape(1);
    gert::Shape *ys = context->GetOutputShape(0);
    *ys = *xs;
    ys->SetDim(1, ws->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelMixReluCustom : public OpDef {
public:
    explicit ChannelMixReluCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelMixReluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct MixShape {
    uint32_t batch, inCh, outCh, spatial;
    uint32_t tileLen, tilesPerImage, lastTileLen;
    uint32_t unitsPerCore, unitsLeft;
};

// 1x1 convolution with few input channels: each output channel is a short
// scalar-weighted sum of input planes, done with Muls/Axpy on the vector unit.
template <typename T>
class ChannelMixRelu {
public:
    __aicore__ inline ChannelMixRelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const MixShape &s)
    {
        ms = s;
        uint32_t blk = GetBlockIdx();
        firstUnit = blk * ms.unitsPerCore + (blk < ms.unitsLeft ? blk : ms.unitsLeft);
        numUnits = ms.unitsPerCore + (blk < ms.unitsLeft ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        wGm.SetGlobalBuffer((__gm__ float *)w, ms.outCh * ms.inCh);
        bGm.SetGlobalBuffer((__gm__ float *)b, ms.outCh);

        pipe.InitBuffer(xQ, BUFFER_NUM, ms.inCh * ms.tileLen * sizeof(T));
        pipe.InitBuffer(yQ, BUFFER_NUM, ms.tileLen * sizeof(T));
        pipe.InitBuffer(xF, ms.inCh * ms.tileLen * sizeof(float));
        pipe.InitBuffer(accF, ms.tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < numUnits; ++i) {
            uint32_t unit = firstUnit + i;
            uint32_t n = unit / ms.tilesPerImage;
            uint32_t t = unit % ms.tilesPerImage;
            uint32_t len = (t + 1 == ms.tilesPerImage) ? ms.lastTileLen : ms.tileLen;
            uint64_t pix = static_cast<uint64_t>(t) * ms.tileLen;
            LoadInputs(n, pix, len);
            WidenInputs(len);
            for (uint32_t co = 0; co < ms.outCh; ++co) {
                MixOne(co, len);
                StoreOne(n, co, pix, len);
            }
        }
    }

private:
    __aicore__ inline void LoadInputs(uint32_t n, uint64_t pix, uint32_t len)
    {
        LocalTensor<T> xl = xQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        for (uint32_t ci = 0; ci < ms.inCh; ++ci) {
            uint64_t off = (static_cast<uint64_t>(n) * ms.inCh + ci) * ms.spatial + pix;
            DataCopyPad(xl[ci * ms.tileLen], xGm[off], cp, pad);
        }
        xQ.EnQue(xl);
    }

    __aicore__ inline void WidenInputs(uint32_t len)
    {
        LocalTensor<T> xl = xQ.DeQue<T>();
        LocalTensor<float> xf = xF.Get<float>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(xf, xl, ms.inCh * ms.tileLen);
        } else {
            Cast(xf, xl, RoundMode::CAST_NONE, ms.inCh * ms.tileLen);
        }
        PipeBarrier<PIPE_V>();
        xQ.FreeTensor(xl);
    }

    __aicore__ inline void MixOne(uint32_t co, uint32_t len)
    {
        LocalTensor<float> xf = xF.Get<float>();
        LocalTensor<float> acc = accF.Get<float>();
        const uint32_t wRow = co * ms.inCh;
        Duplicate(acc, bGm.GetValue(co), len);
        PipeBarrier<PIPE_V>();
        for (uint32_t ci = 0; ci < ms.inCh; ++ci) {
            Axpy(acc, xf[ci * ms.tileLen], wGm.GetValue(wRow + ci), len);
            PipeBarrier<PIPE_V>();
        }
        LocalTensor<T> yl = yQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            Relu(yl, acc, len);
        } else {
            Relu(acc, acc, len);
            PipeBarrier<PIPE_V>();
            Cast(yl, acc, RoundMode::CAST_ROUND, len);
        }
        yQ.EnQue(yl);
    }

    __aicore__ inline void StoreOne(uint32_t n, uint32_t co, uint64_t pix, uint32_t len)
    {
        LocalTensor<T> yl = yQ.DeQue<T>();
        uint64_t off = (static_cast<uint64_t>(n) * ms.outCh + co) * ms.spatial + pix;
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, cp);
        yQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQ;
    TBuf<QuePosition::VECCALC> xF, accF;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> wGm, bGm;
    MixShape ms;
    uint32_t firstUnit = 0;
    uint32_t numUnits = 0;
};

extern "C" __global__ __aicore__ void channel_mix_relu_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    MixShape s{td.batch, td.inCh, td.outCh, td.spatial, td.tileLen, td.tilesPerImage,
               td.lastTileLen, td.unitsPerCore, td.unitsLeft};
    if (TILING_KEY_IS(1)) {
        ChannelMixRelu<half> k;
        k.Init(x, weight, bias, y, s);
        k.Process();
    } else if (TILING_KEY_IS(0)) {
        ChannelMixRelu<float> k;
        k.Init(x, weight, bias, y, s);
        k.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

static at::Tensor channel_mix_relu(const at::Tensor &x, const at::Tensor &w, const at::Tensor &b)
{
    at::Tensor xc = x.contiguous();
    at::Tensor w2 = w.reshape({w.size(0), -1}).to(at::kFloat).contiguous();
    at::Tensor bf = b.to(at::kFloat).contiguous();
    std::vector<int64_t> shape = xc.sizes().vec();
    shape[1] = w2.size(0);
    at::Tensor y = at::empty(shape, xc.options());
    EXEC_NPU_CMD(aclnnChannelMixReluCustom, xc, w2, bf, y);
    return y;
}

// Fire module: squeeze 1x1 + ReLU and expand 1x1 + ReLU run on the custom kernel;
// the 3x3 expand branch goes to aten conv2d (cube), then channels are concatenated.
at::Tensor fire_block_npu(const at::Tensor &x, const at::Tensor &sq_w, const at::Tensor &sq_b,
                          const at::Tensor &e1_w, const at::Tensor &e1_b, const at::Tensor &e3_w,
                          const at::Tensor &e3_b)
{
    at::Tensor s = channel_mix_relu(x, sq_w, sq_b);
    at::Tensor e1 = channel_mix_relu(s, e1_w, e1_b);
    at::Tensor e3 = at::relu(at::conv2d(s, e3_w, e3_b, {1, 1}, {1, 1}));
    return at::cat({e1, e3}, 1);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_mix_relu_custom", &channel_mix_relu);
    m.impl("fire_block_custom", &fire_block_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_mix_relu_custom", &channel_mix_relu, "1x1 conv + relu");
    m.def("fire_block_custom", &fire_block_npu, "squeezenet fire module");
}
"""

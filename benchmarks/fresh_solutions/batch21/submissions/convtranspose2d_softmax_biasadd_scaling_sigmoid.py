project_json_src='''
[
    {
        "op": "ChannelSoftmaxGateCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "bias", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "scale", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelSoftmaxGateTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);        // H * W, the softmax is taken across C at each position
  TILING_DATA_FIELD_DEF(uint32_t, colTile);        // spatial positions per tile (UB row pitch)
  TILING_DATA_FIELD_DEF(uint32_t, colTilesPerImg);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tilesLeft);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelSoftmaxGateCustom, ChannelSoftmaxGateTilingData)
}
"""

host_operator_src="""
#include "channel_softmax_gate_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t COL_ALIGN = 16;      // keeps each channel row 32B aligned for fp16 and fp32
constexpr uint32_t MAX_COLS = 256;

class GateTiler {
public:
    GateTiler(uint64_t ub, uint32_t typeSize) : ub_(ub), ts_(typeSize) {}
    // per column: in/out queues (double buffered) + fp32 work block, plus max/sum rows
    uint32_t Columns(uint32_t channels, uint32_t spatial) const
    {
        uint64_t perCol = static_cast<uint64_t>(channels) * (2 * BUFFER_NUM * ts_ + sizeof(float)) +
                          2 * sizeof(float);
        uint64_t cols = (ub_ - 8 * 1024) / perCol;
        if (cols > MAX_COLS) cols = MAX_COLS;
        cols = cols / COL_ALIGN * COL_ALIGN;
        uint32_t need = (spatial + COL_ALIGN - 1) / COL_ALIGN * COL_ALIGN;
        if (cols > need) cols = need;
        return static_cast<uint32_t>(cols);
    }
private:
    uint64_t ub_;
    uint32_t ts_;
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ChannelSoftmaxGateTilingData td;
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = s.GetDim(0), c = s.GetDim(1);
    uint32_t hw = 1;
    for (size_t i = 2; i < s.GetDimNum(); ++i) hw *= s.GetDim(i);
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    GateTiler tiler(ub, dt == ge::DT_FLOAT16 ? 2 : 4);
    uint32_t cols = tiler.Columns(c, hw);
    if (cols == 0 || c > 4095) return ge::GRAPH_FAILED;   // DMA blockCount limit

    uint32_t perImg = (hw + cols - 1) / cols;
    uint32_t tiles = n * perImg;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > tiles) cores = tiles;
    if (cores == 0) cores = 1;

    const float* sc = context->GetAttrs()->GetFloat(0);
    td.set_batch(n);
    td.set_channels(c);
    td.set_spatial(hw);
    td.set_colTile(cols);
    td.set_colTilesPerImg(perImg);
    td.set_tilesPerCore(tiles / cores);
    td.set_tilesLeft(tiles % cores);
    td.set_scale(sc ? *sc : 1.0f);

    context->SetBlockDim(cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
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
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelSoftmaxGateCustom : public OpDef {
public:
    explicit ChannelSoftmaxGateCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelSoftmaxGateCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Softmax across rows of a [rows][pitch] fp32 block (one column = one spatial position),
// followed by sigmoid((p + bias[row]) * scale).
struct ColumnSoftmaxGate {
    __aicore__ static inline void Run(const LocalTensor<float>& blk, const LocalTensor<float>& mx,
                                      const LocalTensor<float>& sm, const GlobalTensor<float>& bias,
                                      uint32_t rows, uint32_t pitch, float scale)
    {
        DataCopy(mx, blk, pitch);
        for (uint32_t r = 1; r < rows; ++r) {
            Max(mx, mx, blk[r * pitch], pitch);
        }
        Duplicate(sm, 0.0f, pitch);
        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<float> row = blk[r * pitch];
            Sub(row, row, mx, pitch);
            Exp(row, row, pitch);
            Add(sm, sm, row, pitch);
        }
        // fold the scale into the reciprocal: ((e / s) + b) * k = e * (k / s) + b * k
        Duplicate(mx, scale, pitch);
        Div(sm, mx, sm, pitch);
        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<float> row = blk[r * pitch];
            Mul(row, row, sm, pitch);
            Adds(row, row, bias.GetValue(r) * scale, pitch);
        }
        Sigmoid(blk, blk, rows * pitch);
    }
};

template <typename T>
class ChannelSoftmaxGate {
public:
    __aicore__ inline ChannelSoftmaxGate() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const ChannelSoftmaxGateTilingData& td)
    {
        C = td.channels;
        HW = td.spatial;
        pitch = td.colTile;
        perImg = td.colTilesPerImg;
        scale = td.scale;
        uint32_t id = GetBlockIdx();
        tBegin = id * td.tilesPerCore + (id < td.tilesLeft ? id : td.tilesLeft);
        tCount = td.tilesPerCore + (id < td.tilesLeft ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        biasGm.SetGlobalBuffer((__gm__ float*)bias);
        pipe.InitBuffer(inQ, BUFFER_NUM, C * pitch * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, C * pitch * sizeof(T));
        pipe.InitBuffer(work, C * pitch * sizeof(float));
        pipe.InitBuffer(rowMax, pitch * sizeof(float));
        pipe.InitBuffer(rowSum, pitch * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tCount; ++i) {
            uint32_t tile = tBegin + i;
            uint32_t img = tile / perImg;
            uint32_t col = (tile - img * perImg) * pitch;
            uint32_t cols = (HW - col) < pitch ? (HW - col) : pitch;
            uint64_t base = static_cast<uint64_t>(img) * C * HW + col;
            Fetch(base, cols);
            Compute();
            Emit(base, cols);
        }
    }

private:
    __aicore__ inline void Fetch(uint64_t base, uint32_t cols)
    {
        LocalTensor<T> in = inQ.AllocTensor<T>();
        uint32_t bytes = cols * sizeof(T);
        uint32_t gap = (pitch * sizeof(T) - (bytes + 31) / 32 * 32) / 32;
        // C strided rows: channel c lives at base + c * HW
        DataCopyExtParams prm{static_cast<uint16_t>(C), bytes, (HW - cols) * static_cast<uint32_t>(sizeof(T)), gap, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(in, xGm[base], prm, pad);
        inQ.EnQue(in);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<T> in = inQ.DeQue<T>();
        LocalTensor<float> blk = work.Get<float>();
        uint32_t total = C * pitch;
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(blk, in, total);
        } else {
            Cast(blk, in, RoundMode::CAST_NONE, total);
        }
        inQ.FreeTensor(in);
        // padded columns carry stale data; they are computed but never written back
        ColumnSoftmaxGate::Run(blk, rowMax.Get<float>(), rowSum.Get<float>(), biasGm, C, pitch, scale);
        LocalTensor<T> out = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(out, blk, total);
        } else {
            Cast(out, blk, RoundMode::CAST_ROUND, total);
        }
        outQ.EnQue(out);
    }

    __aicore__ inline void Emit(uint64_t base, uint32_t cols)
    {
        LocalTensor<T> out = outQ.DeQue<T>();
        uint32_t bytes = cols * sizeof(T);
        uint32_t gap = (pitch * sizeof(T) - (bytes + 31) / 32 * 32) / 32;
        DataCopyExtParams prm{static_cast<uint16_t>(C), bytes, gap, (HW - cols) * static_cast<uint32_t>(sizeof(T)), 0};
        DataCopyPad(yGm[base], out, prm);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> work, rowMax, rowSum;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> biasGm;
    uint32_t C, HW, pitch, perImg, tBegin, tCount;
    float scale;
};

extern "C" __global__ __aicore__ void channel_softmax_gate_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ChannelSoftmaxGate<float> op;
        op.Init(x, bias, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ChannelSoftmaxGate<half> op;
        op.Init(x, bias, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// sigmoid((softmax(x, dim=1) + bias[c]) * scale)
at::Tensor channel_softmax_gate_impl_npu(const at::Tensor& x, const at::Tensor& bias, double scale)
{
    at::Tensor xc = x.contiguous();
    at::Tensor b = bias.reshape({-1}).to(at::kFloat).contiguous();
    TORCH_CHECK(b.numel() == x.size(1), "bias must have one value per channel");
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnChannelSoftmaxGateCustom, xc, b, scale, y);
    return y;
}

at::Tensor convt_softmax_gate_forward(const at::Tensor& x, const at::Tensor& w, const at::Tensor& cb,
                                      int64_t stride, int64_t padding, int64_t output_padding,
                                      const at::Tensor& bias, double scale)
{
    at::Tensor h = at::conv_transpose2d(x, w, cb, stride, padding, output_padding);
    return channel_softmax_gate_impl_npu(h, bias, scale);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_softmax_gate_custom", &channel_softmax_gate_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_softmax_gate_custom", &channel_softmax_gate_impl_npu, "softmax over C, bias, scale, sigmoid");
    m.def("convt_softmax_gate_forward", &convt_softmax_gate_forward, "conv_transpose2d + fused epilogue");
}
"""

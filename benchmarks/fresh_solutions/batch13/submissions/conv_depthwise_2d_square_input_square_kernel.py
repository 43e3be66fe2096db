project_json_src='''
[
    {
        "op": "PerChannelStencil2dCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "taps",
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
BEGIN_TILING_DATA_DEF(PerChannelStencil2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planes);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, rowPitch);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, rowTiles);
  TILING_DATA_FIELD_DEF(uint32_t, unitsBase);
  TILING_DATA_FIELD_DEF(uint32_t, unitsExtra);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PerChannelStencil2dCustom, PerChannelStencil2dTilingData)
}
"""

host_operator_src="""
#include "per_channel_stencil2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t SLOT_BYTES = 28 * 1024;   // per slot; window queue + accumulator queue, 2 slots each
constexpr uint32_t MAX_KSIZE = 15;

struct StencilGeometry {
    uint32_t hout;
    uint32_t wout;
    uint32_t pitch;   // output row length padded to 32 B in UB
    uint32_t rows;
};

static StencilGeometry Plan(uint32_t hin, uint32_t win, uint32_t k, uint32_t elem)
{
    StencilGeometry g;
    g.hout = hin - k + 1;
    g.wout = win - k + 1;
    uint32_t align = 32 / elem;
    g.pitch = (g.wout + align - 1) / align * align;
    g.rows = SLOT_BYTES / (g.pitch * elem);
    g.rows = g.rows == 0 ? 1 : g.rows;
    g.rows = g.rows > g.hout ? g.hout : g.rows;
    return g;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PerChannelStencil2dTilingData td;
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetOriginShape();
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), hin = xs.GetDim(2), win = xs.GetDim(3);
    uint32_t k = ws.GetDim(ws.GetDimNum() - 1);
    if (k == 0 || k > MAX_KSIZE || hin < k || win < k) {
        return ge::GRAPH_FAILED;
    }
    uint32_t elem = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    StencilGeometry geo = Plan(hin, win, k, elem);
    uint32_t rowTiles = (geo.hout + geo.rows - 1) / geo.rows;
    uint32_t units = n * c * rowTiles;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores > units ? units : cores;
    cores = cores == 0 ? 1 : cores;

    td.set_channels(c);
    td.set_planes(n * c);
    td.set_hin(hin);
    td.set_win(win);
    td.set_ksize(k);
    td.set_hout(geo.hout);
    td.set_wout(geo.wout);
    td.set_rowPitch(geo.pitch);
    td.set_rowsPerTile(geo.rows);
    td.set_rowTiles(rowTiles);
    td.set_unitsBase(units / cores);
    td.set_unitsExtra(units % cores);

    context->SetTilingKey(elem == 2 ? 2 : 1);
    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    int64_t k = ws->GetDim(ws->GetDimNum() - 1);
    gert::Shape* ys = context->GetOutputShape(0);
    *ys = *xs;
    ys->SetDim(2, xs->GetDim(2) - k + 1);
    ys->SetDim(3, xs->GetDim(3) - k + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class PerChannelStencil2dCustom : public OpDef {
public:
    explicit PerChannelStencil2dCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("taps").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
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
OP_ADD(PerChannelStencil2dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TAPS = 15 * 15;

// One work unit = `rows` output rows of one (n, c) plane. For each tap (kh, kw) the
// matching input window is fetched from GM already shifted, so the UB side stays aligned
// and the whole block is accumulated with a single Axpy.
template <typename T>
class PerChannelStencil2d {
public:
    __aicore__ inline PerChannelStencil2d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR taps, GM_ADDR y, const PerChannelStencil2dTilingData& td)
    {
        td_ = td;
        uint32_t idx = GetBlockIdx();
        units_ = td.unitsBase + (idx < td.unitsExtra ? 1 : 0);
        first_ = idx * td.unitsBase + (idx < td.unitsExtra ? idx : td.unitsExtra);
        taps_ = td.ksize * td.ksize;
        slot_ = td.rowsPerTile * td.rowPitch;

        xGm_.SetGlobalBuffer((__gm__ T*)x);
        wGm_.SetGlobalBuffer((__gm__ T*)taps, (uint64_t)td.channels * taps_);
        yGm_.SetGlobalBuffer((__gm__ T*)y);
        pipe_.InitBuffer(winQ_, BUFFER_NUM, slot_ * sizeof(T));
        pipe_.InitBuffer(accQ_, BUFFER_NUM, slot_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint32_t cachedCh = 0xFFFFFFFFu;
        for (uint32_t i = 0; i < units_; ++i) {
            uint32_t u = first_ + i;
            uint32_t plane = u / td_.rowTiles;
            uint32_t oy0 = (u % td_.rowTiles) * td_.rowsPerTile;
            uint32_t rows = (td_.hout - oy0) < td_.rowsPerTile ? (td_.hout - oy0) : td_.rowsPerTile;
            uint32_t ch = plane % td_.channels;
            if (ch != cachedCh) {
                for (uint32_t t = 0; t < taps_; ++t) {
                    coef_[t] = wGm_.GetValue((uint64_t)ch * taps_ + t);
                }
                cachedCh = ch;
            }
            Accumulate(plane, oy0, rows);
            Flush(plane, oy0, rows);
        }
    }

private:
    __aicore__ inline void FetchWindow(uint32_t plane, uint32_t row, uint32_t col, uint32_t rows)
    {
        LocalTensor<T> w = winQ_.AllocTensor<T>();
        uint64_t src = ((uint64_t)plane * td_.hin + row) * td_.win + col;
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(td_.wout * sizeof(T)),
                             static_cast<uint32_t>((td_.win - td_.wout) * sizeof(T)), 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(w, xGm_[src], cp, pad);
        winQ_.EnQue(w);
    }

    __aicore__ inline void Accumulate(uint32_t plane, uint32_t oy0, uint32_t rows)
    {
        uint32_t span = rows * td_.rowPitch;
        LocalTensor<T> acc = accQ_.AllocTensor<T>();
        Duplicate(acc, static_cast<T>(0), span);
        for (uint32_t kh = 0; kh < td_.ksize; ++kh) {
            for (uint32_t kw = 0; kw < td_.ksize; ++kw) {
                FetchWindow(plane, oy0 + kh, kw, rows);
                LocalTensor<T> w = winQ_.DeQue<T>();
                Axpy(acc, w, coef_[kh * td_.ksize + kw], span);
                winQ_.FreeTensor(w);
            }
        }
        accQ_.EnQue(acc);
    }

    __aicore__ inline void Flush(uint32_t plane, uint32_t oy0, uint32_t rows)
    {
        LocalTensor<T> acc = accQ_.DeQue<T>();
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(td_.wout * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[((uint64_t)plane * td_.hout + oy0) * td_.wout], acc, cp);
        accQ_.FreeTensor(acc);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> winQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> accQ_;
    GlobalTensor<T> xGm_, wGm_, yGm_;
    PerChannelStencil2dTilingData td_;
    uint32_t units_ = 0, first_ = 0, taps_ = 0, slot_ = 0;
    T coef_[MAX_TAPS];
};

extern "C" __global__ __aicore__ void per_channel_stencil2d_custom(GM_ADDR x, GM_ADDR taps, GM_ADDR y,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        PerChannelStencil2d<float> op;
        op.Init(x, taps, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        PerChannelStencil2d<half> op;
        op.Init(x, taps, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Depthwise conv (groups == C, multiplier 1). Padding is applied on the host; the kernel
// covers stride 1, other strides go to the stock operator.
at::Tensor per_channel_stencil2d_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                          const c10::optional<at::Tensor>& bias, int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4 && weight.size(1) == 1, "expected depthwise NCHW weights");
    if (stride != 1) {
        return at::conv2d(x, weight, bias, {stride, stride}, {padding, padding}, {1, 1}, x.size(1));
    }
    at::Tensor xp = padding > 0 ? at::constant_pad_nd(x, {padding, padding, padding, padding}, 0) : x;
    xp = xp.contiguous();
    at::Tensor taps = weight.reshape({weight.size(0), weight.size(2) * weight.size(3)})
                          .to(x.scalar_type()).contiguous();
    const int64_t k = weight.size(3);
    at::Tensor y = at::empty({x.size(0), x.size(1), xp.size(2) - k + 1, xp.size(3) - k + 1}, x.options());
    EXEC_NPU_CMD(aclnnPerChannelStencil2dCustom, xp, taps, y);
    if (bias.has_value() && bias->defined()) {
        y.add_(bias->view({1, -1, 1, 1}));
    }
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("per_channel_stencil2d_custom", &per_channel_stencil2d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("per_channel_stencil2d_custom", &per_channel_stencil2d_impl_npu, "depthwise conv2d",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("bias") = pybind11::none(),
          pybind11::arg("stride") = 1, pybind11::arg("padding") = 0);
}
"""

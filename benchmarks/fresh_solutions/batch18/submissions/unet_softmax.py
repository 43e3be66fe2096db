project_json_src='''
[
    {
        "op": "ChannelAffineLastDimSoftmaxCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "scale", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "shift", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
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
BEGIN_TILING_DATA_DEF(ChannelAffineSoftmaxTiling)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);   // N * C * H
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);      // W, softmax axis
  TILING_DATA_FIELD_DEF(uint32_t, rowStride);   // W rounded to 32 bytes in UB
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelAffineLastDimSoftmaxCustom, ChannelAffineSoftmaxTiling)
}
"""

host_operator_src="""
#include "channel_affine_last_dim_softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t UB_HEADROOM = 16 * 1024;

// rows per tile from UB: 2x in + 2x out queues (T) + one fp32 work row set
uint32_t RowsPerTile(uint64_t ub, uint32_t stride, uint32_t elemBytes, uint32_t rowsPerCore)
{
    uint64_t perRow = (uint64_t)stride * (4ULL * elemBytes + sizeof(float));
    uint64_t avail = ub > UB_HEADROOM ? ub - UB_HEADROOM : ub / 2;
    uint64_t r = avail / perRow;
    if (r > 64) r = 64;
    if (r > rowsPerCore) r = rowsPerCore;
    return r == 0 ? 1 : static_cast<uint32_t>(r);
}
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = shape.GetDim(0), c = shape.GetDim(1), h = shape.GetDim(2), w = shape.GetDim(3);
    auto dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t elemBytes = dtype == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t stride = (w + 15) / 16 * 16;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    uint32_t totalRows = n * c * h;
    uint32_t rowsPerCore = (totalRows + cores - 1) / cores;
    uint32_t used = (totalRows + rowsPerCore - 1) / rowsPerCore;

    ChannelAffineSoftmaxTiling tiling;
    tiling.set_totalRows(totalRows);
    tiling.set_rowLen(w);
    tiling.set_rowStride(stride);
    tiling.set_channels(c);
    tiling.set_height(h);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_rowsPerTile(RowsPerTile(ub, stride, elemBytes, rowsPerCore));

    context->SetBlockDim(used);
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelAffineLastDimSoftmaxCustom : public OpDef {
public:
    explicit ChannelAffineLastDimSoftmaxCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED)
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
OP_ADD(ChannelAffineLastDimSoftmaxCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// softmax(a * x + b) over one fp32 row, in place
struct RowSoftmax {
    __aicore__ static inline void Run(LocalTensor<float> &row, LocalTensor<float> &red, uint32_t len,
                                      float a, float b)
    {
        Muls(row, row, a, len);
        Adds(row, row, b, len);
        ReduceMax(red, row, red[8], len, false);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float mx = red.GetValue(0);
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Adds(row, row, -mx, len);
        Exp(row, row, len);
        ReduceSum(red, row, red[8], len);
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float inv = 1.0f / red.GetValue(0);
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Muls(row, row, inv, len);
    }
};

template <typename T>
class ChannelAffineSoftmax {
public:
    __aicore__ inline ChannelAffineSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const ChannelAffineSoftmaxTiling &t)
    {
        tl = t;
        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        scaleGm.SetGlobalBuffer((__gm__ float *)scale);
        shiftGm.SetGlobalBuffer((__gm__ float *)shift);
        first = GetBlockIdx() * tl.rowsPerCore;
        last = first + tl.rowsPerCore;
        if (last > tl.totalRows) last = tl.totalRows;

        uint32_t tileElems = tl.rowsPerTile * tl.rowStride;
        pipe.InitBuffer(inQ, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(workBuf, tileElems * sizeof(float));
        // reduce result (first block) + reduce scratch
        pipe.InitBuffer(redBuf, (tl.rowStride + 64) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r0 = first; r0 < last; r0 += tl.rowsPerTile) {
            uint32_t cnt = last - r0 < tl.rowsPerTile ? last - r0 : tl.rowsPerTile;
            CopyIn(r0, cnt);
            Compute(r0, cnt);
            CopyOut(r0, cnt);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r0, uint32_t cnt)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        uint32_t rowBytes = tl.rowLen * sizeof(T);
        uint32_t gap = (tl.rowStride * sizeof(T) - (rowBytes + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(cnt), rowBytes, 0, gap, 0};
        DataCopyPad(xl, xGm[(uint64_t)r0 * tl.rowLen], cp, DataCopyPadExtParams<T>{false, 0, 0, static_cast<T>(0)});
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t r0, uint32_t cnt)
    {
        LocalTensor<T> xl = inQ.DeQue<T>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        uint32_t elems = cnt * tl.rowStride;
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(work, xl, elems);
        } else {
            Cast(work, xl, RoundMode::CAST_NONE, elems);
        }
        inQ.FreeTensor(xl);
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < cnt; ++i) {
            uint32_t ch = ((r0 + i) / tl.height) % tl.channels;
            float a = scaleGm.GetValue(ch);
            float b = shiftGm.GetValue(ch);
            LocalTensor<float> row = work[i * tl.rowStride];
            RowSoftmax::Run(row, red, tl.rowLen, a, b);
        }
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(yl, work, elems);
        } else {
            Cast(yl, work, RoundMode::CAST_RINT, elems);
        }
        outQ.EnQue(yl);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t cnt)
    {
        LocalTensor<T> yl = outQ.DeQue<T>();
        uint32_t rowBytes = tl.rowLen * sizeof(T);
        uint32_t gap = (tl.rowStride * sizeof(T) - (rowBytes + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(cnt), rowBytes, gap, 0, 0};
        DataCopyPad(yGm[(uint64_t)r0 * tl.rowLen], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> workBuf, redBuf;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> scaleGm, shiftGm;
    ChannelAffineSoftmaxTiling tl;
    uint32_t first = 0, last = 0;
};

extern "C" __global__ __aicore__ void channel_affine_last_dim_softmax_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift,
                                                                             GM_ADDR y, GM_ADDR workspace,
                                                                             GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ChannelAffineSoftmax<float> op;
        op.Init(x, scale, shift, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ChannelAffineSoftmax<half> op;
        op.Init(x, scale, shift, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// y = softmax_W(scale[c] * x + shift[c])
at::Tensor channel_affine_softmax_impl_npu(const at::Tensor &x, const at::Tensor &scale, const at::Tensor &shift)
{
    at::Tensor xc = x.contiguous();
    at::Tensor s = scale.to(at::kFloat).contiguous();
    at::Tensor b = shift.to(at::kFloat).contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnChannelAffineLastDimSoftmaxCustom, xc, s, b, y);
    return y;
}

namespace {
constexpr double BN_EPS = 1e-5;

// BatchNorm with batch statistics (module in training mode) folded into per-channel scale/shift.
at::Tensor NormThenSoftmax(const at::Tensor &h, const at::Tensor &gamma, const at::Tensor &beta)
{
    auto stats = at::var_mean(h, {0, 2, 3}, /*unbiased=*/false);
    at::Tensor var = std::get<0>(stats).to(at::kFloat);
    at::Tensor mean = std::get<1>(stats).to(at::kFloat);
    at::Tensor scale = gamma.to(at::kFloat) * at::rsqrt(var + BN_EPS);
    at::Tensor shift = beta.to(at::kFloat) - mean * scale;
    return channel_affine_softmax_impl_npu(h, scale, shift);
}

// params: conv1.w, conv1.b, bn1.w, bn1.b, conv2.w, conv2.b, bn2.w, bn2.b
at::Tensor DoubleConvBlock(const at::Tensor &x, const std::vector<at::Tensor> &p, size_t &k)
{
    at::Tensor h = at::conv2d(x, p[k], p[k + 1], {1, 1}, {1, 1});
    h = NormThenSoftmax(h, p[k + 2], p[k + 3]);
    h = at::conv2d(h, p[k + 4], p[k + 5], {1, 1}, {1, 1});
    h = NormThenSoftmax(h, p[k + 6], p[k + 7]);
    k += 8;
    return h;
}
}

// params order: encoder1..4, bottleneck (8 each); then for levels 4..1: upconv.w, upconv.b,
// decoder (8); final_conv.w, final_conv.b
at::Tensor unet_softmax_forward(const at::Tensor &x, const std::vector<at::Tensor> &params)
{
    TORCH_CHECK(params.size() == 82, "expected 82 parameter tensors");
    size_t k = 0;
    std::vector<at::Tensor> skips;
    at::Tensor h = x;
    for (int level = 0; level < 4; ++level) {
        h = DoubleConvBlock(h, params, k);
        skips.push_back(h);
        h = at::max_pool2d(h, {2, 2}, {2, 2});
    }
    h = DoubleConvBlock(h, params, k);
    for (int level = 3; level >= 0; --level) {
        h = at::conv_transpose2d(h, params[k], params[k + 1], {2, 2});
        k += 2;
        h = at::cat({h, skips[level]}, 1);
        h = DoubleConvBlock(h, params, k);
    }
    return at::conv2d(h, params[k], params[k + 1]);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_affine_last_dim_softmax_custom", &channel_affine_softmax_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_affine_last_dim_softmax_custom", &channel_affine_softmax_impl_npu,
          "softmax over the last axis of per-channel affine(x)");
    m.def("unet_softmax_forward", &unet_softmax_forward, "U-Net with BN+softmax blocks");
}
"""

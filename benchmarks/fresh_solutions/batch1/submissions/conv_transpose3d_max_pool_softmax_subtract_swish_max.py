project_json_src='''
[
    {
        "op": "ConvTranspose3dMaxPoolSoftmaxSubtractSwishMaxCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "subtract", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dMaxPoolSoftmaxSubtractSwishMaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);        // pooled D*H*W
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);        // spatial positions per tile (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerBatch);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, remainderTiles);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dMaxPoolSoftmaxSubtractSwishMaxCustom,
                           ConvTranspose3dMaxPoolSoftmaxSubtractSwishMaxCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose3d_max_pool_softmax_subtract_swish_max_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// UB budget for the channel x tile block (input double buffered + one work copy)
constexpr uint32_t UB_BLOCK_BYTES = 32 * 1024;
constexpr uint32_t MAX_TILE = 2048;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dMaxPoolSoftmaxSubtractSwishMaxCustomTilingData td;
    const gert::Shape& shp = context->GetInputShape(0)->GetOriginShape();   // [N, C, D, H, W]
    uint32_t batch = shp.GetDim(0);
    uint32_t chans = shp.GetDim(1);
    uint32_t spatial = 1;
    for (size_t d = 2; d < shp.GetDimNum(); ++d) {
        spatial *= shp.GetDim(d);
    }

    uint32_t tile = UB_BLOCK_BYTES / (chans * sizeof(float));
    tile = tile / 8 * 8;
    if (tile == 0) tile = 8;
    if (tile > MAX_TILE) tile = MAX_TILE;
    uint32_t spatialAligned = (spatial + 7) / 8 * 8;
    if (tile > spatialAligned) tile = spatialAligned;

    uint32_t tilesPerBatch = (spatial + tile - 1) / tile;
    uint32_t totalTiles = tilesPerBatch * batch;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > totalTiles) cores = totalTiles;
    if (cores == 0) cores = 1;

    td.set_channels(chans);
    td.set_spatial(spatial);
    td.set_tileLen(tile);
    td.set_tilesPerBatch(tilesPerBatch);
    td.set_totalTiles(totalTiles);
    td.set_tilesPerCore(totalTiles / cores);
    td.set_remainderTiles(totalTiles % cores);

    context->SetBlockDim(cores);
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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    // channel dim is reduced away: [N, D, H, W]
    out->SetDimNum(in->GetDimNum() - 1);
    out->SetDim(0, in->GetDim(0));
    for (size_t i = 2; i < in->GetDimNum(); ++i) {
        out->SetDim(i - 1, in->GetDim(i));
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dMaxPoolSoftmaxSubtractSwishMaxCustom : public OpDef {
public:
    explicit ConvTranspose3dMaxPoolSoftmaxSubtractSwishMaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("subtract").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTranspose3dMaxPoolSoftmaxSubtractSwishMaxCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Input is the max-pooled conv_transpose3d output viewed as [N, C, S].
// For every spatial position s:
//   p_c   = softmax_c(x[:, s])
//   q_c   = p_c - sub[c]
//   y[s]  = max_c( q_c * sigmoid(q_c) )
// A tile holds all C channels for tileLen consecutive positions, so every
// channel-wise reduction becomes a plain elementwise Max/Add between rows.
class KernelSoftmaxSubSwishMax {
public:
    __aicore__ inline KernelSoftmaxSubSwishMax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR sub, GM_ADDR y,
                                const ConvTranspose3dMaxPoolSoftmaxSubtractSwishMaxCustomTilingData& td)
    {
        C = td.channels;
        S = td.spatial;
        L = td.tileLen;
        tilesPerBatch = td.tilesPerBatch;

        uint32_t bid = GetBlockIdx();
        tileCount = td.tilesPerCore + (bid < td.remainderTiles ? 1 : 0);
        tileBegin = bid * td.tilesPerCore + (bid < td.remainderTiles ? bid : td.remainderTiles);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        subGm.SetGlobalBuffer((__gm__ float*)sub, C);

        pipe.InitBuffer(inQue, BUFFER_NUM, C * L * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, L * sizeof(float));
        pipe.InitBuffer(rowMaxBuf, L * sizeof(float));
        pipe.InitBuffer(rowSumBuf, L * sizeof(float));
        pipe.InitBuffer(sigBuf, L * sizeof(float));
        uint32_t subLenAligned = (C + 7) / 8 * 8;
        pipe.InitBuffer(subBuf, subLenAligned * sizeof(float));

        // per-channel subtract values stay resident in UB for the whole kernel
        subLocal = subBuf.Get<float>();
        DataCopyExtParams sp{1, static_cast<uint32_t>(C * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(subLocal, subGm, sp, pad);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < tileCount; ++t) {
            uint32_t tileId = tileBegin + t;
            uint32_t n = tileId / tilesPerBatch;
            uint32_t s0 = (tileId % tilesPerBatch) * L;
            uint32_t len = (S - s0) < L ? (S - s0) : L;
            CopyIn(n, s0, len);
            Compute(len);
            CopyOut(n, s0, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t n, uint32_t s0, uint32_t len)
    {
        LocalTensor<float> xl = inQue.AllocTensor<float>();
        uint32_t lenAligned = (len + 7) / 8 * 8;
        // C strided rows of len elements; each row padded to lenAligned in UB,
        // extra gap up to L so rows sit at a fixed stride of L floats
        DataCopyExtParams p{static_cast<uint16_t>(C), static_cast<uint32_t>(len * sizeof(float)),
                            static_cast<uint32_t>((S - len) * sizeof(float)),
                            static_cast<uint32_t>((L - lenAligned) / 8), 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        uint64_t off = static_cast<uint64_t>(n) * C * S + s0;
        DataCopyPad(xl, xGm[off], p, pad);
        inQue.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> xl = inQue.DeQue<float>();
        LocalTensor<float> yl = outQue.AllocTensor<float>();
        LocalTensor<float> mx = rowMaxBuf.Get<float>();
        LocalTensor<float> sm = rowSumBuf.Get<float>();
        LocalTensor<float> sg = sigBuf.Get<float>();
        uint32_t cnt = (len + 7) / 8 * 8;

        // softmax over channels, numerically stable
        DataCopy(mx, xl, cnt);
        for (uint32_t c = 1; c < C; ++c) {
            Max(mx, mx, xl[c * L], cnt);
        }
        for (uint32_t c = 0; c < C; ++c) {
            Sub(xl[c * L], xl[c * L], mx, cnt);
        }
        Exp(xl, xl, C * L);
        DataCopy(sm, xl, cnt);
        for (uint32_t c = 1; c < C; ++c) {
            Add(sm, sm, xl[c * L], cnt);
        }
        // turn sum into its reciprocal once, then multiply each row
        Duplicate(sg, 1.0f, cnt);
        Div(sm, sg, sm, cnt);

        for (uint32_t c = 0; c < C; ++c) {
            LocalTensor<float> row = xl[c * L];
            Mul(row, row, sm, cnt);
            Adds(row, row, -subLocal.GetValue(c), cnt);
            Sigmoid(sg, row, cnt);
            Mul(row, row, sg, cnt);
            if (c == 0) {
                DataCopy(yl, row, cnt);
            } else {
                Max(yl, yl, row, cnt);
            }
        }
        outQue.EnQue(yl);
        inQue.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint32_t n, uint32_t s0, uint32_t len)
    {
        LocalTensor<float> yl = outQue.DeQue<float>();
        DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(n) * S + s0], yl, p);
        outQue.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<QuePosition::VECCALC> rowMaxBuf, rowSumBuf, sigBuf, subBuf;
    LocalTensor<float> subLocal;
    GlobalTensor<float> xGm, yGm, subGm;
    uint32_t C, S, L, tilesPerBatch, tileBegin, tileCount;
};

extern "C" __global__ __aicore__ void conv_transpose3d_max_pool_softmax_subtract_swish_max_custom(
    GM_ADDR x, GM_ADDR subtract, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelSoftmaxSubSwishMax op;
    op.Init(x, subtract, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_max_pool_softmax_subtract_swish_max_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& conv_bias,
    int64_t stride, int64_t padding, int64_t output_padding,
    int64_t pool_kernel, int64_t pool_stride, int64_t pool_padding,
    const at::Tensor& subtract)
{
    at::Tensor y = at::conv_transpose3d(x, weight, conv_bias,
                                        {stride, stride, stride},
                                        {padding, padding, padding},
                                        {output_padding, output_padding, output_padding});
    y = at::max_pool3d(y, {pool_kernel, pool_kernel, pool_kernel},
                       {pool_stride, pool_stride, pool_stride},
                       {pool_padding, pool_padding, pool_padding}).contiguous();
    at::Tensor result = at::empty({y.size(0), y.size(2), y.size(3), y.size(4)}, y.options());
    at::Tensor sub = subtract.contiguous();
    EXEC_NPU_CMD(aclnnConvTranspose3dMaxPoolSoftmaxSubtractSwishMaxCustom, y, sub, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_max_pool_softmax_subtract_swish_max_custom",
           &conv_transpose3d_max_pool_softmax_subtract_swish_max_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_max_pool_softmax_subtract_swish_max_custom",
          &conv_transpose3d_max_pool_softmax_subtract_swish_max_custom_impl_npu,
          "conv_transpose3d + maxpool3d + channel softmax/subtract/swish/max");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding,
                 pool_kernel_size, pool_stride, pool_padding):
        super().__init__()
        self.conv_transpose = torch.nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride,
                                                       padding=padding, output_padding=output_padding)
        self.subtract = torch.nn.Parameter(torch.randn(out_channels))
        self.cfg = (stride, padding, output_padding, pool_kernel_size, pool_stride, pool_padding)

    def forward(self, x):
        s, p, op, pk, ps, pp = self.cfg
        return custom_ops_lib.conv_transpose3d_max_pool_softmax_subtract_swish_max_custom(
            x, self.conv_transpose.weight, self.conv_transpose.bias, s, p, op, pk, ps, pp, self.subtract)
'''

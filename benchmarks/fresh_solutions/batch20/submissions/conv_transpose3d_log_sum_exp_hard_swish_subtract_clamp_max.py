project_json_src='''
[
    {
        "op": "ConvTranspose3dLogSumExpHardSwishSubtractClampMaxCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "bias",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dLogSumExpHardSwishSubtractClampMaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);       // D * H * W
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // spatial positions per tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerBatch);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);    // batch * tilesPerBatch
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dLogSumExpHardSwishSubtractClampMaxCustom,
                           ConvTranspose3dLogSumExpHardSwishSubtractClampMaxCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose3d_log_sum_exp_hard_swish_subtract_clamp_max_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dLogSumExpHardSwishSubtractClampMaxCustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t batch = shape.GetDim(0);
    uint32_t channels = shape.GetDim(1);
    uint32_t spatial = 1;
    for (size_t d = 2; d < shape.GetDimNum(); ++d) {
        spatial *= static_cast<uint32_t>(shape.GetDim(d));
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t cores = plat.GetCoreNumAiv();

    // UB per spatial element: 2 x C input rows (double buffered) + 2 output + 3 scratch
    uint64_t bytesPerElem = (2ULL * channels + 2 + 3) * sizeof(float);
    uint32_t tileLen = static_cast<uint32_t>((ubSize - 8 * 1024) / bytesPerElem);
    tileLen = tileLen / 64 * 64;
    if (tileLen > 4096) tileLen = 4096;
    if (tileLen == 0) return ge::GRAPH_FAILED;
    if (tileLen > spatial) tileLen = (spatial + 7) / 8 * 8;

    uint32_t tilesPerBatch = (spatial + tileLen - 1) / tileLen;
    uint32_t totalTiles = tilesPerBatch * batch;

    tiling.set_batch(batch);
    tiling.set_channels(channels);
    tiling.set_spatial(spatial);
    tiling.set_tileLen(tileLen);
    tiling.set_tilesPerBatch(tilesPerBatch);
    tiling.set_totalTiles(totalTiles);

    context->SetBlockDim(totalTiles < cores ? totalTiles : cores);
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
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(1, 1);          // logsumexp over dim=1 with keepdim
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dLogSumExpHardSwishSubtractClampMaxCustom : public OpDef {
public:
    explicit ConvTranspose3dLogSumExpHardSwishSubtractClampMaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose3dLogSumExpHardSwishSubtractClampMaxCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Post-processing of the transposed-conv output x (N, C, S):
//   l = logsumexp_c x[n, c, s]
//   h = l * sigmoid(l + 3) / 6
//   y = clamp(h - bias, -1, 1)
class KernelLseHswClamp {
public:
    __aicore__ inline KernelLseHswClamp() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, uint32_t channels, uint32_t spatial,
                                uint32_t tileLen, uint32_t tilesPerBatch, uint32_t totalTiles)
    {
        C = channels;
        S = spatial;
        T = tileLen;
        tilesPerBatch_ = tilesPerBatch;
        totalTiles_ = totalTiles;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, 1);

        pipe.InitBuffer(inQ, BUFFER_NUM, C * T * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, T * sizeof(float));
        pipe.InitBuffer(maxBuf, T * sizeof(float));
        pipe.InitBuffer(sumBuf, T * sizeof(float));
        pipe.InitBuffer(tmpBuf, T * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        biasVal = biasGm.GetValue(0);
        for (uint32_t id = GetBlockIdx(); id < totalTiles_; id += GetBlockNum()) {
            uint32_t n = id / tilesPerBatch_;
            uint32_t t = id % tilesPerBatch_;
            uint32_t s0 = t * T;
            uint32_t len = (s0 + T <= S) ? T : (S - s0);
            CopyIn(n, s0, len);
            Compute(len);
            CopyOut(n, s0, len);
        }
    }

private:
    // all C channel rows of this spatial window in one strided copy; every row lands
    // at a 32B aligned offset (row pitch = alignedLen)
    __aicore__ inline void CopyIn(uint32_t n, uint32_t s0, uint32_t len)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        alignedLen = (len + 7) / 8 * 8;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(C);
        cp.blockLen = len * sizeof(float);
        cp.srcStride = (S - len) * sizeof(float);
        cp.dstStride = 0;
        cp.rsv = 0;
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xl, xGm[static_cast<uint64_t>(n) * C * S + s0], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> xl = inQ.DeQue<float>();
        LocalTensor<float> mx = maxBuf.Get<float>();
        LocalTensor<float> sum = sumBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> yl = outQ.AllocTensor<float>();

        // running max over channels (numerically stable logsumexp)
        DataCopy(mx, xl, alignedLen);
        for (uint32_t c = 1; c < C; ++c) {
            Max(mx, mx, xl[c * alignedLen], len);
        }
        Duplicate(sum, 0.0f, len);
        for (uint32_t c = 0; c < C; ++c) {
            Sub(tmp, xl[c * alignedLen], mx, len);
            Exp(tmp, tmp, len);
            Add(sum, sum, tmp, len);
        }
        inQ.FreeTensor(xl);
        Ln(sum, sum, len);
        Add(sum, sum, mx, len);               // sum now holds l

        // sigmoid(l + 3) = 1 / (1 + exp(-(l + 3)))
        Adds(tmp, sum, 3.0f, len);
        Muls(tmp, tmp, -1.0f, len);
        Exp(tmp, tmp, len);
        Adds(tmp, tmp, 1.0f, len);
        Div(yl, sum, tmp, len);
        Muls(yl, yl, 1.0f / 6.0f, len);

        Adds(yl, yl, -biasVal, len);
        Maxs(yl, yl, -1.0f, len);
        Mins(yl, yl, 1.0f, len);
        outQ.EnQue(yl);
    }

    __aicore__ inline void CopyOut(uint32_t n, uint32_t s0, uint32_t len)
    {
        LocalTensor<float> yl = outQ.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(n) * S + s0], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<QuePosition::VECCALC> maxBuf, sumBuf, tmpBuf;
    GlobalTensor<float> xGm, yGm, biasGm;
    uint32_t C, S, T, tilesPerBatch_, totalTiles_;
    uint32_t alignedLen = 0;
    float biasVal = 0.0f;
};

extern "C" __global__ __aicore__ void conv_transpose3d_log_sum_exp_hard_swish_subtract_clamp_max_custom(
    GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelLseHswClamp op;
    op.Init(x, bias, y, td.channels, td.spatial, td.tileLen, td.tilesPerBatch, td.totalTiles);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_log_sum_exp_hard_swish_subtract_clamp_max_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& convBias, const at::Tensor& bias,
    int64_t stride, int64_t padding)
{
    at::Tensor conv = at::conv_transpose3d(x, weight, convBias, {stride, stride, stride},
                                           {padding, padding, padding}).contiguous();
    auto sizes = conv.sizes().vec();
    sizes[1] = 1;
    at::Tensor result = at::empty(sizes, conv.options());
    at::Tensor b = bias.reshape({-1}).contiguous();
    EXEC_NPU_CMD(aclnnConvTranspose3dLogSumExpHardSwishSubtractClampMaxCustom, conv, b, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_log_sum_exp_hard_swish_subtract_clamp_max_custom",
           &conv_transpose3d_log_sum_exp_hard_swish_subtract_clamp_max_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_log_sum_exp_hard_swish_subtract_clamp_max_custom",
          &conv_transpose3d_log_sum_exp_hard_swish_subtract_clamp_max_custom_impl_npu,
          "conv_transpose3d -> logsumexp(dim=1) -> hardswish-like -> sub -> clamp");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, bias_shape):
        super().__init__()
        self.conv_transpose = torch.nn.ConvTranspose3d(in_channels, out_channels, kernel_size,
                                                       stride=stride, padding=padding)
        self.bias = torch.nn.Parameter(torch.randn(1, 1, 1, 1))
        self.stride = stride
        self.padding = padding

    def forward(self, x):
        return custom_ops_lib.conv_transpose3d_log_sum_exp_hard_swish_subtract_clamp_max_custom(
            x, self.conv_transpose.weight, self.conv_transpose.bias, self.bias, self.stride, self.padding)
'''

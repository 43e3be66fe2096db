project_json_src='''
[
    {
        "op": "Conv2dHardSwishReluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
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
BEGIN_TILING_DATA_DEF(Conv2dHardSwishReluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowPad);      // outW rounded up to 8 floats (32B)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);   // batch * outH work items
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dHardSwishReluCustom, Conv2dHardSwishReluCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_hard_swish_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dHardSwishReluCustomTilingData tiling;
    const gert::Shape xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape ws = context->GetInputShape(1)->GetStorageShape();

    uint32_t n = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint32_t h = xs.GetDim(2);
    uint32_t w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0);
    uint32_t k = ws.GetDim(2);
    uint32_t oh = h - k + 1;     // stride 1, no padding
    uint32_t ow = w - k + 1;
    uint32_t rowPad = (ow + 7) / 8 * 8;

    tiling.set_batch(n);
    tiling.set_inC(cin);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outC(cout);
    tiling.set_kSize(k);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_rowPad(rowPad);
    tiling.set_totalRows(n * oh);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    if (cores > n * oh) {
        cores = n * oh;
    }
    context->SetBlockDim(cores);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    int64_t k = ws->GetDim(2);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) - k + 1);
    ys->SetDim(3, xs->GetDim(3) - k + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dHardSwishReluCustom : public OpDef {
public:
    explicit Conv2dHardSwishReluCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
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

OP_ADD(Conv2dHardSwishReluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Direct convolution on the vector unit.
// One work item = one output row (n, oh) for ALL output channels.
// For that row we stage the Cin*K*K input row segments x[n, ic, oh+kh, kw : kw+outW]
// (each one starting at its own kw shift, so every vector operand is 32B aligned),
// then every output channel is an Axpy chain over those segments.
class KernelConv2dHardSwishRelu {
public:
    __aicore__ inline KernelConv2dHardSwishRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                const Conv2dHardSwishReluCustomTilingData &t)
    {
        batch = t.batch; inC = t.inC; inH = t.inH; inW = t.inW;
        outC = t.outC; kSize = t.kSize; outH = t.outH; outW = t.outW;
        rowPad = t.rowPad; totalRows = t.totalRows;
        taps = inC * kSize * kSize;

        xGm.SetGlobalBuffer((__gm__ float *)x, batch * inC * inH * inW);
        wGm.SetGlobalBuffer((__gm__ float *)weight, outC * taps);
        bGm.SetGlobalBuffer((__gm__ float *)bias, outC);
        yGm.SetGlobalBuffer((__gm__ float *)y, batch * outC * outH * outW);

        uint32_t wLen = (outC * taps + 7) / 8 * 8;
        uint32_t bLen = (outC + 7) / 8 * 8;
        pipe.InitBuffer(wBuf, wLen * sizeof(float));
        pipe.InitBuffer(bBuf, bLen * sizeof(float));
        pipe.InitBuffer(inQueue, BUFFER_NUM, taps * rowPad * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, outC * rowPad * sizeof(float));
        pipe.InitBuffer(tmpBuf, rowPad * sizeof(float));

        // filters and bias stay resident in UB; read as scalars during the Axpy chain
        wLocal = wBuf.Get<float>();
        bLocal = bBuf.Get<float>();
        AscendC::DataCopyExtParams wp{1, static_cast<uint32_t>(outC * taps * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyExtParams bp{1, static_cast<uint32_t>(outC * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(wLocal, wGm, wp, pad);
        AscendC::DataCopyPad(bLocal, bGm, bp, pad);
        AscendC::PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Process()
    {
        uint32_t step = AscendC::GetBlockNum();
        for (uint32_t row = AscendC::GetBlockIdx(); row < totalRows; row += step) {
            uint32_t n = row / outH;
            uint32_t oh = row % outH;
            CopyIn(n, oh);
            Compute();
            CopyOut(n, oh);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t n, uint32_t oh)
    {
        AscendC::LocalTensor<float> inLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(outW * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        uint32_t tap = 0;
        for (uint32_t ic = 0; ic < inC; ++ic) {
            for (uint32_t kh = 0; kh < kSize; ++kh) {
                uint64_t rowOff = ((static_cast<uint64_t>(n) * inC + ic) * inH + oh + kh) * inW;
                for (uint32_t kw = 0; kw < kSize; ++kw) {
                    AscendC::DataCopyPad(inLocal[tap * rowPad], xGm[rowOff + kw], cp, pad);
                    ++tap;
                }
            }
        }
        inQueue.EnQue(inLocal);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> inLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();

        for (uint32_t oc = 0; oc < outC; ++oc) {
            AscendC::LocalTensor<float> acc = outLocal[oc * rowPad];
            AscendC::Duplicate(acc, bLocal.GetValue(oc), outW);
            uint32_t wOff = oc * taps;
            for (uint32_t t = 0; t < taps; ++t) {
                AscendC::Axpy(acc, inLocal[t * rowPad], wLocal.GetValue(wOff + t), outW);
            }
            // hardswish(v) = v * clamp(v + 3, 0, 6) / 6, then relu
            AscendC::Adds(tmp, acc, 3.0f, outW);
            AscendC::Mins(tmp, tmp, 6.0f, outW);
            AscendC::Maxs(tmp, tmp, 0.0f, outW);
            AscendC::Mul(tmp, tmp, acc, outW);
            AscendC::Muls(tmp, tmp, 1.0f / 6.0f, outW);
            AscendC::Maxs(acc, tmp, 0.0f, outW);
        }

        outQueue.EnQue(outLocal);
        inQueue.FreeTensor(inLocal);
    }

    __aicore__ inline void CopyOut(uint32_t n, uint32_t oh)
    {
        AscendC::LocalTensor<float> outLocal = outQueue.DeQue<float>();
        // outC rows of outW floats; consecutive channels are outH*outW apart in GM
        AscendC::DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(outC);
        cp.blockLen = static_cast<uint32_t>(outW * sizeof(float));
        cp.srcStride = static_cast<uint32_t>((rowPad * sizeof(float) - (outW * sizeof(float) + 31) / 32 * 32) / 32);
        cp.dstStride = static_cast<uint32_t>((outH * outW - outW) * sizeof(float));
        cp.rsv = 0;
        uint64_t dst = (static_cast<uint64_t>(n) * outC * outH + oh) * outW;
        AscendC::DataCopyPad(yGm[dst], outLocal, cp);
        outQueue.FreeTensor(outLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> wBuf, bBuf, tmpBuf;
    AscendC::LocalTensor<float> wLocal, bLocal;
    AscendC::GlobalTensor<float> xGm, wGm, bGm, yGm;
    uint32_t batch, inC, inH, inW, outC, kSize, outH, outW, rowPad, totalRows, taps;
};

extern "C" __global__ __aicore__ void conv2d_hard_swish_relu_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelConv2dHardSwishRelu op;
    op.Init(x, weight, bias, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv2d_hard_swish_relu_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "conv2d expects 4D input and weight");
    int64_t k = weight.size(2);
    at::Tensor y = at::empty({x.size(0), weight.size(0), x.size(2) - k + 1, x.size(3) - k + 1}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    EXEC_NPU_CMD(aclnnConv2dHardSwishReluCustom, xc, wc, bc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_hard_swish_relu_custom", &conv2d_hard_swish_relu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_hard_swish_relu_custom", &conv2d_hard_swish_relu_custom_impl_npu, "conv2d + hardswish + relu");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super(ModelNew, self).__init__()
        self.conv = torch.nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x):
        return custom_ops_lib.conv2d_hard_swish_relu_custom(x, self.conv.weight, self.conv.bias)
'''

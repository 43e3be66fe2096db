project_json_src='''
[
    {
        "op": "ConvDepthwise2dAsymmetricInputAsymmetricKernelCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "weight",
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
        ],
        "attr": [
            {"name": "stride_h", "param_type": "optional", "type": "int", "default_value": "1"},
            {"name": "dilation_h", "param_type": "optional", "type": "int", "default_value": "1"},
            {"name": "dilation_w", "param_type": "optional", "type": "int", "default_value": "1"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvDepthwise2dAsymmetricInputAsymmetricKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalPlanes);   // N * C
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);     // outW rounded up to 8 floats (32B)
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, strideH);
  TILING_DATA_FIELD_DEF(uint32_t, dilationH);
  TILING_DATA_FIELD_DEF(uint32_t, dilationW);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // output rows handled per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraPlanes);   // first extraPlanes cores take one more plane
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvDepthwise2dAsymmetricInputAsymmetricKernelCustom, ConvDepthwise2dAsymmetricInputAsymmetricKernelCustomTilingData)
}
"""

host_operator_src="""
#include "conv_depthwise2d_asymmetric_input_asymmetric_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t MAX_CORES = 40;
static constexpr uint32_t UB_TILE_BYTES = 16 * 1024;   // bytes per tile buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvDepthwise2dAsymmetricInputAsymmetricKernelCustomTilingData tiling;
    const gert::Shape xShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape wShape = context->GetInputShape(1)->GetOriginShape();
    const auto* attrs = context->GetAttrs();
    uint32_t strideH = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t dilH = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t dilW = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));

    uint32_t n = xShape.GetDim(0);
    uint32_t c = xShape.GetDim(1);
    uint32_t h = xShape.GetDim(2);
    uint32_t w = xShape.GetDim(3);
    uint32_t kh = wShape.GetDim(2);
    uint32_t kw = wShape.GetDim(3);
    uint32_t oh = (h - dilH * (kh - 1) - 1) / strideH + 1;
    uint32_t ow = w - dilW * (kw - 1);       // width stride is fixed to 1
    uint32_t owAlign = (ow + 7) / 8 * 8;

    uint32_t rows = UB_TILE_BYTES / (owAlign * sizeof(float));
    if (rows == 0) rows = 1;
    if (rows > oh) rows = oh;

    uint32_t planes = n * c;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = ascendcPlatform.GetCoreNumAiv();
    if (cores == 0 || cores > MAX_CORES) cores = MAX_CORES;
    if (cores > planes) cores = planes;

    tiling.set_totalPlanes(planes);
    tiling.set_channels(c);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_outWAlign(owAlign);
    tiling.set_kH(kh);
    tiling.set_kW(kw);
    tiling.set_strideH(strideH);
    tiling.set_dilationH(dilH);
    tiling.set_dilationW(dilW);
    tiling.set_rowsPerTile(rows);
    tiling.set_planesPerCore(planes / cores);
    tiling.set_extraPlanes(planes % cores);

    context->SetBlockDim(cores);
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
    const gert::Shape* wShape = context->GetInputShape(1);
    const auto* attrs = context->GetAttrs();
    int64_t sh = *attrs->GetAttrPointer<int64_t>(0);
    int64_t dh = *attrs->GetAttrPointer<int64_t>(1);
    int64_t dw = *attrs->GetAttrPointer<int64_t>(2);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(4);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, xShape->GetDim(1));
    yShape->SetDim(2, (xShape->GetDim(2) - dh * (wShape->GetDim(2) - 1) - 1) / sh + 1);
    yShape->SetDim(3, xShape->GetDim(3) - dw * (wShape->GetDim(3) - 1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvDepthwise2dAsymmetricInputAsymmetricKernelCustom : public OpDef {
public:
    explicit ConvDepthwise2dAsymmetricInputAsymmetricKernelCustom(const char* name) : OpDef(name)
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
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride_h").AttrType(OPTIONAL).Int(1);
        this->Attr("dilation_h").AttrType(OPTIONAL).Int(1);
        this->Attr("dilation_w").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvDepthwise2dAsymmetricInputAsymmetricKernelCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Depthwise conv, one (n, c) plane at a time.
// For every kernel tap (i, j) we DMA a shifted window of the input plane into UB
// (rows of outW floats, strided by strideH * inW in GM) and accumulate it with Axpy.
// Because the shift is done by the DMA engine, every vector op starts 32B aligned.
class KernelDepthwiseConv2d {
public:
    __aicore__ inline KernelDepthwiseConv2d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                const ConvDepthwise2dAsymmetricInputAsymmetricKernelCustomTilingData& td)
    {
        channels = td.channels;
        inH = td.inH;
        inW = td.inW;
        outH = td.outH;
        outW = td.outW;
        outWAlign = td.outWAlign;
        kH = td.kH;
        kW = td.kW;
        strideH = td.strideH;
        dilH = td.dilationH;
        dilW = td.dilationW;
        rowsPerTile = td.rowsPerTile;

        uint32_t blk = GetBlockIdx();
        uint32_t cnt = td.planesPerCore + (blk < td.extraPlanes ? 1 : 0);
        uint32_t begin = blk * td.planesPerCore + (blk < td.extraPlanes ? blk : td.extraPlanes);
        planeBegin = begin;
        planeEnd = begin + cnt;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)td.totalPlanes * inH * inW);
        wGm.SetGlobalBuffer((__gm__ float*)weight, (uint64_t)channels * kH * kW);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)td.totalPlanes * outH * outW);

        uint32_t tileBytes = rowsPerTile * outWAlign * sizeof(float);
        pipe.InitBuffer(tapQueue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(accBuf, tileBytes);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = planeBegin; p < planeEnd; ++p) {
            uint32_t ch = p % channels;
            for (uint32_t r0 = 0; r0 < outH; r0 += rowsPerTile) {
                uint32_t rows = (outH - r0 < rowsPerTile) ? (outH - r0) : rowsPerTile;
                LocalTensor<float> acc = accBuf.Get<float>();
                Duplicate(acc, 0.0f, rows * outWAlign);
                for (uint32_t i = 0; i < kH; ++i) {
                    for (uint32_t j = 0; j < kW; ++j) {
                        float wv = wGm.GetValue(ch * kH * kW + i * kW + j);
                        CopyTap(p, r0, rows, i, j);
                        Accumulate(acc, wv, rows);
                    }
                }
                CopyOut(acc, p, r0, rows);
            }
        }
    }

private:
    __aicore__ inline void CopyTap(uint32_t plane, uint32_t r0, uint32_t rows, uint32_t i, uint32_t j)
    {
        LocalTensor<float> tap = tapQueue.AllocTensor<float>();
        uint64_t src = (uint64_t)plane * inH * inW + (uint64_t)(r0 * strideH + i * dilH) * inW + j * dilW;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = outW * sizeof(float);
        cp.srcStride = (strideH * inW - outW) * sizeof(float);
        cp.dstStride = 0;
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(outWAlign - outW), 0.0f};
        DataCopyPad(tap, xGm[src], cp, pad);
        tapQueue.EnQue(tap);
    }

    __aicore__ inline void Accumulate(LocalTensor<float>& acc, float wv, uint32_t rows)
    {
        LocalTensor<float> tap = tapQueue.DeQue<float>();
        Axpy(acc, tap, wv, rows * outWAlign);
        tapQueue.FreeTensor(tap);
    }

    __aicore__ inline void CopyOut(LocalTensor<float>& acc, uint32_t plane, uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        DataCopy(outLocal, acc, rows * outWAlign);
        outQueue.EnQue(outLocal);
        outLocal = outQueue.DeQue<float>();
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = outW * sizeof(float);
        cp.srcStride = 0;
        cp.dstStride = 0;
        DataCopyPad(yGm[(uint64_t)plane * outH * outW + (uint64_t)r0 * outW], outLocal, cp);
        outQueue.FreeTensor(outLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> tapQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> accBuf;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t channels, inH, inW, outH, outW, outWAlign;
    uint32_t kH, kW, strideH, dilH, dilW, rowsPerTile;
    uint32_t planeBegin, planeEnd;
};

extern "C" __global__ __aicore__ void conv_depthwise2d_asymmetric_input_asymmetric_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelDepthwiseConv2d op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_depthwise2d_asymmetric_input_asymmetric_kernel_impl_npu(
    const at::Tensor& x, const at::Tensor& weight,
    int64_t stride_h, int64_t stride_w, int64_t padding_h, int64_t padding_w,
    int64_t dilation_h, int64_t dilation_w)
{
    TORCH_CHECK(stride_w == 1, "custom depthwise kernel expects stride_w == 1");
    at::Tensor input = x;
    if (padding_h > 0 || padding_w > 0) {
        input = at::constant_pad_nd(x, {padding_w, padding_w, padding_h, padding_h}, 0.0);
    }
    input = input.contiguous();
    int64_t kh = weight.size(2);
    int64_t kw = weight.size(3);
    int64_t oh = (input.size(2) - dilation_h * (kh - 1) - 1) / stride_h + 1;
    int64_t ow = input.size(3) - dilation_w * (kw - 1);
    at::Tensor y = at::empty({input.size(0), input.size(1), oh, ow}, input.options());
    at::Tensor w = weight.contiguous();
    EXEC_NPU_CMD(aclnnConvDepthwise2dAsymmetricInputAsymmetricKernelCustom, input, w, stride_h, dilation_h, dilation_w, y);
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_depthwise2d_asymmetric_input_asymmetric_kernel_custom",
          &conv_depthwise2d_asymmetric_input_asymmetric_kernel_impl_npu,
          "depthwise conv2d with asymmetric kernel");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size_h: int, kernel_size_w: int,
                 stride_h: int = 1, stride_w: int = 1, padding_h: int = 0, padding_w: int = 0,
                 dilation_h: int = 1, dilation_w: int = 1, groups: int = 1, bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv2d = torch.nn.Conv2d(in_channels, in_channels, (kernel_size_h, kernel_size_w),
                                      stride=(stride_h, stride_w), padding=(padding_h, padding_w),
                                      dilation=(dilation_h, dilation_w), groups=in_channels, bias=bias)
        self.stride = (stride_h, stride_w)
        self.padding = (padding_h, padding_w)
        self.dilation = (dilation_h, dilation_w)

    def forward(self, x):
        y = custom_ops_lib.conv_depthwise2d_asymmetric_input_asymmetric_kernel_custom(
            x, self.conv2d.weight, self.stride[0], self.stride[1], self.padding[0], self.padding[1],
            self.dilation[0], self.dilation[1])
        if self.conv2d.bias is not None:
            y = y + self.conv2d.bias.view(1, -1, 1, 1)
        return y
'''

project_json_src='''
[
    {
        "op": "UnetSoftmaxCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(UnetSoftmaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);     // N * C * H
  TILING_DATA_FIELD_DEF(uint32_t, width);         // softmax axis (last dim)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraRows);     // first extraRows cores take one more row
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, tmpBufBytes);   // shared tmp buffer for the SoftMax API
  TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(UnetSoftmaxCustom, UnetSoftmaxCustomTilingData)
}
"""

host_operator_src="""
#include "unet_softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_ELEMS = 4096;   // ~16 KB of fp32 per in/out buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    UnetSoftmaxCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape &shape = context->GetInputShape(0)->GetOriginShape();
    size_t dimNum = shape.GetDimNum();
    uint32_t width = static_cast<uint32_t>(shape.GetDim(dimNum - 1));
    uint64_t total = shape.GetShapeSize();
    if (width == 0 || width % 8 != 0 || width > TILE_ELEMS) {
        // last axis has to be 32B aligned and fit one UB tile
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = static_cast<uint32_t>(total / width);

    uint32_t usedCores = coreNum < rows ? coreNum : rows;
    if (usedCores == 0) {
        usedCores = 1;
    }
    uint32_t rowsPerTile = TILE_ELEMS / width;
    uint32_t rowsPerCore = rows / usedCores;
    if (rowsPerTile > rowsPerCore + 1) {
        rowsPerTile = rowsPerCore + 1;
    }

    // SoftMax API tiling for a (rowsPerTile, width) block
    ge::Shape tileShape({static_cast<int64_t>(rowsPerTile), static_cast<int64_t>(width)});
    uint32_t tmpBytes = AscendC::GetSoftMaxMinTmpSize(tileShape, sizeof(float), false);
    AscendC::SoftMaxTilingFunc(tileShape, sizeof(float), tmpBytes, tiling.softmaxTiling);

    tiling.set_totalRows(rows);
    tiling.set_width(width);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_extraRows(rows % usedCores);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_tmpBufBytes((tmpBytes + 31) / 32 * 32);

    context->SetBlockDim(usedCores);
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
class UnetSoftmaxCustom : public OpDef {
public:
    explicit UnetSoftmaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
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

        this->AICore()
            .SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(UnetSoftmaxCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t STAT_ELEMS = 8;   // SoftMax keeps one 32B block of max/sum per row

// Softmax over the last axis (width) of an NCHW activation, used after every BatchNorm in the U-Net.
// Rows (N*C*H) are split over the vector cores and processed in blocks of rowsPerTile rows.
class KernelUnetSoftmax {
public:
    __aicore__ inline KernelUnetSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const UnetSoftmaxCustomTilingData &td)
    {
        width = td.width;
        rowsPerTile = td.rowsPerTile;
        smTiling = td.softmaxTiling;

        uint32_t blk = AscendC::GetBlockIdx();
        rowCnt = td.rowsPerCore + (blk < td.extraRows ? 1 : 0);
        uint32_t rowBegin = blk * td.rowsPerCore + (blk < td.extraRows ? blk : td.extraRows);

        uint64_t base = static_cast<uint64_t>(rowBegin) * width;
        xGm.SetGlobalBuffer((__gm__ float *)x + base, static_cast<uint64_t>(rowCnt) * width);
        yGm.SetGlobalBuffer((__gm__ float *)y + base, static_cast<uint64_t>(rowCnt) * width);

        uint32_t tileBytes = rowsPerTile * width * sizeof(float);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(maxBuf, rowsPerTile * STAT_ELEMS * sizeof(float));
        pipe.InitBuffer(sumBuf, rowsPerTile * STAT_ELEMS * sizeof(float));
        pipe.InitBuffer(tmpBuf, td.tmpBufBytes);
    }

    __aicore__ inline void Process()
    {
        uint32_t done = 0;
        while (done < rowCnt) {
            uint32_t n = rowCnt - done;
            if (n > rowsPerTile) {
                n = rowsPerTile;
            }
            CopyIn(done, n);
            Compute(n);
            CopyOut(done, n);
            done += n;
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t n)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm[static_cast<uint64_t>(row) * width], n * width);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> maxLocal = maxBuf.Get<float>();
        AscendC::LocalTensor<float> sumLocal = sumBuf.Get<float>();
        AscendC::LocalTensor<uint8_t> tmpLocal = tmpBuf.Get<uint8_t>();

        AscendC::SoftMaxShapeInfo shapeInfo = {n, width, n, width};
        AscendC::SoftMax<float>(yLocal, sumLocal, maxLocal, xLocal, tmpLocal, smTiling, shapeInfo);

        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t n)
    {
        AscendC::LocalTensor<float> yLocal = outQueue.DeQue<float>();
        AscendC::DataCopy(yGm[static_cast<uint64_t>(row) * width], yLocal, n * width);
        outQueue.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> maxBuf, sumBuf, tmpBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    SoftMaxTiling smTiling;
    uint32_t width = 0;
    uint32_t rowsPerTile = 0;
    uint32_t rowCnt = 0;
};

extern "C" __global__ __aicore__ void unet_softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelUnetSoftmax op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// custom kernel: softmax over the last dim
at::Tensor unet_softmax_custom_impl_npu(const at::Tensor& x) {
    at::Tensor input = x.contiguous();
    at::Tensor result = at::empty_like(input);
    EXEC_NPU_CMD(aclnnUnetSoftmaxCustom, input, result);
    return result;
}

// DoubleConv block: (conv3x3 -> BN -> softmax(-1)) x 2. Conv and BN go through ATen,
// the softmax runs in the custom kernel.
at::Tensor unet_double_conv_impl_npu(
    const at::Tensor& x,
    const at::Tensor& w1, const at::Tensor& b1,
    const at::Tensor& g1, const at::Tensor& beta1, const at::Tensor& rm1, const at::Tensor& rv1,
    const at::Tensor& w2, const at::Tensor& b2,
    const at::Tensor& g2, const at::Tensor& beta2, const at::Tensor& rm2, const at::Tensor& rv2,
    bool training, double momentum, double eps)
{
    at::Tensor h = at::conv2d(x, w1, b1, {1, 1}, {1, 1});
    h = at::batch_norm(h, g1, beta1, rm1, rv1, training, momentum, eps, false);
    h = unet_softmax_custom_impl_npu(h);
    h = at::conv2d(h, w2, b2, {1, 1}, {1, 1});
    h = at::batch_norm(h, g2, beta2, rm2, rv2, training, momentum, eps, false);
    return unet_softmax_custom_impl_npu(h);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("unet_softmax_custom", &unet_softmax_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("unet_softmax_custom", &unet_softmax_custom_impl_npu, "softmax over the last dim");
    m.def("unet_double_conv", &unet_double_conv_impl_npu, "U-Net DoubleConv with custom softmax");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class DoubleConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        # same module layout as the reference so parameters/state_dict line up
        self.double_conv = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1),
            nn.BatchNorm2d(out_channels),
            nn.Softmax(dim=-1),
            nn.Conv2d(out_channels, out_channels, kernel_size=3, padding=1),
            nn.BatchNorm2d(out_channels),
            nn.Softmax(dim=-1)
        )

    def forward(self, x):
        c1, bn1, _, c2, bn2, _ = self.double_conv
        return custom_ops_lib.unet_double_conv(
            x,
            c1.weight, c1.bias,
            bn1.weight, bn1.bias, bn1.running_mean, bn1.running_var,
            c2.weight, c2.bias,
            bn2.weight, bn2.bias, bn2.running_mean, bn2.running_var,
            self.training, bn1.momentum, bn1.eps)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, features):
        super(ModelNew, self).__init__()
        self.encoder1 = DoubleConv(in_channels, features)
        self.pool1 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.encoder2 = DoubleConv(features, features * 2)
        self.pool2 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.encoder3 = DoubleConv(features * 2, features * 4)
        self.pool3 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.encoder4 = DoubleConv(features * 4, features * 8)
        self.pool4 = nn.MaxPool2d(kernel_size=2, stride=2)

        self.bottleneck = DoubleConv(features * 8, features * 16)

        self.upconv4 = nn.ConvTranspose2d(features * 16, features * 8, kernel_size=2, stride=2)
        self.decoder4 = DoubleConv(features * 16, features * 8)
        self.upconv3 = nn.ConvTranspose2d(features * 8, features * 4, kernel_size=2, stride=2)
        self.decoder3 = DoubleConv(features * 8, features * 4)
        self.upconv2 = nn.ConvTranspose2d(features * 4, features * 2, kernel_size=2, stride=2)
        self.decoder2 = DoubleConv(features * 4, features * 2)
        self.upconv1 = nn.ConvTranspose2d(features * 2, features, kernel_size=2, stride=2)
        self.decoder1 = DoubleConv(features * 2, features)

        self.final_conv = nn.Conv2d(features, out_channels, kernel_size=1)

    def forward(self, x):
        enc1 = self.encoder1(x)
        enc2 = self.encoder2(self.pool1(enc1))
        enc3 = self.encoder3(self.pool2(enc2))
        enc4 = self.encoder4(self.pool3(enc3))

        bottleneck = self.bottleneck(self.pool4(enc4))

        dec4 = self.decoder4(torch.cat((self.upconv4(bottleneck), enc4), dim=1))
        dec3 = self.decoder3(torch.cat((self.upconv3(dec4), enc3), dim=1))
        dec2 = self.decoder2(torch.cat((self.upconv2(dec3), enc2), dim=1))
        dec1 = self.decoder1(torch.cat((self.upconv1(dec2), enc1), dim=1))

        return self.final_conv(dec1)
'''

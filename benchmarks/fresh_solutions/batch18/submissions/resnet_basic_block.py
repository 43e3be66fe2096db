project_json_src='''
[
    {
        "op": "ResnetBasicBlockCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "main", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "shortcut", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "main_scale", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "shortcut_scale", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "shift", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ResnetBasicBlockCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);     // H * W
  TILING_DATA_FIELD_DEF(uint32_t, planeCount);    // N * C
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ResnetBasicBlockCustom, ResnetBasicBlockCustomTilingData)
}
"""

host_operator_src="""
#include "resnet_basic_block_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t TILE_LEN = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ResnetBasicBlockCustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetOriginShape();   // N, C, H, W
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t hw = shape.GetDim(2) * shape.GetDim(3);
    uint32_t planes = n * c;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) coreNum = 1;
    if (coreNum > planes) coreNum = planes;
    uint32_t planesPerCore = (planes + coreNum - 1) / coreNum;
    uint32_t blockDim = (planes + planesPerCore - 1) / planesPerCore;

    uint32_t tileLen = hw < TILE_LEN ? (hw + 7) / 8 * 8 : TILE_LEN;

    tiling.set_channels(c);
    tiling.set_planeSize(hw);
    tiling.set_planeCount(planes);
    tiling.set_planesPerCore(planesPerCore);
    tiling.set_tileLen(tileLen);

    context->SetBlockDim(blockDim);
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
class ResnetBasicBlockCustom : public OpDef {
public:
    explicit ResnetBasicBlockCustom(const char* name) : OpDef(name)
    {
        this->Input("main").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shortcut").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("main_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shortcut_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ResnetBasicBlockCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Tail of the basic block, fused into one pass over memory:
//   out = relu( bn2(conv2_out) + bn_ds(downsample_out) )
//       = relu( main * sa[c] + shortcut * sb[c] + shift[c] )
// The per-channel affine factors are folded on the host side of the binding, so each
// (n, c) plane only needs three scalars.
class KernelResidualTail {
public:
    __aicore__ inline KernelResidualTail() {}
    __aicore__ inline void Init(GM_ADDR mainX, GM_ADDR shortX, GM_ADDR sa, GM_ADDR sb, GM_ADDR sh, GM_ADDR out,
                                const ResnetBasicBlockCustomTilingData &t)
    {
        channels = t.channels;
        planeSize = t.planeSize;
        tileLen = t.tileLen;
        planeBegin = AscendC::GetBlockIdx() * t.planesPerCore;
        planeEnd = planeBegin + t.planesPerCore;
        if (planeEnd > t.planeCount) planeEnd = t.planeCount;

        mainGm.SetGlobalBuffer((__gm__ float *)mainX);
        shortGm.SetGlobalBuffer((__gm__ float *)shortX);
        outGm.SetGlobalBuffer((__gm__ float *)out);
        saGm.SetGlobalBuffer((__gm__ float *)sa, channels);
        sbGm.SetGlobalBuffer((__gm__ float *)sb, channels);
        shGm.SetGlobalBuffer((__gm__ float *)sh, channels);

        pipe.InitBuffer(inQueueMain, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(inQueueShort, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = planeBegin; p < planeEnd; ++p) {
            uint32_t ch = p % channels;
            float a = saGm.GetValue(ch);
            float b = sbGm.GetValue(ch);
            float s = shGm.GetValue(ch);
            uint64_t base = (uint64_t)p * planeSize;
            for (uint32_t off = 0; off < planeSize; off += tileLen) {
                uint32_t len = (off + tileLen <= planeSize) ? tileLen : planeSize - off;
                CopyIn(base + off, len);
                Compute(len, a, b, s);
                CopyOut(base + off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> m = inQueueMain.AllocTensor<float>();
        AscendC::LocalTensor<float> r = inQueueShort.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(m, mainGm[off], cp, pad);
        AscendC::DataCopyPad(r, shortGm[off], cp, pad);
        inQueueMain.EnQue(m);
        inQueueShort.EnQue(r);
    }

    __aicore__ inline void Compute(uint32_t len, float a, float b, float s)
    {
        AscendC::LocalTensor<float> m = inQueueMain.DeQue<float>();
        AscendC::LocalTensor<float> r = inQueueShort.DeQue<float>();
        AscendC::LocalTensor<float> o = outQueue.AllocTensor<float>();
        AscendC::Muls(o, m, a, len);        // bn2 scale
        AscendC::Axpy(o, r, b, len);        // + downsample bn scale * shortcut
        AscendC::Adds(o, o, s, len);        // + combined shifts
        AscendC::Relu(o, o, len);
        outQueue.EnQue(o);
        inQueueMain.FreeTensor(m);
        inQueueShort.FreeTensor(r);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> o = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(outGm[off], o, cp);
        outQueue.FreeTensor(o);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueMain, inQueueShort;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::GlobalTensor<float> mainGm, shortGm, outGm, saGm, sbGm, shGm;
    uint32_t channels, planeSize, tileLen, planeBegin, planeEnd;
};

extern "C" __global__ __aicore__ void resnet_basic_block_custom(GM_ADDR main, GM_ADDR shortcut, GM_ADDR main_scale,
                                                                GM_ADDR shortcut_scale, GM_ADDR shift, GM_ADDR out,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelResidualTail op;
    op.Init(main, shortcut, main_scale, shortcut_scale, shift, out, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <tuple>

// Turns a BatchNorm into a per-channel (scale, shift) pair. In training mode the batch
// statistics are used (and the running buffers updated, as nn.BatchNorm2d does).
static std::tuple<at::Tensor, at::Tensor> FoldBatchNorm(const at::Tensor &x, const at::Tensor &gamma,
                                                        const at::Tensor &beta, at::Tensor runMean,
                                                        at::Tensor runVar, bool training,
                                                        double momentum, double eps)
{
    at::Tensor mean, var;
    if (training) {
        auto vm = at::var_mean(x, {0, 2, 3}, /*correction=*/0, /*keepdim=*/false);
        var = std::get<0>(vm);
        mean = std::get<1>(vm);
        int64_t cnt = x.numel() / x.size(1);
        at::NoGradGuard ng;
        double unbias = cnt > 1 ? static_cast<double>(cnt) / static_cast<double>(cnt - 1) : 1.0;
        runMean.mul_(1.0 - momentum).add_(mean, momentum);
        runVar.mul_(1.0 - momentum).add_(var * unbias, momentum);
    } else {
        mean = runMean;
        var = runVar;
    }
    at::Tensor scale = gamma / at::sqrt(var + eps);
    at::Tensor shift = beta - mean * scale;
    return std::make_tuple(scale.contiguous(), shift.contiguous());
}

at::Tensor resnet_basic_block_custom_impl_npu(const at::Tensor& x,
                                              const at::Tensor& w1, const at::Tensor& g1, const at::Tensor& b1,
                                              const at::Tensor& rm1, const at::Tensor& rv1,
                                              const at::Tensor& w2, const at::Tensor& g2, const at::Tensor& b2,
                                              const at::Tensor& rm2, const at::Tensor& rv2,
                                              const at::Tensor& wd, const at::Tensor& gd, const at::Tensor& bd,
                                              const at::Tensor& rmd, const at::Tensor& rvd,
                                              int64_t stride, bool training, double momentum, double eps)
{
    // conv1 -> bn1 -> relu (convolutions go to the cube units through the stock aclnn kernels)
    at::Tensor y = at::conv2d(x, w1, {}, {stride, stride}, {1, 1});
    y = at::batch_norm(y, g1, b1, rm1, rv1, training, momentum, eps, false);
    y = at::relu(y);

    at::Tensor mainBranch = at::conv2d(y, w2, {}, {1, 1}, {1, 1}).contiguous();
    at::Tensor shortBranch = at::conv2d(x, wd, {}, {stride, stride}, {0, 0}).contiguous();

    auto f2 = FoldBatchNorm(mainBranch, g2, b2, rm2, rv2, training, momentum, eps);
    auto fd = FoldBatchNorm(shortBranch, gd, bd, rmd, rvd, training, momentum, eps);
    at::Tensor mainScale = std::get<0>(f2);
    at::Tensor shortScale = std::get<0>(fd);
    at::Tensor shift = (std::get<1>(f2) + std::get<1>(fd)).contiguous();

    at::Tensor out = at::empty_like(mainBranch);
    EXEC_NPU_CMD(aclnnResnetBasicBlockCustom, mainBranch, shortBranch, mainScale, shortScale, shift, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("resnet_basic_block_custom", &resnet_basic_block_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("resnet_basic_block_custom", &resnet_basic_block_custom_impl_npu,
          "ResNet BasicBlock forward with fused bn2 + downsample-bn + add + relu");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    expansion = 1

    def __init__(self, in_channels, out_channels, stride=1):
        super(ModelNew, self).__init__()
        self.conv1 = nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(out_channels, out_channels, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.downsample = nn.Sequential(
            nn.Conv2d(in_channels, out_channels * self.expansion, kernel_size=1, stride=stride, bias=False),
            nn.BatchNorm2d(out_channels * self.expansion),
        )
        self.stride = stride

    def forward(self, x):
        ds_conv, ds_bn = self.downsample[0], self.downsample[1]
        return custom_ops_lib.resnet_basic_block_custom(
            x,
            self.conv1.weight, self.bn1.weight, self.bn1.bias, self.bn1.running_mean, self.bn1.running_var,
            self.conv2.weight, self.bn2.weight, self.bn2.bias, self.bn2.running_mean, self.bn2.running_var,
            ds_conv.weight, ds_bn.weight, ds_bn.bias, ds_bn.running_mean, ds_bn.running_var,
            self.stride, self.training, self.bn1.momentum, self.bn1.eps)
'''

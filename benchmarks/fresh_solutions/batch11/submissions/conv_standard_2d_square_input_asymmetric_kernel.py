project_json_src='''
[
    {
        "op": "ConvStandard2dSquareInputAsymmetricKernelCustom",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvStandard2dSquareInputAsymmetricKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAligned);
  TILING_DATA_FIELD_DEF(uint32_t, coGroup);
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvStandard2dSquareInputAsymmetricKernelCustom, ConvStandard2dSquareInputAsymmetricKernelCustomTilingData)
}
"""

host_operator_src="""
#include "conv_standard2d_square_input_asymmetric_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// number of output channels that share one loaded input row
constexpr uint32_t CO_GROUP = 8;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvStandard2dSquareInputAsymmetricKernelCustomTilingData tiling;
    const gert::Shape xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape wShape = context->GetInputShape(1)->GetStorageShape();

    uint32_t n = xShape.GetDim(0);
    uint32_t cin = xShape.GetDim(1);
    uint32_t h = xShape.GetDim(2);
    uint32_t w = xShape.GetDim(3);
    uint32_t cout = wShape.GetDim(0);
    uint32_t kh = wShape.GetDim(2);
    uint32_t kw = wShape.GetDim(3);
    // stride 1, padding 0, dilation 1
    uint32_t oh = h - kh + 1;
    uint32_t ow = w - kw + 1;
    uint32_t owAligned = (ow + 7) / 8 * 8;

    uint32_t coGroup = CO_GROUP;
    while (coGroup > 1 && cout % coGroup != 0) {
        coGroup /= 2;
    }
    // one task = one output row for coGroup output channels of one image
    uint32_t totalTasks = n * (cout / coGroup) * oh;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    if (coreNum > totalTasks) {
        coreNum = totalTasks;
    }
    uint32_t tasksPerCore = (totalTasks + coreNum - 1) / coreNum;
    uint32_t usedCores = (totalTasks + tasksPerCore - 1) / tasksPerCore;
    context->SetBlockDim(usedCores);

    tiling.set_batch(n);
    tiling.set_inChannels(cin);
    tiling.set_outChannels(cout);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_kH(kh);
    tiling.set_kW(kw);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_outWAligned(owAligned);
    tiling.set_coGroup(coGroup);
    tiling.set_totalTasks(totalTasks);
    tiling.set_tasksPerCore(tasksPerCore);
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
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(4);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, wShape->GetDim(0));
    yShape->SetDim(2, xShape->GetDim(2) - wShape->GetDim(2) + 1);
    yShape->SetDim(3, xShape->GetDim(3) - wShape->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvStandard2dSquareInputAsymmetricKernelCustom : public OpDef {
public:
    explicit ConvStandard2dSquareInputAsymmetricKernelCustom(const char* name) : OpDef(name)
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

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvStandard2dSquareInputAsymmetricKernelCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_CO_GROUP = 8;

// Direct convolution on the vector unit.
// For every (image, channel group, output row) task we keep coGroup accumulator rows in UB.
// Each input row x[n, ci, oh + kh, kw : kw + OW] is fetched once from GM (the GM side
// does not need alignment, so the kw shift is done by the DMA) and is then fed into
// coGroup Axpy calls, one per output channel of the group.
class KernelConv2dAsymKernel {
public:
    __aicore__ inline KernelConv2dAsymKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                const ConvStandard2dSquareInputAsymmetricKernelCustomTilingData& t)
    {
        n_ = t.batch; cin_ = t.inChannels; cout_ = t.outChannels;
        h_ = t.inH; w_ = t.inW; kh_ = t.kH; kw_ = t.kW;
        oh_ = t.outH; ow_ = t.outW; owA_ = t.outWAligned;
        coGroup_ = t.coGroup;
        uint32_t begin = GetBlockIdx() * t.tasksPerCore;
        uint32_t end = begin + t.tasksPerCore;
        if (end > t.totalTasks) end = t.totalTasks;
        taskBegin_ = begin;
        taskEnd_ = begin < end ? end : begin;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)weight);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(rowQueue, BUFFER_NUM, owA_ * sizeof(float));
        pipe.InitBuffer(outQueue, 1, coGroup_ * owA_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t groups = cout_ / coGroup_;
        for (uint32_t task = taskBegin_; task < taskEnd_; ++task) {
            uint32_t row = task % oh_;
            uint32_t rest = task / oh_;
            uint32_t g = rest % groups;
            uint32_t img = rest / groups;
            ComputeTask(img, g * coGroup_, row);
        }
    }

private:
    __aicore__ inline void ComputeTask(uint32_t img, uint32_t coBase, uint32_t row)
    {
        LocalTensor<float> acc = outQueue.AllocTensor<float>();
        Duplicate(acc, 0.0f, coGroup_ * owA_);

        uint64_t kArea = (uint64_t)kh_ * kw_;
        for (uint32_t ci = 0; ci < cin_; ++ci) {
            uint64_t planeBase = ((uint64_t)img * cin_ + ci) * h_ * w_;
            for (uint32_t i = 0; i < kh_; ++i) {
                uint64_t rowBase = planeBase + (uint64_t)(row + i) * w_;
                for (uint32_t j = 0; j < kw_; ++j) {
                    // fetch shifted input row
                    LocalTensor<float> xr = rowQueue.AllocTensor<float>();
                    DataCopy(xr, xGm[rowBase + j], owA_);
                    rowQueue.EnQue(xr);
                    LocalTensor<float> xin = rowQueue.DeQue<float>();
                    for (uint32_t c = 0; c < coGroup_; ++c) {
                        uint64_t wIdx = ((uint64_t)(coBase + c) * cin_ + ci) * kArea + (uint64_t)i * kw_ + j;
                        float wv = wGm.GetValue(wIdx);
                        Axpy(acc[c * owA_], xin, wv, owA_);
                    }
                    rowQueue.FreeTensor(xin);
                }
            }
        }
        outQueue.EnQue(acc);
        LocalTensor<float> res = outQueue.DeQue<float>();
        // write back the valid OW columns of every channel of the group
        DataCopyExtParams cp{1, static_cast<uint32_t>(ow_ * sizeof(float)), 0, 0, 0};
        for (uint32_t c = 0; c < coGroup_; ++c) {
            uint64_t dst = (((uint64_t)img * cout_ + coBase + c) * oh_ + row) * ow_;
            DataCopyPad(yGm[dst], res[c * owA_], cp);
        }
        outQueue.FreeTensor(res);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t n_, cin_, cout_, h_, w_, kh_, kw_, oh_, ow_, owA_, coGroup_;
    uint32_t taskBegin_, taskEnd_;
};

extern "C" __global__ __aicore__ void conv_standard2d_square_input_asymmetric_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConv2dAsymKernel op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_standard2d_square_input_asymmetric_kernel_impl_npu(const at::Tensor& x, const at::Tensor& weight)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected 4D input and weight");
    int64_t oh = x.size(2) - weight.size(2) + 1;
    int64_t ow = x.size(3) - weight.size(3) + 1;
    at::Tensor y = at::empty({x.size(0), weight.size(0), oh, ow}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    EXEC_NPU_CMD(aclnnConvStandard2dSquareInputAsymmetricKernelCustom, xc, wc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard2d_square_input_asymmetric_kernel_custom", &conv_standard2d_square_input_asymmetric_kernel_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard2d_square_input_asymmetric_kernel_custom", &conv_standard2d_square_input_asymmetric_kernel_impl_npu,
          "conv2d with asymmetric kernel (stride 1, no padding)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple, stride: int = 1, padding: int = 0,
                 dilation: int = 1, groups: int = 1, bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                                      dilation=dilation, groups=groups, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.conv_standard2d_square_input_asymmetric_kernel_custom(x, self.conv2d.weight)
'''

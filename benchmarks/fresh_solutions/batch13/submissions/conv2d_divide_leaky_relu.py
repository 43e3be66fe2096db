project_json_src='''
[
    {
        "op": "Conv2dDivideLeakyReluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "divisor", "param_type": "optional", "type": "float", "default_value": "2.0"},
            {"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.01"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dDivideLeakyReluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, owAlign);
  TILING_DATA_FIELD_DEF(uint32_t, ocBlock);      // output channels handled per task
  TILING_DATA_FIELD_DEF(uint32_t, ocBlocks);     // ceil(cout / ocBlock)
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);      // n * ocBlocks
  TILING_DATA_FIELD_DEF(float, invDivisor);
  TILING_DATA_FIELD_DEF(float, slope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dDivideLeakyReluCustom, Conv2dDivideLeakyReluCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_divide_leaky_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t OC_BLOCK = 16;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dDivideLeakyReluCustomTilingData td;
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    float divisor = *(attrs->GetAttrPointer<float>(0));
    float slope = *(attrs->GetAttrPointer<float>(1));

    uint32_t n = xShape.GetDim(0), cin = xShape.GetDim(1), h = xShape.GetDim(2), w = xShape.GetDim(3);
    uint32_t cout = wShape.GetDim(0), k = wShape.GetDim(2);
    uint32_t oh = h - k + 1, ow = w - k + 1;
    uint32_t ocBlock = cout < OC_BLOCK ? cout : OC_BLOCK;
    uint32_t ocBlocks = (cout + ocBlock - 1) / ocBlock;

    td.set_n(n); td.set_cin(cin); td.set_h(h); td.set_w(w);
    td.set_cout(cout); td.set_k(k); td.set_oh(oh); td.set_ow(ow);
    td.set_owAlign((ow + 7) / 8 * 8);
    td.set_ocBlock(ocBlock);
    td.set_ocBlocks(ocBlocks);
    td.set_taskNum(n * ocBlocks);
    td.set_invDivisor(1.0f / divisor);
    td.set_slope(slope);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blockDim = ascendcPlatform.GetCoreNumAiv();
    if (blockDim > n * ocBlocks) blockDim = n * ocBlocks;
    context->SetBlockDim(blockDim);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dDivideLeakyReluCustom : public OpDef {
public:
    explicit Conv2dDivideLeakyReluCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("divisor").AttrType(OPTIONAL).Float(2.0);
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv2dDivideLeakyReluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Task = (batch image, block of output channels). Inside a task we walk the output rows.
// The filter block is loaded once per task and pre-multiplied by 1/divisor, so the
// division costs nothing in the inner loop; LeakyReLU is applied on the finished rows.
class Conv2dDivLeaky {
public:
    __aicore__ inline Conv2dDivLeaky() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                Conv2dDivideLeakyReluCustomTilingData *td)
    {
        n = td->n; cin = td->cin; h = td->h; w = td->w;
        cout = td->cout; k = td->k; oh = td->oh; ow = td->ow; owAlign = td->owAlign;
        ocBlock = td->ocBlock; ocBlocks = td->ocBlocks; taskNum = td->taskNum;
        invDiv = td->invDivisor; slope = td->slope;
        taps = cin * k * k;

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)n * cin * h * w);
        wGm.SetGlobalBuffer((__gm__ float *)weight, (uint64_t)cout * taps);
        bGm.SetGlobalBuffer((__gm__ float *)bias, cout);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)n * cout * oh * ow);

        pipe.InitBuffer(qIn, BUFFER_NUM, taps * owAlign * sizeof(float));
        pipe.InitBuffer(qOut, BUFFER_NUM, ocBlock * owAlign * sizeof(float));
        pipe.InitBuffer(filterBuf, ((ocBlock * taps + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(biasBuf, ((ocBlock + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(prodBuf, owAlign * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = GetBlockIdx(); task < taskNum; task += GetBlockNum()) {
            uint32_t img = task / ocBlocks;
            uint32_t oc0 = (task % ocBlocks) * ocBlock;
            uint32_t ocCnt = (cout - oc0) < ocBlock ? (cout - oc0) : ocBlock;
            LoadFilters(oc0, ocCnt);
            for (uint32_t r = 0; r < oh; ++r) {
                LoadRows(img, r);
                ComputeRow(ocCnt);
                StoreRow(img, oc0, ocCnt, r);
            }
        }
    }

private:
    __aicore__ inline void LoadFilters(uint32_t oc0, uint32_t ocCnt)
    {
        LocalTensor<float> filt = filterBuf.Get<float>();
        LocalTensor<float> bs = biasBuf.Get<float>();
        PipeBarrier<PIPE_ALL>();   // previous task may still be reading the old filters
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(filt, wGm[(uint64_t)oc0 * taps], {1, (uint32_t)(ocCnt * taps * sizeof(float)), 0, 0, 0}, padParams);
        DataCopyPad(bs, bGm[oc0], {1, (uint32_t)(ocCnt * sizeof(float)), 0, 0, 0}, padParams);
        PipeBarrier<PIPE_ALL>();
        // (conv + b) / d == conv(x, W / d) + b / d
        Muls(filt, filt, invDiv, ocCnt * taps);
        Muls(bs, bs, invDiv, ocCnt);
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void LoadRows(uint32_t img, uint32_t r)
    {
        LocalTensor<float> rows = qIn.AllocTensor<float>();
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyExtParams seg{1, (uint32_t)(ow * sizeof(float)), 0, 0, 0};
        for (uint32_t ic = 0; ic < cin; ++ic) {
            for (uint32_t kh = 0; kh < k; ++kh) {
                uint64_t base = (((uint64_t)img * cin + ic) * h + r + kh) * w;
                uint32_t slot = (ic * k + kh) * k;
                for (uint32_t kw = 0; kw < k; ++kw) {
                    // segment shifted by kw -> tap (ic, kh, kw) lines up with output column 0
                    DataCopyPad(rows[(slot + kw) * owAlign], xGm[base + kw], seg, padParams);
                }
            }
        }
        qIn.EnQue(rows);
    }

    __aicore__ inline void ComputeRow(uint32_t ocCnt)
    {
        LocalTensor<float> rows = qIn.DeQue<float>();
        LocalTensor<float> res = qOut.AllocTensor<float>();
        LocalTensor<float> filt = filterBuf.Get<float>();
        LocalTensor<float> bs = biasBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();

        for (uint32_t o = 0; o < ocCnt; ++o) {
            LocalTensor<float> dst = res[o * owAlign];
            Duplicate(dst, bs.GetValue(o), ow);
            const uint32_t fBase = o * taps;
            for (uint32_t t = 0; t < taps; ++t) {
                Muls(prod, rows[t * owAlign], filt.GetValue(fBase + t), ow);
                Add(dst, dst, prod, ow);
            }
        }
        // leaky relu over the whole block of rows at once (padding lanes are harmless)
        LeakyRelu(res, res, slope, ocCnt * owAlign);

        qOut.EnQue(res);
        qIn.FreeTensor(rows);
    }

    __aicore__ inline void StoreRow(uint32_t img, uint32_t oc0, uint32_t ocCnt, uint32_t r)
    {
        LocalTensor<float> res = qOut.DeQue<float>();
        DataCopyExtParams outParams;
        outParams.blockCount = (uint16_t)ocCnt;
        outParams.blockLen = (uint32_t)(ow * sizeof(float));
        outParams.srcStride = (owAlign * sizeof(float) - ((ow * sizeof(float) + 31) / 32) * 32) / 32;
        outParams.dstStride = (uint32_t)((oh * ow - ow) * sizeof(float));
        outParams.rsv = 0;
        DataCopyPad(yGm[(((uint64_t)img * cout + oc0) * oh + r) * ow], res, outParams);
        qOut.FreeTensor(res);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> qIn;
    TQue<QuePosition::VECOUT, BUFFER_NUM> qOut;
    TBuf<TPosition::VECCALC> filterBuf, biasBuf, prodBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    uint32_t n, cin, h, w, cout, k, oh, ow, owAlign;
    uint32_t ocBlock, ocBlocks, taskNum, taps;
    float invDiv, slope;
};

extern "C" __global__ __aicore__ void conv2d_divide_leaky_relu_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Conv2dDivLeaky op;
    op.Init(x, weight, bias, y, &td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv2d_divide_leaky_relu_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                   const at::Tensor& bias, double divisor, double negative_slope)
{
    auto kh = weight.size(2);
    auto kw = weight.size(3);
    at::Tensor y = at::empty({x.size(0), weight.size(0), x.size(2) - kh + 1, x.size(3) - kw + 1}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    EXEC_NPU_CMD(aclnnConv2dDivideLeakyReluCustom, xc, wc, bc, divisor, negative_slope, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_divide_leaky_relu_custom", &conv2d_divide_leaky_relu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_divide_leaky_relu_custom", &conv2d_divide_leaky_relu_custom_impl_npu,
          "leaky_relu(conv2d(x) / divisor)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, divisor):
        super(ModelNew, self).__init__()
        self.conv = torch.nn.Conv2d(in_channels, out_channels, kernel_size)
        self.divisor = float(divisor)

    def forward(self, x):
        return custom_ops_lib.conv2d_divide_leaky_relu_custom(x, self.conv.weight, self.conv.bias,
                                                              self.divisor, 0.01)
'''

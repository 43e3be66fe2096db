project_json_src='''
[
    {
        "op": "ConvDepthwiseSeparable2dCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "dw_weight",
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
            {"name": "stride", "param_type": "optional", "type": "int", "default_value": "1"},
            {"name": "padding", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "dilation", "param_type": "optional", "type": "int", "default_value": "1"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvDepthwiseSeparable2dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, rowBufLen);      // UB 中一行缓冲区的长度 (float, 8 对齐)
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);  // 每核负责的 (n, c) 平面数
  TILING_DATA_FIELD_DEF(uint32_t, planesRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvDepthwiseSeparable2dCustom, ConvDepthwiseSeparable2dCustomTilingData)
}
"""

host_operator_src="""
#include "conv_depthwise_separable2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_K = 7;
constexpr uint32_t MAX_ROW = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvDepthwiseSeparable2dCustomTilingData td;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();   // [N, C, H, W]
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();   // [C, 1, K, K]
    auto attrs = context->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t dil = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));

    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t k = ws.GetDim(2);
    // 向量实现只覆盖 stride=1 (水平方向的移位靠 DataCopyPad 的左填充完成, 左填充要 < 8 个元素)
    if (stride != 1 || k > MAX_K || pad >= 8) {
        return ge::GRAPH_FAILED;
    }
    int32_t oh = static_cast<int32_t>(h + 2 * pad) - static_cast<int32_t>(dil * (k - 1));
    int32_t ow = static_cast<int32_t>(w + 2 * pad) - static_cast<int32_t>(dil * (k - 1));
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowBufLen = (static_cast<uint32_t>(ow) + 8 + 7) / 8 * 8;
    if (rowBufLen > MAX_ROW) {
        return ge::GRAPH_FAILED;
    }

    uint32_t planes = n * c;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t blockDim = planes < cores ? planes : cores;
    if (blockDim == 0) blockDim = 1;

    td.set_batch(n);
    td.set_channels(c);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outH(static_cast<uint32_t>(oh));
    td.set_outW(static_cast<uint32_t>(ow));
    td.set_kSize(k);
    td.set_pad(pad);
    td.set_dilation(dil);
    td.set_rowBufLen(rowBufLen);
    td.set_planesPerCore(planes / blockDim);
    td.set_planesRemain(planes % blockDim);

    context->SetBlockDim(blockDim);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    int64_t dil = *attrs->GetAttrPointer<int64_t>(2);
    int64_t k = ws->GetDim(2);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
    ys->SetDim(2, (xs->GetDim(2) + 2 * pad - dil * (k - 1) - 1) / stride + 1);
    ys->SetDim(3, (xs->GetDim(3) + 2 * pad - dil * (k - 1) - 1) / stride + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvDepthwiseSeparable2dCustom : public OpDef {
public:
    explicit ConvDepthwiseSeparable2dCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("dw_weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvDepthwiseSeparable2dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_KK = 49;

// 深度卷积 (groups = C, stride = 1) 的向量实现.
// 对每个输出行 oh: acc = sum_{kh,kw} w[c,kh,kw] * in[ih, ow + kw*d - p]
// 水平方向的位移不在 UB 里做 (UB 上的向量操作要求 32B 对齐起址), 而是直接从 GM 的偏移位置
// 用 DataCopyPad 搬入, 左侧越界部分用 leftPadding 补 0, 右侧越界部分不参与 Axpy.
class KernelDepthwiseConv {
public:
    __aicore__ inline KernelDepthwiseConv() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvDepthwiseSeparable2dCustomTilingData& td)
    {
        C = td.channels;
        H = td.inH;
        W = td.inW;
        OH = td.outH;
        OW = td.outW;
        K = td.kSize;
        P = td.pad;
        D = td.dilation;
        bufLen = td.rowBufLen;

        uint32_t bid = GetBlockIdx();
        planeCnt = td.planesPerCore + (bid < td.planesRemain ? 1 : 0);
        planeBeg = bid * td.planesPerCore + (bid < td.planesRemain ? bid : td.planesRemain);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(rowQ, BUFFER_NUM, bufLen * sizeof(float));
        pipe.InitBuffer(accQ, BUFFER_NUM, bufLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < planeCnt; ++i) {
            uint32_t plane = planeBeg + i;
            uint32_t c = plane % C;
            // 权重是标量, 每个平面读一次缓存到寄存器数组
            for (uint32_t t = 0; t < K * K; ++t) {
                wReg[t] = wGm.GetValue((uint64_t)c * K * K + t);
            }
            uint64_t inBase = (uint64_t)plane * H * W;
            uint64_t outBase = (uint64_t)plane * OH * OW;
            for (uint32_t oh = 0; oh < OH; ++oh) {
                ComputeRow(inBase, outBase, oh);
            }
        }
    }

private:
    __aicore__ inline void ComputeRow(uint64_t inBase, uint64_t outBase, uint32_t oh)
    {
        LocalTensor<float> acc = accQ.AllocTensor<float>();
        Duplicate(acc, 0.0f, bufLen);

        for (uint32_t kh = 0; kh < K; ++kh) {
            int32_t ih = (int32_t)oh - (int32_t)P + (int32_t)(kh * D);
            if (ih < 0 || ih >= (int32_t)H) {
                continue;   // 上下 padding 区域, 贡献为 0
            }
            for (uint32_t kw = 0; kw < K; ++kw) {
                int32_t shift = (int32_t)(kw * D) - (int32_t)P;
                // 有效输出列区间 [lo, hi): 0 <= ow + shift < W
                int32_t lo = shift < 0 ? -shift : 0;
                int32_t hi = (int32_t)W - shift;
                if (hi > (int32_t)OW) hi = (int32_t)OW;
                if (hi <= lo) {
                    continue;
                }
                uint32_t cnt = (uint32_t)(hi - lo);

                LocalTensor<float> row = rowQ.AllocTensor<float>();
                DataCopyExtParams cp{1, cnt * (uint32_t)sizeof(float), 0, 0, 0};
                DataCopyPadExtParams<float> pd{true, (uint8_t)lo, 0, 0.0f};
                DataCopyPad(row, xGm[inBase + (uint64_t)ih * W + (uint64_t)(lo + shift)], cp, pd);
                rowQ.EnQue(row);
                row = rowQ.DeQue<float>();
                // row[ow] = in[ih, ow + shift], ow in [0, hi)
                Axpy(acc, row, wReg[kh * K + kw], (uint32_t)hi);
                rowQ.FreeTensor(row);
            }
        }

        accQ.EnQue(acc);
        acc = accQ.DeQue<float>();
        DataCopyExtParams op{1, OW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[outBase + (uint64_t)oh * OW], acc, op);
        accQ.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> accQ;
    GlobalTensor<float> xGm, wGm, yGm;
    float wReg[MAX_KK];
    uint32_t C, H, W, OH, OW, K, P, D, bufLen;
    uint32_t planeBeg, planeCnt;
};

extern "C" __global__ __aicore__ void conv_depthwise_separable2d_custom(GM_ADDR x, GM_ADDR dw_weight, GM_ADDR y,
                                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelDepthwiseConv op;
    op.Init(x, dw_weight, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// depthwise 部分用自定义向量算子, pointwise (1x1) 本质是矩阵乘, 交给 cube 上的 matmul
at::Tensor conv_depthwise_separable_2d_custom_impl_npu(const at::Tensor& x, const at::Tensor& dw_weight,
                                                       const at::Tensor& pw_weight, int64_t stride,
                                                       int64_t padding, int64_t dilation)
{
    TORCH_CHECK(stride == 1, "custom depthwise kernel only supports stride 1");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = dw_weight.contiguous();
    int64_t n = xc.size(0), c = xc.size(1), h = xc.size(2), w = xc.size(3);
    int64_t k = wc.size(2);
    int64_t oh = h + 2 * padding - dilation * (k - 1);
    int64_t ow = w + 2 * padding - dilation * (k - 1);
    at::Tensor dw = at::empty({n, c, oh, ow}, xc.options());
    EXEC_NPU_CMD(aclnnConvDepthwiseSeparable2dCustom, xc, wc, stride, padding, dilation, dw);

    int64_t oc = pw_weight.size(0);
    at::Tensor pw = pw_weight.reshape({oc, c});
    // [OC, C] x [N, C, OH*OW] -> [N, OC, OH*OW]
    at::Tensor out = at::matmul(pw, dw.view({n, c, oh * ow}));
    return out.view({n, oc, oh, ow});
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_depthwise_separable_2d_custom", &conv_depthwise_separable_2d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_depthwise_separable_2d_custom", &conv_depthwise_separable_2d_custom_impl_npu,
          "depthwise-separable conv2d");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, bias=False):
        super().__init__()
        self.depthwise = torch.nn.Conv2d(in_channels, in_channels, kernel_size, stride=stride, padding=padding,
                                         dilation=dilation, groups=in_channels, bias=False)
        self.pointwise = torch.nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=False)
        self.stride = stride
        self.padding = padding
        self.dilation = dilation

    def forward(self, x):
        return custom_ops_lib.conv_depthwise_separable_2d_custom(
            x, self.depthwise.weight, self.pointwise.weight, self.stride, self.padding, self.dilation)
'''

project_json_src='''
[
    {
        "op": "ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "cols",
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
            {"name": "out_channels", "param_type": "required", "type": "int"},
            {"name": "kernel_size", "param_type": "required", "type": "int"},
            {"name": "in_h", "param_type": "required", "type": "int"},
            {"name": "in_w", "param_type": "required", "type": "int"},
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
BEGIN_TILING_DATA_DEF(ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, inWPad);       // inW 对齐到 8
  TILING_DATA_FIELD_DEF(uint32_t, outWPad);      // outW 对齐到 8
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // 输出行 (n, co, oh) 在核间切分
  TILING_DATA_FIELD_DEF(uint32_t, rowsRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustom,
                           ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transposed2d_asymmetric_input_square_kernel_dilated_padded_strided_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_K = 7;
constexpr uint32_t MAX_OW = 4096;

static inline uint32_t Align8(uint32_t v) { return (v + 7U) / 8U * 8U; }

// 输入是 host 侧已算好的 cols = W^T x, 形状 [N, Cout*K*K, H*W];
// 本算子完成 col2im: 把每个 (kh, kw) 的贡献按 stride/dilation/padding 累加到输出上.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustomTilingData td;
    const gert::Shape& cs = context->GetInputShape(0)->GetStorageShape();
    auto attrs = context->GetAttrs();
    uint32_t oc = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t k = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t h = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    uint32_t w = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(3));
    uint32_t s = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(4));
    uint32_t p = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(5));
    uint32_t d = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(6));
    if (k == 0 || k > MAX_K || s == 0 || d == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(cs.GetDim(0));
    int64_t oh = static_cast<int64_t>(h - 1) * s - 2 * static_cast<int64_t>(p) + static_cast<int64_t>(d) * (k - 1) + 1;
    int64_t ow = static_cast<int64_t>(w - 1) * s - 2 * static_cast<int64_t>(p) + static_cast<int64_t>(d) * (k - 1) + 1;
    if (oh <= 0 || ow <= 0 || ow > MAX_OW) {
        return ge::GRAPH_FAILED;
    }

    uint32_t rows = n * oc * static_cast<uint32_t>(oh);
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t blockDim = rows < cores ? rows : cores;
    if (blockDim == 0) blockDim = 1;

    td.set_batch(n);
    td.set_outC(oc);
    td.set_kSize(k);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outH(static_cast<uint32_t>(oh));
    td.set_outW(static_cast<uint32_t>(ow));
    td.set_stride(s);
    td.set_pad(p);
    td.set_dilation(d);
    td.set_inWPad(Align8(w));
    td.set_outWPad(Align8(static_cast<uint32_t>(ow)));
    td.set_rowsPerCore(rows / blockDim);
    td.set_rowsRemain(rows % blockDim);

    context->SetBlockDim(blockDim);
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
    const gert::Shape* cs = context->GetInputShape(0);
    auto attrs = context->GetAttrs();
    int64_t oc = *attrs->GetAttrPointer<int64_t>(0);
    int64_t k = *attrs->GetAttrPointer<int64_t>(1);
    int64_t h = *attrs->GetAttrPointer<int64_t>(2);
    int64_t w = *attrs->GetAttrPointer<int64_t>(3);
    int64_t s = *attrs->GetAttrPointer<int64_t>(4);
    int64_t p = *attrs->GetAttrPointer<int64_t>(5);
    int64_t d = *attrs->GetAttrPointer<int64_t>(6);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, cs->GetDim(0));
    ys->SetDim(1, oc);
    ys->SetDim(2, (h - 1) * s - 2 * p + d * (k - 1) + 1);
    ys->SetDim(3, (w - 1) * s - 2 * p + d * (k - 1) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustom : public OpDef {
public:
    explicit ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustom(const char* name) : OpDef(name)
    {
        this->Input("cols").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("out_channels").Int();
        this->Attr("kernel_size").Int();
        this->Attr("in_h").Int();
        this->Attr("in_w").Int();
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_K = 7;

// col2im (转置卷积的散射累加), 以输出行为单位做 "gather" 形式:
//   y[n,co,oh,ow] = sum_{kh,kw} cols[n, co,kh,kw, ih, iw]
//   其中 oh + p - kh*d = ih*s,  ow + p - kw*d = iw*s  (必须整除且落在输入范围内)
// 竖直方向: 对每个 oh 标量判断哪些 kh 有效;
// 水平方向: 对每个 kw 预先算好一张 gather 偏移表 (字节), 无效位置指向行缓冲末尾的 0.
class KernelCol2ImTransposed {
public:
    __aicore__ inline KernelCol2ImTransposed() {}

    __aicore__ inline void Init(GM_ADDR cols, GM_ADDR y,
        const ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustomTilingData& td)
    {
        outC = td.outC; K = td.kSize; H = td.inH; W = td.inW;
        OH = td.outH; OW = td.outW; S = td.stride; P = td.pad; D = td.dilation;
        wPad = td.inWPad; owPad = td.outWPad;

        uint32_t blk = GetBlockIdx();
        rowCnt = td.rowsPerCore + (blk < td.rowsRemain ? 1 : 0);
        rowBeg = blk * td.rowsPerCore + (blk < td.rowsRemain ? blk : td.rowsRemain);

        colsGm.SetGlobalBuffer((__gm__ float*)cols);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        // 行缓冲: wPad 个数据 + 8 个 0 (zero slot)
        pipe.InitBuffer(rowQue, BUFFER_NUM, (wPad + 8) * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, owPad * sizeof(float));
        pipe.InitBuffer(gatherTmp, owPad * sizeof(float));
        pipe.InitBuffer(idxBuf, K * owPad * sizeof(uint32_t));

        BuildIndex();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < rowCnt; ++i) {
            uint32_t row = rowBeg + i;
            uint32_t oh = row % OH;
            uint32_t nc = row / OH;         // n * outC + co
            ComputeRow(nc, oh, row);
        }
    }

private:
    __aicore__ inline void BuildIndex()
    {
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        uint32_t zeroSlot = wPad * sizeof(float);   // 指向 row[wPad], 那里恒为 0
        for (uint32_t kw = 0; kw < K; ++kw) {
            for (uint32_t ow = 0; ow < owPad; ++ow) {
                uint32_t off = zeroSlot;
                int32_t t = (int32_t)ow + (int32_t)P - (int32_t)(kw * D);
                if (ow < OW && t >= 0 && (t % (int32_t)S) == 0) {
                    int32_t iw = t / (int32_t)S;
                    if (iw < (int32_t)W) {
                        off = (uint32_t)iw * sizeof(float);
                    }
                }
                idx.SetValue(kw * owPad + ow, off);
            }
        }
        // 标量写完之后才能给向量单元使用
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void ComputeRow(uint32_t nc, uint32_t oh, uint32_t row)
    {
        LocalTensor<float> acc = outQue.AllocTensor<float>();
        LocalTensor<float> tmp = gatherTmp.Get<float>();
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        Duplicate(acc, 0.0f, owPad);

        uint64_t hw = (uint64_t)H * W;
        for (uint32_t kh = 0; kh < K; ++kh) {
            int32_t t = (int32_t)oh + (int32_t)P - (int32_t)(kh * D);
            if (t < 0 || (t % (int32_t)S) != 0) {
                continue;
            }
            uint32_t ih = (uint32_t)(t / (int32_t)S);
            if (ih >= H) {
                continue;
            }
            for (uint32_t kw = 0; kw < K; ++kw) {
                // cols 布局: [N*Cout, K, K, H, W]
                uint64_t src = (((uint64_t)nc * K + kh) * K + kw) * hw + (uint64_t)ih * W;
                LocalTensor<float> rowLocal = rowQue.AllocTensor<float>();
                DataCopyExtParams cp{1, W * (uint32_t)sizeof(float), 0, 0, 0};
                DataCopyPadExtParams<float> pd{true, 0, (uint8_t)(wPad - W), 0.0f};
                DataCopyPad(rowLocal, colsGm[src], cp, pd);
                rowQue.EnQue(rowLocal);
                rowLocal = rowQue.DeQue<float>();

                Duplicate(rowLocal[wPad], 0.0f, 8);
                PipeBarrier<PIPE_V>();
                Gather(tmp, rowLocal, idx[kw * owPad], (uint32_t)0, owPad);
                PipeBarrier<PIPE_V>();
                Add(acc, acc, tmp, owPad);
                PipeBarrier<PIPE_V>();
                rowQue.FreeTensor(rowLocal);
            }
        }

        outQue.EnQue(acc);
        acc = outQue.DeQue<float>();
        DataCopyExtParams op{1, OW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)row * OW], acc, op);
        outQue.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> gatherTmp, idxBuf;
    GlobalTensor<float> colsGm, yGm;
    uint32_t outC, K, H, W, OH, OW, S, P, D, wPad, owPad;
    uint32_t rowBeg, rowCnt;
};

extern "C" __global__ __aicore__ void conv_transposed2d_asymmetric_input_square_kernel_dilated_padded_strided_custom(
    GM_ADDR cols, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelCol2ImTransposed op;
    op.Init(cols, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// 转置卷积 = GEMM + col2im
//   1) cols[n] = W^T (Cout*K*K, Cin) x X[n] (Cin, H*W)   -> cube 上的 matmul
//   2) col2im 把 K*K 个贡献按 stride/dilation/padding 叠加 -> 自定义向量算子
at::Tensor conv_transposed2d_asymmetric_input_square_kernel_dilated_padded_strided_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, int64_t stride, int64_t padding, int64_t dilation)
{
    at::Tensor xc = x.contiguous();
    int64_t n = xc.size(0), cin = xc.size(1), h = xc.size(2), w = xc.size(3);
    int64_t cout = weight.size(1);
    int64_t k = weight.size(2);
    at::Tensor wmat = weight.reshape({cin, cout * k * k}).t();               // [Cout*K*K, Cin]
    at::Tensor cols = at::matmul(wmat, xc.view({n, cin, h * w})).contiguous(); // [N, Cout*K*K, H*W]

    int64_t oh = (h - 1) * stride - 2 * padding + dilation * (k - 1) + 1;
    int64_t ow = (w - 1) * stride - 2 * padding + dilation * (k - 1) + 1;
    at::Tensor y = at::empty({n, cout, oh, ow}, xc.options());
    EXEC_NPU_CMD(aclnnConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustom,
                 cols, cout, k, h, w, stride, padding, dilation, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed2d_asymmetric_input_square_kernel_dilated_padded_strided_custom",
           &conv_transposed2d_asymmetric_input_square_kernel_dilated_padded_strided_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed2d_asymmetric_input_square_kernel_dilated_padded_strided_custom",
          &conv_transposed2d_asymmetric_input_square_kernel_dilated_padded_strided_impl_npu,
          "conv_transpose2d via matmul + col2im");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, bias=False):
        super().__init__()
        self.conv_transpose2d = torch.nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride,
                                                         padding=padding, dilation=dilation, bias=bias)
        self.stride = stride
        self.padding = padding
        self.dilation = dilation

    def forward(self, x):
        y = custom_ops_lib.conv_transposed2d_asymmetric_input_square_kernel_dilated_padded_strided_custom(
            x, self.conv_transpose2d.weight, self.stride, self.padding, self.dilation)
        if self.conv_transpose2d.bias is not None:
            y = y + self.conv_transpose2d.bias.view(1, -1, 1, 1)
        return y
'''

project_json_src='''
[
    {
        "op": "ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustom",
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
            {"name": "stride", "param_type": "required", "type": "int"},
            {"name": "padding", "param_type": "required", "type": "int"},
            {"name": "dilation", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, winAlign);   // win rounded up to 8 floats (UB row pitch)
  TILING_DATA_FIELD_DEF(uint32_t, woutAlign);  // wout rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(int32_t, stride);
  TILING_DATA_FIELD_DEF(int32_t, pad);
  TILING_DATA_FIELD_DEF(int32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);   // batch * hout
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
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
static inline uint32_t AlignUp8(uint32_t v) { return (v + 7U) / 8U * 8U; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustomTilingData tiling;
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetOriginShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    int32_t stride = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(0));
    int32_t pad = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(1));
    int32_t dil = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(2));

    uint32_t n = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint32_t hin = xs.GetDim(2);
    uint32_t win = xs.GetDim(3);
    uint32_t cout = ws.GetDim(1);   // weight layout: (Cin, Cout, K, K)
    uint32_t k = ws.GetDim(2);
    int32_t hout = (static_cast<int32_t>(hin) - 1) * stride - 2 * pad + dil * (static_cast<int32_t>(k) - 1) + 1;
    int32_t wout = (static_cast<int32_t>(win) - 1) * stride - 2 * pad + dil * (static_cast<int32_t>(k) - 1) + 1;
    if (hout <= 0 || wout <= 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t totalRows = n * static_cast<uint32_t>(hout);
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t blockDim = coreNum == 0 ? 1 : coreNum;
    if (blockDim > totalRows) {
        blockDim = totalRows;
    }
    uint32_t rowsPerCore = (totalRows + blockDim - 1) / blockDim;

    tiling.set_batch(n);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_hin(hin);
    tiling.set_win(win);
    tiling.set_hout(static_cast<uint32_t>(hout));
    tiling.set_wout(static_cast<uint32_t>(wout));
    tiling.set_winAlign(AlignUp8(win));
    tiling.set_woutAlign(AlignUp8(static_cast<uint32_t>(wout)));
    tiling.set_ksize(k);
    tiling.set_stride(stride);
    tiling.set_pad(pad);
    tiling.set_dilation(dil);
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore(rowsPerCore);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = 0;
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
    ys->SetDim(1, ws->GetDim(1));
    ys->SetDim(2, (xs->GetDim(2) - 1) * stride - 2 * pad + dil * (k - 1) + 1);
    ys->SetDim(3, (xs->GetDim(3) - 1) * stride - 2 * pad + dil * (k - 1) + 1);
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
        this->Attr("stride").Int();
        this->Attr("padding").Int();
        this->Attr("dilation").Int();

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

// Transposed conv, computed one output row (n, oh) at a time.
//
// For an output row oh, kernel row kh contributes iff (oh + pad - kh*dil) is a
// non-negative multiple of stride and ih = (oh + pad - kh*dil)/stride < Hin.
// Along the width the same relation holds for (ow, kw, iw).  For every output
// channel we therefore:
//   1. build, per kw, a dense vector over iw:  s_kw[iw] = sum_{kh,ci} w[ci,co,kh,kw] * x[n,ci,ih(kh),iw]
//      (Axpy over the input channel rows already in UB),
//   2. scatter those vectors into the (strided/dilated) output row with Gather,
//      using per-kw byte-offset tables prepared once; positions that receive
//      nothing point at a zero block placed in front of the source buffer.
constexpr uint32_t ZERO_HEAD = 8;  // floats of zeros at the front of the gather source
constexpr int32_t OUT_BUF = 2;

class KernelConvTranspose2d {
public:
    __aicore__ inline KernelConvTranspose2d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
        const ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustomTilingData& t)
    {
        n = t.batch; cin = t.cin; cout = t.cout;
        hin = t.hin; win = t.win; hout = t.hout; wout = t.wout;
        winA = t.winAlign; woutA = t.woutAlign;
        k = t.ksize; stride = t.stride; pad = t.pad; dil = t.dilation;

        rowBegin = GetBlockIdx() * t.rowsPerCore;
        rowEnd = rowBegin + t.rowsPerCore;
        if (rowEnd > t.totalRows) rowEnd = t.totalRows;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)n * cin * hin * win);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)cin * cout * k * k);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)n * cout * hout * wout);

        wCount = cin * cout * k * k;
        pipe.InitBuffer(wQue, 1, ((wCount + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(xQue, 1, k * cin * winA * sizeof(float));
        pipe.InitBuffer(yQue, OUT_BUF, woutA * sizeof(float));
        pipe.InitBuffer(srcBuf, (ZERO_HEAD + k * winA) * sizeof(float));
        pipe.InitBuffer(idxBuf, k * woutA * sizeof(uint32_t));
        pipe.InitBuffer(tmpBuf, woutA * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowBegin >= rowEnd) {
            return;
        }
        LoadWeights();
        BuildGatherTables();
        LocalTensor<float> wLocal = wQue.DeQue<float>();
        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            ComputeRow(wLocal, r / hout, r % hout);
        }
        wQue.FreeTensor(wLocal);
    }

private:
    __aicore__ inline void LoadWeights()
    {
        LocalTensor<float> wLocal = wQue.AllocTensor<float>();
        DataCopyExtParams p{1, wCount * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> padP{false, 0, 0, 0.0f};
        DataCopyPad(wLocal, wGm, p, padP);
        wQue.EnQue(wLocal);
    }

    // table kw: byte offset (into srcBuf) of the value feeding output column ow
    __aicore__ inline void BuildGatherTables()
    {
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        for (uint32_t kw = 0; kw < k; ++kw) {
            for (uint32_t ow = 0; ow < wout; ++ow) {
                int32_t num = (int32_t)ow + pad - (int32_t)kw * dil;
                uint32_t off = 0;
                if (num >= 0 && (num % stride) == 0) {
                    int32_t iw = num / stride;
                    if (iw < (int32_t)win) {
                        off = (ZERO_HEAD + kw * winA + (uint32_t)iw) * sizeof(float);
                    }
                }
                idx.SetValue(kw * woutA + ow, off);
            }
        }
        LocalTensor<float> src = srcBuf.Get<float>();
        Duplicate(src, 0.0f, ZERO_HEAD + k * winA);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void ComputeRow(const LocalTensor<float>& wLocal, uint32_t b, uint32_t oh)
    {
        // which kernel rows land on this output row
        uint32_t khList[16];
        uint32_t ihList[16];
        uint32_t nk = 0;
        for (uint32_t kh = 0; kh < k && nk < 16; ++kh) {
            int32_t num = (int32_t)oh + pad - (int32_t)kh * dil;
            if (num < 0 || (num % stride) != 0) continue;
            int32_t ih = num / stride;
            if (ih >= (int32_t)hin) continue;
            khList[nk] = kh;
            ihList[nk] = (uint32_t)ih;
            ++nk;
        }

        uint64_t yRowBase = (uint64_t)b * cout * hout * wout + (uint64_t)oh * wout;
        if (nk == 0) {
            // nothing maps onto this row: all output channels are zero
            for (uint32_t co = 0; co < cout; ++co) {
                LocalTensor<float> yLocal = yQue.AllocTensor<float>();
                Duplicate(yLocal, 0.0f, woutA);
                yQue.EnQue(yLocal);
                StoreRow(yRowBase + (uint64_t)co * hout * wout);
            }
            return;
        }

        // bring in x[b, :, ih, :] for every contributing kh (one strided copy each)
        LocalTensor<float> xLocal = xQue.AllocTensor<float>();
        DataCopyPadExtParams<float> padP{false, 0, 0, 0.0f};
        for (uint32_t j = 0; j < nk; ++j) {
            DataCopyExtParams p{(uint16_t)cin, win * (uint32_t)sizeof(float),
                                (uint32_t)((hin - 1) * win * sizeof(float)), 0, 0};
            uint64_t src = (uint64_t)b * cin * hin * win + (uint64_t)ihList[j] * win;
            DataCopyPad(xLocal[j * cin * winA], xGm[src], p, padP);
        }
        xQue.EnQue(xLocal);
        xLocal = xQue.DeQue<float>();

        LocalTensor<float> srcLocal = srcBuf.Get<float>();
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();

        for (uint32_t co = 0; co < cout; ++co) {
            // 1. dense per-kw partial sums
            for (uint32_t kw = 0; kw < k; ++kw) {
                LocalTensor<float> s = srcLocal[ZERO_HEAD + kw * winA];
                Duplicate(s, 0.0f, win);
                for (uint32_t j = 0; j < nk; ++j) {
                    uint32_t kh = khList[j];
                    for (uint32_t ci = 0; ci < cin; ++ci) {
                        float wv = wLocal.GetValue(((ci * cout + co) * k + kh) * k + kw);
                        Axpy(s, xLocal[(j * cin + ci) * winA], wv, (int32_t)win);
                    }
                }
            }
            PipeBarrier<PIPE_V>();

            // 2. scatter into the output row through the gather tables
            LocalTensor<float> yLocal = yQue.AllocTensor<float>();
            Gather(yLocal, srcLocal, idx, (uint32_t)0, wout);
            for (uint32_t kw = 1; kw < k; ++kw) {
                Gather(tmp, srcLocal, idx[kw * woutA], (uint32_t)0, wout);
                Add(yLocal, yLocal, tmp, wout);
            }
            yQue.EnQue(yLocal);
            StoreRow(yRowBase + (uint64_t)co * hout * wout);
        }
        xQue.FreeTensor(xLocal);
    }

    __aicore__ inline void StoreRow(uint64_t dst)
    {
        LocalTensor<float> yLocal = yQue.DeQue<float>();
        DataCopyExtParams p{1, wout * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[dst], yLocal, p);
        yQue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> wQue;
    TQue<QuePosition::VECIN, 1> xQue;
    TQue<QuePosition::VECOUT, OUT_BUF> yQue;
    TBuf<QuePosition::VECCALC> srcBuf;
    TBuf<QuePosition::VECCALC> idxBuf;
    TBuf<QuePosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm, wGm, yGm;

    uint32_t n, cin, cout, hin, win, hout, wout, winA, woutA, k, wCount;
    int32_t stride, pad, dil;
    uint32_t rowBegin, rowEnd;
};

extern "C" __global__ __aicore__ void conv_transposed2d_asymmetric_input_square_kernel_dilated_padded_strided_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConvTranspose2d op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transposed2d_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                             int64_t stride, int64_t padding, int64_t dilation)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected 4D input and weight");
    TORCH_CHECK(x.size(1) == weight.size(0), "channel mismatch");
    int64_t k = weight.size(2);
    int64_t hout = (x.size(2) - 1) * stride - 2 * padding + dilation * (k - 1) + 1;
    int64_t wout = (x.size(3) - 1) * stride - 2 * padding + dilation * (k - 1) + 1;
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor result = at::empty({x.size(0), weight.size(1), hout, wout}, x.options());
    EXEC_NPU_CMD(aclnnConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStridedCustom,
                 xc, wc, stride, padding, dilation, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed2d_asymmetric_input_square_kernel_dilated_padded_strided_custom",
           &conv_transposed2d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed2d_asymmetric_input_square_kernel_dilated_padded_strided_custom",
          &conv_transposed2d_custom_impl_npu, "ConvTranspose2d (dilated, padded, strided)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int = 0, dilation: int = 1, bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv_transpose2d = torch.nn.ConvTranspose2d(in_channels, out_channels, kernel_size,
                                                         stride=stride, padding=padding,
                                                         dilation=dilation, bias=bias)
        self.stride = stride
        self.padding = padding
        self.dilation = dilation

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = custom_ops_lib.conv_transposed2d_asymmetric_input_square_kernel_dilated_padded_strided_custom(
            x, self.conv_transpose2d.weight, self.stride, self.padding, self.dilation)
        if self.conv_transpose2d.bias is not None:
            y = y + self.conv_transpose2d.bias.view(1, -1, 1, 1)
        return y
'''

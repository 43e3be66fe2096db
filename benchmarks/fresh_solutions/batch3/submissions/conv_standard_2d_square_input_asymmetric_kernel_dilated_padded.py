python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_standard_2d_square_input_asymmetric_kernel_dilated_padded_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight,
    int64_t pad_h, int64_t pad_w, int64_t dil_h, int64_t dil_w)
{
    // stride is fixed to 1 for this op
    const int64_t n = x.size(0), h = x.size(2), w = x.size(3);
    const int64_t c_out = weight.size(0), kh = weight.size(2), kw = weight.size(3);
    const int64_t oh = h + 2 * pad_h - dil_h * (kh - 1);
    const int64_t ow = w + 2 * pad_w - dil_w * (kw - 1);
    at::Tensor y = at::empty({n, c_out, oh, ow}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    EXEC_NPU_CMD(aclnnConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustom,
                 xc, wc, pad_h, pad_w, dil_h, dil_w, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard_2d_square_input_asymmetric_kernel_dilated_padded_custom",
           &conv_standard_2d_square_input_asymmetric_kernel_dilated_padded_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard_2d_square_input_asymmetric_kernel_dilated_padded_custom",
          &conv_standard_2d_square_input_asymmetric_kernel_dilated_padded_custom_impl_npu,
          "dilated, padded Conv2d (stride 1, no bias)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple, stride: int = 1,
                 padding: tuple = (0, 0), dilation: tuple = (1, 1), bias: bool = False):
        super().__init__()
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride,
                                      padding=padding, dilation=dilation, bias=bias)
        assert stride == 1, "custom kernel handles stride 1 only"
        self.padding = padding
        self.dilation = dilation

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = custom_ops_lib.conv_standard_2d_square_input_asymmetric_kernel_dilated_padded_custom(
            x, self.conv2d.weight, self.padding[0], self.padding[1], self.dilation[0], self.dilation[1])
        if self.conv2d.bias is not None:
            y = y + self.conv2d.bias.view(1, -1, 1, 1)
        return y
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, c_in);
  TILING_DATA_FIELD_DEF(uint32_t, c_out);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, ow_al);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, ph);
  TILING_DATA_FIELD_DEF(uint32_t, pw);
  TILING_DATA_FIELD_DEF(uint32_t, dh);
  TILING_DATA_FIELD_DEF(uint32_t, dw);
  TILING_DATA_FIELD_DEF(uint32_t, kk_al);      // kh*kw rounded up to 8 (weight row stride in UB)
  TILING_DATA_FIELD_DEF(uint32_t, co_tile);
  TILING_DATA_FIELD_DEF(uint32_t, co_grp);
  TILING_DATA_FIELD_DEF(uint32_t, job_num);    // n * co_grp * oh output-row jobs
  TILING_DATA_FIELD_DEF(uint32_t, job_per);    // jobs per core (contiguous ranges)
  TILING_DATA_FIELD_DEF(uint32_t, job_rem);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustom,
                           ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustomTilingData)
}
"""

host_operator_src="""
#include "conv_standard2d_square_input_asymmetric_kernel_dilated_padded_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ACC_LIMIT = 64 * 1024;   // bytes for the accumulator rows

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustomTilingData td;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    const auto* attrs = context->GetAttrs();
    uint32_t ph = *attrs->GetInt(0);
    uint32_t pw = *attrs->GetInt(1);
    uint32_t dh = *attrs->GetInt(2);
    uint32_t dw = *attrs->GetInt(3);

    uint32_t n = xs.GetDim(0), c_in = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t c_out = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    uint32_t oh = h + 2 * ph - dh * (kh - 1);
    uint32_t ow = w + 2 * pw - dw * (kw - 1);
    uint32_t ow_al = (ow + 7) / 8 * 8;
    // the shifted input row is zero-padded on the left by DataCopyPad (<= 32B)
    if (pw > 8) {
        return ge::GRAPH_FAILED;
    }

    uint32_t co_tile = ACC_LIMIT / (ow_al * 4);
    if (co_tile < 1) co_tile = 1;
    if (co_tile > c_out) co_tile = c_out;
    uint32_t co_grp = (c_out + co_tile - 1) / co_tile;
    uint32_t job_num = n * co_grp * oh;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blk = plat.GetCoreNumAiv();
    if (blk > job_num) blk = job_num;
    if (blk == 0) blk = 1;

    td.set_n(n); td.set_c_in(c_in); td.set_c_out(c_out);
    td.set_h(h); td.set_w(w); td.set_oh(oh); td.set_ow(ow); td.set_ow_al(ow_al);
    td.set_kh(kh); td.set_kw(kw); td.set_ph(ph); td.set_pw(pw); td.set_dh(dh); td.set_dw(dw);
    td.set_kk_al((kh * kw + 7) / 8 * 8);
    td.set_co_tile(co_tile); td.set_co_grp(co_grp);
    td.set_job_num(job_num); td.set_job_per(job_num / blk); td.set_job_rem(job_num % blk);

    context->SetBlockDim(blk);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    const auto* attrs = context->GetAttrs();
    int64_t ph = *attrs->GetInt(0), pw = *attrs->GetInt(1);
    int64_t dh = *attrs->GetInt(2), dw = *attrs->GetInt(3);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) + 2 * ph - dh * (ws->GetDim(2) - 1));
    ys->SetDim(3, xs->GetDim(3) + 2 * pw - dw * (ws->GetDim(3) - 1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustom : public OpDef {
public:
    explicit ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustom(const char* name) : OpDef(name)
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
        this->Attr("pad_h").AttrType(REQUIRED).Int();
        this->Attr("pad_w").AttrType(REQUIRED).Int();
        this->Attr("dilation_h").AttrType(REQUIRED).Int();
        this->Attr("dilation_w").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y[n, co, oh, ow] = sum_{ci,r,s} w[co, ci, r, s] * x[n, ci, oh - ph + r*dh, ow - pw + s*dw]
// A job is one output row (n, oh) for co_tile output channels. For each tap (ci, r, s) the
// input row shifted by (s*dw - pw) is fetched from GM into an aligned UB row (zeros on the
// left come from DataCopyPad) and added with Axpy into every channel's accumulator row.
class KernelDilatedConv {
public:
    __aicore__ inline KernelDilatedConv() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR y,
                                const ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustomTilingData& td)
    {
        n = td.n; c_in = td.c_in; c_out = td.c_out; h = td.h; w = td.w; oh = td.oh; ow = td.ow;
        ow_al = td.ow_al; kh = td.kh; kw = td.kw; ph = td.ph; pw = td.pw; dh = td.dh; dw = td.dw;
        kk_al = td.kk_al; co_tile = td.co_tile; co_grp = td.co_grp;

        uint32_t blk = AscendC::GetBlockIdx();
        job_cnt = td.job_per + (blk < td.job_rem ? 1 : 0);
        job_beg = blk * td.job_per + (blk < td.job_rem ? blk : td.job_rem);

        x_gm.SetGlobalBuffer((__gm__ float*)x);
        w_gm.SetGlobalBuffer((__gm__ float*)wt);
        y_gm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(row_q, BUFFER_NUM, ow_al * sizeof(float));
        pipe.InitBuffer(wt_q, 1, co_tile * kk_al * sizeof(float));
        pipe.InitBuffer(acc_q, 1, co_tile * ow_al * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        // job order: (n, co group, oh) with oh fastest so neighbouring jobs reuse input rows in L2
        for (uint32_t j = job_beg; j < job_beg + job_cnt; ++j) {
            uint32_t o_row = j % oh;
            uint32_t g = (j / oh) % co_grp;
            uint32_t b = j / (oh * co_grp);
            uint32_t co0 = g * co_tile;
            uint32_t cnt = (co0 + co_tile <= c_out) ? co_tile : (c_out - co0);
            do_row(b, o_row, co0, cnt);
        }
    }

private:
    __aicore__ inline void load_weights(uint32_t ci, uint32_t co0, uint32_t cnt)
    {
        // cnt runs of kh*kw floats, one per output channel, kk_al apart in UB
        AscendC::LocalTensor<float> wl = wt_q.AllocTensor<float>();
        uint32_t kk = kh * kw;
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(cnt), static_cast<uint32_t>(kk * sizeof(float)),
                                      static_cast<uint32_t>((c_in - 1) * kk * sizeof(float)), 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(wl, w_gm[((uint64_t)co0 * c_in + ci) * kk], cp, pad);
        wt_q.EnQue(wl);
    }

    __aicore__ inline void do_row(uint32_t b, uint32_t o_row, uint32_t co0, uint32_t cnt)
    {
        AscendC::LocalTensor<float> acc = acc_q.AllocTensor<float>();
        AscendC::Duplicate(acc, 0.0f, cnt * ow_al);

        for (uint32_t ci = 0; ci < c_in; ++ci) {
            load_weights(ci, co0, cnt);
            AscendC::LocalTensor<float> wl = wt_q.DeQue<float>();
            event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
            AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(ev);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(ev);

            uint64_t plane = ((uint64_t)b * c_in + ci) * h * w;
            for (uint32_t r = 0; r < kh; ++r) {
                int32_t ih = (int32_t)o_row - (int32_t)ph + (int32_t)(r * dh);
                if (ih < 0 || ih >= (int32_t)h) continue;   // zero padding rows
                for (uint32_t s = 0; s < kw; ++s) {
                    int32_t shift = (int32_t)(s * dw) - (int32_t)pw;   // iw = ow + shift
                    int32_t lo = shift < 0 ? -shift : 0;
                    int32_t hi = (int32_t)w - shift;
                    if (hi > (int32_t)ow) hi = (int32_t)ow;
                    if (hi <= lo) continue;

                    AscendC::LocalTensor<float> xr = row_q.AllocTensor<float>();
                    AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>((hi - lo) * sizeof(float)), 0, 0, 0};
                    AscendC::DataCopyPadExtParams<float> pad{true, static_cast<uint8_t>(lo), 0, 0.0f};
                    AscendC::DataCopyPad(xr, x_gm[plane + (uint64_t)ih * w + (uint32_t)(lo + shift)], cp, pad);
                    row_q.EnQue(xr);
                    xr = row_q.DeQue<float>();

                    uint32_t tap = r * kw + s;
                    for (uint32_t c = 0; c < cnt; ++c) {
                        float wv = wl.GetValue(c * kk_al + tap);
                        AscendC::Axpy(acc[c * ow_al], xr, wv, static_cast<uint32_t>(hi));
                    }
                    row_q.FreeTensor(xr);
                }
            }
            wt_q.FreeTensor(wl);
        }

        acc_q.EnQue(acc);
        acc = acc_q.DeQue<float>();
        AscendC::DataCopyExtParams out{static_cast<uint16_t>(cnt), static_cast<uint32_t>(ow * sizeof(float)),
                                       0, static_cast<uint32_t>((oh - 1) * ow * sizeof(float)), 0};
        AscendC::DataCopyPad(y_gm[(((uint64_t)b * c_out + co0) * oh + o_row) * ow], acc, out);
        acc_q.FreeTensor(acc);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> row_q;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> wt_q;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> acc_q;
    AscendC::GlobalTensor<float> x_gm, w_gm, y_gm;
    uint32_t n, c_in, c_out, h, w, oh, ow, ow_al, kh, kw, ph, pw, dh, dw, kk_al;
    uint32_t co_tile, co_grp, job_beg, job_cnt;
};

extern "C" __global__ __aicore__ void conv_standard2d_square_input_asymmetric_kernel_dilated_padded_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelDilatedConv op;
    op.Init(x, weight, y, td);
    op.Process();
}
"""

project_json_src='''
[
    {
        "op": "ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustom",
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
            {"name": "pad_h", "param_type": "required", "type": "int"},
            {"name": "pad_w", "param_type": "required", "type": "int"},
            {"name": "dilation_h", "param_type": "required", "type": "int"},
            {"name": "dilation_w", "param_type": "required", "type": "int"}
        ]
    }
]
'''

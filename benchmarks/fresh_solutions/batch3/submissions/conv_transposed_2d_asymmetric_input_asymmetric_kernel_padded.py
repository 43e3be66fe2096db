python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// x: (N, C_in, H, W), weight: (C_in, C_out, KH, KW) -- the nn.ConvTranspose2d layout
at::Tensor conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight,
    int64_t stride_h, int64_t stride_w, int64_t pad_h, int64_t pad_w)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expect 4-D input and weight");
    const int64_t n = x.size(0);
    const int64_t h = x.size(2);
    const int64_t w = x.size(3);
    const int64_t c_out = weight.size(1);
    const int64_t kh = weight.size(2);
    const int64_t kw = weight.size(3);
    const int64_t oh = (h - 1) * stride_h - 2 * pad_h + kh;
    const int64_t ow = (w - 1) * stride_w - 2 * pad_w + kw;
    at::Tensor y = at::empty({n, c_out, oh, ow}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    EXEC_NPU_CMD(aclnnConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustom,
                 xc, wc, stride_h, stride_w, pad_h, pad_w, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded_custom",
           &conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded_custom",
          &conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded_custom_impl_npu,
          "ConvTranspose2d (no bias) on AscendC");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple,
                 stride: tuple = (1, 1), padding: tuple = (0, 0), bias: bool = False):
        super().__init__()
        # keep the torch module only as a parameter holder (same init as the reference)
        self.conv_transpose2d = torch.nn.ConvTranspose2d(in_channels, out_channels, kernel_size,
                                                         stride=stride, padding=padding, bias=bias)
        self.stride = stride
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = custom_ops_lib.conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded_custom(
            x, self.conv_transpose2d.weight,
            self.stride[0], self.stride[1], self.padding[0], self.padding[1])
        if self.conv_transpose2d.bias is not None:
            y = y + self.conv_transpose2d.bias.view(1, -1, 1, 1)
        return y
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, c_in);
  TILING_DATA_FIELD_DEF(uint32_t, c_out);
  TILING_DATA_FIELD_DEF(uint32_t, ih);
  TILING_DATA_FIELD_DEF(uint32_t, iw);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, ow_al);     // ow rounded up to 8 floats (32B)
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, sh);
  TILING_DATA_FIELD_DEF(uint32_t, sw);
  TILING_DATA_FIELD_DEF(uint32_t, ph);
  TILING_DATA_FIELD_DEF(uint32_t, pw);
  TILING_DATA_FIELD_DEF(uint32_t, co_tile);   // output channels accumulated together in UB
  TILING_DATA_FIELD_DEF(uint32_t, co_grp);    // ceil(c_out / co_tile)
  TILING_DATA_FIELD_DEF(uint32_t, task_num);  // n * oh * co_grp
  TILING_DATA_FIELD_DEF(uint32_t, blk_num);
  TILING_DATA_FIELD_DEF(uint32_t, fast_path); // 1: stride 1 vector path
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustom,
                           ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transposed2d_asymmetric_input_asymmetric_kernel_padded_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// UB budget for the accumulator block (co_tile * ow_al floats)
constexpr uint32_t ACC_BYTES = 96 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustomTilingData td;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    const auto* attrs = context->GetAttrs();
    uint32_t sh = static_cast<uint32_t>(*attrs->GetInt(0));
    uint32_t sw = static_cast<uint32_t>(*attrs->GetInt(1));
    uint32_t ph = static_cast<uint32_t>(*attrs->GetInt(2));
    uint32_t pw = static_cast<uint32_t>(*attrs->GetInt(3));

    uint32_t n = xs.GetDim(0), c_in = xs.GetDim(1), ih = xs.GetDim(2), iw = xs.GetDim(3);
    uint32_t c_out = ws.GetDim(1), kh = ws.GetDim(2), kw = ws.GetDim(3);
    uint32_t oh = (ih - 1) * sh + kh - 2 * ph;
    uint32_t ow = (iw - 1) * sw + kw - 2 * pw;
    uint32_t ow_al = (ow + 7) / 8 * 8;

    uint32_t co_tile = ACC_BYTES / (ow_al * sizeof(float));
    if (co_tile == 0) co_tile = 1;
    if (co_tile > c_out) co_tile = c_out;
    if (co_tile > 32) co_tile = 32;
    uint32_t co_grp = (c_out + co_tile - 1) / co_tile;
    uint32_t task_num = n * oh * co_grp;

    // left zero padding of a shifted row is done by DataCopyPad, which can pad at most 32B
    uint32_t fast = (sh == 1 && sw == 1 && (kw - 1 >= pw ? kw - 1 - pw : 0) <= 8) ? 1 : 0;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blk_num = plat.GetCoreNumAiv();
    if (blk_num == 0) blk_num = 1;
    if (blk_num > task_num) blk_num = task_num;

    td.set_n(n); td.set_c_in(c_in); td.set_c_out(c_out);
    td.set_ih(ih); td.set_iw(iw); td.set_oh(oh); td.set_ow(ow); td.set_ow_al(ow_al);
    td.set_kh(kh); td.set_kw(kw); td.set_sh(sh); td.set_sw(sw); td.set_ph(ph); td.set_pw(pw);
    td.set_co_tile(co_tile); td.set_co_grp(co_grp); td.set_task_num(task_num);
    td.set_blk_num(blk_num); td.set_fast_path(fast);

    context->SetBlockDim(blk_num);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws_size = context->GetWorkspaceSizes(1);
    ws_size[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    const auto* attrs = context->GetAttrs();
    int64_t sh = *attrs->GetInt(0), sw = *attrs->GetInt(1);
    int64_t ph = *attrs->GetInt(2), pw = *attrs->GetInt(3);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    ys->SetDim(2, (xs->GetDim(2) - 1) * sh - 2 * ph + ws->GetDim(2));
    ys->SetDim(3, (xs->GetDim(3) - 1) * sw - 2 * pw + ws->GetDim(3));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustom : public OpDef {
public:
    explicit ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustom(const char* name) : OpDef(name)
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
        this->Attr("stride_h").AttrType(REQUIRED).Int();
        this->Attr("stride_w").AttrType(REQUIRED).Int();
        this->Attr("pad_h").AttrType(REQUIRED).Int();
        this->Attr("pad_w").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUF_NUM = 2;

// Transposed conv written in "gather" form:
//   y[n, co, oh, ow] = sum_{ci, kh, kw} x[n, ci, oh + ph - kh, ow + pw - kw] * w[ci, co, kh, kw]
// (valid for stride 1). One task = one output row (n, oh) for a group of co_tile channels.
// For every (ci, kh, kw) the shifted input row is loaded straight from GM into an aligned UB
// buffer (left zero padding through DataCopyPad) and accumulated with Axpy into all co rows.
class ConvTransposeRowKernel {
public:
    __aicore__ inline ConvTransposeRowKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustomTilingData& t)
    {
        n_ = t.n; c_in_ = t.c_in; c_out_ = t.c_out; ih_ = t.ih; iw_ = t.iw; oh_ = t.oh; ow_ = t.ow;
        ow_al_ = t.ow_al; kh_ = t.kh; kw_ = t.kw; sh_ = t.sh; sw_ = t.sw; ph_ = t.ph; pw_ = t.pw;
        co_tile_ = t.co_tile; co_grp_ = t.co_grp; task_num_ = t.task_num; blk_num_ = t.blk_num;
        kk_ = kh_ * kw_;
        w_slab_al_ = (co_tile_ * kk_ + 7) / 8 * 8;

        x_gm_.SetGlobalBuffer((__gm__ float*)x);
        w_gm_.SetGlobalBuffer((__gm__ float*)w);
        y_gm_.SetGlobalBuffer((__gm__ float*)y);

        pipe_.InitBuffer(x_q_, BUF_NUM, (ow_al_ + 8) * sizeof(float));
        pipe_.InitBuffer(w_q_, 1, w_slab_al_ * sizeof(float));
        pipe_.InitBuffer(acc_q_, 1, co_tile_ * ow_al_ * sizeof(float));
    }

    __aicore__ inline void Process(uint32_t fast)
    {
        for (uint32_t task = GetBlockIdx(); task < task_num_; task += blk_num_) {
            uint32_t cg = task % co_grp_;
            uint32_t row = task / co_grp_;
            uint32_t oh = row % oh_;
            uint32_t b = row / oh_;
            uint32_t co0 = cg * co_tile_;
            uint32_t ct = (co0 + co_tile_ <= c_out_) ? co_tile_ : (c_out_ - co0);
            if (fast) {
                RowFast(b, oh, co0, ct);
            } else {
                RowScalar(b, oh, co0, ct);
            }
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t ci, uint32_t co0, uint32_t ct)
    {
        // w[ci, co0:co0+ct, :, :] is one contiguous run
        LocalTensor<float> wl = w_q_.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(ct * kk_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(wl, w_gm_[((uint64_t)ci * c_out_ + co0) * kk_], cp, pad);
        w_q_.EnQue(wl);
    }

    __aicore__ inline void RowFast(uint32_t b, uint32_t oh, uint32_t co0, uint32_t ct)
    {
        LocalTensor<float> acc = acc_q_.AllocTensor<float>();
        Duplicate(acc, 0.0f, ct * ow_al_);

        for (uint32_t ci = 0; ci < c_in_; ++ci) {
            LoadWeights(ci, co0, ct);
            LocalTensor<float> wl = w_q_.DeQue<float>();
            // the weights are read as scalars below
            event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(ev);
            WaitFlag<HardEvent::MTE2_S>(ev);

            uint64_t plane = ((uint64_t)b * c_in_ + ci) * ih_ * iw_;
            for (uint32_t r = 0; r < kh_; ++r) {
                int32_t ih = (int32_t)oh + (int32_t)ph_ - (int32_t)r;
                if (ih < 0 || ih >= (int32_t)ih_) continue;
                for (uint32_t s = 0; s < kw_; ++s) {
                    // iw = ow + shift
                    int32_t shift = (int32_t)pw_ - (int32_t)s;
                    int32_t lo = shift < 0 ? -shift : 0;
                    int32_t hi = (int32_t)iw_ - shift;
                    if (hi > (int32_t)ow_) hi = (int32_t)ow_;
                    if (hi <= lo) continue;

                    LocalTensor<float> xl = x_q_.AllocTensor<float>();
                    DataCopyExtParams cp{1, static_cast<uint32_t>((hi - lo) * sizeof(float)), 0, 0, 0};
                    DataCopyPadExtParams<float> pad{true, static_cast<uint8_t>(lo), 0, 0.0f};
                    DataCopyPad(xl, x_gm_[plane + (uint64_t)ih * iw_ + (uint32_t)(lo + shift)], cp, pad);
                    x_q_.EnQue(xl);
                    xl = x_q_.DeQue<float>();

                    for (uint32_t c = 0; c < ct; ++c) {
                        float wv = wl.GetValue(c * kk_ + r * kw_ + s);
                        Axpy(acc[c * ow_al_], xl, wv, static_cast<uint32_t>(hi));
                    }
                    x_q_.FreeTensor(xl);
                }
            }
            w_q_.FreeTensor(wl);
        }

        acc_q_.EnQue(acc);
        acc = acc_q_.DeQue<float>();
        // ct rows of ow floats; consecutive channels are oh*ow apart in GM
        DataCopyExtParams out{static_cast<uint16_t>(ct), static_cast<uint32_t>(ow_ * sizeof(float)),
                              static_cast<uint32_t>((ow_al_ - ow_) / 8),
                              static_cast<uint32_t>((oh_ - 1) * ow_ * sizeof(float)), 0};
        DataCopyPad(y_gm_[(((uint64_t)b * c_out_ + co0) * oh_ + oh) * ow_], acc, out);
        acc_q_.FreeTensor(acc);
    }

    // generic stride: scatter-free scalar reference path (only used when stride != 1)
    __aicore__ inline void RowScalar(uint32_t b, uint32_t oh, uint32_t co0, uint32_t ct)
    {
        LocalTensor<float> acc = acc_q_.AllocTensor<float>();
        Duplicate(acc, 0.0f, ct * ow_al_);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t c = 0; c < ct; ++c) {
            for (uint32_t o = 0; o < ow_; ++o) {
                float sum = 0.0f;
                for (uint32_t r = 0; r < kh_; ++r) {
                    int32_t th = (int32_t)oh + (int32_t)ph_ - (int32_t)r;
                    if (th < 0 || th % (int32_t)sh_ != 0) continue;
                    int32_t ih = th / (int32_t)sh_;
                    if (ih >= (int32_t)ih_) continue;
                    for (uint32_t s = 0; s < kw_; ++s) {
                        int32_t tw = (int32_t)o + (int32_t)pw_ - (int32_t)s;
                        if (tw < 0 || tw % (int32_t)sw_ != 0) continue;
                        int32_t iw = tw / (int32_t)sw_;
                        if (iw >= (int32_t)iw_) continue;
                        for (uint32_t ci = 0; ci < c_in_; ++ci) {
                            float xv = x_gm_.GetValue((((uint64_t)b * c_in_ + ci) * ih_ + ih) * iw_ + iw);
                            float wv = w_gm_.GetValue((((uint64_t)ci * c_out_ + co0 + c) * kh_ + r) * kw_ + s);
                            sum += xv * wv;
                        }
                    }
                }
                acc.SetValue(c * ow_al_ + o, sum);
            }
        }
        PipeBarrier<PIPE_ALL>();
        DataCopyExtParams out{static_cast<uint16_t>(ct), static_cast<uint32_t>(ow_ * sizeof(float)),
                              static_cast<uint32_t>((ow_al_ - ow_) / 8),
                              static_cast<uint32_t>((oh_ - 1) * ow_ * sizeof(float)), 0};
        DataCopyPad(y_gm_[(((uint64_t)b * c_out_ + co0) * oh_ + oh) * ow_], acc, out);
        PipeBarrier<PIPE_ALL>();
        acc_q_.FreeTensor(acc);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_NUM> x_q_;
    TQue<QuePosition::VECIN, 1> w_q_;
    TQue<QuePosition::VECOUT, 1> acc_q_;
    GlobalTensor<float> x_gm_, w_gm_, y_gm_;
    uint32_t n_, c_in_, c_out_, ih_, iw_, oh_, ow_, ow_al_;
    uint32_t kh_, kw_, sh_, sw_, ph_, pw_, kk_;
    uint32_t co_tile_, co_grp_, task_num_, blk_num_, w_slab_al_;
};

extern "C" __global__ __aicore__ void conv_transposed2d_asymmetric_input_asymmetric_kernel_padded_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ConvTransposeRowKernel op;
    op.Init(x, weight, y, td);
    op.Process(td.fast_path);
}
"""

project_json_src='''
[
    {
        "op": "ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustom",
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
            {"name": "stride_h", "param_type": "required", "type": "int"},
            {"name": "stride_w", "param_type": "required", "type": "int"},
            {"name": "pad_h", "param_type": "required", "type": "int"},
            {"name": "pad_w", "param_type": "required", "type": "int"}
        ]
    }
]
'''

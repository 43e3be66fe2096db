python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv3d runs through the stock NPU kernel; everything after it
// (divide -> maxpool3d(2) -> global avg pool -> + bias -> sum over channels) is one custom kernel
at::Tensor conv3d_divide_max_global_avg_pool_bias_add_sum_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& conv_w, const at::Tensor& conv_b,
    const at::Tensor& bias, double divisor)
{
    at::Tensor y = at::conv3d(x, conv_w, conv_b).contiguous();
    at::Tensor b = bias.reshape({-1}).contiguous();
    TORCH_CHECK(b.size(0) == y.size(1), "bias must have one value per output channel");
    at::Tensor out = at::empty({y.size(0), 1, 1, 1}, y.options());
    EXEC_NPU_CMD(aclnnConv3dDivideMaxGlobalAvgPoolBiasAddSumCustom, y, b, divisor, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv3d_divide_max_global_avg_pool_bias_add_sum_custom",
           &conv3d_divide_max_global_avg_pool_bias_add_sum_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv3d_divide_max_global_avg_pool_bias_add_sum_custom",
          &conv3d_divide_max_global_avg_pool_bias_add_sum_custom_impl_npu,
          "conv3d + /div + maxpool3d(2) + global avgpool + bias + sum(dim=1)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, divisor, pool_size, bias_shape, sum_dim):
        super().__init__()
        self.conv = torch.nn.Conv3d(in_channels, out_channels, kernel_size)
        self.divisor = divisor
        self.bias = torch.nn.Parameter(torch.randn(bias_shape))
        self.sum_dim = sum_dim

    def forward(self, x):
        return custom_ops_lib.conv3d_divide_max_global_avg_pool_bias_add_sum_custom(
            x, self.conv.weight, self.conv.bias, self.bias, float(self.divisor))
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n_batch);
  TILING_DATA_FIELD_DEF(uint32_t, c_out);
  TILING_DATA_FIELD_DEF(uint32_t, d_in);
  TILING_DATA_FIELD_DEF(uint32_t, h_in);
  TILING_DATA_FIELD_DEF(uint32_t, w_in);
  TILING_DATA_FIELD_DEF(uint32_t, w_pad);     // UB row pitch (16-aligned, so half of it is 8-aligned)
  TILING_DATA_FIELD_DEF(uint32_t, row_gap);   // extra 32B blocks after each copied row
  TILING_DATA_FIELD_DEF(uint32_t, d_out);
  TILING_DATA_FIELD_DEF(uint32_t, h_out);
  TILING_DATA_FIELD_DEF(uint32_t, w_out);
  TILING_DATA_FIELD_DEF(uint32_t, b_per_core);
  TILING_DATA_FIELD_DEF(float, scale);        // 1 / (divisor * d_out * h_out * w_out)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom,
                           Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustomTilingData)
}
"""

host_operator_src="""
#include "conv3d_divide_max_global_avg_pool_bias_add_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t round_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& ys = context->GetInputShape(0)->GetStorageShape();
    if (ys.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = ys.GetDim(0), c = ys.GetDim(1), d = ys.GetDim(2), h = ys.GetDim(3), w = ys.GetDim(4);
    float divisor = *(context->GetAttrs()->GetAttrPointer<float>(0));

    // MaxPool3d(kernel=2, stride=2), floor mode
    uint32_t od = d / 2, oh = h / 2, ow = w / 2;
    // one WholeReduceSum repeat per pooled row: needs ow <= 64 and oh <= 255
    if (od == 0 || oh == 0 || ow == 0 || ow > 64 || oh > 255) {
        return ge::GRAPH_FAILED;
    }
    uint32_t w_pad = round_up(w, 16);
    uint32_t row_gap = (w_pad - round_up(w, 8)) / 8;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    uint32_t b_per_core = (n + cores - 1) / cores;
    uint32_t used = (n + b_per_core - 1) / b_per_core;

    Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustomTilingData td;
    td.set_n_batch(n);
    td.set_c_out(c);
    td.set_d_in(d);
    td.set_h_in(h);
    td.set_w_in(w);
    td.set_w_pad(w_pad);
    td.set_row_gap(row_gap);
    td.set_d_out(od);
    td.set_h_out(oh);
    td.set_w_out(ow);
    td.set_b_per_core(b_per_core);
    td.set_scale(1.0f / (divisor * static_cast<float>(od * oh * ow)));

    context->SetBlockDim(used);
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
    const gert::Shape* ys = context->GetInputShape(0);
    gert::Shape* os = context->GetOutputShape(0);
    os->SetDimNum(4);
    os->SetDim(0, ys->GetDim(0));
    os->SetDim(1, 1);
    os->SetDim(2, 1);
    os->SetDim(3, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom : public OpDef {
public:
    explicit Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom(const char* name) : OpDef(name)
    {
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("divisor").AttrType(OPTIONAL).Float(2.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Work split: every core owns a contiguous range of batch items. For one (n, c) the
// conv output volume is walked two depth slices at a time:
//   depth max  -> Max of the two slices
//   height max -> Max of row pairs
//   width max  -> GatherMask even / odd columns, Max
//   sum        -> WholeReduceSum over the valid ow columns of every row, ReduceSum over rows
// Max pooling commutes with the (positive) divisor, so the division is folded into `scale`.
class KernelConv3dPoolSum {
public:
    __aicore__ inline KernelConv3dPoolSum() {}

    __aicore__ inline void Init(GM_ADDR y, GM_ADDR bias, GM_ADDR out,
                                const Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustomTilingData& td)
    {
        n_batch = td.n_batch; c_out = td.c_out; d_in = td.d_in; h_in = td.h_in; w_in = td.w_in;
        w_pad = td.w_pad; row_gap = td.row_gap;
        d_out = td.d_out; h_out = td.h_out; w_out = td.w_out;
        scale = td.scale;

        b_start = GetBlockIdx() * td.b_per_core;
        b_cnt = 0;
        if (b_start < n_batch) {
            b_cnt = (n_batch - b_start) < td.b_per_core ? (n_batch - b_start) : td.b_per_core;
        }

        plane = h_in * w_in;
        y_gm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(n_batch) * c_out * d_in * plane);
        bias_gm.SetGlobalBuffer((__gm__ float*)bias, c_out);
        out_gm.SetGlobalBuffer((__gm__ float*)out, n_batch);

        slice_len = h_in * w_pad;                              // one padded depth slice in UB
        uint32_t hrow_len = (h_out * w_pad + 63) / 64 * 64;   // GatherMask works on 64-float repeats
        half_len = hrow_len / 2;

        pipe.InitBuffer(in_q, BUFFER_NUM, 2 * slice_len * sizeof(float));
        pipe.InitBuffer(dmax_buf, slice_len * sizeof(float));
        pipe.InitBuffer(hmax_buf, hrow_len * sizeof(float));
        pipe.InitBuffer(even_buf, half_len * sizeof(float));
        pipe.InitBuffer(odd_buf, half_len * sizeof(float));
        pipe.InitBuffer(rsum_buf, ((h_out + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(red_buf, 64 * sizeof(float));
        pipe.InitBuffer(work_buf, 256 * sizeof(float));
        pipe.InitBuffer(res_buf, ((td.b_per_core + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (b_cnt == 0) {
            return;
        }
        LocalTensor<float> res = res_buf.Get<float>();
        for (uint32_t i = 0; i < b_cnt; i++) {
            uint32_t n = b_start + i;
            float acc = 0.0f;
            for (uint32_t c = 0; c < c_out; c++) {
                float plane_sum = 0.0f;
                for (uint32_t od = 0; od < d_out; od++) {
                    copy_in(n, c, od);
                    plane_sum += pool_slice();
                }
                // mean of the pooled volume / divisor, then the per-channel bias
                acc += plane_sum * scale + bias_gm.GetValue(c);
            }
            res.SetValue(i, acc);
        }
        event_t ev_s_mte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(ev_s_mte3);
        WaitFlag<HardEvent::S_MTE3>(ev_s_mte3);
        DataCopyExtParams cp{1, static_cast<uint32_t>(b_cnt * sizeof(float)), 0, 0, 0};
        DataCopyPad(out_gm[b_start], res, cp);
    }

private:
    // bring depth slices 2*od and 2*od+1 (contiguous in GM) into UB, each row padded to w_pad
    __aicore__ inline void copy_in(uint32_t n, uint32_t c, uint32_t od)
    {
        LocalTensor<float> buf = in_q.AllocTensor<float>();
        uint64_t off = ((static_cast<uint64_t>(n) * c_out + c) * d_in + 2 * od) * plane;
        DataCopyExtParams cp{static_cast<uint16_t>(2 * h_in), static_cast<uint32_t>(w_in * sizeof(float)),
                             0, row_gap, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(buf, y_gm[off], cp, pad);
        in_q.EnQue(buf);
    }

    // returns the sum of the 2x2x2 max-pooled values of this depth pair
    __aicore__ inline float pool_slice()
    {
        LocalTensor<float> buf = in_q.DeQue<float>();
        LocalTensor<float> dmax = dmax_buf.Get<float>();
        LocalTensor<float> hmax = hmax_buf.Get<float>();
        LocalTensor<float> ev = even_buf.Get<float>();
        LocalTensor<float> odd = odd_buf.Get<float>();
        LocalTensor<float> rsum = rsum_buf.Get<float>();
        LocalTensor<float> red = red_buf.Get<float>();
        LocalTensor<float> work = work_buf.Get<float>();

        // depth
        Max(dmax, buf, buf[slice_len], slice_len);
        in_q.FreeTensor(buf);

        // height
        for (uint32_t oh = 0; oh < h_out; oh++) {
            Max(hmax[oh * w_pad], dmax[2 * oh * w_pad], dmax[(2 * oh + 1) * w_pad], w_pad);
        }

        // width: split even / odd columns, each row shrinks to w_pad / 2
        uint64_t kept = 0;
        uint8_t reps = static_cast<uint8_t>(half_len * 2 / 64);
        GatherMask(ev, hmax, static_cast<uint8_t>(1), false, 0, {1, reps, 8, 0}, kept);
        GatherMask(odd, hmax, static_cast<uint8_t>(2), false, 0, {1, reps, 8, 0}, kept);
        uint32_t half_row = w_pad / 2;
        Max(ev, ev, odd, h_out * half_row);

        // only the first w_out columns of every row are real pooled values
        WholeReduceSum(rsum, ev, static_cast<int32_t>(w_out), static_cast<int32_t>(h_out),
                       1, 1, static_cast<int32_t>(half_row / 8));
        ReduceSum(red, rsum, work, static_cast<int32_t>(h_out));

        event_t ev_v_s = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev_v_s);
        WaitFlag<HardEvent::V_S>(ev_v_s);
        return red.GetValue(0);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> in_q;
    TBuf<QuePosition::VECCALC> dmax_buf, hmax_buf, even_buf, odd_buf, rsum_buf, red_buf, work_buf, res_buf;
    GlobalTensor<float> y_gm, bias_gm, out_gm;

    uint32_t n_batch, c_out, d_in, h_in, w_in, w_pad, row_gap;
    uint32_t d_out, h_out, w_out;
    uint32_t b_start, b_cnt;
    uint32_t plane, slice_len, half_len;
    float scale;
};

extern "C" __global__ __aicore__ void conv3d_divide_max_global_avg_pool_bias_add_sum_custom(
    GM_ADDR y, GM_ADDR bias, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConv3dPoolSum op;
    op.Init(y, bias, out, td);
    op.Process();
}
"""

project_json_src='''
[
    {
        "op": "Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "divisor", "param_type": "optional", "type": "float", "default_value": "2.0"}
        ]
    }
]
'''

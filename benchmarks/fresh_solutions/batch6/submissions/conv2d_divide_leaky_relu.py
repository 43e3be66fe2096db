python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// The convolution itself (without bias) runs on the built-in cube kernel; the custom op fuses
// the per-channel bias add, the division and the LeakyReLU into a single pass over the output.
at::Tensor conv2d_divide_leaky_relu_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                    const at::Tensor& conv_bias, double divisor,
                                                    double negative_slope)
{
    at::Tensor y = at::conv2d(x, weight).contiguous();
    at::Tensor b = conv_bias.contiguous();
    at::Tensor out = at::empty_like(y);
    EXEC_NPU_CMD(aclnnConv2dDivideLeakyReluCustom, y, b, divisor, negative_slope, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_divide_leaky_relu_custom", &conv2d_divide_leaky_relu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_divide_leaky_relu_custom", &conv2d_divide_leaky_relu_custom_impl_npu,
          "conv2d + bias, / divisor, leaky_relu");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, divisor):
        super().__init__()
        self.conv = torch.nn.Conv2d(in_channels, out_channels, kernel_size)
        self.divisor = divisor

    def forward(self, x):
        return custom_ops_lib.conv2d_divide_leaky_relu_custom(
            x, self.conv.weight, self.conv.bias, float(self.divisor), 0.01)
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dDivideLeakyReluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, c_out);
  TILING_DATA_FIELD_DEF(uint32_t, plane_num);     // N * C_out
  TILING_DATA_FIELD_DEF(uint32_t, hw);            // H_out * W_out
  TILING_DATA_FIELD_DEF(uint32_t, pl_per_core);
  TILING_DATA_FIELD_DEF(uint32_t, tile_len);
  TILING_DATA_FIELD_DEF(float, inv_div);
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
constexpr uint32_t TILE_CAP = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = s.GetDim(0), c = s.GetDim(1);
    uint32_t hw = s.GetDim(2) * s.GetDim(3);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    float divisor = *(attrs->GetAttrPointer<float>(0));
    float slope = *(attrs->GetAttrPointer<float>(1));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    uint32_t planes = n * c;
    uint32_t per_core = (planes + cores - 1) / cores;
    uint32_t used = (planes + per_core - 1) / per_core;

    uint32_t hw_al = (hw + 7) / 8 * 8;
    Conv2dDivideLeakyReluCustomTilingData td;
    td.set_c_out(c);
    td.set_plane_num(planes);
    td.set_hw(hw);
    td.set_pl_per_core(per_core);
    td.set_tile_len(hw_al < TILE_CAP ? hw_al : TILE_CAP);
    td.set_inv_div(1.0f / divisor);
    td.set_slope(slope);

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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
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
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);

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

class KernelBiasDivLeaky {
public:
    __aicore__ inline KernelBiasDivLeaky() {}

    __aicore__ inline void Init(GM_ADDR y, GM_ADDR bias, GM_ADDR out, uint32_t c_out, uint32_t plane_num,
                                uint32_t hw, uint32_t pl_per_core, uint32_t tile_len, float inv_div, float slope)
    {
        this->c_out = c_out;
        this->hw = hw;
        this->tile_len = tile_len;
        this->inv_div = inv_div;
        this->slope = slope;

        pl_first = GetBlockIdx() * pl_per_core;
        pl_cnt = 0;
        if (pl_first < plane_num) {
            pl_cnt = (plane_num - pl_first) < pl_per_core ? (plane_num - pl_first) : pl_per_core;
        }

        uint64_t base = static_cast<uint64_t>(pl_first) * hw;
        y_gm.SetGlobalBuffer((__gm__ float*)y + base, static_cast<uint64_t>(pl_cnt) * hw);
        o_gm.SetGlobalBuffer((__gm__ float*)out + base, static_cast<uint64_t>(pl_cnt) * hw);
        b_gm.SetGlobalBuffer((__gm__ float*)bias, c_out);

        pipe.InitBuffer(in_q, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(out_q, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(bias_buf, ((c_out + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (pl_cnt == 0) {
            return;
        }
        load_bias();
        LocalTensor<float> b_loc = bias_buf.Get<float>();
        uint32_t n_tiles = (hw + tile_len - 1) / tile_len;
        for (uint32_t p = 0; p < pl_cnt; p++) {
            // conv bias pre-scaled by 1/divisor: (y + b) / d = y / d + b / d
            float b_scaled = b_loc.GetValue((pl_first + p) % c_out) * inv_div;
            for (uint32_t t = 0; t < n_tiles; t++) {
                uint64_t off = static_cast<uint64_t>(p) * hw + t * tile_len;
                uint32_t cnt = (hw - t * tile_len) < tile_len ? (hw - t * tile_len) : tile_len;
                copy_in(off, cnt);
                compute(cnt, b_scaled);
                copy_out(off, cnt);
            }
        }
    }

private:
    __aicore__ inline void load_bias()
    {
        LocalTensor<float> b_loc = bias_buf.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(c_out * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(b_loc, b_gm, cp, pad);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void copy_in(uint64_t off, uint32_t cnt)
    {
        LocalTensor<float> x = in_q.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(x, y_gm[off], cp, pad);
        in_q.EnQue(x);
    }

    __aicore__ inline void compute(uint32_t cnt, float b_scaled)
    {
        LocalTensor<float> x = in_q.DeQue<float>();
        LocalTensor<float> y = out_q.AllocTensor<float>();
        Muls(x, x, inv_div, cnt);
        Adds(x, x, b_scaled, cnt);
        LeakyRelu(y, x, slope, cnt);
        out_q.EnQue(y);
        in_q.FreeTensor(x);
    }

    __aicore__ inline void copy_out(uint64_t off, uint32_t cnt)
    {
        LocalTensor<float> y = out_q.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        DataCopyPad(o_gm[off], y, cp);
        out_q.FreeTensor(y);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> in_q;
    TQue<QuePosition::VECOUT, BUFFER_NUM> out_q;
    TBuf<QuePosition::VECCALC> bias_buf;
    GlobalTensor<float> y_gm, o_gm, b_gm;
    uint32_t c_out, hw, tile_len, pl_first, pl_cnt;
    float inv_div, slope;
};

extern "C" __global__ __aicore__ void conv2d_divide_leaky_relu_custom(GM_ADDR y, GM_ADDR bias, GM_ADDR out,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelBiasDivLeaky op;
    op.Init(y, bias, out, td.c_out, td.plane_num, td.hw, td.pl_per_core, td.tile_len, td.inv_div, td.slope);
    op.Process();
}
"""

project_json_src='''
[
    {
        "op": "Conv2dDivideLeakyReluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "divisor", "param_type": "optional", "type": "float", "default_value": "2.0"},
            {"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.01"}
        ]
    }
]
'''

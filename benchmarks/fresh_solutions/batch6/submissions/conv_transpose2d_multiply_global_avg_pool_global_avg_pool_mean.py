python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// ConvTranspose2d via aten; the custom kernel fuses  * multiplier  and both global average pools
// (the second mean over a 1x1 map is the identity, so one spatial mean per (n, c) is enough).
at::Tensor conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& conv_bias,
    int64_t stride, int64_t padding, int64_t output_padding, double multiplier)
{
    at::Tensor y = at::conv_transpose2d(x, weight, conv_bias, {stride, stride}, {padding, padding},
                                        {output_padding, output_padding}).contiguous();
    at::Tensor out = at::empty({y.size(0), y.size(1), 1, 1}, y.options());
    EXEC_NPU_CMD(aclnnConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustom, y, multiplier, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_custom",
           &conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_custom",
          &conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_custom_impl_npu,
          "conv_transpose2d * multiplier, then mean over H, W (twice)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, multiplier):
        super().__init__()
        self.conv_transpose = torch.nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride,
                                                       padding=padding, output_padding=output_padding)
        self.stride = stride
        self.padding = padding
        self.output_padding = output_padding
        self.multiplier = multiplier

    def forward(self, x):
        return custom_ops_lib.conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_custom(
            x, self.conv_transpose.weight, self.conv_transpose.bias,
            self.stride, self.padding, self.output_padding, float(self.multiplier))
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, plane_num);    // N * C
  TILING_DATA_FIELD_DEF(uint32_t, plane_len);    // H * W
  TILING_DATA_FIELD_DEF(uint32_t, plane_per_core);
  TILING_DATA_FIELD_DEF(uint32_t, tile_len);
  TILING_DATA_FIELD_DEF(float, scale);           // multiplier / (H * W)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustom,
                           ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 8192;   // 32KB per buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    uint32_t nc = s.GetDim(0) * s.GetDim(1);
    uint32_t hw = s.GetDim(2) * s.GetDim(3);
    float mult = *(context->GetAttrs()->GetAttrPointer<float>(0));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    uint32_t per_core = (nc + cores - 1) / cores;
    uint32_t used = (nc + per_core - 1) / per_core;

    uint32_t hw_al = (hw + 7) / 8 * 8;
    uint32_t tile_len = hw_al < MAX_TILE ? hw_al : MAX_TILE;

    ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustomTilingData td;
    td.set_plane_num(nc);
    td.set_plane_len(hw);
    td.set_plane_per_core(per_core);
    td.set_tile_len(tile_len);
    td.set_scale(mult / static_cast<float>(hw));

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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(4);
    out->SetDim(0, in->GetDim(0));
    out->SetDim(1, in->GetDim(1));
    out->SetDim(2, 1);
    out->SetDim(3, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustom : public OpDef {
public:
    explicit ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustom(const char* name) : OpDef(name)
    {
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("multiplier").AttrType(OPTIONAL).Float(0.5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelScaledPlaneMean {
public:
    __aicore__ inline KernelScaledPlaneMean() {}

    __aicore__ inline void Init(GM_ADDR y, GM_ADDR out, uint32_t plane_num, uint32_t plane_len,
                                uint32_t plane_per_core, uint32_t tile_len, float scale)
    {
        this->plane_len = plane_len;
        this->tile_len = tile_len;
        this->scale = scale;
        p_first = GetBlockIdx() * plane_per_core;
        p_cnt = 0;
        if (p_first < plane_num) {
            p_cnt = (plane_num - p_first) < plane_per_core ? (plane_num - p_first) : plane_per_core;
        }

        y_gm.SetGlobalBuffer((__gm__ float*)y + static_cast<uint64_t>(p_first) * plane_len,
                             static_cast<uint64_t>(p_cnt) * plane_len);
        o_gm.SetGlobalBuffer((__gm__ float*)out + p_first, p_cnt);

        pipe.InitBuffer(in_q, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(acc_buf, tile_len * sizeof(float));
        pipe.InitBuffer(red_buf, 8 * sizeof(float));
        pipe.InitBuffer(work_buf, tile_len * sizeof(float));
        pipe.InitBuffer(res_buf, ((plane_per_core + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (p_cnt == 0) {
            return;
        }
        LocalTensor<float> res = res_buf.Get<float>();
        uint32_t n_tiles = (plane_len + tile_len - 1) / tile_len;
        for (uint32_t p = 0; p < p_cnt; p++) {
            LocalTensor<float> acc = acc_buf.Get<float>();
            Duplicate(acc, 0.0f, tile_len);
            for (uint32_t t = 0; t < n_tiles; t++) {
                uint32_t off = t * tile_len;
                uint32_t cnt = (plane_len - off) < tile_len ? (plane_len - off) : tile_len;
                copy_in(static_cast<uint64_t>(p) * plane_len + off, cnt);
                accumulate(acc, cnt);
            }
            res.SetValue(p, reduce_plane(acc));
        }
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(e);
        WaitFlag<HardEvent::S_MTE3>(e);
        DataCopyExtParams cp{1, static_cast<uint32_t>(p_cnt * sizeof(float)), 0, 0, 0};
        DataCopyPad(o_gm, res, cp);
    }

private:
    __aicore__ inline void copy_in(uint64_t off, uint32_t cnt)
    {
        LocalTensor<float> x = in_q.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        // zero padding so a partial last tile can be summed over the whole tile
        uint8_t rpad = static_cast<uint8_t>(((cnt + 7) / 8 * 8) - cnt);
        DataCopyPadExtParams<float> pad{rpad != 0, 0, rpad, 0.0f};
        DataCopyPad(x, y_gm[off], cp, pad);
        in_q.EnQue(x);
    }

    __aicore__ inline void accumulate(LocalTensor<float>& acc, uint32_t cnt)
    {
        LocalTensor<float> x = in_q.DeQue<float>();
        Add(acc, acc, x, (cnt + 7) / 8 * 8);
        in_q.FreeTensor(x);
    }

    __aicore__ inline float reduce_plane(LocalTensor<float>& acc)
    {
        LocalTensor<float> red = red_buf.Get<float>();
        LocalTensor<float> work = work_buf.Get<float>();
        ReduceSum(red, acc, work, tile_len);
        Muls(red, red, scale, 1);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return red.GetValue(0);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> in_q;
    TBuf<QuePosition::VECCALC> acc_buf, red_buf, work_buf, res_buf;
    GlobalTensor<float> y_gm, o_gm;
    uint32_t plane_len, tile_len, p_first, p_cnt;
    float scale;
};

extern "C" __global__ __aicore__ void conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_custom(
    GM_ADDR y, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelScaledPlaneMean op;
    op.Init(y, out, td.plane_num, td.plane_len, td.plane_per_core, td.tile_len, td.scale);
    op.Process();
}
"""

project_json_src='''
[
    {
        "op": "ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "multiplier", "param_type": "optional", "type": "float", "default_value": "0.5"}
        ]
    }
]
'''

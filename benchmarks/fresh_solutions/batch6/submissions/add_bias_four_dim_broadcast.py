python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// out[n, c, h, w] = x[n, c, h, w] + bias[c]
at::Tensor add_bias_four_dim_broadcast_custom_impl_npu(const at::Tensor& x, const at::Tensor& bias)
{
    TORCH_CHECK(x.dim() == 4, "x must be 4-D (N, C, H, W)");
    TORCH_CHECK(bias.numel() == x.size(1), "bias must have C elements");
    at::Tensor xc = x.contiguous();
    at::Tensor bc = bias.reshape({-1}).contiguous();
    at::Tensor out = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnAddBiasFourDimBroadcastCustom, xc, bc, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("add_bias_four_dim_broadcast_custom", &add_bias_four_dim_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("add_bias_four_dim_broadcast_custom", &add_bias_four_dim_broadcast_custom_impl_npu,
          "x + bias.view(1, -1, 1, 1)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, bias):
        return custom_ops_lib.add_bias_four_dim_broadcast_custom(x, bias)
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddBiasFourDimBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, c_ch);
  TILING_DATA_FIELD_DEF(uint32_t, pl_total);    // N * C planes
  TILING_DATA_FIELD_DEF(uint32_t, hw);          // plane size
  TILING_DATA_FIELD_DEF(uint32_t, pl_per_core);
  TILING_DATA_FIELD_DEF(uint32_t, grp);         // planes per UB tile (1 => plane is chunked)
  TILING_DATA_FIELD_DEF(uint32_t, chunk);       // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddBiasFourDimBroadcastCustom, AddBiasFourDimBroadcastCustomTilingData)
}
"""

host_operator_src="""
#include "add_bias_four_dim_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t UB_TILE = 12288;   // floats per tile (48KB), double-buffered in and out

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1);
    uint32_t hw = xs.GetDim(2) * xs.GetDim(3);
    uint32_t planes = n * c;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    uint32_t per_core = (planes + cores - 1) / cores;
    uint32_t used = (planes + per_core - 1) / per_core;

    // several whole planes share one tile when they are small and 32B aligned,
    // otherwise each plane is walked in chunks
    uint32_t grp = 1;
    uint32_t chunk = UB_TILE;
    if (hw % 8 == 0 && hw <= UB_TILE) {
        grp = UB_TILE / hw;
        if (grp > per_core) {
            grp = per_core;
        }
        chunk = grp * hw;
    } else if (hw < UB_TILE) {
        chunk = (hw + 7) / 8 * 8;
    }

    AddBiasFourDimBroadcastCustomTilingData td;
    td.set_c_ch(c);
    td.set_pl_total(planes);
    td.set_hw(hw);
    td.set_pl_per_core(per_core);
    td.set_grp(grp);
    td.set_chunk(chunk);

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
class AddBiasFourDimBroadcastCustom : public OpDef {
public:
    explicit AddBiasFourDimBroadcastCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
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

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AddBiasFourDimBroadcastCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelChannelBiasAdd {
public:
    __aicore__ inline KernelChannelBiasAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR out, uint32_t c_ch, uint32_t pl_total,
                                uint32_t hw, uint32_t pl_per_core, uint32_t grp, uint32_t chunk)
    {
        this->c_ch = c_ch;
        this->hw = hw;
        this->grp = grp;
        this->chunk = chunk;
        pl0 = GetBlockIdx() * pl_per_core;
        pl_cnt = 0;
        if (pl0 < pl_total) {
            pl_cnt = (pl_total - pl0) < pl_per_core ? (pl_total - pl0) : pl_per_core;
        }
        uint64_t base = static_cast<uint64_t>(pl0) * hw;
        x_gm.SetGlobalBuffer((__gm__ float*)x + base, static_cast<uint64_t>(pl_cnt) * hw);
        o_gm.SetGlobalBuffer((__gm__ float*)out + base, static_cast<uint64_t>(pl_cnt) * hw);
        b_gm.SetGlobalBuffer((__gm__ float*)bias, c_ch);

        pipe.InitBuffer(in_q, BUFFER_NUM, chunk * sizeof(float));
        pipe.InitBuffer(out_q, BUFFER_NUM, chunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (pl_cnt == 0) {
            return;
        }
        if (grp > 1) {
            // whole planes per tile
            for (uint32_t p = 0; p < pl_cnt; p += grp) {
                uint32_t np = (pl_cnt - p) < grp ? (pl_cnt - p) : grp;
                uint64_t off = static_cast<uint64_t>(p) * hw;
                copy_in(off, np * hw);
                add_planes(p, np);
                copy_out(off, np * hw);
            }
        } else {
            // one plane at a time, split into chunks
            for (uint32_t p = 0; p < pl_cnt; p++) {
                float bv = b_gm.GetValue((pl0 + p) % c_ch);
                for (uint32_t e = 0; e < hw; e += chunk) {
                    uint32_t cnt = (hw - e) < chunk ? (hw - e) : chunk;
                    uint64_t off = static_cast<uint64_t>(p) * hw + e;
                    copy_in(off, cnt);
                    add_scalar(bv, cnt);
                    copy_out(off, cnt);
                }
            }
        }
    }

private:
    __aicore__ inline void copy_in(uint64_t off, uint32_t cnt)
    {
        LocalTensor<float> xl = in_q.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xl, x_gm[off], cp, pad);
        in_q.EnQue(xl);
    }

    __aicore__ inline void add_planes(uint32_t p_first, uint32_t np)
    {
        LocalTensor<float> xl = in_q.DeQue<float>();
        LocalTensor<float> ol = out_q.AllocTensor<float>();
        for (uint32_t i = 0; i < np; i++) {
            float bv = b_gm.GetValue((pl0 + p_first + i) % c_ch);
            Adds(ol[i * hw], xl[i * hw], bv, hw);
        }
        out_q.EnQue(ol);
        in_q.FreeTensor(xl);
    }

    __aicore__ inline void add_scalar(float bv, uint32_t cnt)
    {
        LocalTensor<float> xl = in_q.DeQue<float>();
        LocalTensor<float> ol = out_q.AllocTensor<float>();
        Adds(ol, xl, bv, cnt);
        out_q.EnQue(ol);
        in_q.FreeTensor(xl);
    }

    __aicore__ inline void copy_out(uint64_t off, uint32_t cnt)
    {
        LocalTensor<float> ol = out_q.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        DataCopyPad(o_gm[off], ol, cp);
        out_q.FreeTensor(ol);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> in_q;
    TQue<QuePosition::VECOUT, BUFFER_NUM> out_q;
    GlobalTensor<float> x_gm, o_gm, b_gm;
    uint32_t c_ch, hw, grp, chunk, pl0, pl_cnt;
};

extern "C" __global__ __aicore__ void add_bias_four_dim_broadcast_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR out,
                                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelChannelBiasAdd op;
    op.Init(x, bias, out, td.c_ch, td.pl_total, td.hw, td.pl_per_core, td.grp, td.chunk);
    op.Process();
}
"""

project_json_src='''
[
    {
        "op": "AddBiasFourDimBroadcastCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

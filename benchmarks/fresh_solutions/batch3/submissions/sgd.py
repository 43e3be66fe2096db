python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// One fused pass: v' = momentum * v + g ; p' = p - lr * v'   (returns p')
at::Tensor sgd_custom_impl_npu(const at::Tensor& param, const at::Tensor& grad, const at::Tensor& velocity,
                               double momentum, double lr)
{
    at::Tensor out = at::empty_like(param);
    EXEC_NPU_CMD(aclnnSgdCustom, param, grad, velocity, momentum, lr, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("sgd_custom", &sgd_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("sgd_custom", &sgd_custom_impl_npu, "SGD with momentum step",
          pybind11::arg("param"), pybind11::arg("grad"), pybind11::arg("velocity"),
          pybind11::arg("momentum") = 0.9, pybind11::arg("lr") = 1e-2);
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, momentum=0.9, lr=1e-2):
        super().__init__()
        self.momentum = momentum
        self.lr = lr

    def forward(self, param, grad, velocity):
        return custom_ops_lib.sgd_custom(param, grad, velocity, self.momentum, self.lr)
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SgdCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, total_len);
  TILING_DATA_FIELD_DEF(uint32_t, big_len);     // elements handled by a "big" core
  TILING_DATA_FIELD_DEF(uint32_t, small_len);   // elements handled by a "small" core
  TILING_DATA_FIELD_DEF(uint32_t, big_num);     // first big_num cores are big
  TILING_DATA_FIELD_DEF(uint32_t, tile_len);
  TILING_DATA_FIELD_DEF(float, momentum);
  TILING_DATA_FIELD_DEF(float, lr);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SgdCustom, SgdCustomTilingData)
}
"""

host_operator_src="""
#include "sgd_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ALIGN_NUM = 8;          // 32B of float
constexpr uint32_t TILE_LEN = 4096;        // 3 inputs + 1 output, double buffered: 8 * 16KB = 128KB of UB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SgdCustomTilingData td;
    uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    const auto* attrs = context->GetAttrs();
    float momentum = *attrs->GetFloat(0);
    float lr = *attrs->GetFloat(1);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;

    // split in units of 8 elements so every core start stays 32B aligned
    uint32_t units = (total + ALIGN_NUM - 1) / ALIGN_NUM;
    if (cores > units) cores = units == 0 ? 1 : units;
    uint32_t small_units = units / cores;
    uint32_t big_num = units % cores;
    uint32_t small_len = small_units * ALIGN_NUM;
    uint32_t big_len = small_len + ALIGN_NUM;

    uint32_t tile_len = TILE_LEN;
    if (big_len < tile_len) tile_len = big_len;

    td.set_total_len(total);
    td.set_big_len(big_len);
    td.set_small_len(small_len);
    td.set_big_num(big_num);
    td.set_tile_len(tile_len);
    td.set_momentum(momentum);
    td.set_lr(lr);

    context->SetBlockDim(cores);
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
class SgdCustom : public OpDef {
public:
    explicit SgdCustom(const char* name) : OpDef(name)
    {
        this->Input("param")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("grad")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("velocity")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("param_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("momentum").AttrType(OPTIONAL).Float(0.9);
        this->Attr("lr").AttrType(OPTIONAL).Float(0.01);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SgdCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelSgd {
public:
    __aicore__ inline KernelSgd() {}
    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR velocity, GM_ADDR out,
                                const SgdCustomTilingData& td)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint64_t beg;
        if (idx < td.big_num) {
            my_len = td.big_len;
            beg = (uint64_t)idx * td.big_len;
        } else {
            my_len = td.small_len;
            beg = (uint64_t)td.big_num * td.big_len + (uint64_t)(idx - td.big_num) * td.small_len;
        }
        // the last core may own the ragged end of the tensor
        if (beg >= td.total_len) {
            my_len = 0;
        } else if (beg + my_len > td.total_len) {
            my_len = td.total_len - beg;
        }
        tile_len = td.tile_len;
        neg_lr = -td.lr;
        mom = td.momentum;

        p_gm.SetGlobalBuffer((__gm__ float*)param + beg, my_len);
        g_gm.SetGlobalBuffer((__gm__ float*)grad + beg, my_len);
        v_gm.SetGlobalBuffer((__gm__ float*)velocity + beg, my_len);
        o_gm.SetGlobalBuffer((__gm__ float*)out + beg, my_len);

        pipe.InitBuffer(p_que, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(g_que, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(v_que, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(o_que, BUFFER_NUM, tile_len * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (my_len == 0) return;
        uint32_t loops = (my_len + tile_len - 1) / tile_len;
        for (uint32_t i = 0; i < loops; ++i) {
            uint32_t off = i * tile_len;
            uint32_t len = (off + tile_len <= my_len) ? tile_len : (my_len - off);
            copy_in(off, len);
            compute(len);
            copy_out(off, len);
        }
    }

private:
    __aicore__ inline void copy_in(uint32_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> p = p_que.AllocTensor<float>();
        AscendC::LocalTensor<float> g = g_que.AllocTensor<float>();
        AscendC::LocalTensor<float> v = v_que.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(p, p_gm[off], cp, pad);
        AscendC::DataCopyPad(g, g_gm[off], cp, pad);
        AscendC::DataCopyPad(v, v_gm[off], cp, pad);
        p_que.EnQue(p);
        g_que.EnQue(g);
        v_que.EnQue(v);
    }

    __aicore__ inline void compute(uint32_t len)
    {
        AscendC::LocalTensor<float> p = p_que.DeQue<float>();
        AscendC::LocalTensor<float> g = g_que.DeQue<float>();
        AscendC::LocalTensor<float> v = v_que.DeQue<float>();
        AscendC::LocalTensor<float> o = o_que.AllocTensor<float>();

        // g <- momentum * v + g   (new velocity, computed in place on the grad tile)
        AscendC::Axpy(g, v, mom, len);
        // o <- p - lr * v_new
        AscendC::Muls(o, g, neg_lr, len);
        AscendC::Add(o, o, p, len);

        o_que.EnQue(o);
        p_que.FreeTensor(p);
        g_que.FreeTensor(g);
        v_que.FreeTensor(v);
    }

    __aicore__ inline void copy_out(uint32_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> o = o_que.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(o_gm[off], o, cp);
        o_que.FreeTensor(o);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> p_que, g_que, v_que;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> o_que;
    AscendC::GlobalTensor<float> p_gm, g_gm, v_gm, o_gm;
    uint32_t my_len, tile_len;
    float mom, neg_lr;
};

extern "C" __global__ __aicore__ void sgd_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR velocity, GM_ADDR param_out,
                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelSgd op;
    op.Init(param, grad, velocity, param_out, td);
    op.Process();
}
"""

project_json_src='''
[
    {
        "op": "SgdCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "param",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "grad",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "velocity",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "param_out",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "attr": [
            {"name": "momentum", "param_type": "optional", "type": "float", "default_value": "0.9"},
            {"name": "lr", "param_type": "optional", "type": "float", "default_value": "0.01"}
        ]
    }
]
'''

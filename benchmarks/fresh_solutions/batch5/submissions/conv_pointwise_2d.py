# project json
project_json_src='''
[
    {
        "op": "ConvPointwise2dCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

# host tiling
host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvPointwise2dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, hw);
  TILING_DATA_FIELD_DEF(uint32_t, nTile);
  TILING_DATA_FIELD_DEF(uint32_t, nTiles);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvPointwise2dCustom, ConvPointwise2dCustomTilingData)
}
"""

# host operator
host_operator_src="""
#include "conv_pointwise2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const gert::Shape& xs = ctx->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = ctx->GetInputShape(1)->GetStorageShape();
    uint32_t b = xs.GetDim(0), ci = xs.GetDim(1);
    uint32_t hw = xs.GetDim(2) * xs.GetDim(3);
    uint32_t co = ws.GetDim(0);
    uint32_t nt = 4096;
    if (hw < nt) nt = (hw + 15) / 16 * 16;
    uint32_t nts = (hw + nt - 1) / nt;

    matmul_tiling::MatmulApiTiling api(plat);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(co, nt, ci);
    api.SetOrgShape(co, hw, ci);
    api.SetBias(false);
    api.SetBufferSpace(-1, -1, -1);

    ConvPointwise2dCustomTilingData t;
    if (api.GetTiling(t.mm) == -1) return ge::GRAPH_FAILED;
    t.set_batch(b);
    t.set_cin(ci);
    t.set_cout(co);
    t.set_hw(hw);
    t.set_nTile(nt);
    t.set_nTiles(nts);
    uint32_t cores = plat.GetCoreNumAic();
    uint32_t tasks = b * nts;
    ctx->SetBlockDim(tasks < cores ? tasks : cores);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* w = ctx->GetWorkspaceSizes(1);
    w[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const gert::Shape* w = ctx->GetInputShape(1);
    gert::Shape* y = ctx->GetOutputShape(0);
    *y = *x;
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvPointwise2dCustom : public OpDef {
public:
    explicit ConvPointwise2dCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvPointwise2dCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class KernelPw {
public:
    __aicore__ inline KernelPw() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const ConvPointwise2dCustomTilingData& td)
    {
        b = td.batch;
        ci = td.cin;
        co = td.cout;
        hw = td.hw;
        nt = td.nTile;
        nts = td.nTiles;
        xg.SetGlobalBuffer((__gm__ float*)x);
        wg.SetGlobalBuffer((__gm__ float*)w, co * ci);
        yg.SetGlobalBuffer((__gm__ float*)y);
    }
    template <class MM>
    __aicore__ inline void Process(MM& mm)
    {
        uint32_t tasks = b * nts;
        for (uint32_t i = GetBlockIdx(); i < tasks; i += GetBlockNum()) {
            uint32_t bi = i / nts;
            uint32_t n0 = (i % nts) * nt;
            uint32_t len = hw - n0 < nt ? hw - n0 : nt;
            uint64_t xo = (uint64_t)bi * ci * hw + n0;
            uint64_t yo = (uint64_t)bi * co * hw + n0;
            mm.SetTensorA(wg);
            mm.SetTensorB(xg[xo]);
            mm.SetTail(co, len, ci);
            mm.IterateAll(yg[yo]);
        }
        mm.End();
    }

private:
    GlobalTensor<float> xg, wg, yg;
    uint32_t b, ci, co, hw, nt, nts;
};

extern "C" __global__ __aicore__ void conv_pointwise2d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetSysWorkSpacePtr() == nullptr) return;
    TPipe pipe;
    Matmul<AType, BType, CType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.mm);
    KernelPw op;
    op.Init(x, weight, y, td);
    op.Process(mm);
}
"""

# python binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_pointwise2d_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight)
{
    at::Tensor xc = x.contiguous();
    at::Tensor w2 = weight.reshape({weight.size(0), weight.size(1)}).contiguous();
    at::Tensor y = at::empty({xc.size(0), w2.size(0), xc.size(2), xc.size(3)}, xc.options());
    EXEC_NPU_CMD(aclnnConvPointwise2dCustom, xc, w2, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_pointwise2d_custom", &conv_pointwise2d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_pointwise2d_custom", &conv_pointwise2d_custom_impl_npu, "1x1 conv2d");
}
"""

# model
model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, bias: bool = False):
        super().__init__()
        self.conv1d = nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=1, padding=0, bias=bias)

    def forward(self, x):
        y = custom_ops_lib.conv_pointwise2d_custom(x, self.conv1d.weight)
        if self.conv1d.bias is not None:
            y = y + self.conv1d.bias.view(1, -1, 1, 1)
        return y
'''

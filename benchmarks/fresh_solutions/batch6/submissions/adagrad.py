python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// param <- param - lr * grad / (sqrt(accum + grad^2) + eps)
at::Tensor adagrad_custom_impl_npu(const at::Tensor& param, const at::Tensor& grad,
                                   const at::Tensor& accum, double lr, double eps)
{
    TORCH_CHECK(param.sizes() == grad.sizes() && param.sizes() == accum.sizes(),
                "adagrad_custom: param/grad/accum must have the same shape");
    at::Tensor p = param.contiguous();
    at::Tensor g = grad.contiguous();
    at::Tensor a = accum.contiguous();
    at::Tensor out = at::empty_like(p);
    EXEC_NPU_CMD(aclnnAdagradCustom, p, g, a, lr, eps, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("adagrad_custom", &adagrad_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("adagrad_custom", &adagrad_custom_impl_npu, "fused adagrad update (returns new param)",
          py::arg("param"), py::arg("grad"), py::arg("accum"),
          py::arg("lr") = 1e-2, py::arg("eps") = 1e-10);
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, lr=1e-2, eps=1e-10):
        super().__init__()
        self.lr = lr
        self.eps = eps

    def forward(self, param, grad, accum):
        return custom_ops_lib.adagrad_custom(param, grad, accum, self.lr, self.eps)
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AdagradCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, total_len);   // number of elements
  TILING_DATA_FIELD_DEF(uint32_t, blk_len);     // elements handled by one core (8-aligned)
  TILING_DATA_FIELD_DEF(uint32_t, tile_len);    // elements per UB tile
  TILING_DATA_FIELD_DEF(float, lr);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AdagradCustom, AdagradCustomTilingData)
}
"""

host_operator_src="""
#include "adagrad_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ALIGN_ELEMS = 8;      // 32B / sizeof(float)
constexpr uint32_t MAX_TILE = 4096;      // 16KB per buffer, 4 queues x 2 buffers + 1 tmp fit in UB

static inline uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AdagradCustomTilingData tiling;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t core_num = plat.GetCoreNumAiv();
    if (core_num == 0) {
        core_num = 1;
    }

    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    float lr = *(attrs->GetAttrPointer<float>(0));
    float eps = *(attrs->GetAttrPointer<float>(1));

    // split evenly over cores, each share rounded up to 32B so every core starts aligned
    uint32_t blk_len = ceil_div(ceil_div(total, core_num), ALIGN_ELEMS) * ALIGN_ELEMS;
    if (blk_len == 0) {
        blk_len = ALIGN_ELEMS;
    }
    uint32_t used_cores = ceil_div(total, blk_len);
    if (used_cores == 0) {
        used_cores = 1;
    }
    uint32_t tile_len = blk_len < MAX_TILE ? blk_len : MAX_TILE;

    context->SetBlockDim(used_cores);
    tiling.set_total_len(total);
    tiling.set_blk_len(blk_len);
    tiling.set_tile_len(tile_len);
    tiling.set_lr(lr);
    tiling.set_eps(eps);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
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
class AdagradCustom : public OpDef {
public:
    explicit AdagradCustom(const char* name) : OpDef(name)
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
        this->Input("accum")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("lr").AttrType(OPTIONAL).Float(0.01f);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-10f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AdagradCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelAdagrad {
public:
    __aicore__ inline KernelAdagrad() {}

    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR accum, GM_ADDR out,
                                uint32_t total_len, uint32_t blk_len, uint32_t tile_len,
                                float lr, float eps)
    {
        uint32_t start = blk_len * GetBlockIdx();
        // last core may own a shorter (or empty) slice
        this->my_len = 0;
        if (start < total_len) {
            this->my_len = (total_len - start) < blk_len ? (total_len - start) : blk_len;
        }
        this->tile_len = tile_len;
        this->neg_lr = -lr;
        this->eps = eps;

        p_gm.SetGlobalBuffer((__gm__ float*)param + start, this->my_len);
        g_gm.SetGlobalBuffer((__gm__ float*)grad + start, this->my_len);
        a_gm.SetGlobalBuffer((__gm__ float*)accum + start, this->my_len);
        o_gm.SetGlobalBuffer((__gm__ float*)out + start, this->my_len);

        pipe.InitBuffer(q_p, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(q_g, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(q_a, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(q_out, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(tmp_buf, tile_len * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (my_len == 0) {
            return;
        }
        uint32_t n_tiles = (my_len + tile_len - 1) / tile_len;
        for (uint32_t t = 0; t < n_tiles; t++) {
            uint32_t off = t * tile_len;
            uint32_t cnt = (my_len - off) < tile_len ? (my_len - off) : tile_len;
            copy_in(off, cnt);
            compute(cnt);
            copy_out(off, cnt);
        }
    }

private:
    __aicore__ inline void copy_in(uint32_t off, uint32_t cnt)
    {
        LocalTensor<float> p = q_p.AllocTensor<float>();
        LocalTensor<float> g = q_g.AllocTensor<float>();
        LocalTensor<float> a = q_a.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(p, p_gm[off], cp, pad);
        DataCopyPad(g, g_gm[off], cp, pad);
        DataCopyPad(a, a_gm[off], cp, pad);
        q_p.EnQue(p);
        q_g.EnQue(g);
        q_a.EnQue(a);
    }

    __aicore__ inline void compute(uint32_t cnt)
    {
        LocalTensor<float> p = q_p.DeQue<float>();
        LocalTensor<float> g = q_g.DeQue<float>();
        LocalTensor<float> a = q_a.DeQue<float>();
        LocalTensor<float> o = q_out.AllocTensor<float>();
        LocalTensor<float> tmp = tmp_buf.Get<float>();

        // new accum = accum + g*g
        Mul(tmp, g, g, cnt);
        Add(a, a, tmp, cnt);
        // denom = sqrt(new accum) + eps
        Sqrt(a, a, cnt);
        Adds(a, a, eps, cnt);
        // step = -lr * g / denom
        Div(tmp, g, a, cnt);
        Muls(tmp, tmp, neg_lr, cnt);
        Add(o, p, tmp, cnt);

        q_out.EnQue(o);
        q_p.FreeTensor(p);
        q_g.FreeTensor(g);
        q_a.FreeTensor(a);
    }

    __aicore__ inline void copy_out(uint32_t off, uint32_t cnt)
    {
        LocalTensor<float> o = q_out.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        DataCopyPad(o_gm[off], o, cp);
        q_out.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> q_p, q_g, q_a;
    TQue<QuePosition::VECOUT, BUFFER_NUM> q_out;
    TBuf<QuePosition::VECCALC> tmp_buf;
    GlobalTensor<float> p_gm, g_gm, a_gm, o_gm;
    uint32_t my_len;
    uint32_t tile_len;
    float neg_lr;
    float eps;
};

extern "C" __global__ __aicore__ void adagrad_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR accum, GM_ADDR out,
                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelAdagrad op;
    op.Init(param, grad, accum, out, td.total_len, td.blk_len, td.tile_len, td.lr, td.eps);
    op.Process();
}
"""

project_json_src='''
[
    {
        "op": "AdagradCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "param", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "grad", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "accum", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "lr", "param_type": "optional", "type": "float", "default_value": "0.01"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-10"}
        ]
    }
]
'''

project_json_src='''
[
    {
        "op": "AdagradCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "param",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            },
            {
                "name": "grad",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            },
            {
                "name": "accum",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ],
        "output_desc": [
            {
                "name": "param_out",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ],
        "attr": [
            {
                "name": "lr",
                "param_type": "optional",
                "type": "float",
                "default_value": "0.01"
            },
            {
                "name": "eps",
                "param_type": "optional",
                "type": "float",
                "default_value": "1e-10"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AdagradCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, perCore);     // elements per core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, lastCore);    // elements for the final core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
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
constexpr uint32_t TILE_LENGTH = 4096;   // 3 inputs + 1 output, double buffered, + 1 scratch = 144 KB
constexpr uint32_t ALIGN = 8;            // 32 bytes of fp32

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AdagradCustomTilingData tiling;
    uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();

    float lr = 0.01f;
    float eps = 1e-10f;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    if (attrs != nullptr) {
        const float* lrPtr = attrs->GetAttrPointer<float>(0);
        const float* epsPtr = attrs->GetAttrPointer<float>(1);
        if (lrPtr != nullptr) lr = *lrPtr;
        if (epsPtr != nullptr) eps = *epsPtr;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;

    // split into core chunks aligned to 32 bytes; the last core takes what is left
    uint32_t perCore = (total + cores - 1) / cores;
    perCore = (perCore + ALIGN - 1) / ALIGN * ALIGN;
    uint32_t used = (total + perCore - 1) / perCore;
    if (used == 0) used = 1;
    uint32_t lastCore = total - perCore * (used - 1);

    tiling.set_totalLength(total);
    tiling.set_perCore(perCore);
    tiling.set_lastCore(lastCore);
    tiling.set_tileLength(TILE_LENGTH);
    tiling.set_lr(lr);
    tiling.set_eps(eps);

    context->SetBlockDim(used);
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
        this->Output("param_out")
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

constexpr int32_t BUFFER_NUM = 2;

// accum' = accum + g^2
// param' = param - lr * g / (sqrt(accum') + eps)
class KernelAdagrad {
public:
    __aicore__ inline KernelAdagrad() {}

    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR accum, GM_ADDR out,
                                uint32_t perCore, uint32_t lastCore, uint32_t tileLength, float lr, float eps)
    {
        uint32_t blk = AscendC::GetBlockIdx();
        bool isLast = (blk == AscendC::GetBlockNum() - 1);
        this->length = isLast ? lastCore : perCore;
        this->tileLength = tileLength;
        this->negLr = -lr;
        this->eps = eps;

        uint64_t start = static_cast<uint64_t>(perCore) * blk;
        paramGm.SetGlobalBuffer((__gm__ float*)param + start, this->length);
        gradGm.SetGlobalBuffer((__gm__ float*)grad + start, this->length);
        accumGm.SetGlobalBuffer((__gm__ float*)accum + start, this->length);
        outGm.SetGlobalBuffer((__gm__ float*)out + start, this->length);

        pipe.InitBuffer(qParam, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(qGrad, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(qAccum, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(qOut, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(scratch, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t loops = (length + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < loops; ++i) {
            uint32_t off = i * tileLength;
            uint32_t n = (length - off < tileLength) ? (length - off) : tileLength;
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n)
    {
        AscendC::LocalTensor<float> p = qParam.AllocTensor<float>();
        AscendC::LocalTensor<float> g = qGrad.AllocTensor<float>();
        AscendC::LocalTensor<float> a = qAccum.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(p, paramGm[off], cp, pad);
        AscendC::DataCopyPad(g, gradGm[off], cp, pad);
        AscendC::DataCopyPad(a, accumGm[off], cp, pad);
        qParam.EnQue(p);
        qGrad.EnQue(g);
        qAccum.EnQue(a);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        AscendC::LocalTensor<float> p = qParam.DeQue<float>();
        AscendC::LocalTensor<float> g = qGrad.DeQue<float>();
        AscendC::LocalTensor<float> a = qAccum.DeQue<float>();
        AscendC::LocalTensor<float> o = qOut.AllocTensor<float>();
        AscendC::LocalTensor<float> t = scratch.Get<float>();

        AscendC::Mul(t, g, g, n);           // g^2
        AscendC::Add(a, a, t, n);           // accum + g^2
        AscendC::Sqrt(a, a, n);
        AscendC::Adds(a, a, eps, n);        // sqrt(accum) + eps
        AscendC::Div(t, g, a, n);           // g / (...)
        AscendC::Muls(t, t, negLr, n);      // -lr * g / (...)
        AscendC::Add(o, p, t, n);

        qOut.EnQue<float>(o);
        qParam.FreeTensor(p);
        qGrad.FreeTensor(g);
        qAccum.FreeTensor(a);
    }

    __aicore__ inline void CopyOut(uint32_t off, uint32_t n)
    {
        AscendC::LocalTensor<float> o = qOut.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(outGm[off], o, cp);
        qOut.FreeTensor(o);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> qParam, qGrad, qAccum;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> qOut;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scratch;
    AscendC::GlobalTensor<float> paramGm, gradGm, accumGm, outGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
    float negLr = -0.01f;
    float eps = 1e-10f;
};

extern "C" __global__ __aicore__ void adagrad_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR accum, GM_ADDR param_out,
                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelAdagrad op;
    op.Init(param, grad, accum, param_out, tiling_data.perCore, tiling_data.lastCore, tiling_data.tileLength,
            tiling_data.lr, tiling_data.eps);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor adagrad_impl_npu(const at::Tensor& param, const at::Tensor& grad, const at::Tensor& accum,
                            double lr, double eps)
{
    TORCH_CHECK(param.sizes() == grad.sizes() && param.sizes() == accum.sizes(), "shape mismatch");
    at::Tensor p = param.contiguous();
    at::Tensor g = grad.contiguous();
    at::Tensor a = accum.contiguous();
    at::Tensor result = at::empty_like(p);
    EXEC_NPU_CMD(aclnnAdagradCustom, p, g, a, lr, eps, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("adagrad_custom", &adagrad_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("adagrad_custom", &adagrad_impl_npu, "one Adagrad step, returns the updated parameter",
          pybind11::arg("param"), pybind11::arg("grad"), pybind11::arg("accum"),
          pybind11::arg("lr") = 1e-2, pybind11::arg("eps") = 1e-10);
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

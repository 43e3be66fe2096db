project_json_src='''
[
    {
        "op": "RmspropCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "param", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "grad", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "v", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "param_out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "lr", "param_type": "optional", "type": "float", "default_value": "0.001"},
            {"name": "alpha", "param_type": "optional", "type": "float", "default_value": "0.99"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-8"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RmspropCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);     // cores that take one extra 32B block
  TILING_DATA_FIELD_DEF(uint32_t, smallCoreBlocks); // 8-float blocks per "small" core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, lr);
  TILING_DATA_FIELD_DEF(float, alpha);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmspropCustom, RmspropCustomTilingData)
}
"""

host_operator_src="""
#include "rmsprop_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_ELEMS = 8;   // 32 bytes of float
constexpr uint32_t TILE_LEN = 4096;   // 4 queues x 2 buffers x 16KB + tmp = 144KB UB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RmspropCustomTilingData tiling;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    if (coreNum == 0) coreNum = 1;

    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    uint32_t blocks = (total + BLOCK_ELEMS - 1) / BLOCK_ELEMS;
    if (blocks < coreNum) coreNum = blocks > 0 ? blocks : 1;
    // balanced split in whole 32B blocks: first bigCoreNum cores get one more block
    uint32_t smallBlocks = blocks / coreNum;
    uint32_t bigCores = blocks % coreNum;

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    float lr = 1e-3f, alpha = 0.99f, eps = 1e-8f;
    if (attrs != nullptr) {
        if (const float* p = attrs->GetFloat(0)) lr = *p;
        if (const float* p = attrs->GetFloat(1)) alpha = *p;
        if (const float* p = attrs->GetFloat(2)) eps = *p;
    }

    context->SetBlockDim(coreNum);
    tiling.set_totalLength(total);
    tiling.set_bigCoreNum(bigCores);
    tiling.set_smallCoreBlocks(smallBlocks);
    tiling.set_tileLength(TILE_LEN);
    tiling.set_lr(lr);
    tiling.set_alpha(alpha);
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
class RmspropCustom : public OpDef {
public:
    explicit RmspropCustom(const char* name) : OpDef(name)
    {
        this->Input("param").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("grad").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("param_out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("lr").AttrType(OPTIONAL).Float(0.001);
        this->Attr("alpha").AttrType(OPTIONAL).Float(0.99);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-8);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(RmspropCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_ELEMS = 8;
}

// v'    = alpha * v + (1 - alpha) * g^2
// param = param - lr * g / (sqrt(v') + eps)
class KernelRmsprop {
public:
    __aicore__ inline KernelRmsprop() {}

    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR v, GM_ADDR out,
                                const RmspropCustomTilingData& td)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t myBlocks = td.smallCoreBlocks + (idx < td.bigCoreNum ? 1 : 0);
        uint32_t startBlock = idx * td.smallCoreBlocks + (idx < td.bigCoreNum ? idx : td.bigCoreNum);
        uint32_t start = startBlock * BLOCK_ELEMS;
        uint32_t len = myBlocks * BLOCK_ELEMS;
        // last core may own a partial block
        if (start + len > td.totalLength) {
            len = td.totalLength > start ? td.totalLength - start : 0;
        }
        length_ = len;
        tileLen_ = td.tileLength;
        lr_ = td.lr;
        alpha_ = td.alpha;
        eps_ = td.eps;

        paramGm_.SetGlobalBuffer((__gm__ float*)param + start, len);
        gradGm_.SetGlobalBuffer((__gm__ float*)grad + start, len);
        vGm_.SetGlobalBuffer((__gm__ float*)v + start, len);
        outGm_.SetGlobalBuffer((__gm__ float*)out + start, len);

        pipe_.InitBuffer(qParam_, BUFFER_NUM, tileLen_ * sizeof(float));
        pipe_.InitBuffer(qGrad_, BUFFER_NUM, tileLen_ * sizeof(float));
        pipe_.InitBuffer(qV_, BUFFER_NUM, tileLen_ * sizeof(float));
        pipe_.InitBuffer(qOut_, BUFFER_NUM, tileLen_ * sizeof(float));
        pipe_.InitBuffer(tmp_, tileLen_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < length_; off += tileLen_) {
            uint32_t n = (length_ - off) < tileLen_ ? (length_ - off) : tileLen_;
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n)
    {
        auto p = qParam_.AllocTensor<float>();
        auto g = qGrad_.AllocTensor<float>();
        auto v = qV_.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, n * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(p, paramGm_[off], cp, pad);
        AscendC::DataCopyPad(g, gradGm_[off], cp, pad);
        AscendC::DataCopyPad(v, vGm_[off], cp, pad);
        qParam_.EnQue(p);
        qGrad_.EnQue(g);
        qV_.EnQue(v);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        auto p = qParam_.DeQue<float>();
        auto g = qGrad_.DeQue<float>();
        auto v = qV_.DeQue<float>();
        auto o = qOut_.AllocTensor<float>();
        auto t = tmp_.Get<float>();

        // t = (1 - alpha) * g^2 ; v = alpha * v + t
        AscendC::Mul(t, g, g, n);
        AscendC::Muls(t, t, 1.0f - alpha_, n);
        AscendC::Muls(v, v, alpha_, n);
        AscendC::Add(v, v, t, n);
        // denom = sqrt(v) + eps
        AscendC::Sqrt(v, v, n);
        AscendC::Adds(v, v, eps_, n);
        // step = lr * g / denom
        AscendC::Muls(t, g, lr_, n);
        AscendC::Div(t, t, v, n);
        AscendC::Sub(o, p, t, n);

        qOut_.EnQue(o);
        qParam_.FreeTensor(p);
        qGrad_.FreeTensor(g);
        qV_.FreeTensor(v);
    }

    __aicore__ inline void CopyOut(uint32_t off, uint32_t n)
    {
        auto o = qOut_.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, n * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(outGm_[off], o, cp);
        qOut_.FreeTensor(o);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> qParam_, qGrad_, qV_;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> qOut_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmp_;
    AscendC::GlobalTensor<float> paramGm_, gradGm_, vGm_, outGm_;
    uint32_t length_ = 0;
    uint32_t tileLen_ = 0;
    float lr_ = 0.0f;
    float alpha_ = 0.0f;
    float eps_ = 0.0f;
};

extern "C" __global__ __aicore__ void rmsprop_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR v, GM_ADDR param_out,
                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelRmsprop op;
    op.Init(param, grad, v, param_out, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor rmsprop_custom_impl_npu(const at::Tensor& param, const at::Tensor& grad, const at::Tensor& v,
                                   double lr, double alpha, double eps) {
    at::Tensor p = param.contiguous();
    at::Tensor g = grad.contiguous();
    at::Tensor vc = v.contiguous();
    at::Tensor out = at::empty_like(p);
    float lrf = static_cast<float>(lr);
    float alphaf = static_cast<float>(alpha);
    float epsf = static_cast<float>(eps);
    EXEC_NPU_CMD(aclnnRmspropCustom, p, g, vc, lrf, alphaf, epsf, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("rmsprop_custom", &rmsprop_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("rmsprop_custom", &rmsprop_custom_impl_npu, "RMSprop parameter update");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, lr=1e-3, alpha=0.99, eps=1e-8):
        super().__init__()
        self.lr = lr
        self.alpha = alpha
        self.eps = eps

    def forward(self, param, grad, v):
        return custom_ops_lib.rmsprop_custom(param, grad, v, self.lr, self.alpha, self.eps)
'''

project_json_src='''
[
    {
        "op": "SoftplusCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftplusCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, perCoreLength);  // multiple of 8 elements (32B)
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SoftplusCustom, SoftplusCustomTilingData)
}
"""

host_operator_src="""
#include "softplus_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LENGTH = 8192;   // floats per tile; 3 tiles x 2 buffers + tmp fit in UB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SoftplusCustomTilingData tiling;
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    // split evenly over cores, each core's chunk rounded up to 32B so that
    // every core starts on an aligned address; the last core gets the remainder
    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + 7) / 8 * 8;
    uint32_t usedCores = static_cast<uint32_t>((total + perCore - 1) / perCore);
    if (usedCores == 0) usedCores = 1;

    tiling.set_totalLength(total);
    tiling.set_perCoreLength(perCore);
    tiling.set_tileLength(TILE_LENGTH);
    context->SetBlockDim(usedCores);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x_shape = context->GetInputShape(0);
    gert::Shape* y_shape = context->GetOutputShape(0);
    *y_shape = *x_shape;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SoftplusCustom : public OpDef {
public:
    explicit SoftplusCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SoftplusCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// softplus(x) = log(1 + exp(x)), evaluated in the overflow-safe form
//   softplus(x) = max(x, 0) + log(1 + exp(-|x|))
// For x > 20 (PyTorch's threshold) the correction term is < 2.1e-9, so the
// result equals x to float precision, matching the reference.
class KernelSoftplus {
public:
    __aicore__ inline KernelSoftplus() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t totalLength, uint64_t perCoreLength,
                                uint32_t tileLength)
    {
        uint64_t start = perCoreLength * AscendC::GetBlockIdx();
        uint64_t remain = totalLength > start ? totalLength - start : 0;
        this->coreLength = remain < perCoreLength ? remain : perCoreLength;
        this->tileLength = tileLength;

        xGm.SetGlobalBuffer((__gm__ float*)x + start, this->coreLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, this->coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t fullTiles = coreLength / tileLength;
        uint32_t tail = static_cast<uint32_t>(coreLength - fullTiles * tileLength);
        for (uint64_t i = 0; i < fullTiles; i++) {
            CopyIn(i * tileLength, tileLength);
            Compute(tileLength);
            CopyOut(i * tileLength, tileLength);
        }
        if (tail > 0) {
            CopyIn(fullTiles * tileLength, tail);
            Compute(tail);
            CopyOut(fullTiles * tileLength, tail);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        if (len % 8 == 0) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
        } else {
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(xLocal, xGm[offset], params, padParams);
        }
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> t = tmpBuf.Get<float>();

        AscendC::Abs(t, xLocal, len);            // |x|
        AscendC::Muls(t, t, -1.0f, len);         // -|x|
        AscendC::Exp(t, t, len);                 // exp(-|x|) in (0, 1]
        AscendC::Adds(t, t, 1.0f, len);          // 1 + exp(-|x|)
        AscendC::Ln(t, t, len);                  // log1p(exp(-|x|))
        AscendC::Maxs(yLocal, xLocal, 0.0f, len); // max(x, 0)
        AscendC::Add(yLocal, yLocal, t, len);

        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        if (len % 8 == 0) {
            AscendC::DataCopy(yGm[offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, params);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint64_t coreLength;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void softplus_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelSoftplus op;
    op.Init(x, y, tiling_data.totalLength, tiling_data.perCoreLength, tiling_data.tileLength);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor softplus_custom_impl_npu(const at::Tensor& self)
{
    at::Tensor x = self.contiguous();
    at::Tensor result = at::empty_like(x);
    EXEC_NPU_CMD(aclnnSoftplusCustom, x, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("softplus_custom", &softplus_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("softplus_custom", &softplus_custom_impl_npu, "softplus(x) = log(1 + exp(x))");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.softplus_custom(x)
'''

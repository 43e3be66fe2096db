project_json_src='''
[
    {
        "op": "SwishCustom",
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
BEGIN_TILING_DATA_DEF(SwishCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, blockLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SwishCustom, SwishCustomTilingData)
}
"""

host_operator_src="""
#include "swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t TILE_LENGTH = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint32_t blockDim = plat.GetCoreNumAiv();

    // give every core a whole number of 32B blocks
    uint64_t perCore = (totalLength + blockDim - 1) / blockDim;
    perCore = (perCore + 7) / 8 * 8;
    blockDim = (uint32_t)((totalLength + perCore - 1) / perCore);

    SwishCustomTilingData tiling;
    tiling.set_totalLength(totalLength);
    tiling.set_blockLength(perCore);
    tiling.set_tileLength(TILE_LENGTH);

    context->SetBlockDim(blockDim);
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
class SwishCustom : public OpDef {
public:
    explicit SwishCustom(const char* name) : OpDef(name)
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
OP_ADD(SwishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelSwish {
public:
    __aicore__ inline KernelSwish() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t totalLength, uint64_t blockLength, uint32_t tileLength)
    {
        uint64_t start = blockLength * AscendC::GetBlockIdx();
        this->length = (start + blockLength <= totalLength) ? blockLength : totalLength - start;
        this->tileLength = tileLength;

        xGm.SetGlobalBuffer((__gm__ float*)x + start, this->length);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, this->length);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t loops = (length + tileLength - 1) / tileLength;
        for (uint64_t i = 0; i < loops; i++) {
            uint32_t cur = (i == loops - 1) ? (uint32_t)(length - i * tileLength) : tileLength;
            CopyIn(i, cur);
            Compute(cur);
            CopyOut(i, cur);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t i, uint32_t cur)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, (uint32_t)(cur * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[i * tileLength], cp, pad);
        inQueueX.EnQue(xLocal);
    }

    // y = x / (1 + exp(-x))
    __aicore__ inline void Compute(uint32_t cur)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> t = tmpBuf.Get<float>();

        AscendC::Muls(t, xLocal, -1.0f, cur);
        AscendC::Exp(t, t, cur);
        AscendC::Adds(t, t, 1.0f, cur);
        AscendC::Div(yLocal, xLocal, t, cur);

        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t i, uint32_t cur)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, (uint32_t)(cur * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[i * tileLength], yLocal, cp);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint64_t length;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void swish_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelSwish op;
    op.Init(x, y, tiling_data.totalLength, tiling_data.blockLength, tiling_data.tileLength);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor swish_custom_impl_npu(const at::Tensor& x)
{
    at::Tensor y = at::empty_like(x);
    EXEC_NPU_CMD(aclnnSwishCustom, x, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("swish_custom", &swish_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("swish_custom", &swish_custom_impl_npu, "x * sigmoid(x)");
}
"""

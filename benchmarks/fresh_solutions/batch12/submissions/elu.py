project_json_src='''
[
    {
        "op": "EluCustom",
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
        ],
        "attr": [
            {
                "name": "alpha",
                "param_type": "optional",
                "type": "float",
                "default_value": "1.0"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(EluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, bigCoreLength);    // cores [0, bigCoreNum) get one extra 8-element block
  TILING_DATA_FIELD_DEF(uint64_t, smallCoreLength);
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, alpha);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(EluCustom, EluCustomTilingData)
}
"""

host_operator_src="""
#include "elu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t BLOCK_ELEMS = 8;     // one 32-byte block of fp32
constexpr uint32_t TILE_LENGTH = 8192;  // 32 KB per buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    EluCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t coreNum = platform.GetCoreNumAiv();
    uint64_t total = static_cast<uint64_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());

    const float* alphaPtr = context->GetAttrs()->GetAttrPointer<float>(0);
    float alpha = alphaPtr == nullptr ? 1.0f : *alphaPtr;

    // distribute whole 32B blocks; the very last core also owns the ragged tail
    uint64_t blocks = total / BLOCK_ELEMS;
    uint64_t tail = total % BLOCK_ELEMS;
    if (blocks < coreNum) {
        coreNum = blocks == 0 ? 1 : blocks;
    }
    uint64_t perCore = blocks / coreNum;
    uint64_t bigNum = blocks % coreNum;

    tiling.set_totalLength(total);
    tiling.set_smallCoreLength(perCore * BLOCK_ELEMS);
    tiling.set_bigCoreLength((perCore + 1) * BLOCK_ELEMS);
    tiling.set_bigCoreNum(static_cast<uint32_t>(bigNum));
    tiling.set_tileLength(TILE_LENGTH);
    tiling.set_alpha(alpha);
    (void)tail;

    context->SetBlockDim(static_cast<uint32_t>(coreNum));
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
class EluCustom : public OpDef {
public:
    explicit EluCustom(const char* name) : OpDef(name)
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
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(EluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

/*
 * ELU(x) = x                    , x > 0
 *        = alpha * (exp(x) - 1) , x <= 0
 * Branch-free form used here:
 *        max(x, 0) + alpha * (exp(min(x, 0)) - 1)
 * (for x > 0 the second term is alpha * (exp(0) - 1) = 0, and exp never overflows).
 */
class KernelElu {
public:
    __aicore__ inline KernelElu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const EluCustomTilingData& td)
    {
        uint64_t idx = AscendC::GetBlockIdx();
        uint64_t start;
        if (idx < td.bigCoreNum) {
            myLength = td.bigCoreLength;
            start = idx * td.bigCoreLength;
        } else {
            myLength = td.smallCoreLength;
            start = td.bigCoreNum * td.bigCoreLength + (idx - td.bigCoreNum) * td.smallCoreLength;
        }
        if (idx == AscendC::GetBlockNum() - 1) {
            myLength = td.totalLength - start;   // pick up the sub-block tail
        }
        tileLength = td.tileLength;
        alpha = td.alpha;

        xGm.SetGlobalBuffer((__gm__ float*)x + start, myLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, myLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(negBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t loops = myLength / tileLength;
        uint32_t rest = static_cast<uint32_t>(myLength % tileLength);
        for (uint64_t i = 0; i < loops; ++i) {
            CopyIn(i * tileLength, tileLength);
            Compute(tileLength);
            CopyOut(i * tileLength, tileLength);
        }
        if (rest != 0) {
            CopyIn(loops * tileLength, rest);
            Compute(rest);
            CopyOut(loops * tileLength, rest);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyExtParams params{1, count * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[offset], params, padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> neg = negBuf.Get<float>();

        AscendC::Mins(neg, xLocal, 0.0f, count);
        AscendC::Exp(neg, neg, count);
        AscendC::Adds(neg, neg, -1.0f, count);
        AscendC::Muls(neg, neg, alpha, count);
        AscendC::Maxs(yLocal, xLocal, 0.0f, count);
        AscendC::Add(yLocal, yLocal, neg, count);

        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyExtParams params{1, count * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, params);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> negBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint64_t myLength;
    uint32_t tileLength;
    float alpha;
};

extern "C" __global__ __aicore__ void elu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelElu op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor elu_custom_impl_npu(const at::Tensor& self, double alpha)
{
    at::Tensor x = self.contiguous();
    at::Tensor result = at::empty_like(x);
    EXEC_NPU_CMD(aclnnEluCustom, x, alpha, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("elu_custom", &elu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("elu_custom", &elu_custom_impl_npu, "ELU activation");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, alpha: float = 1.0):
        super(ModelNew, self).__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.elu_custom(x, self.alpha)
'''

project_json_src='''
[
    {
        "op": "HardtanhCustom",
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
            {"name": "min_val", "param_type": "optional", "type": "float", "default_value": "-1.0"},
            {"name": "max_val", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HardtanhCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, blockLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, minVal);
  TILING_DATA_FIELD_DEF(float, maxVal);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HardtanhCustom, HardtanhCustomTilingData)
}
"""

host_operator_src="""
#include "hardtanh_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t TILE_LENGTH = 16384;  // 64KB per buffer, single bound queue x 2 buffers

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    HardtanhCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();

    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint64_t blockLength = (total + coreNum - 1) / coreNum;
    blockLength = (blockLength + 63) / 64 * 64;   // keep every core's start 256B aligned
    uint32_t usedCores = static_cast<uint32_t>((total + blockLength - 1) / blockLength);

    const float *minPtr = context->GetAttrs()->GetAttrPointer<float>(0);
    const float *maxPtr = context->GetAttrs()->GetAttrPointer<float>(1);

    tiling.set_totalLength(total);
    tiling.set_blockLength(blockLength);
    tiling.set_tileLength(TILE_LENGTH);
    tiling.set_minVal(minPtr ? *minPtr : -1.0f);
    tiling.set_maxVal(maxPtr ? *maxPtr : 1.0f);

    context->SetBlockDim(usedCores == 0 ? 1 : usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
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
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class HardtanhCustom : public OpDef {
public:
    explicit HardtanhCustom(const char* name) : OpDef(name)
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
        this->Attr("min_val").AttrType(OPTIONAL).Float(-1.0);
        this->Attr("max_val").AttrType(OPTIONAL).Float(1.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(HardtanhCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// In-place style clamp: one VECIN/VECOUT bound queue, so each tile needs a single
// UB buffer (2 x 64KB with double buffering).
class KernelHardtanh {
public:
    __aicore__ inline KernelHardtanh() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t totalLength, uint64_t blockLength,
                                uint32_t tileLength, float minVal, float maxVal)
    {
        uint64_t start = blockLength * GetBlockIdx();
        len = (start + blockLength <= totalLength) ? blockLength : (totalLength - start);
        tileLen = tileLength;
        lo = minVal;
        hi = maxVal;

        xGm.SetGlobalBuffer((__gm__ float *)x + start, len);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, len);
        pipe.InitBuffer(queue, BUFFER_NUM, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t tiles = (len + tileLen - 1) / tileLen;
        for (uint64_t i = 0; i < tiles; ++i) {
            uint64_t off = i * tileLen;
            uint32_t n = (off + tileLen <= len) ? tileLen : static_cast<uint32_t>(len - off);

            LocalTensor<float> buf = queue.AllocTensor<float>();
            DataCopyExtParams cp{1, n * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(buf, xGm[off], cp, pad);
            queue.EnQue(buf);

            buf = queue.DeQue<float>();
            Maxs(buf, buf, lo, n);
            Mins(buf, buf, hi, n);
            queue.EnQue(buf);

            buf = queue.DeQue<float>();
            DataCopyPad(yGm[off], buf, cp);
            queue.FreeTensor(buf);
        }
    }

private:
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> queue;
    GlobalTensor<float> xGm, yGm;
    uint64_t len;
    uint32_t tileLen;
    float lo, hi;
};

extern "C" __global__ __aicore__ void hardtanh_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelHardtanh op;
    op.Init(x, y, t.totalLength, t.blockLength, t.tileLength, t.minVal, t.maxVal);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor hardtanh_custom_impl_npu(const at::Tensor& x, double min_val, double max_val) {
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnHardtanhCustom, xc, min_val, max_val, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("hardtanh_custom", &hardtanh_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("hardtanh_custom", &hardtanh_custom_impl_npu, "clamp(x, min_val, max_val)",
          pybind11::arg("x"), pybind11::arg("min_val") = -1.0, pybind11::arg("max_val") = 1.0);
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.hardtanh_custom(x, -1.0, 1.0)
'''

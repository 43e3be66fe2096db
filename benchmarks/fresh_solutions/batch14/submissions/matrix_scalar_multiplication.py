project_json_src='''
[
    {
        "op": "TensorScaleCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "attr": [
            {
                "name": "scale",
                "param_type": "required",
                "type": "float"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TensorScaleTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);   // element count of x
  TILING_DATA_FIELD_DEF(uint64_t, perCore);       // elements handled by a full core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (32B aligned)
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TensorScaleCustom, TensorScaleTilingData)
}
"""

host_operator_src="""
#include "tensor_scale_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t UB_TILE_BYTES = 16 * 1024;   // per buffer; 2 queues x 2 buffers fits comfortably

struct ScalePlan {
    uint32_t coreNum;
    uint64_t perCore;
    uint32_t tileLength;
};

// Split the flat range over cores in 32B-aligned chunks so each core starts on a block boundary.
static ScalePlan PlanScale(uint64_t total, uint32_t typeSize, uint32_t maxCores)
{
    ScalePlan plan;
    const uint64_t alignElems = BLOCK_BYTES / typeSize;
    uint64_t blocks = (total + alignElems - 1) / alignElems;
    plan.coreNum = static_cast<uint32_t>(blocks < maxCores ? (blocks == 0 ? 1 : blocks) : maxCores);
    uint64_t blocksPerCore = (blocks + plan.coreNum - 1) / plan.coreNum;
    plan.perCore = blocksPerCore * alignElems;
    plan.coreNum = static_cast<uint32_t>((total + plan.perCore - 1) / plan.perCore);
    if (plan.coreNum == 0) {
        plan.coreNum = 1;
    }
    uint32_t tile = UB_TILE_BYTES / typeSize;
    if (plan.perCore < tile) {
        tile = static_cast<uint32_t>(plan.perCore);
    }
    plan.tileLength = tile;
    return plan;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TensorScaleTilingData tiling;
    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = ascendc.GetCoreNumAiv();

    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dt == ge::DT_FLOAT16) ? 2 : 4;
    const float* scale = context->GetAttrs()->GetAttrPointer<float>(0);

    ScalePlan plan = PlanScale(total, typeSize, aivNum);
    context->SetBlockDim(plan.coreNum);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);

    tiling.set_totalLength(total);
    tiling.set_perCore(plan.perCore);
    tiling.set_tileLength(plan.tileLength);
    tiling.set_scale(*scale);
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
    return GRAPH_SUCCESS;
}
}

namespace ops {
class TensorScaleCustom : public OpDef {
public:
    explicit TensorScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TensorScaleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Elementwise y = x * s; the multiply is done natively in T (Muls supports half and float).
template <typename T>
class TensorScaleKernel {
public:
    __aicore__ inline TensorScaleKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TensorScaleTilingData& td)
    {
        uint64_t begin = td.perCore * GetBlockIdx();
        uint64_t remain = td.totalLength > begin ? td.totalLength - begin : 0;
        coreLen = remain < td.perCore ? remain : td.perCore;
        tileLen = td.tileLength;
        scale = static_cast<T>(td.scale);

        xGm.SetGlobalBuffer((__gm__ T*)x + begin, coreLen);
        yGm.SetGlobalBuffer((__gm__ T*)y + begin, coreLen);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (coreLen == 0) {
            return;
        }
        uint64_t tiles = (coreLen + tileLen - 1) / tileLen;
        for (uint64_t t = 0; t < tiles; ++t) {
            uint64_t off = t * tileLen;
            uint32_t cnt = static_cast<uint32_t>((coreLen - off) < tileLen ? (coreLen - off) : tileLen);
            CopyIn(off, cnt);
            Compute(cnt);
            CopyOut(off, cnt);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[off], p, pad);
        inQ.EnQue(xl);
    }
    __aicore__ inline void Compute(uint32_t cnt)
    {
        LocalTensor<T> xl = inQ.DeQue<T>();
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        Muls(yl, xl, scale, cnt);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }
    __aicore__ inline void CopyOut(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> yl = outQ.DeQue<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, p);
        outQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<T> xGm, yGm;
    uint64_t coreLen = 0;
    uint32_t tileLen = 0;
    T scale;
};

extern "C" __global__ __aicore__ void tensor_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        TensorScaleKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        TensorScaleKernel<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor tensor_scale_impl_npu(const at::Tensor& x, double s)
{
    at::Tensor src = x.contiguous();
    at::Tensor out = at::empty_like(src);
    float scale = static_cast<float>(s);
    EXEC_NPU_CMD(aclnnTensorScaleCustom, src, scale, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("tensor_scale_custom", &tensor_scale_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("tensor_scale_custom", &tensor_scale_impl_npu, "y = x * s");
}
"""

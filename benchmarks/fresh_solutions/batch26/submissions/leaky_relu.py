project_json_src='''
[
    {
        "op": "SlopedRectifierCustom",
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
                "name": "negative_slope",
                "param_type": "optional",
                "type": "float",
                "default_value": "0.01"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SlopedRectifierTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalElems);   // whole tensor
  TILING_DATA_FIELD_DEF(uint64_t, coreElems);    // elements owned by cores [0, bigCores)
  TILING_DATA_FIELD_DEF(uint64_t, tailCoreElems);// elements owned by the remaining cores
  TILING_DATA_FIELD_DEF(uint32_t, bigCores);
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);    // UB tile, multiple of 32B
  TILING_DATA_FIELD_DEF(float, negativeSlope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SlopedRectifierCustom, SlopedRectifierTilingData)
}
"""

host_operator_src="""
#include "sloped_rectifier_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <algorithm>

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t DOUBLE_BUF = 2;
constexpr uint64_t KEY_FP32 = 1;
constexpr uint64_t KEY_FP16 = 2;

struct SplitPlan {
    uint32_t cores;
    uint32_t bigCores;
    uint64_t coreElems;
    uint64_t tailCoreElems;
    uint32_t tileElems;
};

// Splits `total` elements into 32B-aligned per-core chunks; the remainder goes
// one aligned unit at a time to the first cores.
SplitPlan PlanSplit(uint64_t total, uint32_t typeBytes, uint32_t maxCores, uint64_t ubBytes)
{
    SplitPlan p{};
    const uint64_t unit = BLOCK_BYTES / typeBytes;
    uint64_t units = (total + unit - 1) / unit;
    p.cores = static_cast<uint32_t>(std::max<uint64_t>(1, std::min<uint64_t>(maxCores, units)));
    uint64_t base = units / p.cores;
    uint64_t extra = units % p.cores;
    p.bigCores = static_cast<uint32_t>(extra);
    p.coreElems = (base + 1) * unit;
    p.tailCoreElems = base * unit;
    if (extra == 0) {
        p.bigCores = p.cores;
        p.coreElems = base * unit;
    }
    // x and y queues (2 buffers each) + fp32 staging tile used by the half variant
    uint64_t perElem = static_cast<uint64_t>(typeBytes) * DOUBLE_BUF * 2 + sizeof(float);
    uint64_t tile = (ubBytes - 1024) / perElem;
    tile = tile / unit * unit;
    tile = std::min<uint64_t>(tile, 16384);
    p.tileElems = static_cast<uint32_t>(std::max<uint64_t>(tile, unit));
    return p;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubBytes = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    uint32_t aivNum = platform.GetCoreNumAiv();

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeBytes = (dt == ge::DT_FLOAT16) ? 2 : 4;
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();

    SplitPlan plan = PlanSplit(total, typeBytes, aivNum, ubBytes);

    SlopedRectifierTilingData tiling;
    tiling.set_totalElems(total);
    tiling.set_coreElems(plan.coreElems);
    tiling.set_tailCoreElems(plan.tailCoreElems);
    tiling.set_bigCores(plan.bigCores);
    tiling.set_tileElems(plan.tileElems);
    const float* slopeAttr = context->GetAttrs()->GetFloat(0);
    tiling.set_negativeSlope(slopeAttr == nullptr ? 0.01f : *slopeAttr);

    context->SetBlockDim(plan.cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? KEY_FP16 : KEY_FP32);
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
class SlopedRectifierCustom : public OpDef {
public:
    explicit SlopedRectifierCustom(const char* name) : OpDef(name)
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

        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SlopedRectifierCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y = x for x >= 0, slope * x otherwise; fp32 path for half storage keeps the slope exact.
__aicore__ inline void RectifyInPlace(const LocalTensor<float>& v, float slope, uint32_t n)
{
    LeakyRelu(v, v, slope, n);
}

template <typename T>
class SlopedRectifierKernel {
public:
    __aicore__ inline SlopedRectifierKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SlopedRectifierTilingData& td)
    {
        uint32_t idx = GetBlockIdx();
        uint64_t start;
        if (idx < td.bigCores) {
            ownElems = td.coreElems;
            start = static_cast<uint64_t>(idx) * td.coreElems;
        } else {
            ownElems = td.tailCoreElems;
            start = static_cast<uint64_t>(td.bigCores) * td.coreElems +
                    static_cast<uint64_t>(idx - td.bigCores) * td.tailCoreElems;
        }
        // the last core may run past the real tensor end because of the 32B rounding
        if (start >= td.totalElems) {
            ownElems = 0;
        } else if (start + ownElems > td.totalElems) {
            ownElems = td.totalElems - start;
        }
        tileElems = td.tileElems;
        slope = td.negativeSlope;

        xGm.SetGlobalBuffer((__gm__ T*)x + start, ownElems);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, ownElems);
        pipe.InitBuffer(srcQue, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(dstQue, BUFFER_NUM, tileElems * sizeof(T));
        if constexpr (!IsSameType<T, float>::value) {
            pipe.InitBuffer(stageBuf, tileElems * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint64_t cursor = 0;
        while (cursor < ownElems) {
            uint32_t len = static_cast<uint32_t>(
                (ownElems - cursor) < tileElems ? (ownElems - cursor) : tileElems);
            CopyIn(cursor, len);
            Compute(len);
            CopyOut(cursor, len);
            cursor += len;
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<T> srcTile = srcQue.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(srcTile, xGm[off], cp, pad);
        srcQue.EnQue(srcTile);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<T> srcTile = srcQue.DeQue<T>();
        LocalTensor<T> dstTile = dstQue.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(dstTile, srcTile, AlignUp(len));
            RectifyInPlace(dstTile, slope, len);
        } else {
            LocalTensor<float> tmp = stageBuf.Get<float>();
            Cast(tmp, srcTile, RoundMode::CAST_NONE, len);
            RectifyInPlace(tmp, slope, len);
            Cast(dstTile, tmp, RoundMode::CAST_ROUND, len);
        }
        dstQue.EnQue(dstTile);
        srcQue.FreeTensor(srcTile);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<T> dstTile = dstQue.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], dstTile, cp);
        dstQue.FreeTensor(dstTile);
    }

    __aicore__ inline uint32_t AlignUp(uint32_t n) const
    {
        constexpr uint32_t unit = 32 / sizeof(T);
        return (n + unit - 1) / unit * unit;
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> srcQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> dstQue;
    TBuf<TPosition::VECCALC> stageBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    uint64_t ownElems = 0;
    uint32_t tileElems = 0;
    float slope = 0.01f;
};

extern "C" __global__ __aicore__ void sloped_rectifier_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        SlopedRectifierKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        SlopedRectifierKernel<half> op;
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

at::Tensor sloped_rectifier_impl_npu(const at::Tensor& x, double negative_slope)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnSlopedRectifierCustom, xc, negative_slope, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("sloped_rectifier_custom", &sloped_rectifier_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("sloped_rectifier_custom", &sloped_rectifier_impl_npu, "leaky relu",
          py::arg("x"), py::arg("negative_slope") = 0.01);
}
"""

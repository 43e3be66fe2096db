project_json_src='''
[
    {
        "op": "NegSlopeRectifierCustom",
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
BEGIN_TILING_DATA_DEF(NegSlopeRectifierTiling)
  TILING_DATA_FIELD_DEF(uint64_t, totalElems);   // whole tensor
  TILING_DATA_FIELD_DEF(uint64_t, perCoreElems); // block-aligned share of one core
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);    // elements per UB tile
  TILING_DATA_FIELD_DEF(float, slope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(NegSlopeRectifierCustom, NegSlopeRectifierTiling)
}
"""

host_operator_src="""
#include "neg_slope_rectifier_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t KEY_FP32 = 1;
constexpr uint32_t KEY_FP16 = 2;
constexpr uint32_t UB_BLOCK = 32;
// in + out queues, each double buffered -> 4 live tiles
constexpr uint32_t LIVE_TILES = 4;

struct SplitPlan {
    uint32_t cores;
    uint64_t perCore;
    uint32_t tile;
};

SplitPlan PlanSplit(uint64_t total, uint32_t elemSize, uint32_t coreNum, uint64_t ubBytes)
{
    SplitPlan p{};
    const uint64_t alignElems = UB_BLOCK / elemSize;
    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + alignElems - 1) / alignElems * alignElems;
    if (perCore == 0) {
        perCore = alignElems;
    }
    p.perCore = perCore;
    p.cores = static_cast<uint32_t>((total + perCore - 1) / perCore);
    if (p.cores == 0) {
        p.cores = 1;
    }
    // keep some headroom in UB; tile stays a multiple of 32 bytes
    uint64_t tileBytes = (ubBytes - 8 * 1024) / LIVE_TILES;
    tileBytes = tileBytes / UB_BLOCK * UB_BLOCK;
    if (tileBytes > 32 * 1024) {
        tileBytes = 32 * 1024;
    }
    p.tile = static_cast<uint32_t>(tileBytes / elemSize);
    return p;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    NegSlopeRectifierTiling tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemSize = (dt == ge::DT_FLOAT16) ? 2 : 4;
    SplitPlan plan = PlanSplit(total, elemSize, coreNum == 0 ? 1 : coreNum, ubSize);

    const float* slopeAttr = context->GetAttrs()->GetFloat(0);
    float slope = slopeAttr == nullptr ? 0.01f : *slopeAttr;

    tiling.set_totalElems(total);
    tiling.set_perCoreElems(plan.perCore);
    tiling.set_tileElems(plan.tile);
    tiling.set_slope(slope);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? KEY_FP16 : KEY_FP32);
    context->SetBlockDim(plan.cores);
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
class NegSlopeRectifierCustom : public OpDef {
public:
    explicit NegSlopeRectifierCustom(const char* name) : OpDef(name)
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

OP_ADD(NegSlopeRectifierCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Copy helpers that tolerate a tail which is not a multiple of 32 bytes.
template <typename T>
__aicore__ inline void LoadSpan(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src, uint32_t n)
{
    AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
    AscendC::DataCopyPad(dst, src, cp, pad);
}

template <typename T>
__aicore__ inline void StoreSpan(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t n)
{
    AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPad(dst, src, cp);
}

template <typename T>
class NegSlopeRectifier {
public:
    __aicore__ inline NegSlopeRectifier() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t total, uint64_t perCore, uint32_t tile, float slope)
    {
        uint64_t begin = perCore * AscendC::GetBlockIdx();
        spanLen_ = 0;
        if (begin < total) {
            uint64_t remain = total - begin;
            spanLen_ = remain < perCore ? remain : perCore;
        }
        tile_ = tile;
        slope_ = static_cast<T>(slope);
        xGm_.SetGlobalBuffer((__gm__ T*)x + begin, spanLen_);
        yGm_.SetGlobalBuffer((__gm__ T*)y + begin, spanLen_);
        pipe_.InitBuffer(inQ_, BUFFER_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, tile_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (spanLen_ == 0) {
            return;
        }
        uint64_t steps = (spanLen_ + tile_ - 1) / tile_;
        for (uint64_t s = 0; s < steps; ++s) {
            uint64_t off = s * tile_;
            uint32_t n = static_cast<uint32_t>((spanLen_ - off) < tile_ ? (spanLen_ - off) : tile_);
            Fetch(off, n);
            Rectify(n);
            Flush(off, n);
        }
    }

private:
    __aicore__ inline void Fetch(uint64_t off, uint32_t n)
    {
        AscendC::LocalTensor<T> buf = inQ_.AllocTensor<T>();
        LoadSpan(buf, xGm_[off], n);
        inQ_.EnQue(buf);
    }

    __aicore__ inline void Rectify(uint32_t n)
    {
        AscendC::LocalTensor<T> src = inQ_.DeQue<T>();
        AscendC::LocalTensor<T> dst = outQ_.AllocTensor<T>();
        // y = x for x >= 0, slope * x otherwise
        AscendC::LeakyRelu(dst, src, slope_, static_cast<int32_t>(n));
        outQ_.EnQue(dst);
        inQ_.FreeTensor(src);
    }

    __aicore__ inline void Flush(uint64_t off, uint32_t n)
    {
        AscendC::LocalTensor<T> dst = outQ_.DeQue<T>();
        StoreSpan(yGm_[off], dst, n);
        outQ_.FreeTensor(dst);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ_;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ_;
    AscendC::GlobalTensor<T> xGm_;
    AscendC::GlobalTensor<T> yGm_;
    uint64_t spanLen_ = 0;
    uint32_t tile_ = 0;
    T slope_;
};

extern "C" __global__ __aicore__ void neg_slope_rectifier_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        NegSlopeRectifier<float> op;
        op.Init(x, y, td.totalElems, td.perCoreElems, td.tileElems, td.slope);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        NegSlopeRectifier<half> op;
        op.Init(x, y, td.totalElems, td.perCoreElems, td.tileElems, td.slope);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor neg_slope_rectifier_impl_npu(const at::Tensor& x, double negative_slope)
{
    at::Tensor src = x.contiguous();
    at::Tensor out = at::empty_like(src);
    float slope = static_cast<float>(negative_slope);
    EXEC_NPU_CMD(aclnnNegSlopeRectifierCustom, src, slope, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("neg_slope_rectifier_custom", &neg_slope_rectifier_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("neg_slope_rectifier_custom", &neg_slope_rectifier_impl_npu, "leaky relu with runtime slope",
          pybind11::arg("x"), pybind11::arg("negative_slope") = 0.01);
}
"""

project_json_src='''
[
    {
        "op": "MaxReductionOverADimensionCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "dim", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaxReductionOverADimensionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);       // product of dims before `dim`
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);   // size of `dim`
  TILING_DATA_FIELD_DEF(uint32_t, inner);       // product of dims after `dim`
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);     // elements of the inner axis per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, innerTiles);  // ceil(inner / tileLen)
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);// (outer, innerTile) work units per core
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaxReductionOverADimensionCustom, MaxReductionOverADimensionCustomTilingData)
}
"""

host_operator_src="""
#include "max_reduction_over_a_dimension_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MaxReductionOverADimensionCustomTilingData tiling;
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();
    const int64_t *dimAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t rank = static_cast<int64_t>(xs.GetDimNum());
    int64_t dim = *dimAttr;
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank) return ge::GRAPH_FAILED;

    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) outer *= xs.GetDim(i);
    for (int64_t i = dim + 1; i < rank; ++i) inner *= xs.GetDim(i);
    uint32_t reduceLen = static_cast<uint32_t>(xs.GetDim(dim));

    uint32_t tileLen;
    uint32_t innerTiles;
    uint64_t units;
    if (inner == 1) {
        // reducing the last axis: one work unit per output element, tileLen walks the reduce axis
        tileLen = reduceLen < MAX_TILE ? (reduceLen + 7) / 8 * 8 : MAX_TILE;
        innerTiles = 1;
        units = outer;
    } else {
        tileLen = inner < MAX_TILE ? static_cast<uint32_t>((inner + 7) / 8 * 8) : MAX_TILE;
        innerTiles = static_cast<uint32_t>((inner + tileLen - 1) / tileLen);
        units = outer * innerTiles;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint64_t perCore = (units + cores - 1) / cores;
    uint32_t blockDim = static_cast<uint32_t>((units + perCore - 1) / perCore);

    tiling.set_outer(static_cast<uint32_t>(outer));
    tiling.set_reduceLen(reduceLen);
    tiling.set_inner(static_cast<uint32_t>(inner));
    tiling.set_tileLen(tileLen);
    tiling.set_innerTiles(innerTiles);
    tiling.set_unitsPerCore(static_cast<uint32_t>(perCore));
    tiling.set_totalUnits(static_cast<uint32_t>(units));

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    int64_t rank = static_cast<int64_t>(xs->GetDimNum());
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) dim += rank;
    ys->SetDimNum(rank - 1);
    int64_t o = 0;
    for (int64_t i = 0; i < rank; ++i) {
        if (i == dim) continue;
        ys->SetDim(o++, xs->GetDim(i));
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MaxReductionOverADimensionCustom : public OpDef {
public:
    explicit MaxReductionOverADimensionCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("dim").Int();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MaxReductionOverADimensionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

namespace {
constexpr int32_t BUFS = 2;
}

// x is viewed as [outer, R, inner] and reduced over R.
//  * inner > 1 : a work unit is (outer index, inner tile). The running max of the tile lives in
//                UB and every one of the R slices is folded in with an element-wise Max.
//  * inner == 1: a work unit is one contiguous row of length R, folded with ReduceMax.
class MaxReduceKernel {
public:
    __aicore__ inline MaxReduceKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MaxReductionOverADimensionCustomTilingData &t)
    {
        outer = t.outer; R = t.reduceLen; inner = t.inner;
        tileLen = t.tileLen; innerTiles = t.innerTiles;
        unitBegin = AscendC::GetBlockIdx() * t.unitsPerCore;
        unitEnd = unitBegin + t.unitsPerCore;
        if (unitEnd > t.totalUnits) unitEnd = t.totalUnits;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(inQ, BUFS, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, 1, tileLen * sizeof(float));
        pipe.InitBuffer(scratch, tileLen * sizeof(float));
        pipe.InitBuffer(scalarBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (unitBegin >= unitEnd) {
            return;
        }
        if (inner == 1) {
            ReduceRows();
        } else {
            ReduceMiddle();
        }
    }

private:
    __aicore__ inline void Load(uint64_t gmOff, uint32_t len)
    {
        AscendC::LocalTensor<float> buf = inQ.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(buf, xGm[gmOff], cp, pad);
        inQ.EnQue(buf);
    }

    __aicore__ inline void ReduceMiddle()
    {
        for (uint32_t u = unitBegin; u < unitEnd; ++u) {
            uint32_t o = u / innerTiles;
            uint32_t it = u % innerTiles;
            uint32_t i0 = it * tileLen;
            uint32_t len = (i0 + tileLen <= inner) ? tileLen : inner - i0;
            uint64_t base = (uint64_t)o * R * inner + i0;

            AscendC::LocalTensor<float> acc = outQ.AllocTensor<float>();
            // slice 0 seeds the running max
            Load(base, len);
            AscendC::LocalTensor<float> first = inQ.DeQue<float>();
            AscendC::Adds(acc, first, 0.0f, len);
            inQ.FreeTensor(first);

            for (uint32_t r = 1; r < R; ++r) {
                Load(base + (uint64_t)r * inner, len);
                AscendC::LocalTensor<float> cur = inQ.DeQue<float>();
                AscendC::Max(acc, acc, cur, len);
                inQ.FreeTensor(cur);
            }

            outQ.EnQue(acc);
            acc = outQ.DeQue<float>();
            AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
            AscendC::DataCopyPad(yGm[(uint64_t)o * inner + i0], acc, cp);
            outQ.FreeTensor(acc);
        }
    }

    __aicore__ inline void ReduceRows()
    {
        AscendC::LocalTensor<float> work = scratch.Get<float>();
        AscendC::LocalTensor<float> one = scalarBuf.Get<float>();
        // results are staged in UB and flushed in batches of up to tileLen values, so each core
        // writes its own contiguous output range with a single DMA per batch
        AscendC::LocalTensor<float> res = outQ.AllocTensor<float>();
        uint32_t staged = 0;
        uint32_t flushBase = unitBegin;
        for (uint32_t u = unitBegin; u < unitEnd; ++u) {
            uint64_t base = (uint64_t)u * R;
            float best = -3.402823466e+38f;
            for (uint32_t r0 = 0; r0 < R; r0 += tileLen) {
                uint32_t len = (r0 + tileLen <= R) ? tileLen : R - r0;
                Load(base + r0, len);
                AscendC::LocalTensor<float> cur = inQ.DeQue<float>();
                AscendC::ReduceMax<float>(one, cur, work, len);
                inQ.FreeTensor(cur);
                event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
                AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
                AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
                float v = one.GetValue(0);
                best = v > best ? v : best;
            }
            res.SetValue(staged++, best);
            if (staged == tileLen || u + 1 == unitEnd) {
                outQ.EnQue(res);
                res = outQ.DeQue<float>();
                AscendC::DataCopyExtParams cp{1, staged * (uint32_t)sizeof(float), 0, 0, 0};
                AscendC::DataCopyPad(yGm[flushBase], res, cp);
                outQ.FreeTensor(res);
                flushBase += staged;
                staged = 0;
                if (u + 1 < unitEnd) {
                    res = outQ.AllocTensor<float>();
                }
            }
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFS> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scratch, scalarBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t outer = 0, R = 0, inner = 0, tileLen = 0, innerTiles = 0;
    uint32_t unitBegin = 0, unitEnd = 0;
};

extern "C" __global__ __aicore__ void max_reduction_over_a_dimension_custom(GM_ADDR x, GM_ADDR y,
                                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    MaxReduceKernel op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor max_reduction_over_a_dimension_custom_impl_npu(const at::Tensor& x, int64_t dim) {
    at::Tensor xc = x.contiguous();
    int64_t rank = xc.dim();
    int64_t d = dim < 0 ? dim + rank : dim;
    TORCH_CHECK(d >= 0 && d < rank, "dim out of range");
    std::vector<int64_t> outShape;
    for (int64_t i = 0; i < rank; ++i) {
        if (i != d) outShape.push_back(xc.size(i));
    }
    at::Tensor y = at::empty(outShape, xc.options());
    EXEC_NPU_CMD(aclnnMaxReductionOverADimensionCustom, xc, d, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("max_reduction_over_a_dimension_custom", &max_reduction_over_a_dimension_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("max_reduction_over_a_dimension_custom", &max_reduction_over_a_dimension_custom_impl_npu,
          "torch.max(x, dim)[0]");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.max_reduction_over_a_dimension_custom(x, self.dim)
'''

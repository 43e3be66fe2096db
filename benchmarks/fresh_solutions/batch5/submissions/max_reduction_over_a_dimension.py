project_json_src='''
[
    {
        "op": "MaxReductionOverADimensionCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
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
                "name": "y",
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
                "name": "dim",
                "param_type": "required",
                "type": "int"
            }
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
  TILING_DATA_FIELD_DEF(uint32_t, colTile);     // inner columns handled per work unit
  TILING_DATA_FIELD_DEF(uint32_t, colTiles);    // ceil(inner / colTile)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoad); // reduce-axis rows fetched per DMA
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);  // outer * colTiles
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsRem);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaxReductionOverADimensionCustom, MaxReductionOverADimensionCustomTilingData)
}
"""

host_operator_src="""
#include "max_reduction_over_a_dimension_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t COL_TILE = 1024;          // floats
constexpr uint32_t LOAD_BYTES = 32 * 1024;   // per input buffer
constexpr uint32_t LAST_DIM_TILE = 8192;     // used when the reduced axis is innermost

static int64_t NormDim(int64_t dim, size_t rank)
{
    return dim < 0 ? dim + static_cast<int64_t>(rank) : dim;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MaxReductionOverADimensionCustomTilingData td;
    const auto& shp = context->GetInputShape(0)->GetStorageShape();
    size_t rank = shp.GetDimNum();
    const int64_t* dimAttr = context->GetAttrs()->GetInt(0);
    int64_t dim = NormDim(dimAttr == nullptr ? 0 : *dimAttr, rank);
    if (dim < 0 || dim >= static_cast<int64_t>(rank)) {
        return ge::GRAPH_FAILED;
    }

    uint32_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) outer *= shp.GetDim(i);
    for (size_t i = dim + 1; i < rank; ++i) inner *= shp.GetDim(i);
    uint32_t reduceLen = shp.GetDim(dim);

    uint32_t colTile, colTiles, rowsPerLoad;
    if (inner == 1) {
        // contiguous reduction: one unit per outer row, the row is streamed in tiles
        colTile = 1;
        colTiles = 1;
        rowsPerLoad = reduceLen < LAST_DIM_TILE ? (reduceLen + 7) / 8 * 8 : LAST_DIM_TILE;
    } else {
        colTile = inner < COL_TILE ? (inner + 7) / 8 * 8 : COL_TILE;
        colTiles = (inner + colTile - 1) / colTile;
        rowsPerLoad = LOAD_BYTES / (colTile * sizeof(float));
        if (rowsPerLoad == 0) rowsPerLoad = 1;
        if (rowsPerLoad > reduceLen) rowsPerLoad = reduceLen;
    }
    uint32_t units = outer * colTiles;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    if (cores > units) cores = units;

    td.set_outer(outer);
    td.set_reduceLen(reduceLen);
    td.set_inner(inner);
    td.set_colTile(colTile);
    td.set_colTiles(colTiles);
    td.set_rowsPerLoad(rowsPerLoad);
    td.set_totalUnits(units);
    td.set_unitsPerCore(units / cores);
    td.set_unitsRem(units % cores);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
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
    const int64_t* dimAttr = context->GetAttrs()->GetInt(0);
    int64_t dim = dimAttr == nullptr ? 0 : *dimAttr;
    if (dim < 0) dim += rank;
    ys->SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) {
        if (i != dim) ys->AppendDim(xs->GetDim(i));
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
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

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float NEG_INF = -3.402823466e+38f;

// x viewed as (outer, R, inner); y[o, j] = max_r x[o, r, j].
// Work unit = (outer index, column tile). A unit walks the reduce axis, bringing
// rowsPerLoad strided row segments per DMA and folding them into a running max.
class KernelMaxReduce {
public:
    __aicore__ inline KernelMaxReduce() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MaxReductionOverADimensionCustomTilingData& td)
    {
        R = td.reduceLen;
        inner = td.inner;
        colTile = td.colTile;
        colTiles = td.colTiles;
        rowsPerLoad = td.rowsPerLoad;

        uint32_t id = GetBlockIdx();
        unitCnt = td.unitsPerCore + (id < td.unitsRem ? 1 : 0);
        unitBeg = id * td.unitsPerCore + (id < td.unitsRem ? id : td.unitsRem);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        if (inner == 1) {
            pipe.InitBuffer(inQ, BUFFER_NUM, rowsPerLoad * sizeof(float));
            pipe.InitBuffer(workBuf, ((rowsPerLoad + 63) / 64 + 64) * sizeof(float));
            pipe.InitBuffer(accBuf, 8 * sizeof(float));
            pipe.InitBuffer(outQ, 1, 8 * sizeof(float));
        } else {
            pipe.InitBuffer(inQ, BUFFER_NUM, rowsPerLoad * colTile * sizeof(float));
            pipe.InitBuffer(accBuf, colTile * sizeof(float));
            pipe.InitBuffer(outQ, 1, colTile * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = 0; u < unitCnt; ++u) {
            uint32_t unit = unitBeg + u;
            if (inner == 1) {
                ReduceContiguous(unit);
            } else {
                ReduceStrided(unit / colTiles, unit % colTiles);
            }
        }
    }

private:
    __aicore__ inline void ReduceStrided(uint32_t o, uint32_t ct)
    {
        uint32_t col0 = ct * colTile;
        uint32_t cols = (inner - col0 < colTile) ? inner - col0 : colTile;
        uint32_t colsPad = (cols + 7) / 8 * 8;
        uint64_t base = static_cast<uint64_t>(o) * R * inner + col0;

        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, NEG_INF, colsPad);

        for (uint32_t r0 = 0; r0 < R; r0 += rowsPerLoad) {
            uint32_t nr = (R - r0 < rowsPerLoad) ? R - r0 : rowsPerLoad;
            // nr row segments of `cols` floats, `inner` apart in GM, packed at colsPad in UB
            LocalTensor<float> blk = inQ.AllocTensor<float>();
            DataCopyExtParams cp;
            cp.blockCount = static_cast<uint16_t>(nr);
            cp.blockLen = cols * sizeof(float);
            cp.srcStride = (inner - cols) * sizeof(float);
            cp.dstStride = 0;
            cp.rsv = 0;
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(blk, xGm[base + static_cast<uint64_t>(r0) * inner], cp, pad);
            inQ.EnQue(blk);

            blk = inQ.DeQue<float>();
            for (uint32_t i = 0; i < nr; ++i) {
                Max(acc, acc, blk[i * colsPad], cols);
            }
            inQ.FreeTensor(blk);
        }

        LocalTensor<float> out = outQ.AllocTensor<float>();
        DataCopy(out, acc, colsPad);
        outQ.EnQue(out);
        out = outQ.DeQue<float>();
        DataCopyExtParams op{1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(o) * inner + col0], out, op);
        outQ.FreeTensor(out);
    }

    // dim is the innermost axis: each unit is a contiguous row of R floats
    __aicore__ inline void ReduceContiguous(uint32_t o)
    {
        uint64_t base = static_cast<uint64_t>(o) * R;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        float best = NEG_INF;
        for (uint32_t r0 = 0; r0 < R; r0 += rowsPerLoad) {
            uint32_t n = (R - r0 < rowsPerLoad) ? R - r0 : rowsPerLoad;
            LocalTensor<float> blk = inQ.AllocTensor<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(blk, xGm[base + r0], cp, pad);
            inQ.EnQue(blk);
            blk = inQ.DeQue<float>();
            ReduceMax(acc, blk, work, n, false);
            event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(e);
            WaitFlag<HardEvent::V_S>(e);
            float v = acc.GetValue(0);
            best = v > best ? v : best;
            inQ.FreeTensor(blk);
        }
        LocalTensor<float> out = outQ.AllocTensor<float>();
        out.SetValue(0, best);
        event_t es = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(es);
        WaitFlag<HardEvent::S_MTE3>(es);
        outQ.EnQue(out);
        out = outQ.DeQue<float>();
        DataCopyExtParams op{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[o], out, op);
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<QuePosition::VECCALC> accBuf;
    TBuf<QuePosition::VECCALC> workBuf;
    GlobalTensor<float> xGm, yGm;

    uint32_t R = 0;
    uint32_t inner = 1;
    uint32_t colTile = 1;
    uint32_t colTiles = 1;
    uint32_t rowsPerLoad = 1;
    uint32_t unitBeg = 0;
    uint32_t unitCnt = 0;
};

extern "C" __global__ __aicore__ void max_reduction_over_a_dimension_custom(GM_ADDR x, GM_ADDR y,
                                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelMaxReduce op;
    op.Init(x, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

at::Tensor max_reduction_over_a_dimension_impl_npu(const at::Tensor& x, int64_t dim)
{
    int64_t rank = x.dim();
    if (dim < 0) dim += rank;
    TORCH_CHECK(dim >= 0 && dim < rank, "dim out of range");
    at::Tensor xc = x.contiguous();
    std::vector<int64_t> outShape;
    for (int64_t i = 0; i < rank; ++i) {
        if (i != dim) outShape.push_back(xc.size(i));
    }
    at::Tensor y = at::empty(outShape, xc.options());
    EXEC_NPU_CMD(aclnnMaxReductionOverADimensionCustom, xc, dim, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("max_reduction_over_a_dimension_custom", &max_reduction_over_a_dimension_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("max_reduction_over_a_dimension_custom", &max_reduction_over_a_dimension_impl_npu,
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

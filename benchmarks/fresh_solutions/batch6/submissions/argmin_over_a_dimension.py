project_json_src='''
[
    {
        "op": "ArgminOverADimensionCustom",
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
                "type": ["int64"]
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
BEGIN_TILING_DATA_DEF(ArgminOverADimensionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outerSize);     // product of dims before `dim`
  TILING_DATA_FIELD_DEF(uint32_t, reduceSize);    // size of `dim`
  TILING_DATA_FIELD_DEF(uint32_t, innerSize);     // product of dims after `dim`
  TILING_DATA_FIELD_DEF(uint32_t, colTile);       // inner columns per work unit (multiple of 64)
  TILING_DATA_FIELD_DEF(uint32_t, colChunks);     // ceil(innerSize / colTile)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoad);   // reduce rows fetched per DMA
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ArgminOverADimensionCustom, ArgminOverADimensionCustomTilingData)
}
"""

host_operator_src="""
#include "argmin_over_a_dimension_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_COL_TILE = 512;
constexpr uint32_t ROWS_PER_LOAD = 16;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ArgminOverADimensionCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    const int64_t* dimAttr = context->GetAttrs()->GetInt(0);
    int64_t dim = (dimAttr == nullptr) ? 0 : *dimAttr;
    if (dim < 0) {
        dim += rank;
    }
    if (dim < 0 || dim >= rank) {
        return ge::GRAPH_FAILED;
    }

    uint32_t outer = 1;
    uint32_t inner = 1;
    for (int64_t i = 0; i < dim; ++i) {
        outer *= shape.GetDim(i);
    }
    for (int64_t i = dim + 1; i < rank; ++i) {
        inner *= shape.GetDim(i);
    }
    uint32_t reduce = shape.GetDim(dim);

    // Compare wants 256-byte multiples, so the lane count is a multiple of 64
    uint32_t colTile = (inner + 63) / 64 * 64;
    if (colTile > MAX_COL_TILE) {
        colTile = MAX_COL_TILE;
    }
    uint32_t chunks = (inner + colTile - 1) / colTile;
    uint32_t units = outer * chunks;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    uint32_t perCore = (units + cores - 1) / cores;
    uint32_t blockDim = (units + perCore - 1) / perCore;

    tiling.set_outerSize(outer);
    tiling.set_reduceSize(reduce);
    tiling.set_innerSize(inner);
    tiling.set_colTile(colTile);
    tiling.set_colChunks(chunks);
    tiling.set_rowsPerLoad(ROWS_PER_LOAD);
    tiling.set_unitsPerCore(perCore);
    tiling.set_totalUnits(units);

    context->SetBlockDim(blockDim);
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
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    int64_t rank = static_cast<int64_t>(xShape->GetDimNum());
    int64_t dim = *context->GetAttrs()->GetInt(0);
    if (dim < 0) {
        dim += rank;
    }
    yShape->SetDimNum(rank - 1);
    int64_t j = 0;
    for (int64_t i = 0; i < rank; ++i) {
        if (i == dim) {
            continue;
        }
        yShape->SetDim(j++, xShape->GetDim(i));
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_INT64);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ArgminOverADimensionCustom : public OpDef {
public:
    explicit ArgminOverADimensionCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("dim").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ArgminOverADimensionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float POS_INF_F = 3.402823466e+38f;

// The input is viewed as (outer, R, inner) and reduced over R.
// A work unit is (outer index, chunk of colTile inner columns). The unit keeps
// a running minimum and the (float) row index of that minimum per column, and
// streams the R rows through UB a few rows per strided DMA. Because a row only
// replaces the current minimum when it is strictly smaller, the first
// occurrence wins, matching torch.argmin.
class ArgminKernel {
public:
    __aicore__ inline ArgminKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ArgminOverADimensionCustomTilingData& td)
    {
        R = td.reduceSize;
        inner = td.innerSize;
        colTile = td.colTile;
        chunks = td.colChunks;
        rowsPerLoad = td.rowsPerLoad;

        unitBegin = GetBlockIdx() * td.unitsPerCore;
        unitEnd = unitBegin + td.unitsPerCore;
        if (unitEnd > td.totalUnits) {
            unitEnd = td.totalUnits;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ int64_t*)y);

        pipe.InitBuffer(inQ, BUFFER_NUM, rowsPerLoad * colTile * sizeof(float));
        pipe.InitBuffer(outQ, 1, colTile * sizeof(int64_t));
        pipe.InitBuffer(minBuf, colTile * sizeof(float));
        pipe.InitBuffer(idxBuf, colTile * sizeof(float));
        pipe.InitBuffer(i32Buf, colTile * sizeof(int32_t));
        pipe.InitBuffer(maskBuf, 256);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = unitBegin; u < unitEnd; ++u) {
            uint32_t o = u / chunks;
            uint32_t c0 = (u % chunks) * colTile;
            uint32_t len = inner - c0;
            if (len > colTile) {
                len = colTile;
            }
            RunUnit(o, c0, len);
        }
    }

private:
    __aicore__ inline void RunUnit(uint32_t o, uint32_t c0, uint32_t len)
    {
        LocalTensor<float> curMin = minBuf.Get<float>();
        LocalTensor<float> curIdx = idxBuf.Get<float>();
        Duplicate(curMin, POS_INF_F, colTile);
        Duplicate(curIdx, 0.0f, colTile);
        PipeBarrier<PIPE_V>();

        uint64_t base = (uint64_t)o * R * inner + c0;
        for (uint32_t r0 = 0; r0 < R; r0 += rowsPerLoad) {
            uint32_t rows = R - r0;
            if (rows > rowsPerLoad) {
                rows = rowsPerLoad;
            }
            CopyIn(base + (uint64_t)r0 * inner, rows, len);
            Update(r0, rows);
        }
        Finish(o, c0, len);
    }

    __aicore__ inline void CopyIn(uint64_t off, uint32_t rows, uint32_t len)
    {
        LocalTensor<float> blk = inQ.AllocTensor<float>();
        uint32_t lenAligned = (len + 7) / 8 * 8;
        // every row lands at a colTile stride in UB
        DataCopyExtParams cp{(uint16_t)rows,
                             len * (uint32_t)sizeof(float),
                             (inner - len) * (uint32_t)sizeof(float),
                             (colTile - lenAligned) / 8,
                             0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(blk, xGm[off], cp, pad);
        inQ.EnQue(blk);
    }

    __aicore__ inline void Update(uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> blk = inQ.DeQue<float>();
        LocalTensor<float> curMin = minBuf.Get<float>();
        LocalTensor<float> curIdx = idxBuf.Get<float>();
        LocalTensor<uint8_t> keep = maskBuf.Get<uint8_t>();

        for (uint32_t k = 0; k < rows; ++k) {
            LocalTensor<float> row = blk[k * colTile];
            // keep bit = 1 where the old minimum is still <= the new value
            Compare(keep, row, curMin, CMPMODE::GE, colTile);
            PipeBarrier<PIPE_V>();
            Select(curIdx, keep, curIdx, (float)(r0 + k), SELMODE::VSEL_TENSOR_SCALAR_MODE, colTile);
            Min(curMin, curMin, row, colTile);
            PipeBarrier<PIPE_V>();
        }
        inQ.FreeTensor(blk);
    }

    __aicore__ inline void Finish(uint32_t o, uint32_t c0, uint32_t len)
    {
        LocalTensor<float> curIdx = idxBuf.Get<float>();
        LocalTensor<int32_t> idx32 = i32Buf.Get<int32_t>();
        LocalTensor<int64_t> res = outQ.AllocTensor<int64_t>();
        // indices are exact small integers in fp32, rounding is only a formality
        Cast(idx32, curIdx, RoundMode::CAST_ROUND, colTile);
        PipeBarrier<PIPE_V>();
        Cast(res, idx32, RoundMode::CAST_NONE, colTile);
        outQ.EnQue(res);

        LocalTensor<int64_t> outL = outQ.DeQue<int64_t>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(int64_t), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)o * inner + c0], outL, cp);
        outQ.FreeTensor(outL);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> minBuf, idxBuf, i32Buf, maskBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<int64_t> yGm;
    uint32_t R, inner, colTile, chunks, rowsPerLoad;
    uint32_t unitBegin, unitEnd;
};

extern "C" __global__ __aicore__ void argmin_over_a_dimension_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                     GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ArgminKernel op;
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

at::Tensor argmin_over_a_dimension_custom_impl_npu(const at::Tensor& x, int64_t dim)
{
    at::Tensor input = x.contiguous();
    int64_t rank = input.dim();
    int64_t d = dim < 0 ? dim + rank : dim;
    TORCH_CHECK(d >= 0 && d < rank, "dim out of range");
    std::vector<int64_t> outShape;
    for (int64_t i = 0; i < rank; ++i) {
        if (i != d) {
            outShape.push_back(input.size(i));
        }
    }
    at::Tensor y = at::empty(outShape, input.options().dtype(at::kLong));
    EXEC_NPU_CMD(aclnnArgminOverADimensionCustom, input, d, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("argmin_over_a_dimension_custom", &argmin_over_a_dimension_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("argmin_over_a_dimension_custom", &argmin_over_a_dimension_custom_impl_npu, "argmin along dim");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.argmin_over_a_dimension_custom(x, self.dim)
'''

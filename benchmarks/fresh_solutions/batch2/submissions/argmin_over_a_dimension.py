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
  TILING_DATA_FIELD_DEF(uint32_t, colTile);       // columns of the inner axis handled per unit (multiple of 64)
  TILING_DATA_FIELD_DEF(uint32_t, colTilesPerOuter);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoad);   // reduce rows brought in by one DataCopyPad
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ArgminOverADimensionCustom, ArgminOverADimensionCustomTilingData)
}
"""

host_operator_src="""
#include "argmin_over_a_dimension_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ArgminOverADimensionCustomTilingData td;
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    const int64_t* dimPtr = context->GetAttrs()->GetInt(0);
    int64_t dim = (dimPtr == nullptr) ? 0 : *dimPtr;
    if (dim < 0) {
        dim += rank;
    }
    if (dim < 0 || dim >= rank) {
        return ge::GRAPH_FAILED;
    }

    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) outer *= shape.GetDim(i);
    for (int64_t i = dim + 1; i < rank; ++i) inner *= shape.GetDim(i);
    uint32_t reduce = static_cast<uint32_t>(shape.GetDim(dim));

    // Column tile along the contiguous inner axis. 1024 floats = 4 KB per reduce row.
    uint32_t colTile = 1024;
    uint32_t innerAligned = static_cast<uint32_t>((inner + 63) / 64 * 64);
    if (innerAligned < colTile) {
        colTile = innerAligned;
    }
    uint32_t tilesPerOuter = static_cast<uint32_t>((inner + colTile - 1) / colTile);
    // Roughly 32 KB per load buffer
    uint32_t rowsPerLoad = (32 * 1024) / (colTile * sizeof(float));
    if (rowsPerLoad == 0) rowsPerLoad = 1;
    if (rowsPerLoad > reduce) rowsPerLoad = reduce;

    uint32_t totalUnits = static_cast<uint32_t>(outer) * tilesPerOuter;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    if (coreNum > totalUnits) coreNum = totalUnits;
    if (coreNum == 0) coreNum = 1;

    td.set_outerSize(static_cast<uint32_t>(outer));
    td.set_reduceSize(reduce);
    td.set_innerSize(static_cast<uint32_t>(inner));
    td.set_colTile(colTile);
    td.set_colTilesPerOuter(tilesPerOuter);
    td.set_rowsPerLoad(rowsPerLoad);
    td.set_totalUnits(totalUnits);
    td.set_coreNum(coreNum);

    context->SetBlockDim(coreNum);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    int64_t rank = static_cast<int64_t>(xShape->GetDimNum());
    const int64_t* dimPtr = context->GetAttrs()->GetInt(0);
    int64_t dim = (dimPtr == nullptr) ? 0 : *dimPtr;
    if (dim < 0) dim += rank;
    yShape->SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) {
        if (i != dim) {
            yShape->AppendDim(xShape->GetDim(i));
        }
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

// Each work unit = (outer index, column tile of the inner axis).
// We stream the reduce axis through UB, keeping a running minimum and its index
// for every column of the tile. Strict "<" keeps the first occurrence like torch.argmin.
class KernelArgminDim {
public:
    __aicore__ inline KernelArgminDim() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ArgminOverADimensionCustomTilingData& td)
    {
        outerSize = td.outerSize;
        reduceSize = td.reduceSize;
        innerSize = td.innerSize;
        colTile = td.colTile;
        tilesPerOuter = td.colTilesPerOuter;
        rowsPerLoad = td.rowsPerLoad;
        totalUnits = td.totalUnits;
        coreNum = td.coreNum;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ int64_t*)y);

        pipe.InitBuffer(inQ, BUFFER_NUM, rowsPerLoad * colTile * sizeof(float));
        pipe.InitBuffer(outQ, 1, colTile * sizeof(int64_t));
        pipe.InitBuffer(minValBuf, colTile * sizeof(float));
        pipe.InitBuffer(minIdxBuf, colTile * sizeof(float));
        pipe.InitBuffer(idxIntBuf, colTile * sizeof(int32_t));
        // one bit per element, padded up to 256 bytes
        uint32_t maskBytes = (colTile / 8 + 255) / 256 * 256;
        pipe.InitBuffer(maskBuf, maskBytes);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t unit = GetBlockIdx(); unit < totalUnits; unit += coreNum) {
            uint32_t o = unit / tilesPerOuter;
            uint32_t colStart = (unit % tilesPerOuter) * colTile;
            uint32_t cols = (colStart + colTile <= innerSize) ? colTile : (innerSize - colStart);
            ReduceUnit(o, colStart, cols);
        }
    }

private:
    __aicore__ inline void LoadRows(uint64_t gmOff, uint32_t rows, uint32_t cols)
    {
        LocalTensor<float> buf = inQ.AllocTensor<float>();
        uint32_t colsAligned = (cols + 7) / 8 * 8;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = cols * sizeof(float);
        cp.srcStride = (innerSize - cols) * sizeof(float);       // bytes skipped in GM between rows
        cp.dstStride = (colTile - colsAligned) / 8;              // 32B blocks skipped in UB between rows
        cp.rsv = 0;
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(buf, xGm[gmOff], cp, pad);
        inQ.EnQue(buf);
    }

    __aicore__ inline void ReduceUnit(uint32_t o, uint32_t colStart, uint32_t cols)
    {
        LocalTensor<float> minVal = minValBuf.Get<float>();
        LocalTensor<float> minIdx = minIdxBuf.Get<float>();
        LocalTensor<uint8_t> geMask = maskBuf.Get<uint8_t>();

        uint64_t base = static_cast<uint64_t>(o) * reduceSize * innerSize + colStart;
        bool first = true;
        for (uint32_t r0 = 0; r0 < reduceSize; r0 += rowsPerLoad) {
            uint32_t rows = (r0 + rowsPerLoad <= reduceSize) ? rowsPerLoad : (reduceSize - r0);
            LoadRows(base + static_cast<uint64_t>(r0) * innerSize, rows, cols);
            LocalTensor<float> chunk = inQ.DeQue<float>();
            uint32_t startRow = 0;
            if (first) {
                // seed the running minimum with reduce row 0
                Adds(minVal, chunk, 0.0f, colTile);
                Duplicate(minIdx, 0.0f, colTile);
                PipeBarrier<PIPE_V>();
                startRow = 1;
                first = false;
            }
            for (uint32_t r = startRow; r < rows; ++r) {
                LocalTensor<float> cur = chunk[r * colTile];
                // geMask = cur >= minVal  -> keep old index; otherwise take this row
                Compare(geMask, cur, minVal, CMPMODE::GE, colTile);
                PipeBarrier<PIPE_V>();
                Select(minIdx, geMask, minIdx, static_cast<float>(r0 + r),
                       SELMODE::VSEL_TENSOR_SCALAR_MODE, colTile);
                Min(minVal, minVal, cur, colTile);
                PipeBarrier<PIPE_V>();
            }
            inQ.FreeTensor(chunk);
        }

        // float index -> int32 -> int64
        LocalTensor<int32_t> idxInt = idxIntBuf.Get<int32_t>();
        LocalTensor<int64_t> out = outQ.AllocTensor<int64_t>();
        Cast(idxInt, minIdx, RoundMode::CAST_RINT, colTile);
        PipeBarrier<PIPE_V>();
        Cast(out, idxInt, RoundMode::CAST_NONE, colTile);
        outQ.EnQue(out);

        LocalTensor<int64_t> res = outQ.DeQue<int64_t>();
        DataCopyExtParams cpOut{1, static_cast<uint32_t>(cols * sizeof(int64_t)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(o) * innerSize + colStart], res, cpOut);
        outQ.FreeTensor(res);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> minValBuf, minIdxBuf, idxIntBuf, maskBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<int64_t> yGm;
    uint32_t outerSize, reduceSize, innerSize;
    uint32_t colTile, tilesPerOuter, rowsPerLoad;
    uint32_t totalUnits, coreNum;
};

extern "C" __global__ __aicore__ void argmin_over_a_dimension_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelArgminDim op;
    op.Init(x, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor argmin_over_a_dimension_custom_impl_npu(const at::Tensor& x, int64_t dim)
{
    int64_t rank = x.dim();
    int64_t d = dim < 0 ? dim + rank : dim;
    TORCH_CHECK(d >= 0 && d < rank, "argmin: dim out of range");
    std::vector<int64_t> outShape;
    for (int64_t i = 0; i < rank; ++i) {
        if (i != d) outShape.push_back(x.size(i));
    }
    at::Tensor result = at::empty(outShape, x.options().dtype(at::kLong));
    EXEC_NPU_CMD(aclnnArgminOverADimensionCustom, x, d, result);
    return result;
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
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.argmin_over_a_dimension_custom(x, self.dim)
'''

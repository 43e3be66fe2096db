project_json_src='''
[
    {
        "op": "ArgmaxOverADimensionCustom",
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
                "param_type": "optional",
                "type": "int",
                "default_value": "1"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ArgmaxOverADimensionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);       // product of dims before `dim`
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);   // size of `dim`
  TILING_DATA_FIELD_DEF(uint32_t, inner);       // product of dims after `dim`
  TILING_DATA_FIELD_DEF(uint32_t, tileCols);    // columns of `inner` per work item (multiple of 64)
  TILING_DATA_FIELD_DEF(uint32_t, colTiles);    // ceil(inner / tileCols)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCopy); // reduction rows moved per DMA
  TILING_DATA_FIELD_DEF(uint32_t, totalItems);  // outer * colTiles
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ArgmaxOverADimensionCustom, ArgmaxOverADimensionCustomTilingData)
}
"""

host_operator_src="""
#include "argmax_over_a_dimension_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_COLS = 1024;
constexpr uint32_t ROWS_PER_COPY = 8;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ArgmaxOverADimensionCustomTilingData tiling;
    const gert::Shape shape = context->GetInputShape(0)->GetStorageShape();
    int64_t dim = *(context->GetAttrs()->GetAttrPointer<int64_t>(0));
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    if (dim < 0) {
        dim += rank;
    }

    uint32_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) {
        outer *= static_cast<uint32_t>(shape.GetDim(i));
    }
    for (int64_t i = dim + 1; i < rank; ++i) {
        inner *= static_cast<uint32_t>(shape.GetDim(i));
    }
    uint32_t reduceLen = static_cast<uint32_t>(shape.GetDim(dim));

    uint32_t tileCols = TILE_COLS;
    uint32_t inner64 = (inner + 63) / 64 * 64;
    if (inner64 < tileCols) {
        tileCols = inner64;
    }
    uint32_t colTiles = (inner + tileCols - 1) / tileCols;

    tiling.set_outer(outer);
    tiling.set_reduceLen(reduceLen);
    tiling.set_inner(inner);
    tiling.set_tileCols(tileCols);
    tiling.set_colTiles(colTiles);
    tiling.set_rowsPerCopy(ROWS_PER_COPY);
    tiling.set_totalItems(outer * colTiles);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blockDim = plat.GetCoreNumAiv();
    if (blockDim > outer * colTiles) {
        blockDim = outer * colTiles;
    }
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
    int64_t dim = *(context->GetAttrs()->GetAttrPointer<int64_t>(0));
    int64_t rank = static_cast<int64_t>(xs->GetDimNum());
    if (dim < 0) {
        dim += rank;
    }
    ys->SetDimNum(rank - 1);
    int64_t j = 0;
    for (int64_t i = 0; i < rank; ++i) {
        if (i != dim) {
            ys->SetDim(j++, xs->GetDim(i));
        }
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, ge::DT_INT64);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ArgmaxOverADimensionCustom : public OpDef {
public:
    explicit ArgmaxOverADimensionCustom(const char* name) : OpDef(name)
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
        this->Attr("dim").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ArgmaxOverADimensionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr float NEG_BIG = -3.402823466e+38f;

// View x as [outer, R, inner] and reduce over R.
// A work item is (o, column tile). The running max and its row index (kept as float,
// exact for R < 2^24) are vectors over the tile columns; every reduction row does
//   keep = (row <= runMax);  runMax = max(runMax, row);  idx = keep ? idx : r
// A strict ">" for replacing keeps the FIRST maximum, matching torch.argmax.
class KernelArgmaxDim {
public:
    __aicore__ inline KernelArgmaxDim() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ArgmaxOverADimensionCustomTilingData &t)
    {
        outer = t.outer;
        reduceLen = t.reduceLen;
        inner = t.inner;
        tileCols = t.tileCols;
        colTiles = t.colTiles;
        rowsPerCopy = t.rowsPerCopy;
        totalItems = t.totalItems;

        xGm.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(outer) * reduceLen * inner);
        yGm.SetGlobalBuffer((__gm__ int32_t *)y, static_cast<uint64_t>(outer) * inner * 2);

        pipe.InitBuffer(inQueue, BUFFER_NUM, rowsPerCopy * tileCols * sizeof(float));
        pipe.InitBuffer(outQueue, 1, tileCols * sizeof(int64_t));
        pipe.InitBuffer(maxBuf, tileCols * sizeof(float));
        pipe.InitBuffer(idxBuf, tileCols * sizeof(float));
        pipe.InitBuffer(idxIntBuf, tileCols * sizeof(int32_t));
        uint32_t maskBytes = tileCols / 8;
        maskBytes = (maskBytes + 31) / 32 * 32;
        pipe.InitBuffer(maskBuf, maskBytes);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t item = AscendC::GetBlockIdx(); item < totalItems; item += AscendC::GetBlockNum()) {
            uint32_t o = item / colTiles;
            uint32_t c0 = (item % colTiles) * tileCols;
            uint32_t cols = (inner - c0) < tileCols ? (inner - c0) : tileCols;
            ReduceTile(o, c0, cols);
        }
    }

private:
    __aicore__ inline void ReduceTile(uint32_t o, uint32_t c0, uint32_t cols)
    {
        AscendC::LocalTensor<float> runMax = maxBuf.Get<float>();
        AscendC::LocalTensor<float> runIdx = idxBuf.Get<float>();
        AscendC::LocalTensor<uint8_t> keep = maskBuf.Get<uint8_t>();
        uint32_t vecCols = (cols + 63) / 64 * 64;   // Compare wants 256B multiples

        AscendC::Duplicate(runMax, NEG_BIG, tileCols);
        AscendC::Duplicate(runIdx, 0.0f, tileCols);

        uint64_t base = static_cast<uint64_t>(o) * reduceLen * inner + c0;
        for (uint32_t r0 = 0; r0 < reduceLen; r0 += rowsPerCopy) {
            uint32_t rows = (reduceLen - r0) < rowsPerCopy ? (reduceLen - r0) : rowsPerCopy;
            CopyIn(base + static_cast<uint64_t>(r0) * inner, rows, cols);

            AscendC::LocalTensor<float> blk = inQueue.DeQue<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                AscendC::LocalTensor<float> cur = blk[r * tileCols];
                AscendC::Compare(keep, cur, runMax, AscendC::CMPMODE::LE, vecCols);
                AscendC::Max(runMax, runMax, cur, vecCols);
                AscendC::Select(runIdx, keep, runIdx, static_cast<float>(r0 + r),
                                AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, vecCols);
            }
            inQueue.FreeTensor(blk);
        }
        CopyOut(o, c0, cols);
    }

    __aicore__ inline void CopyIn(uint64_t gmOff, uint32_t rows, uint32_t cols)
    {
        AscendC::LocalTensor<float> blk = inQueue.AllocTensor<float>();
        uint32_t colsAligned = (cols + 7) / 8 * 8;
        AscendC::DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = static_cast<uint32_t>(cols * sizeof(float));
        cp.srcStride = static_cast<uint32_t>((inner - cols) * sizeof(float));   // bytes on the GM side
        cp.dstStride = static_cast<uint32_t>((tileCols - colsAligned) / 8);      // 32B blocks on the UB side
        cp.rsv = 0;
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(blk, xGm[gmOff], cp, pad);
        inQueue.EnQue(blk);
    }

    __aicore__ inline void CopyOut(uint32_t o, uint32_t c0, uint32_t cols)
    {
        AscendC::LocalTensor<float> runIdx = idxBuf.Get<float>();
        AscendC::LocalTensor<int32_t> idx32 = idxIntBuf.Get<int32_t>();
        AscendC::LocalTensor<int64_t> idx64 = outQueue.AllocTensor<int64_t>();
        AscendC::Cast(idx32, runIdx, AscendC::RoundMode::CAST_RINT, tileCols);
        AscendC::Cast(idx64, idx32, AscendC::RoundMode::CAST_NONE, tileCols);
        outQueue.EnQue(idx64);

        idx64 = outQueue.DeQue<int64_t>();
        // int64 moved as pairs of int32 words
        AscendC::LocalTensor<int32_t> words = idx64.ReinterpretCast<int32_t>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cols * sizeof(int64_t)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[(static_cast<uint64_t>(o) * inner + c0) * 2], words, cp);
        outQueue.FreeTensor(idx64);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> maxBuf, idxBuf, idxIntBuf, maskBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<int32_t> yGm;
    uint32_t outer, reduceLen, inner, tileCols, colTiles, rowsPerCopy, totalItems;
};

extern "C" __global__ __aicore__ void argmax_over_a_dimension_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelArgmaxDim op;
    op.Init(x, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor argmax_over_a_dimension_custom_impl_npu(const at::Tensor& x, int64_t dim)
{
    int64_t rank = x.dim();
    int64_t d = dim < 0 ? dim + rank : dim;
    TORCH_CHECK(d >= 0 && d < rank, "argmax: dim out of range");
    std::vector<int64_t> outShape;
    for (int64_t i = 0; i < rank; ++i) {
        if (i != d) {
            outShape.push_back(x.size(i));
        }
    }
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty(outShape, x.options().dtype(at::kLong));
    EXEC_NPU_CMD(aclnnArgmaxOverADimensionCustom, xc, d, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("argmax_over_a_dimension_custom", &argmax_over_a_dimension_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("argmax_over_a_dimension_custom", &argmax_over_a_dimension_custom_impl_npu, "argmax over one dimension");
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
        return custom_ops_lib.argmax_over_a_dimension_custom(x, self.dim)
'''

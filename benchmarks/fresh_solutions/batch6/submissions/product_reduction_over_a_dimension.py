project_json_src='''
[
    {
        "op": "ProductReductionOverADimensionCustom",
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
BEGIN_TILING_DATA_DEF(ProductReductionOverADimensionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outerSize);     // dim 之前各维的乘积
  TILING_DATA_FIELD_DEF(uint32_t, reduceSize);    // 被规约维长度
  TILING_DATA_FIELD_DEF(uint32_t, innerSize);     // dim 之后各维的乘积
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // inner 方向每块长度
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerOuter); // inner 方向块数
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerChunk);  // reduce 方向一次搬入的行数
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);    // outer * tilesPerOuter, 在核间切分
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ProductReductionOverADimensionCustom, ProductReductionOverADimensionCustomTilingData)
}
"""

host_operator_src="""
#include "product_reduction_over_a_dimension_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE_LEN = 1024;       // inner 方向一块最多 1024 个 float
constexpr uint32_t CHUNK_ELEMS = 8192;        // 一次搬入 32KB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ProductReductionOverADimensionCustomTilingData tiling;
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    const int64_t* dimPtr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t dim = *dimPtr;
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

    // inner 方向按 8 对齐切块, 保证 GM 上每行的搬运长度是 32B 的整数倍 (尾块用 DataCopyPad)
    uint32_t tileLen = inner < MAX_TILE_LEN ? static_cast<uint32_t>(inner) : MAX_TILE_LEN;
    uint32_t tileLenPad = (tileLen + 7) / 8 * 8;
    uint32_t tilesPerOuter = static_cast<uint32_t>((inner + tileLen - 1) / tileLen);
    uint32_t rowsPerChunk = CHUNK_ELEMS / tileLenPad;
    if (rowsPerChunk > reduce) rowsPerChunk = reduce;
    if (rowsPerChunk == 0) rowsPerChunk = 1;

    uint32_t totalUnits = static_cast<uint32_t>(outer) * tilesPerOuter;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t blockDim = totalUnits < coreNum ? totalUnits : coreNum;
    if (blockDim == 0) blockDim = 1;

    tiling.set_outerSize(static_cast<uint32_t>(outer));
    tiling.set_reduceSize(reduce);
    tiling.set_innerSize(static_cast<uint32_t>(inner));
    tiling.set_tileLen(tileLen);
    tiling.set_tilesPerOuter(tilesPerOuter);
    tiling.set_rowsPerChunk(rowsPerChunk);
    tiling.set_totalUnits(totalUnits);
    tiling.set_unitsPerCore(totalUnits / blockDim);
    tiling.set_unitsRemain(totalUnits % blockDim);

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
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    int64_t rank = static_cast<int64_t>(xs->GetDimNum());
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) dim += rank;
    ys->SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) {
        if (i != dim) {
            ys->AppendDim(xs->GetDim(i));
        }
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
class ProductReductionOverADimensionCustom : public OpDef {
public:
    explicit ProductReductionOverADimensionCustom(const char* name) : OpDef(name)
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
        this->Attr("dim").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ProductReductionOverADimensionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// 把输入看成 [outer, reduce, inner], 沿 reduce 方向连乘.
// 每个 "单元" = (outer 下标, inner 方向的一块), 单元在核间平均分配.
// 对一个单元: acc 初始化为 1, 每次用带 stride 的 DataCopy 搬入 rowsPerChunk 行 (每行 tileLen 个),
// 然后逐行 Mul 累乘到 acc 上; 这样内存访问沿 inner 连续, 不需要转置.
class KernelProdReduce {
public:
    __aicore__ inline KernelProdReduce() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ProductReductionOverADimensionCustomTilingData& t)
    {
        reduceSize = t.reduceSize;
        innerSize = t.innerSize;
        tileLen = t.tileLen;
        tileLenPad = (tileLen + 7) / 8 * 8;
        tilesPerOuter = t.tilesPerOuter;
        rowsPerChunk = t.rowsPerChunk;

        uint32_t bid = GetBlockIdx();
        unitCount = t.unitsPerCore + (bid < t.unitsRemain ? 1 : 0);
        unitStart = bid * t.unitsPerCore + (bid < t.unitsRemain ? bid : t.unitsRemain);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQue, BUFFER_NUM, rowsPerChunk * tileLenPad * sizeof(float));
        pipe.InitBuffer(outQue, 1, tileLenPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = 0; u < unitCount; ++u) {
            uint32_t unit = unitStart + u;
            uint32_t o = unit / tilesPerOuter;
            uint32_t tIdx = unit % tilesPerOuter;
            uint32_t col0 = tIdx * tileLen;
            uint32_t len = (col0 + tileLen <= innerSize) ? tileLen : (innerSize - col0);
            ReduceOneUnit(o, col0, len);
        }
    }

private:
    __aicore__ inline void ReduceOneUnit(uint32_t o, uint32_t col0, uint32_t len)
    {
        LocalTensor<float> acc = outQue.AllocTensor<float>();
        Duplicate(acc, 1.0f, tileLenPad);

        uint64_t base = (uint64_t)o * reduceSize * innerSize + col0;
        for (uint32_t r = 0; r < reduceSize; r += rowsPerChunk) {
            uint32_t nRows = (r + rowsPerChunk <= reduceSize) ? rowsPerChunk : (reduceSize - r);
            // 搬入 nRows 行: GM 上行距 innerSize, UB 上行距 tileLenPad
            LocalTensor<float> xl = inQue.AllocTensor<float>();
            DataCopyExtParams cp;
            cp.blockCount = (uint16_t)nRows;
            cp.blockLen = len * sizeof(float);
            cp.srcStride = (innerSize - len) * sizeof(float);   // DataCopyPad 的 GM 侧 stride 单位为字节
            cp.dstStride = 0;
            cp.rsv = 0;
            DataCopyPadExtParams<float> pad{true, 0, (uint8_t)(tileLenPad - len), 1.0f};
            DataCopyPad(xl, xGm[base + (uint64_t)r * innerSize], cp, pad);
            inQue.EnQue(xl);

            xl = inQue.DeQue<float>();
            for (uint32_t k = 0; k < nRows; ++k) {
                Mul(acc, acc, xl[k * tileLenPad], len);
                PipeBarrier<PIPE_V>();
            }
            inQue.FreeTensor(xl);
        }

        outQue.EnQue(acc);
        acc = outQue.DeQue<float>();
        DataCopyExtParams op{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)o * innerSize + col0], acc, op);
        outQue.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    GlobalTensor<float> xGm, yGm;
    uint32_t reduceSize, innerSize, tileLen, tileLenPad, tilesPerOuter, rowsPerChunk;
    uint32_t unitStart, unitCount;
};

extern "C" __global__ __aicore__ void product_reduction_over_a_dimension_custom(GM_ADDR x, GM_ADDR y,
                                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelProdReduce op;
    op.Init(x, y, t);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor product_reduction_over_a_dimension_custom_impl_npu(const at::Tensor& x, int64_t dim)
{
    int64_t rank = x.dim();
    int64_t d = dim < 0 ? dim + rank : dim;
    TORCH_CHECK(d >= 0 && d < rank, "dim out of range");
    std::vector<int64_t> outShape;
    for (int64_t i = 0; i < rank; ++i) {
        if (i != d) {
            outShape.push_back(x.size(i));
        }
    }
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty(outShape, xc.options());
    EXEC_NPU_CMD(aclnnProductReductionOverADimensionCustom, xc, d, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("product_reduction_over_a_dimension_custom", &product_reduction_over_a_dimension_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("product_reduction_over_a_dimension_custom", &product_reduction_over_a_dimension_custom_impl_npu,
          "torch.prod(x, dim)");
}
"""

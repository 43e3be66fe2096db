project_json_src='''
[
    {
        "op": "CrossRowProductCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "lhs",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "rhs",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "out",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CrossRowProductTiling)
  TILING_DATA_FIELD_DEF(uint32_t, lhsRows);    // A: rows of lhs (A, 1, L)
  TILING_DATA_FIELD_DEF(uint32_t, rhsRows);    // B: rows of rhs (1, B, L)
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);     // L
  TILING_DATA_FIELD_DEF(uint32_t, chunk);      // elements per UB chunk
  TILING_DATA_FIELD_DEF(uint32_t, pairs);      // A * B output rows
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CrossRowProductCustom, CrossRowProductTiling)
}
"""

host_operator_src="""
#include "cross_row_product_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CHUNK = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CrossRowProductTiling tiling;
    const gert::Shape& as = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bs = context->GetInputShape(1)->GetStorageShape();
    // lhs (A, 1, L), rhs (1, B, L)  ->  out (A, B, L)
    if (as.GetDimNum() != 3 || bs.GetDimNum() != 3 || as.GetDim(1) != 1 || bs.GetDim(0) != 1 ||
        as.GetDim(2) != bs.GetDim(2)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t a = static_cast<uint32_t>(as.GetDim(0));
    uint32_t b = static_cast<uint32_t>(bs.GetDim(1));
    uint32_t len = static_cast<uint32_t>(as.GetDim(2));

    uint32_t chunk = len < MAX_CHUNK ? (len + 7) / 8 * 8 : MAX_CHUNK;
    uint32_t pairs = a * b;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint32_t blocks = pairs < cores ? pairs : cores;
    if (blocks == 0) blocks = 1;

    tiling.set_lhsRows(a);
    tiling.set_rhsRows(b);
    tiling.set_rowLen(len);
    tiling.set_chunk(chunk);
    tiling.set_pairs(pairs);

    context->SetBlockDim(blocks);
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
    const gert::Shape* as = context->GetInputShape(0);
    const gert::Shape* bs = context->GetInputShape(1);
    gert::Shape* os = context->GetOutputShape(0);
    os->SetDimNum(3);
    os->SetDim(0, as->GetDim(0));
    os->SetDim(1, bs->GetDim(1));
    os->SetDim(2, as->GetDim(2));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class CrossRowProductCustom : public OpDef {
public:
    explicit CrossRowProductCustom(const char* name) : OpDef(name)
    {
        this->Input("lhs")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("rhs")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(CrossRowProductCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t QDEPTH = 2;

// out[i, j, :] = lhs[i, 0, :] * rhs[0, j, :]
// Output rows (i, j) are dealt round-robin to the cores; each row is streamed in chunks
// with double-buffered input/output queues.
class CrossRowProductKernel {
public:
    __aicore__ inline CrossRowProductKernel() {}

    __aicore__ inline void Init(GM_ADDR lhs, GM_ADDR rhs, GM_ADDR out,
                                uint32_t lhsRows, uint32_t rhsRows, uint32_t rowLen,
                                uint32_t chunk, uint32_t pairs)
    {
        nA = lhsRows;
        nB = rhsRows;
        len = rowLen;
        chunkLen = chunk;
        nPairs = pairs;

        aGm.SetGlobalBuffer((__gm__ float*)lhs, static_cast<uint64_t>(nA) * len);
        bGm.SetGlobalBuffer((__gm__ float*)rhs, static_cast<uint64_t>(nB) * len);
        oGm.SetGlobalBuffer((__gm__ float*)out, static_cast<uint64_t>(nA) * nB * len);

        pipe.InitBuffer(aQue, QDEPTH, chunkLen * sizeof(float));
        pipe.InitBuffer(bQue, QDEPTH, chunkLen * sizeof(float));
        pipe.InitBuffer(oQue, QDEPTH, chunkLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = AscendC::GetBlockIdx(); p < nPairs; p += AscendC::GetBlockNum()) {
            uint32_t i = p / nB;
            uint32_t j = p - i * nB;
            uint64_t aBase = static_cast<uint64_t>(i) * len;
            uint64_t bBase = static_cast<uint64_t>(j) * len;
            uint64_t oBase = static_cast<uint64_t>(p) * len;
            for (uint32_t off = 0; off < len; off += chunkLen) {
                uint32_t n = (len - off) < chunkLen ? (len - off) : chunkLen;
                CopyIn(aBase + off, bBase + off, n);
                Multiply(n);
                CopyOut(oBase + off, n);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t aOff, uint64_t bOff, uint32_t n)
    {
        AscendC::LocalTensor<float> at = aQue.AllocTensor<float>();
        AscendC::LocalTensor<float> bt = bQue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(at, aGm[aOff], cp, pad);
        AscendC::DataCopyPad(bt, bGm[bOff], cp, pad);
        aQue.EnQue(at);
        bQue.EnQue(bt);
    }

    __aicore__ inline void Multiply(uint32_t n)
    {
        AscendC::LocalTensor<float> at = aQue.DeQue<float>();
        AscendC::LocalTensor<float> bt = bQue.DeQue<float>();
        AscendC::LocalTensor<float> ot = oQue.AllocTensor<float>();
        AscendC::Mul(ot, at, bt, n);
        oQue.EnQue(ot);
        aQue.FreeTensor(at);
        bQue.FreeTensor(bt);
    }

    __aicore__ inline void CopyOut(uint64_t oOff, uint32_t n)
    {
        AscendC::LocalTensor<float> ot = oQue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(oGm[oOff], ot, cp);
        oQue.FreeTensor(ot);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, QDEPTH> aQue, bQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, QDEPTH> oQue;
    AscendC::GlobalTensor<float> aGm, bGm, oGm;
    uint32_t nA, nB, len, chunkLen, nPairs;
};

extern "C" __global__ __aicore__ void cross_row_product_custom(GM_ADDR lhs, GM_ADDR rhs, GM_ADDR out,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    CrossRowProductKernel op;
    op.Init(lhs, rhs, out, td.lhsRows, td.rhsRows, td.rowLen, td.chunk, td.pairs);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Broadcast product of lhs (A, 1, L) and rhs (1, B, L) into (A, B, L).
// Other broadcast patterns are left to the stock multiply.
at::Tensor cross_row_product_impl_npu(const at::Tensor& lhs, const at::Tensor& rhs)
{
    bool pattern = lhs.dim() == 3 && rhs.dim() == 3 && lhs.size(1) == 1 && rhs.size(0) == 1 &&
                   lhs.size(2) == rhs.size(2);
    if (!pattern) {
        return at::mul(lhs, rhs);
    }
    at::Tensor a = lhs.contiguous();
    at::Tensor b = rhs.contiguous();
    at::Tensor out = at::empty({a.size(0), b.size(1), a.size(2)}, a.options());
    EXEC_NPU_CMD(aclnnCrossRowProductCustom, a, b, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("cross_row_product_custom", &cross_row_product_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("cross_row_product_custom", &cross_row_product_impl_npu, "broadcast product (A,1,L) x (1,B,L)");
}
"""

project_json_src='''
[
    {
        "op": "IndexCopyCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "indices", "param_type": "required", "format": ["ND"], "type": ["int64"]},
            {"name": "src", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(IndexCopyCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, numRows);     // rows of x / y (dim 0)
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);      // elements per row
  TILING_DATA_FIELD_DEF(uint32_t, numIndex);    // length of indices
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);    // elements moved through UB at once
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IndexCopyCustom, IndexCopyCustomTilingData)
}
"""

host_operator_src="""
#include "index_copy_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CHUNK = 16384;   // 64 KB of fp32 per buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    IndexCopyCustomTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();

    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &is = context->GetInputShape(1)->GetStorageShape();
    uint32_t numRows = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t rowLen = 1;
    for (size_t i = 1; i < xs.GetDimNum(); ++i) {
        rowLen *= static_cast<uint32_t>(xs.GetDim(i));
    }
    uint32_t numIndex = static_cast<uint32_t>(is.GetShapeSize());

    // each core owns a contiguous range of destination rows; that way duplicate
    // indices are resolved deterministically (last one wins) without any inter-core sync
    if (cores > numRows) cores = numRows;
    if (cores == 0) cores = 1;
    uint32_t rowsPerCore = (numRows + cores - 1) / cores;
    uint32_t usedCores = (numRows + rowsPerCore - 1) / rowsPerCore;

    uint32_t chunk = rowLen < MAX_CHUNK ? rowLen : MAX_CHUNK;

    td.set_numRows(numRows);
    td.set_rowLen(rowLen);
    td.set_numIndex(numIndex);
    td.set_rowsPerCore(rowsPerCore);
    td.set_chunkLen(chunk);

    context->SetBlockDim(usedCores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
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
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class IndexCopyCustom : public OpDef {
public:
    explicit IndexCopyCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("indices").ParamType(REQUIRED).DataType({ge::DT_INT64})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("src").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(IndexCopyCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelIndexCopy {
public:
    __aicore__ inline KernelIndexCopy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR idx, GM_ADDR src, GM_ADDR y,
                                uint32_t numRows, uint32_t rowLen, uint32_t numIndex,
                                uint32_t rowsPerCore, uint32_t chunkLen)
    {
        this->rowLen = rowLen;
        this->numIndex = numIndex;
        this->chunkLen = chunkLen;

        rowBegin = GetBlockIdx() * rowsPerCore;
        rowEnd = rowBegin + rowsPerCore;
        if (rowEnd > numRows) rowEnd = numRows;

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)numRows * rowLen);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)numRows * rowLen);
        srcGm.SetGlobalBuffer((__gm__ float *)src, (uint64_t)numIndex * rowLen);
        idxGm.SetGlobalBuffer((__gm__ int64_t *)idx, numIndex);

        pipe.InitBuffer(que, BUFFER_NUM, chunkLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowBegin >= rowEnd) return;

        // step 1: y[rowBegin:rowEnd] = x[rowBegin:rowEnd]  (contiguous block)
        uint64_t base = (uint64_t)rowBegin * rowLen;
        uint64_t total = (uint64_t)(rowEnd - rowBegin) * rowLen;
        MoveBlock(yGm, xGm, base, base, total);

        // step 2: overwrite rows that are targeted by an index inside my range.
        // walk indices in order so the last occurrence wins.
        for (uint32_t i = 0; i < numIndex; ++i) {
            int64_t dst = idxGm.GetValue(i);
            if (dst < (int64_t)rowBegin || dst >= (int64_t)rowEnd) continue;
            MoveBlock(yGm, srcGm, (uint64_t)dst * rowLen, (uint64_t)i * rowLen, rowLen);
        }
    }

private:
    // GM -> UB -> GM copy of `count` floats, chunked by chunkLen
    __aicore__ inline void MoveBlock(GlobalTensor<float> &dstGm, GlobalTensor<float> &srcG,
                                     uint64_t dstOff, uint64_t srcOff, uint64_t count)
    {
        uint64_t done = 0;
        while (done < count) {
            uint32_t n = (count - done) > chunkLen ? chunkLen : (uint32_t)(count - done);
            LocalTensor<float> buf = que.AllocTensor<float>();
            DataCopyExtParams cp{1, n * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(buf, srcG[srcOff + done], cp, pad);
            que.EnQue(buf);
            buf = que.DeQue<float>();
            DataCopyPad(dstGm[dstOff + done], buf, cp);
            que.FreeTensor(buf);
            done += n;
        }
        // make sure the write of a row is finished before a later index rewrites it
        PipeBarrier<PIPE_ALL>();
    }

    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> que;
    GlobalTensor<float> xGm, yGm, srcGm;
    GlobalTensor<int64_t> idxGm;
    uint32_t rowLen, numIndex, chunkLen;
    uint32_t rowBegin, rowEnd;
};

extern "C" __global__ __aicore__ void index_copy_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR src, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelIndexCopy op;
    op.Init(x, indices, src, y, td.numRows, td.rowLen, td.numIndex, td.rowsPerCore, td.chunkLen);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor index_copy_custom_impl_npu(const at::Tensor& x, const at::Tensor& indices, const at::Tensor& src) {
    at::Tensor xc = x.contiguous();
    at::Tensor ic = indices.to(at::kLong).contiguous();
    at::Tensor sc = src.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnIndexCopyCustom, xc, ic, sc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("index_copy_custom", &index_copy_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("index_copy_custom", &index_copy_custom_impl_npu, "x.index_copy(0, indices, src)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, x, indices, src):
        return custom_ops_lib.index_copy_custom(x, indices, src)
'''

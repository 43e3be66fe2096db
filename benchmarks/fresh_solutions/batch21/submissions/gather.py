project_json_src='''
[
    {
        "op": "GatherCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "index",
                "param_type": "required",
                "format": ["ND"],
                "type": ["int64"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
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
BEGIN_TILING_DATA_DEF(GatherCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, srcCols);      // x.size(1)
  TILING_DATA_FIELD_DEF(uint32_t, idxCols);      // index.size(1) == y.size(1)
  TILING_DATA_FIELD_DEF(uint32_t, chunk);        // index elements per inner step
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GatherCustom, GatherCustomTilingData)
}
"""

host_operator_src="""
#include "gather_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto xShape = context->GetInputShape(0)->GetOriginShape();
    auto iShape = context->GetInputShape(1)->GetOriginShape();
    uint32_t rows = xShape.GetDim(0);
    uint32_t srcCols = xShape.GetDim(1);
    uint32_t idxCols = iShape.GetDim(1);

    // a whole source row lives in UB (8192 fp32 = 32KB); index/out are streamed in chunks
    uint32_t chunk = 2048;
    if (idxCols < chunk) {
        chunk = (idxCols + 7) / 8 * 8;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint32_t rowsPerCore = (rows + cores - 1) / cores;
    uint32_t usedCores = (rows + rowsPerCore - 1) / rowsPerCore;

    GatherCustomTilingData td;
    td.set_rows(rows);
    td.set_srcCols(srcCols);
    td.set_idxCols(idxCols);
    td.set_chunk(chunk);
    td.set_rowsPerCore(rowsPerCore);

    context->SetBlockDim(usedCores);
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
    // output has the shape of the index tensor
    *context->GetOutputShape(0) = *context->GetInputShape(1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GatherCustom : public OpDef {
public:
    explicit GatherCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("index")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GatherCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

// torch.gather(x, dim=1, index) for 2-D tensors.
// Each core owns a contiguous range of rows. Per row the full x row is staged into UB,
// the int64 indices are narrowed to int32, scaled to byte offsets and fed to the
// vector Gather instruction.
class GatherDim1Kernel {
public:
    __aicore__ inline GatherDim1Kernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR index, GM_ADDR y,
                                uint32_t rows, uint32_t srcCols, uint32_t idxCols,
                                uint32_t chunk, uint32_t rowsPerCore)
    {
        this->srcCols = srcCols;
        this->idxCols = idxCols;
        this->chunk = chunk;
        rowBegin = AscendC::GetBlockIdx() * rowsPerCore;
        rowEnd = rowBegin + rowsPerCore;
        if (rowEnd > rows) rowEnd = rows;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)rows * srcCols);
        idxGm.SetGlobalBuffer((__gm__ int64_t*)index, (uint64_t)rows * idxCols);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)rows * idxCols);

        srcAligned = (srcCols + 7) / 8 * 8;
        pipe.InitBuffer(rowQ, 1, srcAligned * sizeof(float));
        pipe.InitBuffer(idxQ, 2, chunk * sizeof(int64_t));
        pipe.InitBuffer(outQ, 2, chunk * sizeof(float));
        pipe.InitBuffer(offBuf, chunk * sizeof(int32_t));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            LoadRow(r);
            AscendC::LocalTensor<float> rowLocal = rowQ.DeQue<float>();
            for (uint32_t c0 = 0; c0 < idxCols; c0 += chunk) {
                uint32_t n = idxCols - c0;
                if (n > chunk) n = chunk;
                LoadIndex(r, c0, n);
                Compute(rowLocal, n);
                Store(r, c0, n);
            }
            rowQ.FreeTensor(rowLocal);
        }
    }

private:
    __aicore__ inline void LoadRow(uint32_t r)
    {
        AscendC::LocalTensor<float> rowLocal = rowQ.AllocTensor<float>();
        AscendC::DataCopyExtParams p{1, srcCols * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(rowLocal, xGm[(uint64_t)r * srcCols], p, pad);
        rowQ.EnQue(rowLocal);
    }

    __aicore__ inline void LoadIndex(uint32_t r, uint32_t c0, uint32_t n)
    {
        AscendC::LocalTensor<int64_t> idxLocal = idxQ.AllocTensor<int64_t>();
        AscendC::DataCopyExtParams p{1, n * (uint32_t)sizeof(int64_t), 0, 0, 0};
        AscendC::DataCopyPadExtParams<int64_t> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(idxLocal, idxGm[(uint64_t)r * idxCols + c0], p, pad);
        idxQ.EnQue(idxLocal);
    }

    __aicore__ inline void Compute(const AscendC::LocalTensor<float>& rowLocal, uint32_t n)
    {
        AscendC::LocalTensor<int64_t> idxLocal = idxQ.DeQue<int64_t>();
        AscendC::LocalTensor<int32_t> off = offBuf.Get<int32_t>();
        AscendC::LocalTensor<float> outLocal = outQ.AllocTensor<float>();

        // int64 -> int32 element index, then * sizeof(float) -> byte offset
        AscendC::Cast(off, idxLocal, AscendC::RoundMode::CAST_NONE, n);
        AscendC::Muls(off, off, (int32_t)sizeof(float), n);
        AscendC::Gather(outLocal, rowLocal, off.ReinterpretCast<uint32_t>(), (uint32_t)0, n);

        outQ.EnQue(outLocal);
        idxQ.FreeTensor(idxLocal);
    }

    __aicore__ inline void Store(uint32_t r, uint32_t c0, uint32_t n)
    {
        AscendC::LocalTensor<float> outLocal = outQ.DeQue<float>();
        AscendC::DataCopyExtParams p{1, n * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(yGm[(uint64_t)r * idxCols + c0], outLocal, p);
        outQ.FreeTensor(outLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> rowQ;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> idxQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> offBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<int64_t> idxGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t srcCols, srcAligned, idxCols, chunk;
    uint32_t rowBegin, rowEnd;
};

extern "C" __global__ __aicore__ void gather_custom(GM_ADDR x, GM_ADDR index, GM_ADDR y,
                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GatherDim1Kernel op;
    op.Init(x, index, y, td.rows, td.srcCols, td.idxCols, td.chunk, td.rowsPerCore);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor gather_custom_impl_npu(const at::Tensor& x, const at::Tensor& index) {
    at::Tensor src = x.contiguous();
    at::Tensor idx = index.to(at::kLong).contiguous();
    at::Tensor out = at::empty(idx.sizes(), src.options());
    EXEC_NPU_CMD(aclnnGatherCustom, src, idx, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gather_custom", &gather_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gather_custom", &gather_custom_impl_npu, "torch.gather along dim 1");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def forward(self, x, idx):
        return custom_ops_lib.gather_custom(x, idx)
'''

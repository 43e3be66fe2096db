project_json_src='''
[
    {
        "op": "IndexSelectCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "indices",
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
BEGIN_TILING_DATA_DEF(IndexSelectCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // x.size(0)
  TILING_DATA_FIELD_DEF(uint32_t, srcCols);       // x.size(1)
  TILING_DATA_FIELD_DEF(uint32_t, idxNum);        // indices.numel()
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);      // first tailRows cores take one extra row
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IndexSelectCustom, IndexSelectCustomTilingData)
}
"""

host_operator_src="""
#include "index_select_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    IndexSelectCustomTilingData tiling;
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto idxShape = context->GetInputShape(1)->GetStorageShape();
    uint32_t rows = static_cast<uint32_t>(xShape.GetDim(0));
    uint32_t cols = static_cast<uint32_t>(xShape.GetDim(1));
    uint32_t idxNum = static_cast<uint32_t>(idxShape.GetShapeSize());

    // a source row, the index table and an output row all stay resident in UB
    uint64_t ubNeed = 2ULL * cols * 4 + 2ULL * idxNum * 4 + idxNum * 8ULL + idxNum * 4ULL;
    if (ubNeed > 180 * 1024) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    if (cores > rows) cores = rows;

    tiling.set_rows(rows);
    tiling.set_srcCols(cols);
    tiling.set_idxNum(idxNum);
    tiling.set_rowsPerCore(rows / cores);
    tiling.set_tailRows(rows % cores);

    context->SetBlockDim(cores);
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
    const gert::Shape* idxShape = context->GetInputShape(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(2);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, idxShape->GetShapeSize());
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class IndexSelectCustom : public OpDef {
public:
    explicit IndexSelectCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("indices")
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

OP_ADD(IndexSelectCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y[r, j] = x[r, indices[j]]  (index_select along dim 1)
// The byte-offset table is built once per core, then every row is pulled into UB
// and gathered with the vector Gather instruction.
class KernelIndexSelect {
public:
    __aicore__ inline KernelIndexSelect() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR indices, GM_ADDR y,
                                uint32_t rows, uint32_t srcCols, uint32_t idxNum,
                                uint32_t rowsPerCore, uint32_t tailRows)
    {
        srcCols_ = srcCols;
        idxNum_ = idxNum;
        uint32_t bid = AscendC::GetBlockIdx();
        if (bid < tailRows) {
            myRows_ = rowsPerCore + 1;
            rowStart_ = bid * (rowsPerCore + 1);
        } else {
            myRows_ = rowsPerCore;
            rowStart_ = tailRows * (rowsPerCore + 1) + (bid - tailRows) * rowsPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(rowStart_) * srcCols, myRows_ * srcCols);
        yGm.SetGlobalBuffer((__gm__ float*)y + static_cast<uint64_t>(rowStart_) * idxNum, myRows_ * idxNum);
        idxGm.SetGlobalBuffer((__gm__ int64_t*)indices, idxNum);

        // pad lengths up to a 32 byte block
        srcColsAlign_ = (srcCols + 7) / 8 * 8;
        idxAlign_ = (idxNum + 7) / 8 * 8;
        pipe.InitBuffer(rowQue, BUFFER_NUM, srcColsAlign_ * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, idxAlign_ * sizeof(float));
        pipe.InitBuffer(idxBuf, idxAlign_ * sizeof(int64_t));
        pipe.InitBuffer(offBuf, idxAlign_ * sizeof(uint32_t));
    }

    __aicore__ inline void Process()
    {
        if (myRows_ == 0) {
            return;
        }
        BuildOffsets();
        for (uint32_t r = 0; r < myRows_; ++r) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

private:
    __aicore__ inline void BuildOffsets()
    {
        AscendC::LocalTensor<int64_t> idxLocal = idxBuf.Get<int64_t>();
        AscendC::LocalTensor<uint32_t> offLocal = offBuf.Get<uint32_t>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(idxNum_ * sizeof(int64_t)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<int64_t> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(idxLocal, idxGm, cp, pad);

        event_t mte2ToS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(mte2ToS);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(mte2ToS);

        for (uint32_t i = 0; i < idxNum_; ++i) {
            int64_t v = idxLocal.GetValue(i);
            if (v < 0) {
                v += srcCols_;          // torch allows negative indices
            }
            offLocal.SetValue(i, static_cast<uint32_t>(v) * static_cast<uint32_t>(sizeof(float)));
        }

        event_t sToV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(sToV);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(sToV);
    }

    __aicore__ inline void CopyIn(uint32_t r)
    {
        AscendC::LocalTensor<float> rowLocal = rowQue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(srcCols_ * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(rowLocal, xGm[static_cast<uint64_t>(r) * srcCols_], cp, pad);
        rowQue.EnQue(rowLocal);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> rowLocal = rowQue.DeQue<float>();
        AscendC::LocalTensor<float> outLocal = outQue.AllocTensor<float>();
        AscendC::LocalTensor<uint32_t> offLocal = offBuf.Get<uint32_t>();
        AscendC::Gather(outLocal, rowLocal, offLocal, (uint32_t)0, idxNum_);
        outQue.EnQue(outLocal);
        rowQue.FreeTensor(rowLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        AscendC::LocalTensor<float> outLocal = outQue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(idxNum_ * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(r) * idxNum_], outLocal, cp);
        outQue.FreeTensor(outLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> rowQue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> idxBuf, offBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    AscendC::GlobalTensor<int64_t> idxGm;
    uint32_t srcCols_ = 0, idxNum_ = 0, srcColsAlign_ = 0, idxAlign_ = 0;
    uint32_t myRows_ = 0, rowStart_ = 0;
};

extern "C" __global__ __aicore__ void index_select_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR y,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelIndexSelect op;
    op.Init(x, indices, y, td.rows, td.srcCols, td.idxNum, td.rowsPerCore, td.tailRows);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor index_select_custom_impl_npu(const at::Tensor& x, const at::Tensor& indices)
{
    TORCH_CHECK(x.dim() == 2, "index_select_custom expects a 2-D input");
    at::Tensor idx = indices.to(at::kLong).contiguous();
    at::Tensor result = at::empty({x.size(0), idx.numel()}, x.options());
    EXEC_NPU_CMD(aclnnIndexSelectCustom, x, idx, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("index_select_custom", &index_select_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("index_select_custom", &index_select_custom_impl_npu, "index_select along dim 1");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, x, indices):
        return custom_ops_lib.index_select_custom(x, indices)
'''

project_json_src='''
[
    {
        "op": "ScatterAddCustom",
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
            },
            {
                "name": "src",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScatterAddCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // size of dim 0
  TILING_DATA_FIELD_DEF(uint32_t, xCols);       // x.size(1)
  TILING_DATA_FIELD_DEF(uint32_t, idxCols);     // index.size(1) == src.size(1) (used part)
  TILING_DATA_FIELD_DEF(uint32_t, srcCols);     // src.size(1), row pitch of src
  TILING_DATA_FIELD_DEF(uint32_t, idxChunk);    // index/src entries staged per pass
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScatterAddCustom, ScatterAddCustomTilingData)
}
"""

host_operator_src="""
#include <algorithm>
#include "scatter_add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& is = context->GetInputShape(1)->GetOriginShape();
    const gert::Shape& ss = context->GetInputShape(2)->GetOriginShape();
    if (xs.GetDimNum() != 2 || is.GetDimNum() != 2 || ss.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = xs.GetDim(0);
    uint32_t xCols = xs.GetDim(1);
    uint32_t idxCols = is.GetDim(1);
    uint32_t srcCols = ss.GetDim(1);
    if (is.GetDim(0) != rows || srcCols < idxCols) {
        return ge::GRAPH_FAILED;
    }

    // one full output row must live in UB while indices are streamed through
    uint32_t xColsAlign = (xCols + 7) / 8 * 8;
    const uint32_t ubBytes = 180 * 1024;
    if (xColsAlign * sizeof(float) > ubBytes / 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t remain = ubBytes - xColsAlign * sizeof(float);
    // int64 index + float src per entry
    uint32_t idxChunk = remain / (sizeof(int64_t) + sizeof(float));
    idxChunk = std::min<uint32_t>(idxChunk / 8 * 8, 8192);
    idxChunk = std::min<uint32_t>(idxChunk, (idxCols + 7) / 8 * 8);
    if (idxChunk == 0) {
        idxChunk = 8;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;
    if (rowsPerCore == 0) {
        rowsPerCore = 1;
    }
    context->SetBlockDim((rows + rowsPerCore - 1) / rowsPerCore);

    ScatterAddCustomTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_xCols(xCols);
    tiling.set_idxCols(idxCols);
    tiling.set_srcCols(srcCols);
    tiling.set_idxChunk(idxChunk);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ScatterAddCustom : public OpDef {
public:
    explicit ScatterAddCustom(const char* name) : OpDef(name)
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
        this->Input("src")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
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

OP_ADD(ScatterAddCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

// y = x.scatter_add(1, index, src) for 2-D tensors.
// Rows are independent along dim 1, so every core takes whole rows: the row of
// x is staged in UB, the (index, src) pairs of that row are streamed in chunks
// and accumulated with scalar read-modify-write (duplicates in index are then
// summed correctly, as they are handled sequentially), and the row is stored.
class KernelScatterAdd {
public:
    __aicore__ inline KernelScatterAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR index, GM_ADDR src, GM_ADDR y,
                                const ScatterAddCustomTilingData& td)
    {
        xCols = td.xCols;
        idxCols = td.idxCols;
        srcCols = td.srcCols;
        idxChunk = td.idxChunk;
        xColsAlign = (xCols + 7) / 8 * 8;

        rowStart = AscendC::GetBlockIdx() * td.rowsPerCore;
        rowStop = rowStart + td.rowsPerCore;
        if (rowStop > td.rows) {
            rowStop = td.rows;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)td.rows * xCols);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)td.rows * xCols);
        idxGm.SetGlobalBuffer((__gm__ int64_t*)index, (uint64_t)td.rows * idxCols);
        srcGm.SetGlobalBuffer((__gm__ float*)src, (uint64_t)td.rows * srcCols);

        pipe.InitBuffer(rowBuf, xColsAlign * sizeof(float));
        pipe.InitBuffer(idxBuf, idxChunk * sizeof(int64_t));
        pipe.InitBuffer(srcBuf, idxChunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowStart; r < rowStop; ++r) {
            ScatterRow(r);
        }
    }

private:
    template <AscendC::HardEvent EVT>
    __aicore__ inline void Sync()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
        AscendC::SetFlag<EVT>(ev);
        AscendC::WaitFlag<EVT>(ev);
    }

    __aicore__ inline void ScatterRow(uint32_t r)
    {
        AscendC::LocalTensor<float> row = rowBuf.Get<float>();
        AscendC::LocalTensor<int64_t> idx = idxBuf.Get<int64_t>();
        AscendC::LocalTensor<float> upd = srcBuf.Get<float>();

        // the previous row's store must finish before the buffer is reused
        Sync<AscendC::HardEvent::MTE3_MTE2>();

        AscendC::DataCopyPadExtParams<float> fpad{false, 0, 0, 0.0f};
        AscendC::DataCopyExtParams rowCp{1, static_cast<uint32_t>(xCols * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(row, xGm[(uint64_t)r * xCols], rowCp, fpad);

        for (uint32_t c0 = 0; c0 < idxCols; c0 += idxChunk) {
            uint32_t n = (c0 + idxChunk <= idxCols) ? idxChunk : (idxCols - c0);
            // scalar loop of the previous chunk is done reading idx/upd
            Sync<AscendC::HardEvent::S_MTE2>();
            AscendC::DataCopyExtParams idxCp{1, static_cast<uint32_t>(n * sizeof(int64_t)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<int64_t> ipad{false, 0, 0, 0};
            AscendC::DataCopyPad(idx, idxGm[(uint64_t)r * idxCols + c0], idxCp, ipad);
            AscendC::DataCopyExtParams srcCp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(upd, srcGm[(uint64_t)r * srcCols + c0], srcCp, fpad);
            Sync<AscendC::HardEvent::MTE2_S>();

            for (uint32_t j = 0; j < n; ++j) {
                int64_t col = idx.GetValue(j);
                if (col < 0) {
                    col += xCols;                 // python-style negative index
                }
                if (col < 0 || col >= static_cast<int64_t>(xCols)) {
                    continue;                     // out of range: ignore
                }
                uint32_t c = static_cast<uint32_t>(col);
                row.SetValue(c, row.GetValue(c) + upd.GetValue(j));
            }
        }

        Sync<AscendC::HardEvent::S_MTE3>();
        AscendC::DataCopyPad(yGm[(uint64_t)r * xCols], row, rowCp);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rowBuf, idxBuf, srcBuf;
    AscendC::GlobalTensor<float> xGm, yGm, srcGm;
    AscendC::GlobalTensor<int64_t> idxGm;

    uint32_t xCols = 0;
    uint32_t xColsAlign = 0;
    uint32_t idxCols = 0;
    uint32_t srcCols = 0;
    uint32_t idxChunk = 0;
    uint32_t rowStart = 0;
    uint32_t rowStop = 0;
};

extern "C" __global__ __aicore__ void scatter_add_custom(GM_ADDR x, GM_ADDR index, GM_ADDR src, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelScatterAdd op;
    op.Init(x, index, src, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor scatter_add_custom_impl_npu(const at::Tensor& x, const at::Tensor& index, const at::Tensor& src)
{
    TORCH_CHECK(x.dim() == 2 && index.dim() == 2 && src.dim() == 2, "2-D scatter_add along dim 1 only");
    at::Tensor xc = x.contiguous();
    at::Tensor ic = index.to(at::kLong).contiguous();
    at::Tensor sc = src.contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnScatterAddCustom, xc, ic, sc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("scatter_add_custom", &scatter_add_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scatter_add_custom", &scatter_add_custom_impl_npu, "x.scatter_add(1, index, src)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def forward(self, x, idx, updates):
        return custom_ops_lib.scatter_add_custom(x, idx, updates)
'''

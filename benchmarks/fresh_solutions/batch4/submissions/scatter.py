project_json_src='''
[
    {
        "op": "ScatterCustom",
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
                "name": "updates",
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
BEGIN_TILING_DATA_DEF(ScatterCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // x 的第 0 维
  TILING_DATA_FIELD_DEF(uint32_t, cols);        // x 的第 1 维（scatter 维）
  TILING_DATA_FIELD_DEF(uint32_t, idxCols);     // index/updates 的第 1 维
  TILING_DATA_FIELD_DEF(uint32_t, colChunk);    // 一次放进 UB 的 x 列数
  TILING_DATA_FIELD_DEF(uint32_t, idxChunk);    // 一次放进 UB 的索引个数
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScatterCustom, ScatterCustomTilingData)
}
"""

host_operator_src="""
#include "scatter_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_COL_CHUNK = 16384;   // 64KB 的 x 行缓存
constexpr uint32_t MAX_IDX_CHUNK = 4096;    // 32KB 索引 + 16KB 更新值

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScatterCustomTilingData tiling;
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto iShape = context->GetInputShape(1)->GetStorageShape();
    if (xShape.GetDimNum() != 2 || iShape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = xShape.GetDim(0);
    uint32_t cols = xShape.GetDim(1);
    uint32_t idxCols = iShape.GetDim(1);
    uint32_t colChunk = cols < MAX_COL_CHUNK ? cols : MAX_COL_CHUNK;
    uint32_t idxChunk = idxCols < MAX_IDX_CHUNK ? idxCols : MAX_IDX_CHUNK;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    coreNum = coreNum == 0 ? 1 : coreNum;
    // 按行切分：同一行的所有写入都在一个核上按顺序完成，重复索引时后写覆盖先写
    uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;
    uint32_t usedCore = (rows + rowsPerCore - 1) / rowsPerCore;
    context->SetBlockDim(usedCore);

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_idxCols(idxCols);
    tiling.set_colChunk(colChunk);
    tiling.set_idxChunk(idxChunk);
    tiling.set_rowsPerCore(rowsPerCore);
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
class ScatterCustom : public OpDef {
public:
    explicit ScatterCustom(const char* name) : OpDef(name)
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
        this->Input("updates")
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

OP_ADD(ScatterCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

// y = x.scatter(dim=1, index, updates)
// 每个核负责若干整行。对一行：
//   按 colChunk 把 x 的一段搬进 UB，
//   扫描该行全部索引（分 idxChunk 搬入），落在本段内的直接用标量写入，
//   最后把这一段写回 y。
// 索引是 int64，这里按小端取低 32 位（列数远小于 2^31）。
class KernelScatter {
public:
    __aicore__ inline KernelScatter() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR index, GM_ADDR updates, GM_ADDR y,
                                const ScatterCustomTilingData& td)
    {
        rows = td.rows;
        cols = td.cols;
        idxCols = td.idxCols;
        colChunk = td.colChunk;
        idxChunk = td.idxChunk;
        rowBegin = AscendC::GetBlockIdx() * td.rowsPerCore;
        rowEnd = rowBegin + td.rowsPerCore;
        if (rowEnd > rows) {
            rowEnd = rows;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        idxGm.SetGlobalBuffer((__gm__ int32_t*)index);   // 以 int32 对的形式访问 int64
        updGm.SetGlobalBuffer((__gm__ float*)updates);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(rowBuf, (colChunk + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(idxBuf, (idxChunk * 2 + 7) / 8 * 8 * sizeof(int32_t));
        pipe.InitBuffer(updBuf, (idxChunk + 7) / 8 * 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            for (uint32_t c0 = 0; c0 < cols; c0 += colChunk) {
                uint32_t cLen = (c0 + colChunk <= cols) ? colChunk : (cols - c0);
                ProcessSegment(r, c0, cLen);
            }
        }
    }

private:
    template <AscendC::HardEvent EVT>
    __aicore__ inline void Sync()
    {
        event_t id = static_cast<event_t>(pipe.FetchEventID(EVT));
        AscendC::SetFlag<EVT>(id);
        AscendC::WaitFlag<EVT>(id);
    }

    __aicore__ inline void ProcessSegment(uint32_t r, uint32_t c0, uint32_t cLen)
    {
        AscendC::LocalTensor<float> seg = rowBuf.Get<float>();
        AscendC::LocalTensor<int32_t> idxL = idxBuf.Get<int32_t>();
        AscendC::LocalTensor<float> updL = updBuf.Get<float>();

        // 上一段的写回要先完成，才能覆盖 seg
        Sync<AscendC::HardEvent::MTE3_MTE2>();
        AscendC::DataCopyPadExtParams<float> fpad{false, 0, 0, 0.0f};
        AscendC::DataCopyPadExtParams<int32_t> ipad{false, 0, 0, 0};
        AscendC::DataCopyExtParams segCp{1, static_cast<uint32_t>(cLen * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(seg, xGm[(uint64_t)r * cols + c0], segCp, fpad);

        for (uint32_t j0 = 0; j0 < idxCols; j0 += idxChunk) {
            uint32_t jLen = (j0 + idxChunk <= idxCols) ? idxChunk : (idxCols - j0);
            // 标量还在读上一批索引时不能覆盖
            Sync<AscendC::HardEvent::S_MTE2>();
            AscendC::DataCopyExtParams idxCp{1, static_cast<uint32_t>(jLen * 2 * sizeof(int32_t)), 0, 0, 0};
            AscendC::DataCopyPad(idxL, idxGm[((uint64_t)r * idxCols + j0) * 2], idxCp, ipad);
            AscendC::DataCopyExtParams updCp{1, static_cast<uint32_t>(jLen * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(updL, updGm[(uint64_t)r * idxCols + j0], updCp, fpad);
            Sync<AscendC::HardEvent::MTE2_S>();

            for (uint32_t j = 0; j < jLen; ++j) {
                int32_t col = idxL.GetValue(j * 2);
                int32_t local = col - static_cast<int32_t>(c0);
                if (local >= 0 && local < static_cast<int32_t>(cLen)) {
                    seg.SetValue(local, updL.GetValue(j));
                }
            }
        }

        Sync<AscendC::HardEvent::S_MTE3>();
        AscendC::DataCopyPad(yGm[(uint64_t)r * cols + c0], seg, segCp);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rowBuf, idxBuf, updBuf;
    AscendC::GlobalTensor<float> xGm, updGm, yGm;
    AscendC::GlobalTensor<int32_t> idxGm;
    uint32_t rows, cols, idxCols, colChunk, idxChunk;
    uint32_t rowBegin, rowEnd;
};

extern "C" __global__ __aicore__ void scatter_custom(GM_ADDR x, GM_ADDR index, GM_ADDR updates, GM_ADDR y,
                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelScatter op;
    op.Init(x, index, updates, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor scatter_custom_impl_npu(const at::Tensor& x, const at::Tensor& index, const at::Tensor& updates)
{
    TORCH_CHECK(x.dim() == 2 && index.dim() == 2, "目前只支持二维输入、dim=1");
    TORCH_CHECK(index.size(0) == x.size(0), "index 行数需要与 x 相同");
    at::Tensor y = at::empty_like(x);
    at::Tensor xc = x.contiguous();
    at::Tensor ic = index.to(at::kLong).contiguous();
    at::Tensor uc = updates.contiguous();
    EXEC_NPU_CMD(aclnnScatterCustom, xc, ic, uc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("scatter_custom", &scatter_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scatter_custom", &scatter_custom_impl_npu, "x.scatter(dim=1, index, src)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def forward(self, x, idx, updates):
        return custom_ops_lib.scatter_custom(x, idx, updates)
'''

project_json_src='''
[
    {
        "op": "PowerBroadcastCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "exponent",
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
BEGIN_TILING_DATA_DEF(PowerBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);       // product of leading dims of x
  TILING_DATA_FIELD_DEF(uint32_t, cols);       // last dim == exponent length
  TILING_DATA_FIELD_DEF(uint32_t, colsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileCols);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PowerBroadcastCustom, PowerBroadcastCustomTilingData)
}
"""

host_operator_src="""
#include "power_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PowerBroadcastCustomTilingData tiling;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto es = context->GetInputShape(1)->GetStorageShape();
    uint32_t cols = static_cast<uint32_t>(es.GetShapeSize());
    uint32_t total = static_cast<uint32_t>(xs.GetShapeSize());
    if (cols == 0 || total % cols != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = total / cols;

    // the exponent vector is split by columns so each core loads its slice once
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t colsPerCore = (cols + cores - 1) / cores;
    colsPerCore = (colsPerCore + 7) / 8 * 8;            // keep GM offsets 32B aligned
    if (colsPerCore < 64) colsPerCore = 64;
    uint32_t usedCores = (cols + colsPerCore - 1) / colsPerCore;
    uint32_t tileCols = colsPerCore < MAX_TILE ? colsPerCore : MAX_TILE;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_colsPerCore(colsPerCore);
    tiling.set_tileCols(tileCols);
    context->SetBlockDim(usedCores);

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
class PowerBroadcastCustom : public OpDef {
public:
    explicit PowerBroadcastCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("exponent")
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

OP_ADD(PowerBroadcastCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y[r, j] = x[r, j] ** e[j]  computed as exp(e * ln(x)); inputs are strictly positive here
class KernelPowerBroadcast {
public:
    __aicore__ inline KernelPowerBroadcast() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR e, GM_ADDR y, uint32_t rows, uint32_t cols,
                                uint32_t colsPerCore, uint32_t tileCols)
    {
        rows_ = rows;
        cols_ = cols;
        tileCols_ = tileCols;
        colBegin_ = AscendC::GetBlockIdx() * colsPerCore;
        uint32_t colEnd = colBegin_ + colsPerCore;
        if (colEnd > cols) colEnd = cols;
        myCols_ = colEnd > colBegin_ ? colEnd - colBegin_ : 0;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        eGm.SetGlobalBuffer((__gm__ float*)e);

        pipe.InitBuffer(xQue, BUFFER_NUM, tileCols * sizeof(float));
        pipe.InitBuffer(yQue, BUFFER_NUM, tileCols * sizeof(float));
        pipe.InitBuffer(eBuf, tileCols * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t c0 = 0; c0 < myCols_; c0 += tileCols_) {
            uint32_t n = (myCols_ - c0) < tileCols_ ? (myCols_ - c0) : tileCols_;
            uint32_t col = colBegin_ + c0;
            LoadExponent(col, n);
            for (uint32_t r = 0; r < rows_; ++r) {
                uint64_t off = static_cast<uint64_t>(r) * cols_ + col;
                CopyIn(off, n);
                Compute(n);
                CopyOut(off, n);
            }
        }
    }

private:
    __aicore__ inline void LoadExponent(uint32_t col, uint32_t n)
    {
        AscendC::LocalTensor<float> eLocal = eBuf.Get<float>();
        AscendC::DataCopyExtParams cp{1, n * 4u, 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(eLocal, eGm[col], cp, pad);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(ev);
    }

    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        AscendC::LocalTensor<float> xLocal = xQue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, n * 4u, 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[off], cp, pad);
        xQue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        AscendC::LocalTensor<float> xLocal = xQue.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = yQue.AllocTensor<float>();
        AscendC::LocalTensor<float> eLocal = eBuf.Get<float>();
        AscendC::Ln(yLocal, xLocal, n);
        AscendC::Mul(yLocal, yLocal, eLocal, n);
        AscendC::Exp(yLocal, yLocal, n);
        yQue.EnQue(yLocal);
        xQue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        AscendC::LocalTensor<float> yLocal = yQue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, n * 4u, 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], yLocal, cp);
        yQue.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> xQue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> yQue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> eBuf;
    AscendC::GlobalTensor<float> xGm, yGm, eGm;
    uint32_t rows_, cols_, tileCols_, colBegin_, myCols_;
};

extern "C" __global__ __aicore__ void power_broadcast_custom(GM_ADDR x, GM_ADDR exponent, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelPowerBroadcast op;
    op.Init(x, exponent, y, td.rows, td.cols, td.colsPerCore, td.tileCols);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor power_broadcast_custom_impl_npu(const at::Tensor& x, const at::Tensor& exponent)
{
    TORCH_CHECK(exponent.dim() == 1 && exponent.size(0) == x.size(-1),
                "exponent must broadcast along the last dim of x");
    at::Tensor xc = x.contiguous();
    at::Tensor ec = exponent.contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnPowerBroadcastCustom, xc, ec, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("power_broadcast_custom", &power_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("power_broadcast_custom", &power_broadcast_custom_impl_npu, "x ** exponent (broadcast on last dim)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, exponent):
        return custom_ops_lib.power_broadcast_custom(x, exponent)
'''

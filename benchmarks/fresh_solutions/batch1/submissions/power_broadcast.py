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
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // product of leading dims of x
  TILING_DATA_FIELD_DEF(uint32_t, cols);        // last dim == exponent length
  TILING_DATA_FIELD_DEF(uint32_t, colTile);     // columns per tile
  TILING_DATA_FIELD_DEF(uint32_t, colTiles);    // ceil(cols / colTile)
  TILING_DATA_FIELD_DEF(uint32_t, taskPerCore); // (row, colTile) tasks per core
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PowerBroadcastCustom, PowerBroadcastCustomTilingData)
}
"""

host_operator_src="""
#include "power_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_COL_TILE = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PowerBroadcastCustomTilingData td;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) coreNum = 1;

    auto xShape = context->GetInputShape(0)->GetOriginShape();
    uint32_t dimNum = xShape.GetDimNum();
    uint32_t cols = xShape.GetDim(dimNum - 1);
    uint32_t rows = 1;
    for (uint32_t i = 0; i + 1 < dimNum; ++i) {
        rows *= xShape.GetDim(i);
    }

    // small problem: spread columns in 512-wide tiles so more cores get work
    uint32_t colTile = cols;
    if (colTile > MAX_COL_TILE) colTile = MAX_COL_TILE;
    while (colTile > 512 && rows * ((cols + colTile - 1) / colTile) < coreNum) {
        colTile /= 2;
    }
    colTile = (colTile + 7) / 8 * 8;
    uint32_t colTiles = (cols + colTile - 1) / colTile;
    uint32_t totalTasks = rows * colTiles;
    uint32_t perCore = (totalTasks + coreNum - 1) / coreNum;
    uint32_t blockDim = (totalTasks + perCore - 1) / perCore;

    context->SetBlockDim(blockDim);
    td.set_rows(rows);
    td.set_cols(cols);
    td.set_colTile(colTile);
    td.set_colTiles(colTiles);
    td.set_taskPerCore(perCore);
    td.set_totalTasks(totalTasks);
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
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y[r, c] = x[r, c] ** e[c]   computed as exp(e * ln(x)); bases are positive in this task
class KernelPowerBroadcast {
public:
    __aicore__ inline KernelPowerBroadcast() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR e, GM_ADDR y, const PowerBroadcastCustomTilingData &td)
    {
        rows_ = td.rows;
        cols_ = td.cols;
        colTile_ = td.colTile;
        colTiles_ = td.colTiles;
        uint32_t begin = GetBlockIdx() * td.taskPerCore;
        uint32_t end = begin + td.taskPerCore;
        if (end > td.totalTasks) end = td.totalTasks;
        taskBegin_ = begin;
        taskEnd_ = begin < end ? end : begin;

        xGm_.SetGlobalBuffer((__gm__ float *)x, (uint64_t)rows_ * cols_);
        eGm_.SetGlobalBuffer((__gm__ float *)e, cols_);
        yGm_.SetGlobalBuffer((__gm__ float *)y, (uint64_t)rows_ * cols_);

        pipe_.InitBuffer(xQ_, BUFFER_NUM, colTile_ * sizeof(float));
        pipe_.InitBuffer(eQ_, BUFFER_NUM, colTile_ * sizeof(float));
        pipe_.InitBuffer(yQ_, BUFFER_NUM, colTile_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = taskBegin_; task < taskEnd_; ++task) {
            uint32_t row = task / colTiles_;
            uint32_t ct = task % colTiles_;
            uint32_t col0 = ct * colTile_;
            uint32_t len = (cols_ - col0) < colTile_ ? (cols_ - col0) : colTile_;
            uint64_t gOff = (uint64_t)row * cols_ + col0;
            CopyIn(gOff, col0, len);
            Compute(len);
            CopyOut(gOff, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t gOff, uint32_t col0, uint32_t len)
    {
        LocalTensor<float> xl = xQ_.AllocTensor<float>();
        LocalTensor<float> el = eQ_.AllocTensor<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xl, xGm_[gOff], cp, pad);
        DataCopyPad(el, eGm_[col0], cp, pad);
        xQ_.EnQue(xl);
        eQ_.EnQue(el);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> xl = xQ_.DeQue<float>();
        LocalTensor<float> el = eQ_.DeQue<float>();
        LocalTensor<float> yl = yQ_.AllocTensor<float>();
        Ln(yl, xl, len);
        Mul(yl, yl, el, len);
        Exp(yl, yl, len);
        yQ_.EnQue(yl);
        xQ_.FreeTensor(xl);
        eQ_.FreeTensor(el);
    }

    __aicore__ inline void CopyOut(uint64_t gOff, uint32_t len)
    {
        LocalTensor<float> yl = yQ_.DeQue<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm_[gOff], yl, cp);
        yQ_.FreeTensor(yl);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQ_, eQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQ_;
    GlobalTensor<float> xGm_, eGm_, yGm_;
    uint32_t rows_, cols_, colTile_, colTiles_;
    uint32_t taskBegin_, taskEnd_;
};

extern "C" __global__ __aicore__ void power_broadcast_custom(GM_ADDR x, GM_ADDR exponent, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelPowerBroadcast op;
    op.Init(x, exponent, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor power_broadcast_custom_impl_npu(const at::Tensor& x, const at::Tensor& exponent) {
    TORCH_CHECK(exponent.dim() == 1 && exponent.size(0) == x.size(-1),
                "exponent must be 1-D and match the last dim of x");
    at::Tensor xc = x.contiguous();
    at::Tensor ec = exponent.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnPowerBroadcastCustom, xc, ec, y);
    return y;
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

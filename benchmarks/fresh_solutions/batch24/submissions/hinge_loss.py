project_json_src='''
[
    {
        "op": "HingeLossCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "predictions", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "targets", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "loss", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HingeLossCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);         // predictions.shape[0]
  TILING_DATA_FIELD_DEF(uint32_t, cols);         // predictions.shape[-1] == targets.numel()
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);      // columns per UB tile
  TILING_DATA_FIELD_DEF(float, invCount);        // 1 / (rows * cols), for the mean
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HingeLossCustom, HingeLossCustomTilingData)
}
"""

host_operator_src="""
#include "hinge_loss_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    HingeLossCustomTilingData td;
    const gert::Shape ps = context->GetInputShape(0)->GetOriginShape();
    uint64_t total = ps.GetShapeSize();
    uint32_t cols = static_cast<uint32_t>(ps.GetDim(ps.GetDimNum() - 1));
    uint32_t rows = static_cast<uint32_t>(total / cols);

    uint32_t blockDim = 32;
    if (blockDim > rows) blockDim = rows;
    uint32_t rpc = (rows + blockDim - 1) / blockDim;
    blockDim = (rows + rpc - 1) / rpc;

    uint32_t colTile = 4096;
    uint32_t colsAligned = (cols + 7) / 8 * 8;
    if (colTile > colsAligned) colTile = colsAligned;

    td.set_rows(rows);
    td.set_cols(cols);
    td.set_rowsPerCore(rpc);
    td.set_colTile(colTile);
    td.set_invCount(1.0f / static_cast<float>(total));

    context->SetBlockDim(blockDim);
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
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(0);   // scalar mean
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class HingeLossCustom : public OpDef {
public:
    explicit HingeLossCustom(const char* name) : OpDef(name)
    {
        this->Input("predictions").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("targets").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("loss").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(HingeLossCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// loss = mean(max(0, 1 - p[r, c] * t[c]))
// targets broadcast along the last dimension.  The column tile of targets is loaded once
// and reused for all rows owned by this core.  Every core adds its (already scaled)
// partial sum into the zero-initialised scalar output with an atomic add.
class KernelHingeLoss {
public:
    __aicore__ inline KernelHingeLoss() {}
    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR tgt, GM_ADDR loss, uint32_t rows, uint32_t cols,
                                uint32_t rowsPerCore, uint32_t colTile, float invCount)
    {
        nCols = cols;
        tile = colTile;
        scale = invCount;
        r0 = AscendC::GetBlockIdx() * rowsPerCore;
        nRows = rows > r0 ? rows - r0 : 0;
        if (nRows > rowsPerCore) nRows = rowsPerCore;

        pGm.SetGlobalBuffer((__gm__ float*)pred, static_cast<uint64_t>(rows) * cols);
        tGm.SetGlobalBuffer((__gm__ float*)tgt, cols);
        lossGm.SetGlobalBuffer((__gm__ float*)loss, 1);

        pipe.InitBuffer(predQue, BUFFER_NUM, tile * sizeof(float));
        pipe.InitBuffer(tgtQue, 1, tile * sizeof(float));
        pipe.InitBuffer(tmpBuf, tile * sizeof(float));
        pipe.InitBuffer(accBuf, tile * sizeof(float));
        pipe.InitBuffer(outBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (nRows == 0) return;
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, tile);

        for (uint32_t c = 0; c < nCols; c += tile) {
            uint32_t w = nCols - c;
            if (w > tile) w = tile;

            AscendC::LocalTensor<float> t = tgtQue.AllocTensor<float>();
            CopyGm(t, tGm[c], w);
            tgtQue.EnQue(t);
            t = tgtQue.DeQue<float>();

            for (uint32_t r = 0; r < nRows; ++r) {
                AscendC::LocalTensor<float> p = predQue.AllocTensor<float>();
                CopyGm(p, pGm[static_cast<uint64_t>(r0 + r) * nCols + c], w);
                predQue.EnQue(p);
                p = predQue.DeQue<float>();
                Accumulate(p, t, acc, w);
                predQue.FreeTensor(p);
            }
            tgtQue.FreeTensor(t);
        }

        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
        AscendC::LocalTensor<float> res = outBuf.Get<float>();
        AscendC::ReduceSum(res, acc, tmp, tile);
        AscendC::Muls(res, res, scale, 1);

        event_t e = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_MTE3));
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(e);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(e);
        AscendC::SetAtomicAdd<float>();
        AscendC::DataCopyExtParams cp{1, sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(lossGm, res, cp);
        AscendC::SetAtomicNone();
    }

private:
    __aicore__ inline void CopyGm(AscendC::LocalTensor<float>& dst, const AscendC::GlobalTensor<float>& src, uint32_t n)
    {
        if (n % 8 == 0) {
            AscendC::DataCopy(dst, src, n);
        } else {
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0};
            AscendC::DataCopyPad(dst, src, cp, pad);
        }
    }

    __aicore__ inline void Accumulate(AscendC::LocalTensor<float>& p, AscendC::LocalTensor<float>& t,
                                      AscendC::LocalTensor<float>& acc, uint32_t n)
    {
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
        AscendC::Mul(tmp, p, t, n);            // p * t
        AscendC::Muls(tmp, tmp, -1.0f, n);     // -p * t
        AscendC::Adds(tmp, tmp, 1.0f, n);      // 1 - p * t
        AscendC::Maxs(tmp, tmp, 0.0f, n);      // clamp(min = 0)
        AscendC::Add(acc, acc, tmp, n);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> predQue;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> tgtQue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> tmpBuf, accBuf, outBuf;
    AscendC::GlobalTensor<float> pGm, tGm, lossGm;
    uint32_t nCols, tile, r0, nRows;
    float scale;
};

extern "C" __global__ __aicore__ void hinge_loss_custom(GM_ADDR predictions, GM_ADDR targets, GM_ADDR loss,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelHingeLoss op;
    op.Init(predictions, targets, loss, td.rows, td.cols, td.rowsPerCore, td.colTile, td.invCount);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor hinge_loss_custom_impl_npu(const at::Tensor& predictions, const at::Tensor& targets)
{
    at::Tensor p = predictions.contiguous();
    at::Tensor t = targets.contiguous().view({-1});
    TORCH_CHECK(t.numel() == p.size(-1), "targets must broadcast along the last dim of predictions");
    // the kernel accumulates with atomic adds, so the output must start at zero
    at::Tensor loss = at::zeros({}, p.options());
    EXEC_NPU_CMD(aclnnHingeLossCustom, p, t, loss);
    return loss;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("hinge_loss_custom", &hinge_loss_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("hinge_loss_custom", &hinge_loss_custom_impl_npu, "mean(clamp(1 - p * t, min=0))");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        return custom_ops_lib.hinge_loss_custom(predictions, targets)
'''

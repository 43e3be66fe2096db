project_json_src='''
[
    {
        "op": "HingeLossCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "predictions",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "targets",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "loss",
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
BEGIN_TILING_DATA_DEF(HingeLossCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);         // number of prediction rows (batch)
  TILING_DATA_FIELD_DEF(uint32_t, cols);         // length of each row == length of targets
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // rows handled by each core (last core may get fewer)
  TILING_DATA_FIELD_DEF(uint32_t, tileCols);     // columns processed per UB tile
  TILING_DATA_FIELD_DEF(float, invTotal);        // 1 / (rows * cols), used for the mean
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HingeLossCustom, HingeLossCustomTilingData)
}
"""

host_operator_src="""
#include "hinge_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_COLS = 4096;   // 16 KB of fp32 per buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    HingeLossCustomTilingData tiling;
    const gert::Shape &predShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &tgtShape = context->GetInputShape(1)->GetOriginShape();

    uint64_t total = predShape.GetShapeSize();
    // targets broadcast along the last axis of predictions
    uint32_t cols = static_cast<uint32_t>(tgtShape.GetShapeSize());
    if (cols == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = static_cast<uint32_t>(total / cols);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }
    uint32_t rowsPerCore = (rows + usedCores - 1) / usedCores;
    usedCores = (rows + rowsPerCore - 1) / rowsPerCore;

    uint32_t tileCols = cols < TILE_COLS ? cols : TILE_COLS;
    tileCols = (tileCols + 7) / 8 * 8;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_tileCols(tileCols);
    tiling.set_invTotal(1.0f / static_cast<float>(total));

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    gert::Shape* outShape = context->GetOutputShape(0);
    outShape->SetDimNum(0);   // scalar result
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
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
        this->Input("predictions")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("targets")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

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

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// loss = mean(max(0, 1 - p[i, j] * t[j]))
// Each core owns a contiguous band of rows. Columns are walked in the outer loop so that
// a targets tile is loaded once and reused for every row of the band. Partial sums are
// accumulated element-wise in UB and reduced once at the very end; the scaled partial is
// then atomically added to the (zero-initialised) scalar output.
class KernelHingeLoss {
public:
    __aicore__ inline KernelHingeLoss() {}
    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR tgt, GM_ADDR loss,
                                uint32_t rows, uint32_t cols, uint32_t rowsPerCore,
                                uint32_t tileCols, float invTotal)
    {
        this->cols = cols;
        this->tileCols = tileCols;
        this->invTotal = invTotal;

        uint32_t rowStart = GetBlockIdx() * rowsPerCore;
        uint32_t rowEnd = rowStart + rowsPerCore;
        if (rowEnd > rows) {
            rowEnd = rows;
        }
        this->myRows = rowEnd > rowStart ? rowEnd - rowStart : 0;

        predGm.SetGlobalBuffer((__gm__ float *)pred + (uint64_t)rowStart * cols, (uint64_t)this->myRows * cols);
        tgtGm.SetGlobalBuffer((__gm__ float *)tgt, cols);
        lossGm.SetGlobalBuffer((__gm__ float *)loss, 1);

        pipe.InitBuffer(predQue, BUFFER_NUM, tileCols * sizeof(float));
        pipe.InitBuffer(tgtQue, 1, tileCols * sizeof(float));
        pipe.InitBuffer(outQue, 1, 32);
        pipe.InitBuffer(accBuf, tileCols * sizeof(float));
        pipe.InitBuffer(workBuf, tileCols * sizeof(float));
        pipe.InitBuffer(reduceTmp, tileCols * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, tileCols);

        uint32_t colTiles = (cols + tileCols - 1) / tileCols;
        for (uint32_t ct = 0; ct < colTiles; ++ct) {
            uint32_t colOff = ct * tileCols;
            uint32_t len = (colOff + tileCols <= cols) ? tileCols : cols - colOff;

            LoadTargets(colOff, len);
            LocalTensor<float> tLocal = tgtQue.DeQue<float>();
            for (uint32_t r = 0; r < myRows; ++r) {
                LoadPred(r, colOff, len);
                Accumulate(tLocal, acc, len);
            }
            tgtQue.FreeTensor(tLocal);
        }
        Finalize(acc);
    }

private:
    __aicore__ inline void LoadTargets(uint32_t colOff, uint32_t len)
    {
        LocalTensor<float> tLocal = tgtQue.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(tLocal, tgtGm[colOff], cp, pad);
        tgtQue.EnQue(tLocal);
    }

    __aicore__ inline void LoadPred(uint32_t r, uint32_t colOff, uint32_t len)
    {
        LocalTensor<float> pLocal = predQue.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(pLocal, predGm[(uint64_t)r * cols + colOff], cp, pad);
        predQue.EnQue(pLocal);
    }

    __aicore__ inline void Accumulate(LocalTensor<float> &tLocal, LocalTensor<float> &acc, uint32_t len)
    {
        LocalTensor<float> pLocal = predQue.DeQue<float>();
        LocalTensor<float> w = workBuf.Get<float>();
        Mul(w, pLocal, tLocal, len);     // p * t
        Muls(w, w, -1.0f, len);          // -p * t
        Adds(w, w, 1.0f, len);           // 1 - p * t
        Maxs(w, w, 0.0f, len);           // clamp(min = 0)
        Add(acc, acc, w, len);           // element-wise partial sums
        predQue.FreeTensor(pLocal);
    }

    __aicore__ inline void Finalize(LocalTensor<float> &acc)
    {
        LocalTensor<float> outLocal = outQue.AllocTensor<float>();
        LocalTensor<float> tmp = reduceTmp.Get<float>();
        ReduceSum<float>(outLocal, acc, tmp, tileCols);
        Muls(outLocal, outLocal, invTotal, 1);
        outQue.EnQue(outLocal);

        outLocal = outQue.DeQue<float>();
        SetAtomicAdd<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(lossGm, outLocal, cp);
        SetAtomicNone();
        outQue.FreeTensor(outLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> predQue;
    TQue<QuePosition::VECIN, 1> tgtQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<TPosition::VECCALC> accBuf, workBuf, reduceTmp;
    GlobalTensor<float> predGm, tgtGm, lossGm;
    uint32_t cols = 0;
    uint32_t tileCols = 0;
    uint32_t myRows = 0;
    float invTotal = 0.0f;
};

extern "C" __global__ __aicore__ void hinge_loss_custom(GM_ADDR predictions, GM_ADDR targets, GM_ADDR loss,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelHingeLoss op;
    op.Init(predictions, targets, loss, td.rows, td.cols, td.rowsPerCore, td.tileCols, td.invTotal);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor hinge_loss_custom_impl_npu(const at::Tensor& predictions, const at::Tensor& targets) {
    at::Tensor p = predictions.contiguous();
    at::Tensor t = targets.contiguous();
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
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        return custom_ops_lib.hinge_loss_custom(predictions, targets)
'''

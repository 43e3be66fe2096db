python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor hinge_loss_custom_impl_npu(const at::Tensor& predictions, const at::Tensor& targets) {
    // the kernel accumulates per-core partial means into out with atomic add -> start from 0
    at::Tensor out = at::zeros({1}, predictions.options());
    EXEC_NPU_CMD(aclnnHingeLossCustom, predictions, targets, out);
    return out.reshape({});
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
        super().__init__()

    def forward(self, predictions, targets):
        return custom_ops_lib.hinge_loss_custom(predictions, targets)
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HingeLossCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);       // product of all leading dims
  TILING_DATA_FIELD_DEF(uint32_t, cols);       // last dim, = targets length (broadcast)
  TILING_DATA_FIELD_DEF(uint32_t, tile_len);   // columns per tile
  TILING_DATA_FIELD_DEF(uint32_t, tile_cnt);   // ceil(cols / tile_len)
  TILING_DATA_FIELD_DEF(uint32_t, row_per);    // rows per core (base)
  TILING_DATA_FIELD_DEF(uint32_t, row_rem);    // first row_rem cores take one more row
  TILING_DATA_FIELD_DEF(float, inv_total);     // 1 / numel
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HingeLossCustom, HingeLossCustomTilingData)
}
"""

host_operator_src="""
#include "hinge_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 8192;   // floats, 32KB per buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    HingeLossCustomTilingData td;
    const gert::Shape& ps = context->GetInputShape(0)->GetStorageShape();
    uint32_t dims = ps.GetDimNum();
    uint32_t cols = dims > 0 ? ps.GetDim(dims - 1) : 1;
    uint64_t total = ps.GetShapeSize();
    uint32_t rows = static_cast<uint32_t>(total / cols);

    uint32_t tile_len = cols < MAX_TILE ? (cols + 7) / 8 * 8 : MAX_TILE;
    uint32_t tile_cnt = (cols + tile_len - 1) / tile_len;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blk = plat.GetCoreNumAiv();
    if (blk > rows) blk = rows;
    if (blk == 0) blk = 1;

    td.set_rows(rows);
    td.set_cols(cols);
    td.set_tile_len(tile_len);
    td.set_tile_cnt(tile_cnt);
    td.set_row_per(rows / blk);
    td.set_row_rem(rows % blk);
    td.set_inv_total(1.0f / static_cast<float>(total));

    context->SetBlockDim(blk);
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
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(1);
    ys->SetDim(0, 1);
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

constexpr int32_t BUFFER_NUM = 2;

class KernelHingeLoss {
public:
    __aicore__ inline KernelHingeLoss() {}
    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR tgt, GM_ADDR loss, const HingeLossCustomTilingData& t)
    {
        cols = t.cols;
        tile_len = t.tile_len;
        tile_cnt = t.tile_cnt;
        inv_total = t.inv_total;

        uint32_t idx = AscendC::GetBlockIdx();
        row_cnt = t.row_per + (idx < t.row_rem ? 1 : 0);
        row_beg = idx * t.row_per + (idx < t.row_rem ? idx : t.row_rem);

        pred_gm.SetGlobalBuffer((__gm__ float*)pred + (uint64_t)row_beg * cols, (uint64_t)row_cnt * cols);
        tgt_gm.SetGlobalBuffer((__gm__ float*)tgt, cols);
        loss_gm.SetGlobalBuffer((__gm__ float*)loss, 1);

        pipe.InitBuffer(pred_q, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(tgt_q, 1, tile_len * sizeof(float));
        pipe.InitBuffer(out_q, 1, 8 * sizeof(float));
        pipe.InitBuffer(acc_buf, tile_len * sizeof(float));
        pipe.InitBuffer(tmp_buf, tile_len * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> acc = acc_buf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, tile_len);

        // column tiles outside, rows inside: the targets tile is loaded only once per tile
        for (uint32_t c = 0; c < tile_cnt; ++c) {
            uint32_t c0 = c * tile_len;
            uint32_t len = (c0 + tile_len <= cols) ? tile_len : (cols - c0);
            LoadTarget(c0, len);
            AscendC::LocalTensor<float> t_loc = tgt_q.DeQue<float>();
            for (uint32_t r = 0; r < row_cnt; ++r) {
                CopyIn(r, c0, len);
                Compute(t_loc, acc, len);
            }
            tgt_q.FreeTensor(t_loc);
        }
        Finish(acc);
    }

private:
    __aicore__ inline void LoadTarget(uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<float> t_loc = tgt_q.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(t_loc, tgt_gm[c0], cp, pad);
        tgt_q.EnQue(t_loc);
    }

    __aicore__ inline void CopyIn(uint32_t r, uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<float> p_loc = pred_q.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(p_loc, pred_gm[(uint64_t)r * cols + c0], cp, pad);
        pred_q.EnQue(p_loc);
    }

    __aicore__ inline void Compute(AscendC::LocalTensor<float>& t_loc, AscendC::LocalTensor<float>& acc, uint32_t len)
    {
        AscendC::LocalTensor<float> p_loc = pred_q.DeQue<float>();
        AscendC::LocalTensor<float> tmp = tmp_buf.Get<float>();
        // tmp = max(1 - p * t, 0)
        AscendC::Mul(tmp, p_loc, t_loc, len);
        AscendC::Muls(tmp, tmp, -1.0f, len);
        AscendC::Adds(tmp, tmp, 1.0f, len);
        AscendC::Relu(tmp, tmp, len);
        AscendC::Add(acc, acc, tmp, len);
        pred_q.FreeTensor(p_loc);
    }

    __aicore__ inline void Finish(AscendC::LocalTensor<float>& acc)
    {
        AscendC::LocalTensor<float> tmp = tmp_buf.Get<float>();
        AscendC::LocalTensor<float> res = out_q.AllocTensor<float>();
        AscendC::ReduceSum<float>(res, acc, tmp, tile_len);
        AscendC::Muls(res, res, inv_total, 1);
        out_q.EnQue(res);
        res = out_q.DeQue<float>();

        // each core adds sum_partial / numel into the single output element
        AscendC::SetAtomicAdd<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(loss_gm, res, cp);
        AscendC::SetAtomicNone();
        out_q.FreeTensor(res);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> pred_q;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> tgt_q;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> out_q;
    AscendC::TBuf<AscendC::TPosition::VECCALC> acc_buf, tmp_buf;
    AscendC::GlobalTensor<float> pred_gm, tgt_gm, loss_gm;
    uint32_t cols, tile_len, tile_cnt, row_beg, row_cnt;
    float inv_total;
};

extern "C" __global__ __aicore__ void hinge_loss_custom(GM_ADDR predictions, GM_ADDR targets, GM_ADDR loss,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelHingeLoss op;
    op.Init(predictions, targets, loss, td);
    op.Process();
}
"""

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

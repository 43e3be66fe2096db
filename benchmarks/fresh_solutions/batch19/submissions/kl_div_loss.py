project_json_src='''
[
    {
        "op": "KlDivLossCustom",
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
BEGIN_TILING_DATA_DEF(KlDivLossCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, perCore);      // elements handled by each core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, invBatch);        // 1 / batch for 'batchmean'
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(KlDivLossCustom, KlDivLossCustomTilingData)
}
"""

host_operator_src="""
#include "kl_div_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LEN = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    KlDivLossCustomTilingData tiling;
    const gert::StorageShape* ps = context->GetInputShape(0);
    uint64_t total = ps->GetStorageShape().GetShapeSize();
    int64_t batch = ps->GetStorageShape().GetDimNum() > 0 ? ps->GetStorageShape().GetDim(0) : 1;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t per = (total + cores - 1) / cores;
    per = (per + 7) / 8 * 8;
    uint32_t used = static_cast<uint32_t>((total + per - 1) / per);
    if (used == 0) {
        used = 1;
    }

    tiling.set_totalLength(total);
    tiling.set_perCore(per);
    tiling.set_tileLength(TILE_LEN);
    tiling.set_invBatch(1.0f / static_cast<float>(batch));
    context->SetBlockDim(used);
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
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(1);
    out->SetDim(0, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class KlDivLossCustom : public OpDef {
public:
    explicit KlDivLossCustom(const char* name) : OpDef(name)
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
OP_ADD(KlDivLossCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// loss = sum(t * (log t - log p)) / batch
// Every core accumulates its partial sum element-wise in UB, reduces it once at the end and
// atomically adds (partial * invBatch) into the single output value (pre-zeroed by the host).
class KernelKlDiv {
public:
    __aicore__ inline KernelKlDiv() {}
    __aicore__ inline void Init(GM_ADDR p, GM_ADDR t, GM_ADDR loss, uint64_t total, uint64_t perCore,
                                uint32_t tileLen, float invBatch)
    {
        uint64_t start = perCore * GetBlockIdx();
        uint64_t end = start + perCore;
        if (end > total) end = total;
        len = end > start ? end - start : 0;
        tile = tileLen;
        scale = invBatch;

        pGm.SetGlobalBuffer((__gm__ float*)p + start, len);
        tGm.SetGlobalBuffer((__gm__ float*)t + start, len);
        lossGm.SetGlobalBuffer((__gm__ float*)loss, 8);

        pipe.InitBuffer(pQue, BUFFER_NUM, tile * sizeof(float));
        pipe.InitBuffer(tQue, BUFFER_NUM, tile * sizeof(float));
        pipe.InitBuffer(outQue, 1, 8 * sizeof(float));
        pipe.InitBuffer(accBuf, tile * sizeof(float));
        pipe.InitBuffer(workBuf, tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, tile);
        uint32_t nTiles = static_cast<uint32_t>((len + tile - 1) / tile);
        for (uint32_t i = 0; i < nTiles; ++i) {
            uint32_t cur = (i == nTiles - 1) ? static_cast<uint32_t>(len - static_cast<uint64_t>(i) * tile) : tile;
            CopyIn(i, cur);
            Compute(cur);
        }
        Finish();
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t cur)
    {
        LocalTensor<float> pl = pQue.AllocTensor<float>();
        LocalTensor<float> tl = tQue.AllocTensor<float>();
        uint64_t off = static_cast<uint64_t>(i) * tile;
        if (cur % 8 == 0) {
            DataCopy(pl, pGm[off], cur);
            DataCopy(tl, tGm[off], cur);
        } else {
            DataCopyExtParams cp{1, cur * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(pl, pGm[off], cp, pad);
            DataCopyPad(tl, tGm[off], cp, pad);
        }
        pQue.EnQue(pl);
        tQue.EnQue(tl);
    }

    __aicore__ inline void Compute(uint32_t cur)
    {
        LocalTensor<float> pl = pQue.DeQue<float>();
        LocalTensor<float> tl = tQue.DeQue<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> w = workBuf.Get<float>();

        Ln(pl, pl, cur);            // log p
        Ln(w, tl, cur);             // log t
        Sub(w, w, pl, cur);         // log t - log p
        Mul(w, w, tl, cur);         // t * (...)
        Add(acc, acc, w, cur);

        pQue.FreeTensor(pl);
        tQue.FreeTensor(tl);
    }

    __aicore__ inline void Finish()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> w = workBuf.Get<float>();
        LocalTensor<float> res = outQue.AllocTensor<float>();
        Duplicate(res, 0.0f, 8);
        ReduceSum<float>(res, acc, w, tile);
        Muls(res, res, scale, 1);
        outQue.EnQue(res);
        res = outQue.DeQue<float>();

        SetAtomicAdd<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(lossGm, res, cp);
        SetAtomicNone();
        outQue.FreeTensor(res);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> pQue, tQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<QuePosition::VECCALC> accBuf, workBuf;
    GlobalTensor<float> pGm, tGm, lossGm;
    uint64_t len;
    uint32_t tile;
    float scale;
};

extern "C" __global__ __aicore__ void kl_div_loss_custom(GM_ADDR predictions, GM_ADDR targets, GM_ADDR loss,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelKlDiv op;
    op.Init(predictions, targets, loss, td.totalLength, td.perCore, td.tileLength, td.invBatch);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor kl_div_loss_custom_impl_npu(const at::Tensor& predictions, const at::Tensor& targets)
{
    at::Tensor p = predictions.contiguous();
    at::Tensor t = targets.contiguous();
    // cores accumulate atomically, so the output must start at zero
    at::Tensor loss = at::zeros({1}, p.options());
    EXEC_NPU_CMD(aclnnKlDivLossCustom, p, t, loss);
    return loss.reshape({});
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("kl_div_loss_custom", &kl_div_loss_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("kl_div_loss_custom", &kl_div_loss_custom_impl_npu, "kl_div(log(p), t, batchmean)");
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
        return custom_ops_lib.kl_div_loss_custom(predictions, targets)
'''

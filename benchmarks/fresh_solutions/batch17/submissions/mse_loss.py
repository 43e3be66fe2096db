project_json_src='''
[
    {
        "op": "MseLossCustom",
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
BEGIN_TILING_DATA_DEF(MseLossCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, perCore);      // elements per core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, invTotal);        // 1 / N for the mean
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MseLossCustom, MseLossCustomTilingData)
}
"""

host_operator_src="""
#include "mse_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t TILE_LENGTH = 8192;   // floats per tile, 32 KB
const uint32_t ALIGN = 8;            // 32 bytes of float

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MseLossCustomTilingData tiling;
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + ALIGN - 1) / ALIGN * ALIGN;
    uint32_t used = static_cast<uint32_t>((total + perCore - 1) / perCore);
    if (used == 0) {
        used = 1;
    }

    tiling.set_totalLength(total);
    tiling.set_perCore(perCore);
    tiling.set_tileLength(TILE_LENGTH);
    tiling.set_invTotal(1.0f / static_cast<float>(total));
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
class MseLossCustom : public OpDef {
public:
    explicit MseLossCustom(const char* name) : OpDef(name)
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

OP_ADD(MseLossCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// mean((p - t)^2)
// Every core accumulates (p - t)^2 element-wise into a tile-sized accumulator, reduces
// it once at the end, scales by 1/N and atomically adds its share into the (zeroed)
// scalar output.
class KernelMseLoss {
public:
    __aicore__ inline KernelMseLoss() {}
    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR tgt, GM_ADDR loss,
                                uint64_t totalLength, uint64_t perCore, uint32_t tileLength, float invTotal)
    {
        uint64_t start = perCore * AscendC::GetBlockIdx();
        this->count = (start + perCore <= totalLength) ? perCore : (totalLength - start);
        this->tileLength = tileLength;
        this->invTotal = invTotal;

        predGm.SetGlobalBuffer((__gm__ float*)pred + start, this->count);
        tgtGm.SetGlobalBuffer((__gm__ float*)tgt + start, this->count);
        lossGm.SetGlobalBuffer((__gm__ float*)loss, 1);

        pipe.InitBuffer(predQ, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(tgtQ, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(accBuf, tileLength * sizeof(float));
        pipe.InitBuffer(diffBuf, tileLength * sizeof(float));
        pipe.InitBuffer(outQ, 1, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, tileLength);

        uint64_t fullTiles = count / tileLength;
        uint32_t tail = static_cast<uint32_t>(count % tileLength);
        for (uint64_t i = 0; i < fullTiles; i++) {
            CopyIn(i * tileLength, tileLength);
            Accumulate(tileLength);
        }
        if (tail > 0) {
            CopyIn(fullTiles * tileLength, tail);
            Accumulate(tail);
        }
        Finish();
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> p = predQ.AllocTensor<float>();
        AscendC::LocalTensor<float> t = tgtQ.AllocTensor<float>();
        if (len % 8 == 0) {
            AscendC::DataCopy(p, predGm[offset], len);
            AscendC::DataCopy(t, tgtGm[offset], len);
        } else {
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(p, predGm[offset], params, pad);
            AscendC::DataCopyPad(t, tgtGm[offset], params, pad);
        }
        predQ.EnQue(p);
        tgtQ.EnQue(t);
    }

    __aicore__ inline void Accumulate(uint32_t len)
    {
        AscendC::LocalTensor<float> p = predQ.DeQue<float>();
        AscendC::LocalTensor<float> t = tgtQ.DeQue<float>();
        AscendC::LocalTensor<float> d = diffBuf.Get<float>();
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();

        AscendC::Sub(d, p, t, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mul(d, d, d, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Add(acc, acc, d, len);   // lanes beyond len keep their old partial sums
        AscendC::PipeBarrier<PIPE_V>();

        predQ.FreeTensor(p);
        tgtQ.FreeTensor(t);
    }

    __aicore__ inline void Finish()
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::LocalTensor<float> work = diffBuf.Get<float>();
        AscendC::LocalTensor<float> res = outQ.AllocTensor<float>();
        AscendC::Duplicate(res, 0.0f, 8);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::ReduceSum(res, acc, work, tileLength);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(res, res, invTotal, 1);
        outQ.EnQue(res);
        res = outQ.DeQue<float>();

        AscendC::SetAtomicAdd<float>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(lossGm, res, params);
        AscendC::SetAtomicNone();
        outQ.FreeTensor(res);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> predQ, tgtQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, diffBuf;
    AscendC::GlobalTensor<float> predGm, tgtGm, lossGm;
    uint64_t count;
    uint32_t tileLength;
    float invTotal;
};

extern "C" __global__ __aicore__ void mse_loss_custom(GM_ADDR predictions, GM_ADDR targets, GM_ADDR loss,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelMseLoss op;
    op.Init(predictions, targets, loss, tiling_data.totalLength, tiling_data.perCore,
            tiling_data.tileLength, tiling_data.invTotal);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor mse_loss_custom_impl_npu(const at::Tensor& predictions, const at::Tensor& targets)
{
    // the kernel accumulates with atomic add, so the output has to start at zero
    at::Tensor loss = at::zeros({1}, predictions.options());
    at::Tensor p = predictions.contiguous();
    at::Tensor t = targets.contiguous();
    EXEC_NPU_CMD(aclnnMseLossCustom, p, t, loss);
    return loss.reshape({});
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mse_loss_custom", &mse_loss_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mse_loss_custom", &mse_loss_custom_impl_npu, "mean squared error");
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
        return custom_ops_lib.mse_loss_custom(predictions, targets)
'''

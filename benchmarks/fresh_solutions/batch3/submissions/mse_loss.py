project_json_src='''
[
    {
        "op": "MseLossCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "predictions", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "targets", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MseLossCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, perCore);      // elements per core (multiple of tileLength except last core)
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, invTotal);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MseLossCustom, MseLossCustomTilingData)
}
"""

host_operator_src="""
#include "mse_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint32_t cores = plat.GetCoreNumAiv();

    uint64_t tiles = (total + TILE - 1) / TILE;
    if (cores > tiles) cores = (uint32_t)tiles;
    if (cores == 0) cores = 1;
    uint64_t tilesPerCore = (tiles + cores - 1) / cores;
    cores = (uint32_t)((tiles + tilesPerCore - 1) / tilesPerCore);

    MseLossCustomTilingData td;
    td.set_totalLength(total);
    td.set_perCore(tilesPerCore * TILE);
    td.set_tileLength(TILE);
    td.set_invTotal(1.0f / (float)total);

    context->SetBlockDim(cores);
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
    context->GetOutputShape(0)->SetDimNum(0);   // scalar
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
        this->Output("out")
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

class KernelMseLoss {
public:
    __aicore__ inline KernelMseLoss() {}
    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR tgt, GM_ADDR out, uint64_t total, uint64_t perCore,
                                uint32_t tileLength, float invTotal)
    {
        this->tileLength = tileLength;
        this->invTotal = invTotal;
        uint64_t start = perCore * AscendC::GetBlockIdx();
        this->count = (start + perCore <= total) ? perCore : (total - start);

        predGm.SetGlobalBuffer((__gm__ float*)pred + start, count);
        tgtGm.SetGlobalBuffer((__gm__ float*)tgt + start, count);
        outGm.SetGlobalBuffer((__gm__ float*)out, 1);

        pipe.InitBuffer(inQueueP, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(inQueueT, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, 1, 8 * sizeof(float));
        pipe.InitBuffer(accBuf, tileLength * sizeof(float));
        pipe.InitBuffer(workBuf, 256 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, tileLength);

        uint64_t loops = (count + tileLength - 1) / tileLength;
        for (uint64_t i = 0; i < loops; i++) {
            uint32_t len = (i == loops - 1) ? (uint32_t)(count - i * tileLength) : tileLength;
            CopyIn(i, len);
            Compute(len);
        }
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn(uint64_t i, uint32_t len)
    {
        AscendC::LocalTensor<float> pLocal = inQueueP.AllocTensor<float>();
        AscendC::LocalTensor<float> tLocal = inQueueT.AllocTensor<float>();
        if (len == tileLength) {
            AscendC::DataCopy(pLocal, predGm[i * tileLength], len);
            AscendC::DataCopy(tLocal, tgtGm[i * tileLength], len);
        } else {
            AscendC::DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(pLocal, predGm[i * tileLength], cp, pad);
            AscendC::DataCopyPad(tLocal, tgtGm[i * tileLength], cp, pad);
        }
        inQueueP.EnQue(pLocal);
        inQueueT.EnQue(tLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> pLocal = inQueueP.DeQue<float>();
        AscendC::LocalTensor<float> tLocal = inQueueT.DeQue<float>();
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        // acc += (p - t)^2 ; only the first len lanes touched on a tail tile
        AscendC::Sub(pLocal, pLocal, tLocal, len);
        AscendC::Mul(pLocal, pLocal, pLocal, len);
        AscendC::Add(acc, acc, pLocal, len);
        inQueueP.FreeTensor(pLocal);
        inQueueT.FreeTensor(tLocal);
    }

    __aicore__ inline void CopyOut()
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> res = outQueue.AllocTensor<float>();
        AscendC::ReduceSum(res, acc, work, tileLength);
        AscendC::Muls(res, res, invTotal, 8);
        outQueue.EnQue(res);
        res = outQueue.DeQue<float>();
        // out was zeroed by the caller; every core adds its share of the mean
        AscendC::SetAtomicAdd<float>();
        AscendC::DataCopyExtParams cp{1, (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(outGm, res, cp);
        AscendC::SetAtomicNone();
        outQueue.FreeTensor(res);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueP, inQueueT;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, workBuf;
    AscendC::GlobalTensor<float> predGm, tgtGm, outGm;
    uint64_t count;
    uint32_t tileLength;
    float invTotal;
};

extern "C" __global__ __aicore__ void mse_loss_custom(GM_ADDR predictions, GM_ADDR targets, GM_ADDR out,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelMseLoss op;
    op.Init(predictions, targets, out, tiling_data.totalLength, tiling_data.perCore,
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
    // kernel accumulates with atomic add, so start from zero
    at::Tensor out = at::zeros({}, predictions.options());
    EXEC_NPU_CMD(aclnnMseLossCustom, predictions, targets, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mse_loss_custom", &mse_loss_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mse_loss_custom", &mse_loss_custom_impl_npu, "mean((p - t)^2)");
}
"""

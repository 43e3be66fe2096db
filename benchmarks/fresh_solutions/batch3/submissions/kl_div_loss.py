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
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that get one extra tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, lastTileLen);   // length of the globally last tile
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF(float, scale);            // 1 / batch
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(KlDivLossCustom, KlDivLossCustomTilingData)
}
"""

host_operator_src="""
#include "kl_div_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    uint64_t total = shape.GetShapeSize();
    uint32_t batch = shape.GetDimNum() > 0 ? shape.GetDim(0) : 1;

    const uint32_t tileLen = 6144;
    uint32_t totalTiles = (uint32_t)((total + tileLen - 1) / tileLen);
    uint32_t lastTileLen = (uint32_t)(total - (uint64_t)(totalTiles - 1) * tileLen);

    uint32_t coreNum = ascendc.GetCoreNumAiv();
    if (coreNum > totalTiles) coreNum = totalTiles;

    KlDivLossCustomTilingData tiling;
    tiling.set_tilesPerCore(totalTiles / coreNum);
    tiling.set_formerNum(totalTiles % coreNum);
    tiling.set_tileLen(tileLen);
    tiling.set_lastTileLen(lastTileLen);
    tiling.set_totalTiles(totalTiles);
    tiling.set_scale(1.0f / (float)batch);

    context->SetBlockDim(coreNum);
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
    context->GetOutputShape(0)->SetDimNum(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class KlDivLossCustom : public OpDef {
public:
    explicit KlDivLossCustom(const char* name) : OpDef(name)
    {
        this->Input("predictions").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("targets").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("loss").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
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

namespace {
constexpr int32_t DB = 2;
constexpr float TINY = 1e-30f;   // keeps ln() finite where target == 0 (term is 0 there anyway)
}

class KlDivLossKernel {
public:
    __aicore__ inline KlDivLossKernel() {}

    __aicore__ inline void Init(GM_ADDR p, GM_ADDR t, GM_ADDR loss, const KlDivLossCustomTilingData& td)
    {
        tileLen = td.tileLen;
        lastTileLen = td.lastTileLen;
        totalTiles = td.totalTiles;
        scale = td.scale;

        uint32_t idx = GetBlockIdx();
        if (idx < td.formerNum) {
            myTiles = td.tilesPerCore + 1;
            firstTile = idx * myTiles;
        } else {
            myTiles = td.tilesPerCore;
            firstTile = td.formerNum * (td.tilesPerCore + 1) + (idx - td.formerNum) * td.tilesPerCore;
        }

        pGm.SetGlobalBuffer((__gm__ float*)p);
        tGm.SetGlobalBuffer((__gm__ float*)t);
        lossGm.SetGlobalBuffer((__gm__ float*)loss, 1);

        pipe.InitBuffer(pQue, DB, tileLen * sizeof(float));
        pipe.InitBuffer(tQue, DB, tileLen * sizeof(float));
        pipe.InitBuffer(oQue, 1, 32);
        pipe.InitBuffer(lnBuf, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(redBuf, 256 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, tileLen);
        for (uint32_t k = 0; k < myTiles; k++) {
            uint32_t tileId = firstTile + k;
            uint32_t len = (tileId == totalTiles - 1) ? lastTileLen : tileLen;
            LoadTile((uint64_t)tileId * tileLen, len);
            Accumulate(len);
        }
        Flush();
    }

private:
    __aicore__ inline void LoadTile(uint64_t off, uint32_t len)
    {
        LocalTensor<float> pl = pQue.AllocTensor<float>();
        LocalTensor<float> tl = tQue.AllocTensor<float>();
        DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(pl, pGm[off], cp, pad);
        DataCopyPad(tl, tGm[off], cp, pad);
        pQue.EnQue(pl);
        tQue.EnQue(tl);
    }

    // acc += t * (ln t - ln p)
    __aicore__ inline void Accumulate(uint32_t len)
    {
        LocalTensor<float> pl = pQue.DeQue<float>();
        LocalTensor<float> tl = tQue.DeQue<float>();
        LocalTensor<float> lt = lnBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();

        Maxs(lt, tl, TINY, len);
        Ln(lt, lt, len);
        Ln(pl, pl, len);
        Sub(lt, lt, pl, len);
        Mul(lt, lt, tl, len);
        Add(acc, acc, lt, len);

        pQue.FreeTensor(pl);
        tQue.FreeTensor(tl);
    }

    __aicore__ inline void Flush()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> work = redBuf.Get<float>();
        LocalTensor<float> o = oQue.AllocTensor<float>();
        ReduceSum(o, acc, work, tileLen);
        Muls(o, o, scale, 1);
        oQue.EnQue(o);
        o = oQue.DeQue<float>();
        SetAtomicAdd<float>();
        DataCopyPad(lossGm, o, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
        SetAtomicNone();
        oQue.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DB> pQue, tQue;
    TQue<QuePosition::VECOUT, 1> oQue;
    TBuf<QuePosition::VECCALC> lnBuf, accBuf, redBuf;
    GlobalTensor<float> pGm, tGm, lossGm;
    uint32_t tileLen, lastTileLen, totalTiles, myTiles, firstTile;
    float scale;
};

extern "C" __global__ __aicore__ void kl_div_loss_custom(GM_ADDR predictions, GM_ADDR targets, GM_ADDR loss,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KlDivLossKernel op;
    op.Init(predictions, targets, loss, td);
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
    at::Tensor loss = at::zeros({}, predictions.options());   // atomically accumulated
    EXEC_NPU_CMD(aclnnKlDivLossCustom, predictions, targets, loss);
    return loss;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("kl_div_loss_custom", &kl_div_loss_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("kl_div_loss_custom", &kl_div_loss_custom_impl_npu, "kl_div(log(p), t, batchmean)");
}
"""

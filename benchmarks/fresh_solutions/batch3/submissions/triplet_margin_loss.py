project_json_src='''
[
    {
        "op": "TripletMarginLossCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "anchor", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "positive", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "negative", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "loss", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "margin", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TripletMarginLossCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, dim);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsRemain);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);
  TILING_DATA_FIELD_DEF(uint32_t, lastTileLen);
  TILING_DATA_FIELD_DEF(float, margin);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TripletMarginLossCustom, TripletMarginLossCustomTilingData)
}
"""

host_operator_src="""
#include "triplet_margin_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& shp = context->GetInputShape(0)->GetStorageShape();
    uint32_t dim = shp.GetDim(shp.GetDimNum() - 1);
    uint32_t batch = shp.GetShapeSize() / dim;

    const float* marginAttr = context->GetAttrs()->GetAttrPointer<float>(0);
    float margin = marginAttr ? *marginAttr : 1.0f;

    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > batch) cores = batch;
    if (cores == 0) cores = 1;

    uint32_t tile = dim < MAX_TILE ? ((dim + 7) / 8 * 8) : MAX_TILE;
    uint32_t tiles = (dim + tile - 1) / tile;
    uint32_t last = dim - (tiles - 1) * tile;

    TripletMarginLossCustomTilingData td;
    td.set_batch(batch);
    td.set_dim(dim);
    td.set_rowsPerCore(batch / cores);
    td.set_rowsRemain(batch % cores);
    td.set_tileLen(tile);
    td.set_tileNum(tiles);
    td.set_lastTileLen(last);
    td.set_margin(margin);
    td.set_eps(1e-6f);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    // one 32B slot per core for partial sums
    ws[0] = plat.GetLibApiWorkSpaceSize() + cores * 32;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class TripletMarginLossCustom : public OpDef {
public:
    explicit TripletMarginLossCustom(const char* name) : OpDef(name)
    {
        this->Input("anchor").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("positive").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("negative").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("loss").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("margin").AttrType(OPTIONAL).Float(1.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TripletMarginLossCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ROW_BATCH = 64;   // rows whose distances are finished together

class KernelTripletMarginLoss {
public:
    __aicore__ inline KernelTripletMarginLoss() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR p, GM_ADDR n, GM_ADDR loss, GM_ADDR ws,
                                const TripletMarginLossCustomTilingData& td)
    {
        batch = td.batch; dim = td.dim;
        tileLen = td.tileLen; tileNum = td.tileNum; lastTileLen = td.lastTileLen;
        margin = td.margin; eps = td.eps;
        blockIdx = AscendC::GetBlockIdx();
        blockNum = AscendC::GetBlockNum();

        // first rowsRemain cores take one extra row
        if (blockIdx < td.rowsRemain) {
            myRows = td.rowsPerCore + 1;
            rowStart = blockIdx * myRows;
        } else {
            myRows = td.rowsPerCore;
            rowStart = td.rowsRemain * (td.rowsPerCore + 1) + (blockIdx - td.rowsRemain) * td.rowsPerCore;
        }

        aGm.SetGlobalBuffer((__gm__ float*)a);
        pGm.SetGlobalBuffer((__gm__ float*)p);
        nGm.SetGlobalBuffer((__gm__ float*)n);
        lossGm.SetGlobalBuffer((__gm__ float*)loss, 1);
        partGm.SetGlobalBuffer((__gm__ float*)ws, blockNum * 8);

        pipe.InitBuffer(qA, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(qP, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(qN, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(bufDiff, tileLen * sizeof(float));
        pipe.InitBuffer(bufAccP, tileLen * sizeof(float));
        pipe.InitBuffer(bufAccN, tileLen * sizeof(float));
        pipe.InitBuffer(bufRowP, ROW_BATCH * sizeof(float));
        pipe.InitBuffer(bufRowN, ROW_BATCH * sizeof(float));
        pipe.InitBuffer(bufRed, 64 * sizeof(float));
        pipe.InitBuffer(bufWork, tileLen * sizeof(float));
        pipe.InitBuffer(qOut, 1, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        float partial = 0.0f;
        AscendC::LocalTensor<float> rowP = bufRowP.Get<float>();
        AscendC::LocalTensor<float> rowN = bufRowN.Get<float>();

        for (uint32_t r0 = 0; r0 < myRows; r0 += ROW_BATCH) {
            uint32_t cnt = (myRows - r0) < ROW_BATCH ? (myRows - r0) : ROW_BATCH;
            for (uint32_t i = 0; i < cnt; i++) {
                float sp, sn;
                RowSquares(rowStart + r0 + i, sp, sn);
                rowP.SetValue(i, sp);
                rowN.SetValue(i, sn);
            }
            partial += FinishRows(cnt);
        }

        // publish partial, core 0 does the final mean
        AscendC::LocalTensor<float> o = qOut.AllocTensor<float>();
        AscendC::Duplicate(o, 0.0f, 8);
        AscendC::PipeBarrier<PIPE_ALL>();
        o.SetValue(0, partial);
        AscendC::PipeBarrier<PIPE_ALL>();
        qOut.EnQue(o);
        o = qOut.DeQue<float>();
        AscendC::DataCopy(partGm[blockIdx * 8], o, 8);
        qOut.FreeTensor(o);

        AscendC::SyncAll();

        if (blockIdx == 0) {
            Finalize();
        }
    }

private:
    // squared L2 of (a - p + eps) and (a - n + eps) over one row
    __aicore__ inline void RowSquares(uint32_t row, float& sp, float& sn)
    {
        AscendC::LocalTensor<float> accP = bufAccP.Get<float>();
        AscendC::LocalTensor<float> accN = bufAccN.Get<float>();
        AscendC::Duplicate(accP, 0.0f, tileLen);
        AscendC::Duplicate(accN, 0.0f, tileLen);
        uint64_t base = (uint64_t)row * dim;
        for (uint32_t t = 0; t < tileNum; t++) {
            uint32_t len = (t == tileNum - 1) ? lastTileLen : tileLen;
            CopyIn(base + (uint64_t)t * tileLen, len);
            Accumulate(len);
        }
        AscendC::LocalTensor<float> red = bufRed.Get<float>();
        AscendC::LocalTensor<float> work = bufWork.Get<float>();
        AscendC::ReduceSum(red, accP, work, tileLen);
        AscendC::ReduceSum(red[8], accN, work, tileLen);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
        sp = red.GetValue(0);
        sn = red.GetValue(8);
    }

    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> la = qA.AllocTensor<float>();
        AscendC::LocalTensor<float> lp = qP.AllocTensor<float>();
        AscendC::LocalTensor<float> ln = qN.AllocTensor<float>();
        if (len % 8 == 0) {
            AscendC::DataCopy(la, aGm[off], len);
            AscendC::DataCopy(lp, pGm[off], len);
            AscendC::DataCopy(ln, nGm[off], len);
        } else {
            AscendC::DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(la, aGm[off], cp, pad);
            AscendC::DataCopyPad(lp, pGm[off], cp, pad);
            AscendC::DataCopyPad(ln, nGm[off], cp, pad);
        }
        qA.EnQue(la);
        qP.EnQue(lp);
        qN.EnQue(ln);
    }

    __aicore__ inline void Accumulate(uint32_t len)
    {
        AscendC::LocalTensor<float> la = qA.DeQue<float>();
        AscendC::LocalTensor<float> lp = qP.DeQue<float>();
        AscendC::LocalTensor<float> ln = qN.DeQue<float>();
        AscendC::LocalTensor<float> d = bufDiff.Get<float>();
        AscendC::LocalTensor<float> accP = bufAccP.Get<float>();
        AscendC::LocalTensor<float> accN = bufAccN.Get<float>();

        AscendC::Sub(d, la, lp, len);
        AscendC::Adds(d, d, eps, len);
        AscendC::Mul(d, d, d, len);
        AscendC::Add(accP, accP, d, len);

        AscendC::Sub(d, la, ln, len);
        AscendC::Adds(d, d, eps, len);
        AscendC::Mul(d, d, d, len);
        AscendC::Add(accN, accN, d, len);

        qA.FreeTensor(la);
        qP.FreeTensor(lp);
        qN.FreeTensor(ln);
    }

    // sum over cnt rows of max(dp - dn + margin, 0)
    __aicore__ inline float FinishRows(uint32_t cnt)
    {
        AscendC::LocalTensor<float> rowP = bufRowP.Get<float>();
        AscendC::LocalTensor<float> rowN = bufRowN.Get<float>();
        AscendC::LocalTensor<float> red = bufRed.Get<float>();
        AscendC::LocalTensor<float> work = bufWork.Get<float>();
        event_t evSV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(evSV);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(evSV);

        AscendC::Sqrt(rowP, rowP, cnt);
        AscendC::Sqrt(rowN, rowN, cnt);
        AscendC::Sub(rowP, rowP, rowN, cnt);
        AscendC::Adds(rowP, rowP, margin, cnt);
        AscendC::Maxs(rowP, rowP, 0.0f, cnt);
        AscendC::ReduceSum(red, rowP, work, cnt);

        event_t evVS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(evVS);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(evVS);
        return red.GetValue(0);
    }

    __aicore__ inline void Finalize()
    {
        AscendC::LocalTensor<float> all = bufWork.Get<float>();
        AscendC::LocalTensor<float> red = bufRed.Get<float>();
        uint32_t n = blockNum * 8;
        AscendC::DataCopy(all, partGm, n);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(ev);
        float total = 0.0f;
        for (uint32_t i = 0; i < blockNum; i++) {
            total += all.GetValue(i * 8);
        }
        AscendC::LocalTensor<float> o = qOut.AllocTensor<float>();
        o.SetValue(0, total / (float)batch);
        AscendC::PipeBarrier<PIPE_ALL>();
        qOut.EnQue(o);
        o = qOut.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(lossGm, o, cp);
        qOut.FreeTensor(o);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> qA, qP, qN;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> qOut;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bufDiff, bufAccP, bufAccN, bufRowP, bufRowN, bufRed, bufWork;
    AscendC::GlobalTensor<float> aGm, pGm, nGm, lossGm, partGm;
    uint32_t batch, dim, tileLen, tileNum, lastTileLen;
    uint32_t myRows, rowStart, blockIdx, blockNum;
    float margin, eps;
};

extern "C" __global__ __aicore__ void triplet_margin_loss_custom(GM_ADDR anchor, GM_ADDR positive, GM_ADDR negative,
                                                                 GM_ADDR loss, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = AscendC::GetUserWorkspace(workspace);
    KernelTripletMarginLoss op;
    op.Init(anchor, positive, negative, loss, usr, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor triplet_margin_loss_custom_impl_npu(const at::Tensor& anchor, const at::Tensor& positive,
                                               const at::Tensor& negative, double margin)
{
    at::Tensor loss = at::empty({}, anchor.options());
    EXEC_NPU_CMD(aclnnTripletMarginLossCustom, anchor, positive, negative, margin, loss);
    return loss;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("triplet_margin_loss_custom", &triplet_margin_loss_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("triplet_margin_loss_custom", &triplet_margin_loss_custom_impl_npu, "triplet margin loss (p=2, mean)",
          pybind11::arg("anchor"), pybind11::arg("positive"), pybind11::arg("negative"), pybind11::arg("margin") = 1.0);
}
"""

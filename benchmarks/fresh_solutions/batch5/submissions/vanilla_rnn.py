project_json_src='''
[
    {
        "op": "VanillaRnnCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "h0", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "w_i2h", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b_i2h", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "w_h2o", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b_h2o", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VanillaRnnCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inputSize);
  TILING_DATA_FIELD_DEF(uint32_t, hiddenSize);
  TILING_DATA_FIELD_DEF(uint32_t, outputSize);
  TILING_DATA_FIELD_DEF(uint32_t, tanhChunk);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, i2hTiling);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, h2oTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VanillaRnnCustom, VanillaRnnCustomTilingData)
}
"""

host_operator_src="""
#include "vanilla_rnn_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static int32_t BuildTiling(const platform_ascendc::PlatformAscendC& plat, uint32_t cores,
                           uint32_t m, uint32_t n, uint32_t k, uint32_t kb, TCubeTiling& out)
{
    MultiCoreMatmulTiling mt(plat);
    mt.SetDim(cores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true); // nn.Linear weight: [N, K]
    mt.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k, kb);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    return mt.GetTiling(out);
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    VanillaRnnCustomTilingData tiling;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto hs = context->GetInputShape(1)->GetStorageShape();
    auto w2s = context->GetInputShape(4)->GetStorageShape();
    uint32_t batch = xs.GetDim(0);
    uint32_t inSz = xs.GetDim(1);
    uint32_t hid = hs.GetDim(1);
    uint32_t outSz = w2s.GetDim(0);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aic = plat.GetCoreNumAic();

    // i2h: [x | h] @ W1^T, K split in two passes inside the kernel; tile on the larger half
    uint32_t kMax = inSz > hid ? inSz : hid;
    if (BuildTiling(plat, aic, batch, hid, kMax, inSz + hid, tiling.i2hTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    if (BuildTiling(plat, aic, batch, outSz, hid, hid, tiling.h2oTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_batch(batch);
    tiling.set_inputSize(inSz);
    tiling.set_hiddenSize(hid);
    tiling.set_outputSize(outSz);
    tiling.set_tanhChunk(4096);

    context->SetBlockDim(aic);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t* ws = context->GetWorkspaceSizes(1);
    // lib workspace + new hidden state [batch, hidden]
    ws[0] = plat.GetLibApiWorkSpaceSize() + (size_t)batch * hid * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w2 = context->GetInputShape(4);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w2->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class VanillaRnnCustom : public OpDef {
public:
    explicit VanillaRnnCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h0").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("w_i2h").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b_i2h").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("w_h2o").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b_h2o").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VanillaRnnCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using A_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using B_T = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using C_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BIAS_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;

struct TileCoord {
    uint32_t mOff, nOff, mLen, nLen;
    bool valid;
};

__aicore__ inline TileCoord GetTile(const TCubeTiling& t, uint32_t idx)
{
    TileCoord c;
    uint32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    uint32_t nBlocks = (t.N + t.singleCoreN - 1) / t.singleCoreN;
    c.valid = idx < mBlocks * nBlocks;
    uint32_t mi = idx % mBlocks;
    uint32_t ni = idx / mBlocks;
    c.mOff = mi * t.singleCoreM;
    c.nOff = ni * t.singleCoreN;
    c.mLen = (t.M - c.mOff < (uint32_t)t.singleCoreM) ? (t.M - c.mOff) : t.singleCoreM;
    c.nLen = (t.N - c.nOff < (uint32_t)t.singleCoreN) ? (t.N - c.nOff) : t.singleCoreN;
    return c;
}

class KernelVanillaRnn {
public:
    __aicore__ inline KernelVanillaRnn() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR h0, GM_ADDR w1, GM_ADDR b1, GM_ADDR w2, GM_ADDR b2,
                                GM_ADDR y, GM_ADDR usrWs, const VanillaRnnCustomTilingData& td)
    {
        batch = td.batch; inSz = td.inputSize; hid = td.hiddenSize; outSz = td.outputSize;
        chunk = td.tanhChunk;
        xGm.SetGlobalBuffer((__gm__ float*)x);
        h0Gm.SetGlobalBuffer((__gm__ float*)h0);
        w1Gm.SetGlobalBuffer((__gm__ float*)w1);
        b1Gm.SetGlobalBuffer((__gm__ float*)b1);
        w2Gm.SetGlobalBuffer((__gm__ float*)w2);
        b2Gm.SetGlobalBuffer((__gm__ float*)b2);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        hGm.SetGlobalBuffer((__gm__ float*)usrWs);   // new hidden [batch, hid]
        pipe.InitBuffer(actQ, 2, chunk * sizeof(float));
    }

    __aicore__ inline TPipe* GetPipe() { return &pipe; }

    template <class MM1, class MM2>
    __aicore__ inline void Process(MM1& mm1, MM2& mm2, const VanillaRnnCustomTilingData& td)
    {
        uint32_t blk = GetBlockIdx();
        if ASCEND_IS_AIV {
            blk = blk / GetTaskRation();
        }
        // ---- stage 1: h' = tanh(x W1x^T + h W1h^T + b1) ----
        TileCoord t1 = GetTile(td.i2hTiling, blk);
        if (t1.valid) {
            uint32_t ldw = inSz + hid;
            uint64_t cOff = (uint64_t)t1.mOff * hid + t1.nOff;
            // x part
            mm1.SetOrgShape(batch, hid, inSz, ldw);
            mm1.SetTensorA(xGm[(uint64_t)t1.mOff * inSz]);
            mm1.SetTensorB(w1Gm[(uint64_t)t1.nOff * ldw], true);
            mm1.SetBias(b1Gm[t1.nOff]);
            mm1.SetTail(t1.mLen, t1.nLen, inSz);
            mm1.IterateAll(hGm[cOff]);
            mm1.End();
            // hidden part, accumulated on top
            mm1.SetOrgShape(batch, hid, hid, ldw);
            mm1.SetTensorA(h0Gm[(uint64_t)t1.mOff * hid]);
            mm1.SetTensorB(w1Gm[(uint64_t)t1.nOff * ldw + inSz], true);
            mm1.ClearBias();
            mm1.SetTail(t1.mLen, t1.nLen, hid);
            mm1.IterateAll(hGm[cOff], 1);
            mm1.End();
            if ASCEND_IS_AIV {
                TanhTile(t1);
            }
        }
        SyncAll();

        // ---- stage 2: y = h' W2^T + b2 ----
        TileCoord t2 = GetTile(td.h2oTiling, blk);
        if (t2.valid) {
            mm2.SetTensorA(hGm[(uint64_t)t2.mOff * hid]);
            mm2.SetTensorB(w2Gm[(uint64_t)t2.nOff * hid], true);
            mm2.SetBias(b2Gm[t2.nOff]);
            mm2.SetTail(t2.mLen, t2.nLen, hid);
            mm2.IterateAll(yGm[(uint64_t)t2.mOff * outSz + t2.nOff]);
            mm2.End();
        }
    }

private:
    // tanh in place on this core's tile of the hidden workspace; the two vector subcores split rows
    __aicore__ inline void TanhTile(const TileCoord& t)
    {
        uint32_t sub = GetSubBlockIdx();
        uint32_t subNum = GetTaskRation();
        for (uint32_t r = sub; r < t.mLen; r += subNum) {
            uint64_t rowBase = (uint64_t)(t.mOff + r) * hid + t.nOff;
            for (uint32_t c = 0; c < t.nLen; c += chunk) {
                uint32_t len = (t.nLen - c < chunk) ? (t.nLen - c) : chunk;
                DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                LocalTensor<float> buf = actQ.AllocTensor<float>();
                DataCopyPad(buf, hGm[rowBase + c], cp, pad);
                actQ.EnQue(buf);
                buf = actQ.DeQue<float>();
                Tanh(buf, buf, len);
                event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
                SetFlag<HardEvent::V_MTE3>(ev);
                WaitFlag<HardEvent::V_MTE3>(ev);
                DataCopyPad(hGm[rowBase + c], buf, cp);
                actQ.FreeTensor(buf);
            }
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> actQ;
    GlobalTensor<float> xGm, h0Gm, w1Gm, b1Gm, w2Gm, b2Gm, yGm, hGm;
    uint32_t batch, inSz, hid, outSz, chunk;
};

extern "C" __global__ __aicore__ void vanilla_rnn_custom(GM_ADDR x, GM_ADDR h0, GM_ADDR w_i2h, GM_ADDR b_i2h,
                                                         GM_ADDR w_h2o, GM_ADDR b_h2o, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    KernelVanillaRnn op;
    Matmul<A_T, B_T, C_T, BIAS_T> mm1;
    Matmul<A_T, B_T, C_T, BIAS_T> mm2;
    op.Init(x, h0, w_i2h, b_i2h, w_h2o, b_h2o, y, usrWs, td);
    REGIST_MATMUL_OBJ(op.GetPipe(), GetSysWorkSpacePtr(), mm1, &td.i2hTiling, mm2, &td.h2oTiling);
    op.Process(mm1, mm2, td);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor vanilla_rnn_impl_npu(const at::Tensor& x, const at::Tensor& h0,
                                const at::Tensor& w_i2h, const at::Tensor& b_i2h,
                                const at::Tensor& w_h2o, const at::Tensor& b_h2o)
{
    TORCH_CHECK(w_i2h.size(1) == x.size(1) + h0.size(1), "i2h weight must be [H, I+H]");
    at::Tensor y = at::empty({x.size(0), w_h2o.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnVanillaRnnCustom, x, h0, w_i2h, b_i2h, w_h2o, b_h2o, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("vanilla_rnn_custom", &vanilla_rnn_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("vanilla_rnn_custom", &vanilla_rnn_impl_npu, "one vanilla RNN step: h2o(tanh(i2h([x, h])))");
}
"""

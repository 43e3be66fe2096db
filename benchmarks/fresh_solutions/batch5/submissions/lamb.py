project_json_src='''
[
    {
        "op": "LambCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "param", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "m", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "v", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "param_out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "lr", "param_type": "optional", "type": "float", "default_value": "0.001"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-6"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LambCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLen);
  TILING_DATA_FIELD_DEF(uint32_t, perCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF(float, lr);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LambCustom, LambCustomTilingData)
}
"""

host_operator_src="""
#include "lamb_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE = 4096;
constexpr uint32_t PARTIAL_STRIDE = 8;   // floats per core in the partial-sum workspace (32B)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    LambCustomTilingData tiling;
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    auto attrs = context->GetAttrs();
    float lr = *attrs->GetAttrPointer<float>(0);
    float eps = *attrs->GetAttrPointer<float>(1);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    // per-core span rounded to 8 floats so every core starts 32B aligned
    uint64_t per = (total + cores - 1) / cores;
    per = (per + 7) / 8 * 8;
    uint32_t used = (uint32_t)((total + per - 1) / per);

    tiling.set_totalLen(total);
    tiling.set_perCore((uint32_t)per);
    tiling.set_tileLen(TILE);
    tiling.set_usedCores(used);
    tiling.set_lr(lr);
    tiling.set_eps(eps);

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + used * PARTIAL_STRIDE * sizeof(float) + 32 * cores;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class LambCustom : public OpDef {
public:
    explicit LambCustom(const char* name) : OpDef(name)
    {
        this->Input("param").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("m").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("param_out").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("lr").AttrType(OPTIONAL).Float(1e-3f);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-6f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LambCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t PARTIAL_STRIDE = 8;

class KernelLamb {
public:
    __aicore__ inline KernelLamb() {}
    __aicore__ inline void Init(GM_ADDR param, GM_ADDR m, GM_ADDR v, GM_ADDR out, GM_ADDR usrWs,
                                const LambCustomTilingData& td)
    {
        lr = td.lr; eps = td.eps; tileLen = td.tileLen; usedCores = td.usedCores;
        uint64_t start = (uint64_t)GetBlockIdx() * td.perCore;
        uint64_t end = start + td.perCore;
        if (end > td.totalLen) end = td.totalLen;
        myLen = (start < end) ? (uint32_t)(end - start) : 0;

        pGm.SetGlobalBuffer((__gm__ float*)param + start, myLen);
        mGm.SetGlobalBuffer((__gm__ float*)m + start, myLen);
        vGm.SetGlobalBuffer((__gm__ float*)v + start, myLen);
        oGm.SetGlobalBuffer((__gm__ float*)out + start, myLen);
        partGm.SetGlobalBuffer((__gm__ float*)usrWs, usedCores * PARTIAL_STRIDE);

        pipe.InitBuffer(pQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(mQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(vQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(oQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(rBuf, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, 2 * tileLen * sizeof(float));
        pipe.InitBuffer(redBuf, usedCores * PARTIAL_STRIDE * sizeof(float) + 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        // pass 1: local ||param||^2 and ||r||^2
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, 2 * tileLen);
        for (uint32_t off = 0; off < myLen; off += tileLen) {
            uint32_t len = Min(tileLen, myLen - off);
            LoadTile(off, len, true);
            LocalTensor<float> p = pQ.DeQue<float>();
            LocalTensor<float> r = rBuf.Get<float>();
            ComputeR(r, len);
            Mul(p, p, p, len);
            Add(acc, acc, p, len);
            Mul(r, r, r, len);
            Add(acc[tileLen], acc[tileLen], r, len);
            pQ.FreeTensor(p);
        }
        WritePartial(acc);
        SyncAll();

        float trust = GlobalTrustRatio();
        float scale = -lr * trust;

        // pass 2: param - lr * trust * r
        for (uint32_t off = 0; off < myLen; off += tileLen) {
            uint32_t len = Min(tileLen, myLen - off);
            LoadTile(off, len, true);
            LocalTensor<float> p = pQ.DeQue<float>();
            LocalTensor<float> r = rBuf.Get<float>();
            ComputeR(r, len);
            LocalTensor<float> o = oQ.AllocTensor<float>();
            Muls(o, r, scale, len);
            Add(o, o, p, len);
            pQ.FreeTensor(p);
            oQ.EnQue(o);
            o = oQ.DeQue<float>();
            DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
            DataCopyPad(oGm[off], o, cp);
            oQ.FreeTensor(o);
        }
    }

private:
    __aicore__ inline uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }

    __aicore__ inline void LoadTile(uint32_t off, uint32_t len, bool withParam)
    {
        DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        LocalTensor<float> mL = mQ.AllocTensor<float>();
        LocalTensor<float> vL = vQ.AllocTensor<float>();
        DataCopyPad(mL, mGm[off], cp, pad);
        DataCopyPad(vL, vGm[off], cp, pad);
        mQ.EnQue(mL);
        vQ.EnQue(vL);
        if (withParam) {
            LocalTensor<float> pL = pQ.AllocTensor<float>();
            DataCopyPad(pL, pGm[off], cp, pad);
            pQ.EnQue(pL);
        }
    }

    // r = m / (sqrt(v) + eps)
    __aicore__ inline void ComputeR(LocalTensor<float>& r, uint32_t len)
    {
        LocalTensor<float> mL = mQ.DeQue<float>();
        LocalTensor<float> vL = vQ.DeQue<float>();
        Sqrt(vL, vL, len);
        Adds(vL, vL, eps, len);
        Div(r, mL, vL, len);
        mQ.FreeTensor(mL);
        vQ.FreeTensor(vL);
    }

    __aicore__ inline void WritePartial(LocalTensor<float>& acc)
    {
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = rBuf.Get<float>();
        Duplicate(red, 0.0f, PARTIAL_STRIDE);
        ReduceSum(red, acc, work, tileLen);
        ReduceSum(red[1], acc[tileLen], work, tileLen);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(ev);
        WaitFlag<HardEvent::V_MTE3>(ev);
        DataCopy(partGm[GetBlockIdx() * PARTIAL_STRIDE], red, PARTIAL_STRIDE);
        event_t ev2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_MTE2));
        SetFlag<HardEvent::MTE3_MTE2>(ev2);
        WaitFlag<HardEvent::MTE3_MTE2>(ev2);
    }

    __aicore__ inline float GlobalTrustRatio()
    {
        LocalTensor<float> red = redBuf.Get<float>();
        uint32_t n = usedCores * PARTIAL_STRIDE;
        DataCopy(red, partGm, n);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
        float pSq = 0.0f, rSq = 0.0f;
        for (uint32_t c = 0; c < usedCores; ++c) {
            pSq += red.GetValue(c * PARTIAL_STRIDE);
            rSq += red.GetValue(c * PARTIAL_STRIDE + 1);
        }
        // sqrt of both norms via a tiny vector op
        LocalTensor<float> sc = red[n];
        sc.SetValue(0, pSq);
        sc.SetValue(1, rSq);
        event_t ev2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev2);
        WaitFlag<HardEvent::S_V>(ev2);
        Sqrt(sc, sc, 8);
        event_t ev3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev3);
        WaitFlag<HardEvent::V_S>(ev3);
        return sc.GetValue(0) / (sc.GetValue(1) + eps);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> pQ, mQ, vQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> oQ;
    TBuf<TPosition::VECCALC> rBuf, accBuf, redBuf;
    GlobalTensor<float> pGm, mGm, vGm, oGm, partGm;
    float lr, eps;
    uint32_t tileLen, usedCores, myLen;
};

extern "C" __global__ __aicore__ void lamb_custom(GM_ADDR param, GM_ADDR m, GM_ADDR v, GM_ADDR param_out,
                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    KernelLamb op;
    op.Init(param, m, v, param_out, usrWs, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor lamb_impl_npu(const at::Tensor& param, const at::Tensor& m, const at::Tensor& v, double lr, double eps)
{
    at::Tensor out = at::empty_like(param);
    EXEC_NPU_CMD(aclnnLambCustom, param, m, v, lr, eps, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("lamb_custom", &lamb_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("lamb_custom", &lamb_impl_npu, "LAMB param update with trust ratio",
          py::arg("param"), py::arg("m"), py::arg("v"), py::arg("lr") = 1e-3, py::arg("eps") = 1e-6);
}
"""

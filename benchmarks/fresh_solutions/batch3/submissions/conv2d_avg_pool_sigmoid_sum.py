project_json_src='''
[
    {
        "op": "Conv2dAvgPoolSigmoidSumCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "pool_size", "param_type": "optional", "type": "int", "default_value": "4"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dAvgPoolSigmoidSumCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, pool);
  TILING_DATA_FIELD_DEF(uint32_t, pooledH);
  TILING_DATA_FIELD_DEF(uint32_t, pooledW);
  TILING_DATA_FIELD_DEF(uint32_t, colAlign);     // pool*pooledW rounded up
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dAvgPoolSigmoidSumCustom, Conv2dAvgPoolSigmoidSumCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_avg_pool_sigmoid_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dAvgPoolSigmoidSumCustomTilingData tiling;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    uint32_t pool = (uint32_t)(*context->GetAttrs()->GetAttrPointer<int64_t>(0));

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    uint32_t ch = h - k + 1, cw = w - k + 1;     // conv output
    uint32_t ph = ch / pool, pw = cw / pool;      // floor mode pooling
    uint32_t cols = ph > 0 ? pool * pw : 0;
    // two pairwise folds need a multiple of 4*64/... keep it on a 64 boundary
    uint32_t colAlign = ((cols + 63) / 64) * 64;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t total = n * ph;
    uint32_t per = (total + coreNum - 1) / coreNum;
    if (per == 0) per = 1;
    uint32_t used = (total + per - 1) / per;

    tiling.set_batch(n);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_height(h);
    tiling.set_width(w);
    tiling.set_ksize(k);
    tiling.set_pool(pool);
    tiling.set_pooledH(ph);
    tiling.set_pooledW(pw);
    tiling.set_colAlign(colAlign);
    tiling.set_unitsPerCore(per);
    tiling.set_totalUnits(total);

    context->SetBlockDim(used == 0 ? 1 : used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(1);
    ys->SetDim(0, xs->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dAvgPoolSigmoidSumCustom : public OpDef {
public:
    explicit Conv2dAvgPoolSigmoidSumCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("pool_size").AttrType(OPTIONAL).Int(4);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv2dAvgPoolSigmoidSumCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

// one unit = one pooled output row (n, ph).
// pooling is linear, so the 4 conv rows are folded first: Rsum[kh] = sum_a x[4ph+a+kh],
// then conv on the folded row, then pairwise column folds give the 4x4 window sums.
class KernelConvPoolSigSum {
public:
    __aicore__ inline KernelConvPoolSigSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                uint32_t n, uint32_t cin, uint32_t cout, uint32_t h, uint32_t wd,
                                uint32_t k, uint32_t pool, uint32_t ph, uint32_t pw, uint32_t colAlign,
                                uint32_t per, uint32_t total)
    {
        N = n; Cin = cin; Cout = cout; H = h; Wd = wd; K = k; Pool = pool; PH = ph; PW = pw; CA = colAlign;
        uStart = GetBlockIdx() * per;
        uEnd = uStart + per;
        if (uEnd > total) uEnd = total;
        inRows = Pool + K - 1;
        cols = Pool * PW;
        wLen = Cout * Cin * K * K;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)N * Cin * H * Wd);
        wGm.SetGlobalBuffer((__gm__ float*)w, wLen);
        bGm.SetGlobalBuffer((__gm__ float*)b, Cout);
        yGm.SetGlobalBuffer((__gm__ float*)y, N);

        pipe.InitBuffer(inQue, 1, K * inRows * CA * sizeof(float));
        pipe.InitBuffer(wBuf, ((wLen + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(foldBuf, K * K * CA * sizeof(float));
        pipe.InitBuffer(accBuf, Cout * CA * sizeof(float));
        pipe.InitBuffer(halfBuf, 2 * CA * sizeof(float));
        pipe.InitBuffer(totBuf, CA * sizeof(float));
        pipe.InitBuffer(outBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (uStart >= uEnd) return;
        LocalTensor<float> wL = wBuf.Get<float>();
        DataCopy(wL, wGm, (wLen + 7) / 8 * 8);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);

        LocalTensor<float> tot = totBuf.Get<float>();
        Duplicate(tot, 0.0f, CA);
        uint32_t curN = uStart / PH;
        for (uint32_t u = uStart; u < uEnd; u++) {
            uint32_t nIdx = u / PH;
            if (nIdx != curN) {
                Flush(curN);
                Duplicate(tot, 0.0f, CA);
                curN = nIdx;
            }
            DoUnit(nIdx, u % PH);
        }
        Flush(curN);
    }

private:
    __aicore__ inline void DoUnit(uint32_t nIdx, uint32_t ph)
    {
        LocalTensor<float> wL = wBuf.Get<float>();
        LocalTensor<float> fold = foldBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> tot = totBuf.Get<float>();
        LocalTensor<float> ev = halfBuf.Get<float>();
        LocalTensor<float> od = ev[CA];

        Duplicate(acc, 0.0f, Cout * CA);
        for (uint32_t ci = 0; ci < Cin; ci++) {
            // K column-shifted copies of the inRows input rows
            LocalTensor<float> xin = inQue.AllocTensor<float>();
            uint64_t base = (((uint64_t)nIdx * Cin + ci) * H + ph * Pool) * Wd;
            DataCopyExtParams cp{(uint16_t)inRows, (uint32_t)(cols * sizeof(float)),
                                 (uint32_t)((Wd - cols) * sizeof(float)), (uint32_t)((CA - (cols + 7) / 8 * 8) * sizeof(float) / 32), 0};
            DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
            for (uint32_t kw = 0; kw < K; kw++) {
                DataCopyPad(xin[kw * inRows * CA], xGm[base + kw], cp, pp);
            }
            inQue.EnQue(xin);
            xin = inQue.DeQue<float>();

            // fold the pool rows: fold[kh][kw] = sum_a xin[kw][a+kh]
            for (uint32_t kh = 0; kh < K; kh++) {
                for (uint32_t kw = 0; kw < K; kw++) {
                    LocalTensor<float> f = fold[(kh * K + kw) * CA];
                    LocalTensor<float> src = xin[kw * inRows * CA];
                    Add(f, src[kh * CA], src[(kh + 1) * CA], CA);
                    for (uint32_t a = 2; a < Pool; a++) {
                        Add(f, f, src[(kh + a) * CA], CA);
                    }
                }
            }
            inQue.FreeTensor(xin);

            for (uint32_t co = 0; co < Cout; co++) {
                uint32_t wOff = (co * Cin + ci) * K * K;
                for (uint32_t t = 0; t < K * K; t++) {
                    Axpy(acc[co * CA], fold[t * CA], wL.GetValue(wOff + t), CA);
                }
            }
        }

        float inv = 1.0f / (float)(Pool * Pool);
        uint64_t rsvd = 0;
        for (uint32_t co = 0; co < Cout; co++) {
            LocalTensor<float> a = acc[co * CA];
            // column folds: pairs, then pairs again (Pool == 4)
            uint32_t len = CA;
            for (uint32_t f = Pool; f > 1; f >>= 1) {
                GatherMask(ev, a, 1, true, len, {1, 1, 8, 0}, rsvd);
                GatherMask(od, a, 2, true, len, {1, 1, 8, 0}, rsvd);
                len >>= 1;
                Add(a, ev, od, len);
            }
            // avg + bias, sigmoid = 1 / (1 + exp(-v))
            Muls(a, a, -inv, PW);
            Adds(a, a, -bGm.GetValue(co), PW);
            Exp(a, a, PW);
            Adds(a, a, 1.0f, PW);
            Reciprocal(a, a, PW);
            Add(tot, tot, a, PW);
        }
    }

    __aicore__ inline void Flush(uint32_t nIdx)
    {
        LocalTensor<float> tot = totBuf.Get<float>();
        LocalTensor<float> o = outBuf.Get<float>();
        LocalTensor<float> work = halfBuf.Get<float>();
        ReduceSum(o, tot, work, PW);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(ev);
        WaitFlag<HardEvent::V_MTE3>(ev);
        // several cores may hold partial sums of the same batch element
        SetAtomicAdd<float>();
        DataCopyExtParams cp{1, (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[nIdx], o, cp);
        SetAtomicNone();
        event_t ev2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_V));
        SetFlag<HardEvent::MTE3_V>(ev2);
        WaitFlag<HardEvent::MTE3_V>(ev2);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQue;
    TBuf<TPosition::VECCALC> wBuf, foldBuf, accBuf, halfBuf, totBuf, outBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    uint32_t N, Cin, Cout, H, Wd, K, Pool, PH, PW, CA;
    uint32_t uStart, uEnd, inRows, cols, wLen;
};

extern "C" __global__ __aicore__ void conv2d_avg_pool_sigmoid_sum_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConvPoolSigSum op;
    op.Init(x, weight, bias, y, td.batch, td.cin, td.cout, td.height, td.width, td.ksize, td.pool,
            td.pooledH, td.pooledW, td.colAlign, td.unitsPerCore, td.totalUnits);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv2d_avg_pool_sigmoid_sum_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                       const at::Tensor& bias, int64_t pool_size)
{
    TORCH_CHECK(pool_size == 4, "kernel folds columns pairwise twice: pool_size must be 4");
    // zero-init: the kernel accumulates partial sums atomically
    at::Tensor y = at::zeros({x.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnConv2dAvgPoolSigmoidSumCustom, x, weight, bias, pool_size, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_avg_pool_sigmoid_sum_custom", &conv2d_avg_pool_sigmoid_sum_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_avg_pool_sigmoid_sum_custom", &conv2d_avg_pool_sigmoid_sum_custom_impl_npu,
          "conv2d -> avgpool -> sigmoid -> sum(C,H,W)");
}
"""

project_json_src='''
[
    {
        "op": "ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustom",
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
            {"name": "scale", "param_type": "optional", "type": "float", "default_value": "0.5"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, poolD);
  TILING_DATA_FIELD_DEF(uint32_t, poolH);
  TILING_DATA_FIELD_DEF(uint32_t, poolW);
  TILING_DATA_FIELD_DEF(uint32_t, planeLen);     // poolH * inW, one pooled depth slice (row stride inW)
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore); // (n, co) pairs per core
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(float, invCount);
  TILING_DATA_FIELD_DEF(float, clampMin);
  TILING_DATA_FIELD_DEF(float, clampMax);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustom, ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose3d_multiply_max_global_avg_pool_clamp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// kernel is specialised for kernel_size=3, stride=2, padding=1, maxpool 2
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    if (ws.GetDim(2) != 3 || ws.GetDim(3) != 3 || ws.GetDim(4) != 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t co = ws.GetDim(1);
    // convT out = 2*in - 1, pooled = floor(out / 2) = in - 1
    uint32_t pd = d - 1, ph = h - 1, pw = w - 1;

    const float* sc = context->GetAttrs()->GetAttrPointer<float>(0);

    uint32_t tasks = n * co;
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t per = (tasks + cores - 1) / cores;
    cores = (tasks + per - 1) / per;

    ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustomTilingData td;
    td.set_batch(n); td.set_cin(ci); td.set_cout(co);
    td.set_inD(d); td.set_inH(h); td.set_inW(w);
    td.set_poolD(pd); td.set_poolH(ph); td.set_poolW(pw);
    td.set_planeLen(ph * w);
    td.set_tasksPerCore(per);
    td.set_totalTasks(tasks);
    td.set_scale(sc ? *sc : 0.5f);
    td.set_invCount(1.0f / (float)(pd * ph * pw));
    td.set_clampMin(0.0f);
    td.set_clampMax(1.0f);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    ys->SetDim(2, 1);
    ys->SetDim(3, 1);
    ys->SetDim(4, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustom : public OpDef {
public:
    explicit ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(0.5);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// stride-2 / pad-1 / k3 transposed conv split by output parity.
// out[2m+a] gets taps: a=0 -> (k=1, in=m); a=1 -> (k=0, in=m+1), (k=2, in=m)
// A 2x2x2 max-pool window holds exactly one point of each of the 8 parity classes,
// so pooled[m,p,q] = max over classes of class[m,p,q].
constexpr uint32_t NCLS = 8;
constexpr uint32_t KS = 3;

class KernelConvT3dPool {
public:
    __aicore__ inline KernelConvT3dPool() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustomTilingData& td)
    {
        N = td.batch; CI = td.cin; CO = td.cout;
        D = td.inD; H = td.inH; W = td.inW;
        PD = td.poolD; PH = td.poolH; PW = td.poolW;
        L = td.planeLen;
        scale = td.scale; invCount = td.invCount;
        lo = td.clampMin; hi = td.clampMax;

        taskBegin = GetBlockIdx() * td.tasksPerCore;
        taskEnd = taskBegin + td.tasksPerCore;
        if (taskEnd > td.totalTasks) taskEnd = td.totalTasks;

        hw = H * W;
        planeBuf = (hw + 8 + 7) / 8 * 8;
        wCount = CI * CO * KS * KS * KS;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w, wCount);
        bGm.SetGlobalBuffer((__gm__ float*)b, CO);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        // slab = [plane(id=m), plane(id=m) shifted by 1, plane(id=m+1), plane(id=m+1) shifted]
        pipe.InitBuffer(slabQ, 2, 4 * planeBuf * sizeof(float));
        pipe.InitBuffer(accBuf, NCLS * L * sizeof(float));
        pipe.InitBuffer(sumBuf, L * sizeof(float));
        pipe.InitBuffer(maskBuf, L * sizeof(float));
        pipe.InitBuffer(wBuf, (wCount + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(bBuf, (CO + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(redBuf, 512 * sizeof(float));
        pipe.InitBuffer(resQ, 1, ((taskEnd - taskBegin) + 7) / 8 * 8 * sizeof(float) + 32);
    }

    __aicore__ inline void Process()
    {
        if (taskBegin >= taskEnd) return;
        LoadParams();

        LocalTensor<float> res = resQ.AllocTensor<float>();
        for (uint32_t t = taskBegin; t < taskEnd; t++) {
            res.SetValue(t - taskBegin, OneTask(t / CO, t % CO));
        }
        PipeBarrier<PIPE_ALL>();
        resQ.EnQue(res);
        res = resQ.DeQue<float>();
        DataCopyPad(yGm[taskBegin], res, DataCopyExtParams{1, (uint32_t)((taskEnd - taskBegin) * sizeof(float)), 0, 0, 0});
        resQ.FreeTensor(res);
    }

private:
    __aicore__ inline void LoadParams()
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> bl = bBuf.Get<float>();
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm, DataCopyExtParams{1, (uint32_t)(wCount * sizeof(float)), 0, 0, 0}, pad);
        DataCopyPad(bl, bGm, DataCopyExtParams{1, (uint32_t)(CO * sizeof(float)), 0, 0, 0}, pad);

        // mask out the column q == PW of every row (row stride is W)
        LocalTensor<float> mask = maskBuf.Get<float>();
        Duplicate(mask, 1.0f, L);
        event_t e0 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e0);
        WaitFlag<HardEvent::V_S>(e0);
        for (uint32_t p = 0; p < PH; p++) {
            for (uint32_t q = PW; q < W; q++) {
                mask.SetValue(p * W + q, 0.0f);
            }
        }
        event_t e1 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e1);
        WaitFlag<HardEvent::MTE2_S>(e1);
        event_t e2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e2);
        WaitFlag<HardEvent::S_V>(e2);
    }

    __aicore__ inline void LoadSlab(uint32_t n, uint32_t c, uint32_t m)
    {
        LocalTensor<float> slab = slabQ.AllocTensor<float>();
        uint64_t base = (((uint64_t)n * CI + c) * D + m) * hw;
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyExtParams full{1, (uint32_t)(hw * sizeof(float)), 0, 0, 0};
        DataCopyExtParams shifted{1, (uint32_t)((hw - 1) * sizeof(float)), 0, 0, 0};
        // shifted copies are one short; pad the last slot with 0
        DataCopyPadExtParams<float> padTail{true, 0, 1, 0.0f};
        DataCopyPad(slab, xGm[base], full, pad);
        DataCopyPad(slab[planeBuf], xGm[base + 1], shifted, padTail);
        DataCopyPad(slab[2 * planeBuf], xGm[base + hw], full, pad);
        DataCopyPad(slab[3 * planeBuf], xGm[base + hw + 1], shifted, padTail);
        slabQ.EnQue(slab);
    }

    // returns clamp(mean(maxpool(scale * convT)))[n, co]
    __aicore__ inline float OneTask(uint32_t n, uint32_t co)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> sum = sumBuf.Get<float>();
        LocalTensor<float> mask = maskBuf.Get<float>();
        float bias = bBuf.Get<float>().GetValue(co);

        Duplicate(sum, 0.0f, L);
        for (uint32_t m = 0; m < PD; m++) {
            Duplicate(acc, 0.0f, NCLS * L);
            LoadSlab(n, 0, m);
            for (uint32_t c = 0; c < CI; c++) {
                LocalTensor<float> slab = slabQ.DeQue<float>();
                if (c + 1 < CI) {
                    LoadSlab(n, c + 1, m);   // prefetch next channel
                }
                uint32_t wBase = (c * CO + co) * KS * KS * KS;
                for (uint32_t cls = 0; cls < NCLS; cls++) {
                    uint32_t a = cls >> 2, bb = (cls >> 1) & 1, cc = cls & 1;
                    LocalTensor<float> dst = acc[cls * L];
                    for (uint32_t kd = 0; kd < KS; kd++) {
                        int32_t dd = TapShift(a, kd);
                        if (dd < 0) continue;
                        for (uint32_t kh = 0; kh < KS; kh++) {
                            int32_t dh = TapShift(bb, kh);
                            if (dh < 0) continue;
                            for (uint32_t kw = 0; kw < KS; kw++) {
                                int32_t dw = TapShift(cc, kw);
                                if (dw < 0) continue;
                                float wv = wl.GetValue(wBase + (kd * KS + kh) * KS + kw);
                                // plane for (dd, dw), row offset dh
                                LocalTensor<float> src = slab[(dd * 2 + dw) * planeBuf + dh * W];
                                Axpy(dst, src, wv, L);
                            }
                        }
                    }
                }
                slabQ.FreeTensor(slab);
            }
            // pool over the 8 classes
            for (uint32_t cls = 1; cls < NCLS; cls++) {
                if (scale >= 0.0f) {
                    Max(acc, acc, acc[cls * L], L);
                } else {
                    Min(acc, acc, acc[cls * L], L);
                }
            }
            Adds(acc, acc, bias, L);
            Muls(acc, acc, scale, L);
            Mul(acc, acc, mask, L);
            Add(sum, sum, acc, L);
        }

        LocalTensor<float> red = redBuf.Get<float>();
        ReduceSum(red, sum, red[64], L);
        Muls(red, red, invCount, 8);
        Maxs(red, red, lo, 8);
        Mins(red, red, hi, 8);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return red.GetValue(0);
    }

    // input offset (0 or 1) that kernel tap k contributes to output parity par, -1 if none
    __aicore__ inline int32_t TapShift(uint32_t par, uint32_t k)
    {
        if (par == 0) return k == 1 ? 0 : -1;
        if (k == 0) return 1;
        if (k == 2) return 0;
        return -1;
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> slabQ;
    TQue<QuePosition::VECOUT, 1> resQ;
    TBuf<QuePosition::VECCALC> accBuf, sumBuf, maskBuf, wBuf, bBuf, redBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    uint32_t N, CI, CO, D, H, W, PD, PH, PW, L, hw, planeBuf, wCount;
    uint32_t taskBegin, taskEnd;
    float scale, invCount, lo, hi;
};

extern "C" __global__ __aicore__ void conv_transpose3d_multiply_max_global_avg_pool_clamp_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConvT3dPool op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_multiply_max_global_avg_pool_clamp_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, double scale)
{
    TORCH_CHECK(weight.size(2) == 3 && weight.size(3) == 3 && weight.size(4) == 3, "only kernel_size=3 supported");
    at::Tensor y = at::empty({x.size(0), weight.size(1), 1, 1, 1}, x.options());
    EXEC_NPU_CMD(aclnnConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustom, x, weight, bias, scale, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_multiply_max_global_avg_pool_clamp_custom",
           &conv_transpose3d_multiply_max_global_avg_pool_clamp_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_multiply_max_global_avg_pool_clamp_custom",
          &conv_transpose3d_multiply_max_global_avg_pool_clamp_custom_impl_npu,
          "convT3d(k3,s2,p1) * scale -> maxpool2 -> global avg -> clamp(0,1)");
}
"""

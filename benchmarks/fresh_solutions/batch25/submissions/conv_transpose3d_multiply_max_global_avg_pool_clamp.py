project_json_src='''
[
    {
        "op": "ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "scale", "param_type": "required", "type": "float"},
            {"name": "clamp_min", "param_type": "optional", "type": "float", "default_value": "0.0"},
            {"name": "clamp_max", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);       // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, padW);         // inW rounded up to 16 (UB row pitch)
  TILING_DATA_FIELD_DEF(uint32_t, poolD);        // floor(inD / 2)
  TILING_DATA_FIELD_DEF(uint32_t, poolH);
  TILING_DATA_FIELD_DEF(uint32_t, poolW);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, planesRemain);
  TILING_DATA_FIELD_DEF(float, scale);
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
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustomTilingData t;
    const auto& s = context->GetInputShape(0)->GetStorageShape();   // N, C, D, H, W
    uint32_t planes = s.GetDim(0) * s.GetDim(1);
    uint32_t d = s.GetDim(2), h = s.GetDim(3), w = s.GetDim(4);
    uint32_t padW = (w + 15) / 16 * 16;
    // one pooled depth step keeps 2 slices x (2*poolH) rows x padW in UB
    if (2u * 2u * (h / 2) * padW * sizeof(float) > 64 * 1024 || padW - w > 8) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    if (cores > planes) cores = planes;

    auto attrs = context->GetAttrs();
    const float* scale = attrs->GetAttrPointer<float>(0);
    const float* cmin = attrs->GetAttrPointer<float>(1);
    const float* cmax = attrs->GetAttrPointer<float>(2);

    t.set_planes(planes);
    t.set_inD(d);
    t.set_inH(h);
    t.set_inW(w);
    t.set_padW(padW);
    t.set_poolD(d / 2);
    t.set_poolH(h / 2);
    t.set_poolW(w / 2);
    t.set_planesPerCore(planes / cores);
    t.set_planesRemain(planes % cores);
    t.set_scale(*scale);
    t.set_clampMin(cmin ? *cmin : 0.0f);
    t.set_clampMax(cmax ? *cmax : 1.0f);

    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(5);
    out->SetDim(0, in->GetDim(0));
    out->SetDim(1, in->GetDim(1));
    out->SetDim(2, 1);
    out->SetDim(3, 1);
    out->SetDim(4, 1);
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
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale").Float();
        this->Attr("clamp_min").AttrType(OPTIONAL).Float(0.0);
        this->Attr("clamp_max").AttrType(OPTIONAL).Float(1.0);

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

// x: ConvTranspose3d output (N, C, D, H, W). For every (n, c) plane:
//   v = x * scale -> MaxPool3d(2) (floor) -> mean over all pooled cells -> clamp
// Each step loads the 2 depth slices of one pooled depth, rows padded to padW
// in UB (DataCopyPad), and reduces: depth max -> row-pair max -> column-pair max
// (GatherMask even/odd). Pooled values are accumulated in a vector, and the
// column that pairs W-1 with the pad lane (odd W) is masked out at the end.
class KernelCt3dMaxAvgClamp {
public:
    __aicore__ inline KernelCt3dMaxAvgClamp() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y,
                                uint32_t inD, uint32_t inH, uint32_t inW, uint32_t padW,
                                uint32_t poolD, uint32_t poolH, uint32_t poolW,
                                uint32_t perCore, uint32_t remain,
                                float scale, float cmin, float cmax)
    {
        this->inD = inD; this->inH = inH; this->inW = inW; this->padW = padW;
        this->poolD = poolD; this->poolH = poolH; this->poolW = poolW;
        this->scale = scale; this->cmin = cmin; this->cmax = cmax;

        uint32_t bid = GetBlockIdx();
        planeCnt = perCore + (bid < remain ? 1 : 0);
        planeBeg = bid * perCore + (bid < remain ? bid : remain);

        planeElems = (uint64_t)inD * inH * inW;
        sliceRows = 2 * poolH;
        sliceElems = sliceRows * padW;
        halfW = padW / 2;
        accElems = poolH * halfW;
        // GatherMask works in 64-element repeats: round the row-pair buffer up
        pairElems = poolH * padW;
        gatherRep = (pairElems + 63) / 64;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y + planeBeg, planeCnt);

        pipe.InitBuffer(inQ, 2, 2 * sliceElems * sizeof(float));
        pipe.InitBuffer(pairBuf, gatherRep * 64 * sizeof(float));
        pipe.InitBuffer(gatherBuf, 2 * gatherRep * 32 * sizeof(float));
        pipe.InitBuffer(accBuf, accElems * sizeof(float));
        pipe.InitBuffer(maskBuf, accElems * sizeof(float));
        pipe.InitBuffer(redBuf, (64 + accElems) * sizeof(float));
        pipe.InitBuffer(resBuf, ((planeCnt + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        // 1 for valid pooled columns, 0 for the pad pair
        LocalTensor<float> msk = maskBuf.Get<float>();
        for (uint32_t h = 0; h < poolH; ++h) {
            Duplicate(msk[h * halfW], 0.0f, halfW);
        }
        PipeBarrier<PIPE_V>();
        event_t evVS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        for (uint32_t h = 0; h < poolH; ++h) {
            for (uint32_t w = 0; w < poolW; ++w) {
                msk.SetValue(h * halfW + w, 1.0f);
            }
        }
        event_t evSV = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);

        LocalTensor<float> res = resBuf.Get<float>();
        float invCount = 1.0f / static_cast<float>(poolD * poolH * poolW);

        for (uint32_t p = 0; p < planeCnt; ++p) {
            uint64_t planeOff = (uint64_t)(planeBeg + p) * planeElems;
            LocalTensor<float> acc = accBuf.Get<float>();
            Duplicate(acc, 0.0f, accElems);
            for (uint32_t dp = 0; dp < poolD; ++dp) {
                CopyIn(planeOff, dp);
                Reduce(acc);
            }
            // masked sum of the pooled cells
            LocalTensor<float> red = redBuf.Get<float>();
            Mul(acc, acc, msk, accElems);
            ReduceSum<float>(red, acc, red[64], accElems);
            event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(ev);
            WaitFlag<HardEvent::V_S>(ev);
            float v = red.GetValue(0) * invCount;
            v = (v < cmin) ? cmin : v;
            v = (v > cmax) ? cmax : v;
            res.SetValue(p, v);
        }

        event_t evS3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(evS3);
        WaitFlag<HardEvent::S_MTE3>(evS3);
        DataCopyExtParams cp{1, planeCnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm, res, cp);
    }

private:
    __aicore__ inline void CopyIn(uint64_t planeOff, uint32_t dp)
    {
        LocalTensor<float> buf = inQ.AllocTensor<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(sliceRows),
                             static_cast<uint32_t>(inW * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(padW - inW), 0.0f};
        uint64_t sliceStride = (uint64_t)inH * inW;
        for (uint32_t k = 0; k < 2; ++k) {
            uint64_t off = planeOff + (uint64_t)(2 * dp + k) * sliceStride;
            DataCopyPad(buf[k * sliceElems], xGm[off], cp, pad);
        }
        inQ.EnQue(buf);
    }

    __aicore__ inline void Reduce(LocalTensor<float>& acc)
    {
        LocalTensor<float> buf = inQ.DeQue<float>();
        LocalTensor<float> pr = pairBuf.Get<float>();
        LocalTensor<float> g = gatherBuf.Get<float>();
        uint32_t gHalf = gatherRep * 32;

        // scale first so the max is taken on scaled values (scale may be negative)
        Muls(buf, buf, scale, 2 * sliceElems);
        Max(buf, buf, buf[sliceElems], sliceElems);                    // depth pair
        for (uint32_t h = 0; h < poolH; ++h) {                          // row pair
            Max(pr[h * padW], buf[2 * h * padW], buf[(2 * h + 1) * padW], padW);
        }
        PipeBarrier<PIPE_V>();
        uint64_t rsvd = 0;
        GatherMask(g, pr, 1, false, 0, {1, static_cast<uint16_t>(gatherRep), 8, 0}, rsvd);        // even cols
        GatherMask(g[gHalf], pr, 2, false, 0, {1, static_cast<uint16_t>(gatherRep), 8, 0}, rsvd); // odd cols
        PipeBarrier<PIPE_V>();
        Max(g, g, g[gHalf], accElems);                                  // column pair
        Add(acc, acc, g, accElems);

        inQ.FreeTensor(buf);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TBuf<QuePosition::VECCALC> pairBuf, gatherBuf, accBuf, maskBuf, redBuf, resBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t inD, inH, inW, padW, poolD, poolH, poolW;
    uint32_t planeCnt, planeBeg, sliceRows, sliceElems, halfW, accElems, pairElems, gatherRep;
    uint64_t planeElems;
    float scale, cmin, cmax;
};

extern "C" __global__ __aicore__ void conv_transpose3d_multiply_max_global_avg_pool_clamp_custom(
    GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelCt3dMaxAvgClamp op;
    op.Init(x, y, t.inD, t.inH, t.inW, t.padW, t.poolD, t.poolH, t.poolW,
            t.planesPerCore, t.planesRemain, t.scale, t.clampMin, t.clampMax);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_multiply_max_global_avg_pool_clamp_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
    int64_t stride, int64_t padding, double scale, double clamp_min, double clamp_max)
{
    at::Tensor conv = at::conv_transpose3d(x, weight, bias,
                                           {stride, stride, stride},
                                           {padding, padding, padding}).contiguous();
    at::Tensor out = at::empty({conv.size(0), conv.size(1), 1, 1, 1}, conv.options());
    float s = static_cast<float>(scale);
    float lo = static_cast<float>(clamp_min);
    float hi = static_cast<float>(clamp_max);
    EXEC_NPU_CMD(aclnnConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustom, conv, s, lo, hi, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_multiply_max_global_avg_pool_clamp_custom",
           &conv_transpose3d_multiply_max_global_avg_pool_clamp_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_multiply_max_global_avg_pool_clamp_custom",
          &conv_transpose3d_multiply_max_global_avg_pool_clamp_custom_impl_npu,
          "conv_transpose3d * scale -> maxpool3d(2) -> global avg -> clamp");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, scale, maxpool_kernel_size):
        super(ModelNew, self).__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride, padding=padding)
        self.stride = stride
        self.padding = padding
        self.scale = scale
        self.clamp_min = 0
        self.clamp_max = 1

    def forward(self, x):
        return custom_ops_lib.conv_transpose3d_multiply_max_global_avg_pool_clamp_custom(
            x, self.conv_transpose.weight, self.conv_transpose.bias,
            self.stride, self.padding, float(self.scale), float(self.clamp_min), float(self.clamp_max))
'''

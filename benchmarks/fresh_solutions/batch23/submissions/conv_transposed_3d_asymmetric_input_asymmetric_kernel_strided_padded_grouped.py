project_json_src='''
[
    {
        "op": "ConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGroupedCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "stride", "param_type": "required", "type": "listInt"},
            {"name": "padding", "param_type": "required", "type": "listInt"},
            {"name": "output_padding", "param_type": "required", "type": "listInt"},
            {"name": "groups", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGroupedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, kD);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, sD);
  TILING_DATA_FIELD_DEF(uint32_t, sH);
  TILING_DATA_FIELD_DEF(uint32_t, sW);
  TILING_DATA_FIELD_DEF(uint32_t, pD);
  TILING_DATA_FIELD_DEF(uint32_t, pH);
  TILING_DATA_FIELD_DEF(uint32_t, pW);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);     // batch * cout * outD output planes
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGroupedCustom,
                           ConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGroupedCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGroupedCustomTilingData td;
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    auto attrs = context->GetAttrs();
    const gert::ContinuousVector *strideV = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    const gert::ContinuousVector *padV = attrs->GetAttrPointer<gert::ContinuousVector>(1);
    const gert::ContinuousVector *opadV = attrs->GetAttrPointer<gert::ContinuousVector>(2);
    const int64_t *groupsP = attrs->GetAttrPointer<int64_t>(3);
    const int64_t *st = reinterpret_cast<const int64_t *>(strideV->GetData());
    const int64_t *pd = reinterpret_cast<const int64_t *>(padV->GetData());
    const int64_t *op = reinterpret_cast<const int64_t *>(opadV->GetData());

    uint32_t groups = static_cast<uint32_t>(*groupsP);
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1);
    uint32_t d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    // weight: (Cin, Cout/groups, kD, kH, kW)
    uint32_t cout = ws.GetDim(1) * groups;
    uint32_t kd = ws.GetDim(2), kh = ws.GetDim(3), kw = ws.GetDim(4);

    uint32_t od = (d - 1) * st[0] - 2 * pd[0] + kd + op[0];
    uint32_t oh = (h - 1) * st[1] - 2 * pd[1] + kh + op[1];
    uint32_t ow = (w - 1) * st[2] - 2 * pd[2] + kw + op[2];

    td.set_batch(n); td.set_cin(cin); td.set_cout(cout); td.set_groups(groups);
    td.set_inD(d); td.set_inH(h); td.set_inW(w);
    td.set_outD(od); td.set_outH(oh); td.set_outW(ow);
    td.set_kD(kd); td.set_kH(kh); td.set_kW(kw);
    td.set_sD(st[0]); td.set_sH(st[1]); td.set_sW(st[2]);
    td.set_pD(pd[0]); td.set_pH(pd[1]); td.set_pW(pd[2]);

    uint32_t units = n * cout * od;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint32_t per = (units + cores - 1) / cores;
    td.set_totalUnits(units);
    td.set_unitsPerCore(per);
    context->SetBlockDim((units + per - 1) / per);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    const gert::Shape *ws = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    const int64_t *st = reinterpret_cast<const int64_t *>(attrs->GetAttrPointer<gert::ContinuousVector>(0)->GetData());
    const int64_t *pd = reinterpret_cast<const int64_t *>(attrs->GetAttrPointer<gert::ContinuousVector>(1)->GetData());
    const int64_t *op = reinterpret_cast<const int64_t *>(attrs->GetAttrPointer<gert::ContinuousVector>(2)->GetData());
    const int64_t groups = *attrs->GetAttrPointer<int64_t>(3);
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1) * groups);
    for (int i = 0; i < 3; ++i) {
        ys->SetDim(2 + i, (xs->GetDim(2 + i) - 1) * st[i] - 2 * pd[i] + ws->GetDim(2 + i) + op[i]);
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGroupedCustom : public OpDef {
public:
    explicit ConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGroupedCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(REQUIRED).ListInt();
        this->Attr("padding").AttrType(REQUIRED).ListInt();
        this->Attr("output_padding").AttrType(REQUIRED).ListInt();
        this->Attr("groups").AttrType(REQUIRED).Int();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGroupedCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

// Direct (gather-form) transposed 3D convolution.
// One work unit = one output plane y[n, oc, od, :, :]. For that plane we stage in UB:
//   * the weights of output channel oc for all input channels of its group
//   * every input plane x[n, ic, id, :, :] that can reach depth od
// and accumulate each output point over its valid (ic, kd, kh, kw) taps:
//   o = i * s - p + k   <=>   i = (o + p - k) / s, only when divisible.
__aicore__ inline uint32_t AlignUp8(uint32_t v) { return (v + 7) / 8 * 8; }

class KernelConvT3dGrouped {
public:
    __aicore__ inline KernelConvT3dGrouped() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
        const ConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGroupedCustomTilingData &t)
    {
        tl = t;
        cinPG = t.cin / t.groups;
        coutPG = t.cout / t.groups;
        kVol = t.kD * t.kH * t.kW;
        wRow = AlignUp8(kVol);
        inPlane = t.inH * t.inW;
        inPlaneAl = AlignUp8(inPlane);
        outPlane = t.outH * t.outW;

        unitBegin = AscendC::GetBlockIdx() * t.unitsPerCore;
        unitEnd = unitBegin + t.unitsPerCore;
        if (unitEnd > t.totalUnits) unitEnd = t.totalUnits;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(wBuf, cinPG * wRow * sizeof(float));
        pipe.InitBuffer(xBuf, cinPG * t.kD * inPlaneAl * sizeof(float));
        pipe.InitBuffer(accBuf, AlignUp8(outPlane) * sizeof(float));
        cachedOc = 0xFFFFFFFFu;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = unitBegin; u < unitEnd; ++u) {
            uint32_t od = u % tl.outD;
            uint32_t oc = (u / tl.outD) % tl.cout;
            uint32_t n = u / (tl.outD * tl.cout);
            LoadWeights(oc);
            LoadInputs(n, oc / coutPG, od);
            ComputePlane(od);
            StorePlane(((uint64_t)n * tl.cout + oc) * tl.outD + od);
        }
    }

private:
    __aicore__ inline void MteToScalar()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(e);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void LoadWeights(uint32_t oc)
    {
        if (oc == cachedOc) return;
        cachedOc = oc;
        uint32_t g = oc / coutPG;
        uint32_t ocl = oc % coutPG;
        AscendC::LocalTensor<float> wl = wBuf.Get<float>();
        // weight[(g*cinPG + icg), ocl, :, :, :] for icg in [0, cinPG)
        AscendC::DataCopyExtParams cp{(uint16_t)cinPG, (uint32_t)(kVol * sizeof(float)),
                                      (uint32_t)((coutPG - 1) * kVol * sizeof(float)), 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(wl, wGm[((uint64_t)g * cinPG * coutPG + ocl) * kVol], cp, pad);
        MteToScalar();
    }

    __aicore__ inline void LoadInputs(uint32_t n, uint32_t g, uint32_t od)
    {
        AscendC::LocalTensor<float> xl = xBuf.Get<float>();
        AscendC::DataCopyExtParams cp{1, (uint32_t)(inPlane * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint32_t kd = 0; kd < tl.kD; ++kd) {
            int32_t t = (int32_t)od + (int32_t)tl.pD - (int32_t)kd;
            if (t < 0 || t % (int32_t)tl.sD != 0) continue;
            int32_t id = t / (int32_t)tl.sD;
            if (id >= (int32_t)tl.inD) continue;
            for (uint32_t icg = 0; icg < cinPG; ++icg) {
                uint64_t src = (((uint64_t)n * tl.cin + g * cinPG + icg) * tl.inD + id) * inPlane;
                AscendC::DataCopyPad(xl[(icg * tl.kD + kd) * inPlaneAl], xGm[src], cp, pad);
            }
        }
        MteToScalar();
    }

    __aicore__ inline void ComputePlane(uint32_t od)
    {
        AscendC::LocalTensor<float> wl = wBuf.Get<float>();
        AscendC::LocalTensor<float> xl = xBuf.Get<float>();
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        const int32_t sD = tl.sD, sH = tl.sH, sW = tl.sW;

        for (uint32_t oh = 0; oh < tl.outH; ++oh) {
            for (uint32_t ow = 0; ow < tl.outW; ++ow) {
                float sum = 0.0f;
                for (uint32_t kd = 0; kd < tl.kD; ++kd) {
                    int32_t td = (int32_t)od + (int32_t)tl.pD - (int32_t)kd;
                    if (td < 0 || td % sD != 0 || td / sD >= (int32_t)tl.inD) continue;
                    // first kh with (oh + pH - kh) divisible by sH
                    uint32_t kh0 = (oh + tl.pH) % sH;
                    for (uint32_t kh = kh0; kh < tl.kH; kh += sH) {
                        int32_t th = (int32_t)oh + (int32_t)tl.pH - (int32_t)kh;
                        if (th < 0) break;
                        int32_t ih = th / sH;
                        if (ih >= (int32_t)tl.inH) continue;
                        uint32_t kw0 = (ow + tl.pW) % sW;
                        for (uint32_t kw = kw0; kw < tl.kW; kw += sW) {
                            int32_t tw = (int32_t)ow + (int32_t)tl.pW - (int32_t)kw;
                            if (tw < 0) break;
                            int32_t iw = tw / sW;
                            if (iw >= (int32_t)tl.inW) continue;
                            uint32_t kIdx = (kd * tl.kH + kh) * tl.kW + kw;
                            uint32_t xIdx = ih * tl.inW + iw;
                            for (uint32_t icg = 0; icg < cinPG; ++icg) {
                                sum += wl.GetValue(icg * wRow + kIdx) *
                                       xl.GetValue((icg * tl.kD + kd) * inPlaneAl + xIdx);
                            }
                        }
                    }
                }
                acc.SetValue(oh * tl.outW + ow, sum);
            }
        }
    }

    __aicore__ inline void StorePlane(uint64_t planeIdx)
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        event_t e = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_MTE3));
        AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(e);
        AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(e);
        AscendC::DataCopyExtParams cp{1, (uint32_t)(outPlane * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[planeIdx * outPlane], acc, cp);
        // acc / x buffers get overwritten next unit: wait for the store and loads to drain
        event_t e2 = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE3_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(e2);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(e2);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> wBuf, xBuf, accBuf;
    AscendC::GlobalTensor<float> xGm, wGm, yGm;
    ConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGroupedCustomTilingData tl;
    uint32_t cinPG, coutPG, kVol, wRow, inPlane, inPlaneAl, outPlane;
    uint32_t unitBegin, unitEnd, cachedOc;
};

extern "C" __global__ __aicore__ void conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelConvT3dGrouped op;
    op.Init(x, weight, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight,
    std::vector<int64_t> stride, std::vector<int64_t> padding,
    std::vector<int64_t> output_padding, int64_t groups)
{
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    std::vector<int64_t> outShape = {x.size(0), weight.size(1) * groups};
    for (int i = 0; i < 3; ++i) {
        outShape.push_back((x.size(2 + i) - 1) * stride[i] - 2 * padding[i] + weight.size(2 + i) + output_padding[i]);
    }
    at::Tensor y = at::empty(outShape, x.options());
    at::IntArrayRef st(stride), pd(padding), op(output_padding);
    EXEC_NPU_CMD(aclnnConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGroupedCustom,
                 xc, wc, st, pd, op, groups, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped_custom",
           &conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped_custom",
          &conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped_custom_impl_npu,
          "grouped strided ConvTranspose3d");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple, stride: tuple = (1, 1, 1), padding: tuple = (0, 0, 0), output_padding: tuple = (0, 0, 0), groups: int = 1, bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv_transpose3d = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, output_padding=output_padding, groups=groups, bias=bias)
        self.stride = list(stride)
        self.padding = list(padding)
        self.output_padding = list(output_padding)
        self.groups = groups

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = custom_ops_lib.conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped_custom(
            x, self.conv_transpose3d.weight, self.stride, self.padding, self.output_padding, self.groups)
        if self.conv_transpose3d.bias is not None:
            y = y + self.conv_transpose3d.bias.view(1, -1, 1, 1, 1)
        return y
'''

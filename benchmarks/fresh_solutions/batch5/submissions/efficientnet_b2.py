project_json_src='''
[
    {
        "op": "EfficientnetB2Custom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            },
            {
                "name": "scale",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            },
            {
                "name": "shift",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ],
        "attr": [
            {
                "name": "act",
                "param_type": "optional",
                "type": "int",
                "default_value": "0"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(EfficientnetB2CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // N
  TILING_DATA_FIELD_DEF(uint32_t, channels);     // C
  TILING_DATA_FIELD_DEF(uint32_t, spatial);      // H * W
  TILING_DATA_FIELD_DEF(uint32_t, mode);         // 0: per-plane scalar path, 1: per-sample vector path
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore); // planes (mode 0) or samples (mode 1) per core
  TILING_DATA_FIELD_DEF(uint32_t, unitsTail);    // leftover units spread over the first cores
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, act);          // 0 none, 1 relu, 2 sigmoid
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(EfficientnetB2Custom, EfficientnetB2CustomTilingData)
}
"""

host_operator_src="""
#include "efficientnet_b2_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 8192;          // floats per tile in mode 0
constexpr uint32_t MAX_ROW_RESIDENT = 6144;  // C*HW limit for mode 1 (scale/shift rows kept in UB)
constexpr uint32_t SPATIAL_THRESHOLD = 64;   // below this, per-plane work is too tiny

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    EfficientnetB2CustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDimNum() > 1 ? shape.GetDim(1) : 1;
    uint32_t hw = 1;
    for (size_t i = 2; i < shape.GetDimNum(); ++i) {
        hw *= shape.GetDim(i);
    }

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int64_t act = 0;
    if (attrs != nullptr && attrs->GetInt(0) != nullptr) {
        act = *(attrs->GetInt(0));
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    if (coreNum == 0) coreNum = 1;

    uint32_t mode = 0;
    uint32_t units = n * c;
    uint32_t tileLen = hw < MAX_TILE ? ((hw + 7) / 8 * 8) : MAX_TILE;
    if (hw < SPATIAL_THRESHOLD && c * hw <= MAX_ROW_RESIDENT) {
        // Late stages of this network run on 1x1 feature maps: treat each sample
        // row (C*HW values) as one vector and multiply by pre-expanded scale/shift.
        mode = 1;
        units = n;
        tileLen = (c * hw + 7) / 8 * 8;
    }
    if (coreNum > units) coreNum = units;

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_spatial(hw);
    tiling.set_mode(mode);
    tiling.set_unitsPerCore(units / coreNum);
    tiling.set_unitsTail(units % coreNum);
    tiling.set_tileLen(tileLen);
    tiling.set_act(static_cast<uint32_t>(act));

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
class EfficientnetB2Custom : public OpDef {
public:
    explicit EfficientnetB2Custom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("act").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(EfficientnetB2Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ACT_NONE = 0;
constexpr uint32_t ACT_RELU = 1;
constexpr uint32_t ACT_SIGMOID = 2;

// y = act(x * scale[c] + shift[c]) on an NCHW tensor.
// Used for every BatchNorm (+ReLU) of EfficientNet-B2: the binding folds the
// batch statistics and affine parameters into scale / shift.
class KernelBnAct {
public:
    __aicore__ inline KernelBnAct() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const EfficientnetB2CustomTilingData& td)
    {
        C = td.channels;
        HW = td.spatial;
        mode = td.mode;
        tileLen = td.tileLen;
        act = td.act;

        uint32_t idx = GetBlockIdx();
        unitCount = td.unitsPerCore + (idx < td.unitsTail ? 1 : 0);
        unitStart = idx * td.unitsPerCore + (idx < td.unitsTail ? idx : td.unitsTail);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale, C);
        shiftGm.SetGlobalBuffer((__gm__ float*)shift, C);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(float));
        if (mode == 1) {
            pipe.InitBuffer(scaleRowBuf, tileLen * sizeof(float));
            pipe.InitBuffer(shiftRowBuf, tileLen * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (mode == 0) {
            ProcessPlanes();
        } else {
            ProcessRows();
        }
    }

private:
    // ---------------- mode 0: one (n, c) plane at a time ----------------
    __aicore__ inline void ProcessPlanes()
    {
        uint32_t tiles = (HW + tileLen - 1) / tileLen;
        for (uint32_t u = 0; u < unitCount; ++u) {
            uint32_t plane = unitStart + u;
            uint32_t ch = plane % C;
            float s = scaleGm.GetValue(ch);
            float b = shiftGm.GetValue(ch);
            uint64_t base = static_cast<uint64_t>(plane) * HW;
            for (uint32_t t = 0; t < tiles; ++t) {
                uint32_t len = (t + 1 == tiles) ? HW - t * tileLen : tileLen;
                uint64_t off = base + static_cast<uint64_t>(t) * tileLen;
                LoadTile(off, len);
                {
                    LocalTensor<float> xl = inQ.DeQue<float>();
                    LocalTensor<float> yl = outQ.AllocTensor<float>();
                    Muls(yl, xl, s, len);
                    Adds(yl, yl, b, len);
                    Activate(yl, xl, len);
                    outQ.EnQue(yl);
                    inQ.FreeTensor(xl);
                }
                StoreTile(off, len);
            }
        }
    }

    // ---------------- mode 1: whole sample row (C*HW) as one vector ----------------
    __aicore__ inline void ProcessRows()
    {
        uint32_t rowLen = C * HW;
        LocalTensor<float> sRow = scaleRowBuf.Get<float>();
        LocalTensor<float> bRow = shiftRowBuf.Get<float>();
        // expand per-channel parameters to per-element rows once per core
        for (uint32_t ch = 0; ch < C; ++ch) {
            float s = scaleGm.GetValue(ch);
            float b = shiftGm.GetValue(ch);
            for (uint32_t k = 0; k < HW; ++k) {
                sRow.SetValue(ch * HW + k, s);
                bRow.SetValue(ch * HW + k, b);
            }
        }
        // scalar writes must land before the vector unit reads the rows
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evt);
        WaitFlag<HardEvent::S_V>(evt);

        for (uint32_t u = 0; u < unitCount; ++u) {
            uint64_t off = static_cast<uint64_t>(unitStart + u) * rowLen;
            LoadTile(off, rowLen);
            LocalTensor<float> xl = inQ.DeQue<float>();
            LocalTensor<float> yl = outQ.AllocTensor<float>();
            Mul(yl, xl, sRow, rowLen);
            Add(yl, yl, bRow, rowLen);
            Activate(yl, xl, rowLen);
            outQ.EnQue(yl);
            inQ.FreeTensor(xl);
            StoreTile(off, rowLen);
        }
    }

    // apply the activation in place on y; scratch may be clobbered
    __aicore__ inline void Activate(LocalTensor<float>& y, LocalTensor<float>& scratch, uint32_t len)
    {
        if (act == ACT_RELU) {
            Relu(y, y, len);
        } else if (act == ACT_SIGMOID) {
            // 1 / (1 + exp(-y))
            Muls(scratch, y, -1.0f, len);
            Exp(scratch, scratch, len);
            Adds(scratch, scratch, 1.0f, len);
            Duplicate(y, 1.0f, len);
            Div(y, y, scratch, len);
        }
    }

    __aicore__ inline void LoadTile(uint64_t off, uint32_t len)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xl, xGm[off], p, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void StoreTile(uint64_t off, uint32_t len)
    {
        LocalTensor<float> yl = outQ.DeQue<float>();
        DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, p);
        outQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<QuePosition::VECCALC> scaleRowBuf;
    TBuf<QuePosition::VECCALC> shiftRowBuf;
    GlobalTensor<float> xGm, yGm, scaleGm, shiftGm;

    uint32_t C = 1;
    uint32_t HW = 1;
    uint32_t mode = 0;
    uint32_t tileLen = 0;
    uint32_t act = 0;
    uint32_t unitStart = 0;
    uint32_t unitCount = 0;
};

extern "C" __global__ __aicore__ void efficientnet_b2_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift,
                                                            GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelBnAct op;
    op.Init(x, scale, shift, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

namespace {
constexpr double BN_EPS = 1e-5;

// Fused BatchNorm (+ activation) through the custom kernel.
at::Tensor bn_act(const at::Tensor& x, const at::Tensor& gamma, const at::Tensor& beta,
                  const at::Tensor& runMean, const at::Tensor& runVar, bool training, int64_t act)
{
    at::Tensor xc = x.contiguous();
    at::Tensor mean;
    at::Tensor var;
    if (training) {
        // batch statistics, biased variance (what BatchNorm2d normalises with)
        var = xc.var({0, 2, 3}, /*unbiased=*/false, /*keepdim=*/false);
        mean = xc.mean({0, 2, 3}, /*keepdim=*/false);
    } else {
        mean = runMean;
        var = runVar;
    }
    at::Tensor scale = (gamma / at::sqrt(var + BN_EPS)).contiguous();
    at::Tensor shift = (beta - mean * scale).contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnEfficientnetB2Custom, xc, scale, shift, act, y);
    return y;
}

struct Cursor {
    const std::vector<at::Tensor>& p;
    size_t i = 0;
    explicit Cursor(const std::vector<at::Tensor>& v) : p(v) {}
    const at::Tensor& next() { return p[i++]; }
};

// BatchNorm params are packed as (weight, bias, running_mean, running_var)
at::Tensor bn_from(Cursor& cur, const at::Tensor& x, bool training, int64_t act)
{
    const at::Tensor& w = cur.next();
    const at::Tensor& b = cur.next();
    const at::Tensor& rm = cur.next();
    const at::Tensor& rv = cur.next();
    return bn_act(x, w, b, rm, rv, training, act);
}

at::Tensor mbconv(Cursor& cur, at::Tensor x, int64_t stride, int64_t expand, bool training)
{
    if (expand != 1) {
        x = at::conv2d(x, cur.next());
        x = bn_from(cur, x, training, 1);
    }
    const at::Tensor& dw = cur.next();
    int64_t ch = dw.size(0);
    x = at::conv2d(x, dw, {}, {stride, stride}, {1, 1}, {1, 1}, ch);
    x = bn_from(cur, x, training, 1);

    // squeeze & excitation branch exactly as the reference Sequential wires it
    x = at::adaptive_avg_pool2d(x, {1, 1});
    x = at::relu(at::conv2d(x, cur.next()));
    x = at::sigmoid(at::conv2d(x, cur.next()));

    // projection
    x = at::conv2d(x, cur.next());
    x = bn_from(cur, x, training, 0);
    return x;
}
}  // namespace

at::Tensor efficientnet_b2_impl_npu(const at::Tensor& input, const std::vector<at::Tensor>& params, bool training)
{
    Cursor cur(params);
    at::Tensor x = at::conv2d(input, cur.next(), {}, {2, 2}, {1, 1});
    x = bn_from(cur, x, training, 1);

    const int64_t strides[5] = {1, 2, 2, 2, 1};
    const int64_t expands[5] = {3, 6, 6, 6, 6};
    for (int k = 0; k < 5; ++k) {
        x = mbconv(cur, x, strides[k], expands[k], training);
    }

    x = at::conv2d(x, cur.next());
    x = bn_from(cur, x, training, 1);
    x = at::adaptive_avg_pool2d(x, {1, 1});
    x = at::flatten(x, 1);
    const at::Tensor& fcW = cur.next();
    const at::Tensor& fcB = cur.next();
    return at::linear(x, fcW, fcB);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("efficientnet_b2_custom", &efficientnet_b2_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("efficientnet_b2_custom", &efficientnet_b2_impl_npu, "EfficientNet-B2 forward with fused BN kernels");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, num_classes=1000):
        super(ModelNew, self).__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(32)
        self.mbconv1 = self._make_mbconv_block(32, 96, 1, 3)
        self.mbconv2 = self._make_mbconv_block(96, 144, 2, 6)
        self.mbconv3 = self._make_mbconv_block(144, 192, 2, 6)
        self.mbconv4 = self._make_mbconv_block(192, 288, 2, 6)
        self.mbconv5 = self._make_mbconv_block(288, 384, 1, 6)
        self.conv_final = nn.Conv2d(384, 1408, kernel_size=1, stride=1, padding=0, bias=False)
        self.bn_final = nn.BatchNorm2d(1408)
        self.fc = nn.Linear(1408, num_classes)

    def _make_mbconv_block(self, in_channels, out_channels, stride, expand_ratio):
        layers = []
        expanded = in_channels * expand_ratio
        if expand_ratio != 1:
            layers.append(nn.Conv2d(in_channels, expanded, 1, 1, 0, bias=False))
            layers.append(nn.BatchNorm2d(expanded))
            layers.append(nn.ReLU(inplace=True))
        layers.append(nn.Conv2d(expanded, expanded, 3, stride, 1, groups=expanded, bias=False))
        layers.append(nn.BatchNorm2d(expanded))
        layers.append(nn.ReLU(inplace=True))
        layers.append(nn.AdaptiveAvgPool2d((1, 1)))
        layers.append(nn.Conv2d(expanded, expanded // 4, 1, 1, 0, bias=False))
        layers.append(nn.ReLU(inplace=True))
        layers.append(nn.Conv2d(expanded // 4, expanded, 1, 1, 0, bias=False))
        layers.append(nn.Sigmoid())
        layers.append(nn.Conv2d(expanded, out_channels, 1, 1, 0, bias=False))
        layers.append(nn.BatchNorm2d(out_channels))
        return nn.Sequential(*layers)

    @staticmethod
    def _bn(bn):
        return [bn.weight, bn.bias, bn.running_mean, bn.running_var]

    def _params(self):
        # flattened in the order the C++ binding consumes them
        p = [self.conv1.weight] + self._bn(self.bn1)
        for block in [self.mbconv1, self.mbconv2, self.mbconv3, self.mbconv4, self.mbconv5]:
            for layer in block:
                if isinstance(layer, nn.Conv2d):
                    p.append(layer.weight)
                elif isinstance(layer, nn.BatchNorm2d):
                    p.extend(self._bn(layer))
        p.append(self.conv_final.weight)
        p.extend(self._bn(self.bn_final))
        p.extend([self.fc.weight, self.fc.bias])
        return p

    def forward(self, x):
        return custom_ops_lib.efficientnet_b2_custom(x, self._params(), self.training)
'''

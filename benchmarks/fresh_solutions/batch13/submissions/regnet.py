project_json_src='''
[
    {
        "op": "RegnetCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "scale", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "shift", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "do_pool", "param_type": "optional", "type": "int", "default_value": "0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RegnetCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);     // N * C
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, widthPad);   // width rounded up to 64 floats (GatherMask repeat)
  TILING_DATA_FIELD_DEF(uint32_t, doPool);     // 1: fused 2x2/2 max pool after BN+ReLU
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);    // element tile for the non-pooling path
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RegnetCustom, RegnetCustomTilingData)
}
"""

host_operator_src="""
#include "regnet_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RegnetCustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetStorageShape();
    const int64_t *poolAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    uint32_t doPool = (poolAttr != nullptr && *poolAttr != 0) ? 1 : 0;

    uint32_t n = shape.GetDim(0), c = shape.GetDim(1), h = shape.GetDim(2), w = shape.GetDim(3);
    uint32_t planeSize = h * w;
    uint32_t tileLen = planeSize < 8192 ? (planeSize + 7) / 8 * 8 : 8192;

    tiling.set_planes(n * c);
    tiling.set_channels(c);
    tiling.set_height(h);
    tiling.set_width(w);
    tiling.set_widthPad((w + 63) / 64 * 64);
    tiling.set_doPool(doPool);
    tiling.set_tileLen(tileLen);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > n * c) cores = n * c;
    context->SetBlockDim(cores);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    const int64_t *poolAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    *ys = *xs;
    if (poolAttr != nullptr && *poolAttr != 0) {
        ys->SetDim(2, xs->GetDim(2) / 2);
        ys->SetDim(3, xs->GetDim(3) / 2);
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
class RegnetCustom : public OpDef {
public:
    explicit RegnetCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("do_pool").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RegnetCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Fused "BatchNorm (as per-channel scale/shift) + ReLU [+ MaxPool2d(2,2)]" used after every
// conv of a RegNet stage. Work unit: one (n, c) plane.
//  - no pool: flat tiles of the plane, y = max(x * s + t, 0)
//  - pool   : two input rows -> one output row. Vertical max via Max(row0, row1),
//             horizontal max via GatherMask even / odd lanes and another Max.
class KernelRegnetBnReluPool {
public:
    __aicore__ inline KernelRegnetBnReluPool() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y, const RegnetCustomTilingData &t)
    {
        planes = t.planes; channels = t.channels; height = t.height; width = t.width;
        widthPad = t.widthPad; doPool = t.doPool; tileLen = t.tileLen;
        uint64_t planeSize = (uint64_t)height * width;

        xGm.SetGlobalBuffer((__gm__ float *)x, planes * planeSize);
        sGm.SetGlobalBuffer((__gm__ float *)scale, channels);
        tGm.SetGlobalBuffer((__gm__ float *)shift, channels);
        if (doPool) {
            yGm.SetGlobalBuffer((__gm__ float *)y, planes * (planeSize / 4));
            pipe.InitBuffer(inQ, BUFFER_NUM, 2 * widthPad * sizeof(float));
            pipe.InitBuffer(outQ, BUFFER_NUM, widthPad / 2 * sizeof(float));
            pipe.InitBuffer(evenBuf, widthPad / 2 * sizeof(float));
            pipe.InitBuffer(oddBuf, widthPad / 2 * sizeof(float));
        } else {
            yGm.SetGlobalBuffer((__gm__ float *)y, planes * planeSize);
            pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(float));
            pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = AscendC::GetBlockIdx(); p < planes; p += AscendC::GetBlockNum()) {
            uint32_t ch = p % channels;
            float s = sGm.GetValue(ch);
            float t = tGm.GetValue(ch);
            if (doPool) {
                PoolPlane(p, s, t);
            } else {
                FlatPlane(p, s, t);
            }
        }
    }

private:
    __aicore__ inline void FlatPlane(uint32_t p, float s, float t)
    {
        uint32_t planeSize = height * width;
        uint64_t base = (uint64_t)p * planeSize;
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint32_t off = 0; off < planeSize; off += tileLen) {
            uint32_t len = (planeSize - off) < tileLen ? (planeSize - off) : tileLen;
            AscendC::DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};

            AscendC::LocalTensor<float> xin = inQ.AllocTensor<float>();
            AscendC::DataCopyPad(xin, xGm[base + off], cp, pad);
            inQ.EnQue(xin);

            xin = inQ.DeQue<float>();
            AscendC::LocalTensor<float> yout = outQ.AllocTensor<float>();
            AscendC::Muls(yout, xin, s, len);
            AscendC::Adds(yout, yout, t, len);
            AscendC::Relu(yout, yout, len);
            outQ.EnQue(yout);
            inQ.FreeTensor(xin);

            yout = outQ.DeQue<float>();
            AscendC::DataCopyPad(yGm[base + off], yout, cp);
            outQ.FreeTensor(yout);
        }
    }

    __aicore__ inline void PoolPlane(uint32_t p, float s, float t)
    {
        uint32_t outH = height / 2;
        uint32_t outW = width / 2;
        uint64_t inBase = (uint64_t)p * height * width;
        uint64_t outBase = (uint64_t)p * outH * outW;
        uint32_t wAligned = (width + 7) / 8 * 8;
        uint8_t repeat = (uint8_t)(widthPad / 64);
        AscendC::LocalTensor<float> even = evenBuf.Get<float>();
        AscendC::LocalTensor<float> odd = oddBuf.Get<float>();
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};

        for (uint32_t oh = 0; oh < outH; ++oh) {
            // rows 2*oh and 2*oh+1 -> UB rows 0 and 1 (each widthPad floats apart)
            AscendC::LocalTensor<float> rows = inQ.AllocTensor<float>();
            AscendC::DataCopyExtParams cp;
            cp.blockCount = 2;
            cp.blockLen = (uint32_t)(width * sizeof(float));
            cp.srcStride = 0;
            cp.dstStride = (uint32_t)((widthPad - wAligned) / 8);
            cp.rsv = 0;
            AscendC::DataCopyPad(rows, xGm[inBase + (uint64_t)(2 * oh) * width], cp, pad);
            inQ.EnQue(rows);

            rows = inQ.DeQue<float>();
            AscendC::LocalTensor<float> r0 = rows;
            AscendC::LocalTensor<float> r1 = rows[widthPad];
            AscendC::Muls(rows, rows, s, 2 * widthPad);
            AscendC::Adds(rows, rows, t, 2 * widthPad);
            AscendC::Relu(rows, rows, 2 * widthPad);
            AscendC::Max(r0, r0, r1, widthPad);

            uint64_t kept = 0;
            AscendC::GatherMaskParams gp{1, repeat, 8, 0};
            AscendC::GatherMask(even, r0, (uint8_t)1, false, 0, gp, kept);   // lanes 0, 2, 4, ...
            AscendC::GatherMask(odd, r0, (uint8_t)2, false, 0, gp, kept);    // lanes 1, 3, 5, ...

            AscendC::LocalTensor<float> yout = outQ.AllocTensor<float>();
            AscendC::Max(yout, even, odd, outW);
            outQ.EnQue(yout);
            inQ.FreeTensor(rows);

            yout = outQ.DeQue<float>();
            AscendC::DataCopyExtParams op{1, (uint32_t)(outW * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[outBase + (uint64_t)oh * outW], yout, op);
            outQ.FreeTensor(yout);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> evenBuf, oddBuf;
    AscendC::GlobalTensor<float> xGm, sGm, tGm, yGm;
    uint32_t planes, channels, height, width, widthPad, doPool, tileLen;
};

extern "C" __global__ __aicore__ void regnet_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelRegnetBnReluPool op;
    op.Init(x, scale, shift, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// BN+ReLU(+pool) through the custom kernel. scale/shift fold the batch norm:
//   scale = gamma / sqrt(var + eps), shift = beta - mean * scale
static at::Tensor bn_relu_pool(const at::Tensor& x, const at::Tensor& gamma, const at::Tensor& beta,
                               const at::Tensor& runMean, const at::Tensor& runVar,
                               bool training, double eps, int64_t doPool)
{
    at::Tensor mean, var;
    if (training) {
        mean = x.mean({0, 2, 3});
        var = x.var({0, 2, 3}, false);
    } else {
        mean = runMean;
        var = runVar;
    }
    at::Tensor scale = (gamma / at::sqrt(var + eps)).contiguous();
    at::Tensor shift = (beta - mean * scale).contiguous();
    at::Tensor xc = x.contiguous();
    at::Tensor y;
    if (doPool) {
        y = at::empty({x.size(0), x.size(1), x.size(2) / 2, x.size(3) / 2}, x.options());
    } else {
        y = at::empty_like(xc);
    }
    EXEC_NPU_CMD(aclnnRegnetCustom, xc, scale, shift, doPool, y);
    return y;
}

at::Tensor regnet_custom_impl_npu(const at::Tensor& x,
                                  const std::vector<at::Tensor>& conv_w, const std::vector<at::Tensor>& conv_b,
                                  const std::vector<at::Tensor>& bn_w, const std::vector<at::Tensor>& bn_b,
                                  const std::vector<at::Tensor>& bn_mean, const std::vector<at::Tensor>& bn_var,
                                  const at::Tensor& fc_w, const at::Tensor& fc_b, bool training, double eps)
{
    TORCH_CHECK(conv_w.size() % 2 == 0, "two convs per stage expected");
    at::Tensor h = x;
    for (size_t i = 0; i < conv_w.size(); ++i) {
        h = at::conv2d(h, conv_w[i], conv_b[i], {1, 1}, {1, 1});
        int64_t pool = (i % 2 == 1) ? 1 : 0;   // second conv of a stage is followed by the max pool
        h = bn_relu_pool(h, bn_w[i], bn_b[i], bn_mean[i], bn_var[i], training, eps, pool);
    }
    h = h.mean({2, 3});
    return at::linear(h, fc_w, fc_b);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("regnet_custom", &regnet_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("regnet_custom", &regnet_custom_impl_npu, "RegNet forward with fused BN+ReLU+MaxPool kernels");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, input_channels, stages, block_widths, output_classes):
        super(ModelNew, self).__init__()
        self.stages = stages
        self.block_widths = block_widths
        layers = []
        current_channels = input_channels
        for i in range(stages):
            layers.append(self._make_stage(current_channels, block_widths[i]))
            current_channels = block_widths[i]
        self.feature_extractor = nn.Sequential(*layers)
        self.fc = nn.Linear(block_widths[-1], output_classes)

    def _make_stage(self, in_channels, out_channels):
        return nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(),
            nn.Conv2d(out_channels, out_channels, kernel_size=3, padding=1),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2)
        )

    def forward(self, x):
        convs = [m for m in self.feature_extractor.modules() if isinstance(m, nn.Conv2d)]
        bns = [m for m in self.feature_extractor.modules() if isinstance(m, nn.BatchNorm2d)]
        return custom_ops_lib.regnet_custom(
            x,
            [c.weight for c in convs], [c.bias for c in convs],
            [b.weight for b in bns], [b.bias for b in bns],
            [b.running_mean for b in bns], [b.running_var for b in bns],
            self.fc.weight, self.fc.bias, self.training, bns[0].eps)
'''

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// DenseNet121 spends most of its elementwise time in BatchNorm + ReLU (one per
// dense layer, transition, stem and head: 121 of them).  Batch statistics are
// reduced with torch, the apply step (scale/shift + relu) is the custom kernel.
// Convolutions, pooling, concat and the classifier stay on the stock NPU ops.
at::Tensor densenet121_custom_impl_npu(const at::Tensor& x, const at::Tensor& gamma,
                                       const at::Tensor& beta, double eps)
{
    at::Tensor xc = x.contiguous();
    auto vm = at::var_mean(xc, {0, 2, 3}, /*unbiased=*/false, /*keepdim=*/false);
    at::Tensor inv_std = at::rsqrt(std::get<0>(vm) + eps);
    at::Tensor scale = (gamma * inv_std).contiguous();
    at::Tensor shift = (beta - std::get<1>(vm) * scale).contiguous();

    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnDensenet121Custom, xc, scale, shift, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("densenet121_custom", &densenet121_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("densenet121_custom", &densenet121_custom_impl_npu,
          "fused batchnorm(batch stats) + relu for DenseNet121");
}
"""

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Densenet121CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, c);         // channels
  TILING_DATA_FIELD_DEF(uint32_t, hw);        // spatial size of one plane
  TILING_DATA_FIELD_DEF(uint32_t, planes);    // n * c
  TILING_DATA_FIELD_DEF(uint32_t, p_blk);     // planes per core
  TILING_DATA_FIELD_DEF(uint32_t, tile_len);  // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Densenet121Custom, Densenet121CustomTilingData)
}
"""

host_operator_src="""
#include "densenet121_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 12544;   // 112 * 112, the largest plane in the net

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xs = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = xs.GetDim(0);
    uint32_t c = xs.GetDim(1);
    uint32_t hw = xs.GetDim(2) * xs.GetDim(3);
    uint32_t planes = n * c;

    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t p_blk = (planes + cores - 1) / cores;
    uint32_t used = (planes + p_blk - 1) / p_blk;
    uint32_t tile_len = hw < MAX_TILE ? hw : MAX_TILE;
    tile_len = (tile_len + 7) / 8 * 8;

    Densenet121CustomTilingData td;
    td.set_c(c);
    td.set_hw(hw);
    td.set_planes(planes);
    td.set_p_blk(p_blk);
    td.set_tile_len(tile_len);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
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
class Densenet121Custom : public OpDef {
public:
    explicit Densenet121Custom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Densenet121Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y[n, c, :, :] = max(x[n, c, :, :] * scale[c] + shift[c], 0)
// Work is split by (n, c) planes so every tile has a single scale/shift pair.
class KernelBnRelu {
public:
    __aicore__ inline KernelBnRelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const Densenet121CustomTilingData& td)
    {
        c = td.c;
        hw = td.hw;
        tile_len = td.tile_len;
        p0 = AscendC::GetBlockIdx() * td.p_blk;
        p_cnt = 0;
        if (p0 < td.planes) {
            p_cnt = (td.planes - p0) < td.p_blk ? (td.planes - p0) : td.p_blk;
        }

        x_gm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)td.planes * hw);
        y_gm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)td.planes * hw);
        sc_gm.SetGlobalBuffer((__gm__ float*)scale, c);
        sh_gm.SetGlobalBuffer((__gm__ float*)shift, c);

        c_al = (c + 7) / 8 * 8;
        pipe.InitBuffer(in_q, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(out_q, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(par_buf, 2 * c_al * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (p_cnt == 0) {
            return;
        }
        load_params();
        AscendC::LocalTensor<float> par = par_buf.Get<float>();
        for (uint32_t p = p0; p < p0 + p_cnt; ++p) {
            uint32_t ch = p % c;
            float s = par.GetValue(ch);
            float b = par.GetValue(c_al + ch);
            uint64_t base = (uint64_t)p * hw;
            for (uint32_t off = 0; off < hw; off += tile_len) {
                uint32_t len = (hw - off) < tile_len ? (hw - off) : tile_len;
                copy_in(base + off, len);
                compute(len, s, b);
                copy_out(base + off, len);
            }
        }
    }

private:
    __aicore__ inline void load_params()
    {
        AscendC::LocalTensor<float> par = par_buf.Get<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(c * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(par, sc_gm, cp, pad);
        AscendC::DataCopyPad(par[c_al], sh_gm, cp, pad);
        // the scalar unit reads these right away
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void copy_in(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> xl = in_q.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xl, x_gm[off], cp, pad);
        in_q.EnQue(xl);
    }

    __aicore__ inline void compute(uint32_t len, float s, float b)
    {
        AscendC::LocalTensor<float> xl = in_q.DeQue<float>();
        AscendC::LocalTensor<float> yl = out_q.AllocTensor<float>();
        AscendC::Muls(yl, xl, s, len);
        AscendC::Adds(yl, yl, b, len);
        AscendC::Relu(yl, yl, len);
        out_q.EnQue(yl);
        in_q.FreeTensor(xl);
    }

    __aicore__ inline void copy_out(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> yl = out_q.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(y_gm[off], yl, cp);
        out_q.FreeTensor(yl);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> in_q;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> out_q;
    AscendC::TBuf<AscendC::TPosition::VECCALC> par_buf;
    AscendC::GlobalTensor<float> x_gm, y_gm, sc_gm, sh_gm;
    uint32_t c, c_al, hw, tile_len, p0, p_cnt;
};

extern "C" __global__ __aicore__ void densenet121_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelBnRelu op;
    op.Init(x, scale, shift, y, td);
    op.Process();
}
"""

model_src='''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_npu
import custom_ops_lib


def bn_relu(bn, x):
    # batch-statistics BatchNorm + ReLU through the fused AscendC kernel
    return custom_ops_lib.densenet121_custom(x, bn.weight, bn.bias, bn.eps)


class DenseBlock(nn.Module):
    def __init__(self, num_layers: int, num_input_features: int, growth_rate: int):
        super(DenseBlock, self).__init__()
        layers = []
        for i in range(num_layers):
            layers.append(self._make_layer(num_input_features + i * growth_rate, growth_rate))
        self.layers = nn.ModuleList(layers)

    def _make_layer(self, in_features: int, growth_rate: int):
        return nn.Sequential(
            nn.BatchNorm2d(in_features),
            nn.ReLU(inplace=True),
            nn.Conv2d(in_features, growth_rate, kernel_size=3, padding=1, bias=False),
            nn.Dropout(0.0)
        )

    def forward(self, x):
        features = [x]
        for layer in self.layers:
            bn, conv = layer[0], layer[2]
            new_feature = conv(bn_relu(bn, x))   # Dropout(0.0) is the identity
            features.append(new_feature)
            x = torch.cat(features, 1)
        return x


class TransitionLayer(nn.Module):
    def __init__(self, num_input_features: int, num_output_features: int):
        super(TransitionLayer, self).__init__()
        self.transition = nn.Sequential(
            nn.BatchNorm2d(num_input_features),
            nn.ReLU(inplace=True),
            nn.Conv2d(num_input_features, num_output_features, kernel_size=1, bias=False),
            nn.AvgPool2d(kernel_size=2, stride=2)
        )

    def forward(self, x):
        bn, conv, pool = self.transition[0], self.transition[2], self.transition[3]
        return pool(conv(bn_relu(bn, x)))


class ModelNew(nn.Module):
    def __init__(self, growth_rate: int = 32, num_classes: int = 1000):
        super(ModelNew, self).__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False),
            nn.BatchNorm2d(64),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        )

        num_features = 64
        block_layers = [6, 12, 24, 16]
        self.dense_blocks = nn.ModuleList()
        self.transition_layers = nn.ModuleList()
        for i, num_layers in enumerate(block_layers):
            block = DenseBlock(num_layers=num_layers, num_input_features=num_features, growth_rate=growth_rate)
            self.dense_blocks.append(block)
            num_features = num_features + num_layers * growth_rate
            if i != len(block_layers) - 1:
                transition = TransitionLayer(num_input_features=num_features, num_output_features=num_features // 2)
                self.transition_layers.append(transition)
                num_features = num_features // 2

        self.final_bn = nn.BatchNorm2d(num_features)
        self.classifier = nn.Linear(num_features, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.features[0](x)
        x = bn_relu(self.features[1], x)
        x = self.features[3](x)

        for i, block in enumerate(self.dense_blocks):
            x = block(x)
            if i != len(self.dense_blocks) - 1:
                x = self.transition_layers[i](x)

        x = bn_relu(self.final_bn, x)
        x = F.adaptive_avg_pool2d(x, (1, 1)).view(x.size(0), -1)
        x = self.classifier(x)
        return x
'''

project_json_src='''
[
    {
        "op": "Densenet121Custom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "scale", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "shift", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

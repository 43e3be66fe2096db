python_bind_src="""
#include <vector>
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Fused tail of a Fire module: relu(cat([e1, e3], dim=1)) in one pass over memory.
at::Tensor fire_relu_cat_npu(const at::Tensor& e1, const at::Tensor& e3)
{
    at::Tensor a = e1.contiguous();
    at::Tensor b = e3.contiguous();
    at::Tensor out = at::empty({a.size(0), a.size(1) + b.size(1), a.size(2), a.size(3)}, a.options());
    EXEC_NPU_CMD(aclnnSqueezeNetCustom, a, b, out);
    return out;
}

// p holds 6 tensors per fire module: squeeze w/b, expand1x1 w/b, expand3x3 w/b
static at::Tensor fire(const at::Tensor& x, const std::vector<at::Tensor>& p, size_t i)
{
    at::Tensor s = at::relu(at::conv2d(x, p[i], p[i + 1]));
    at::Tensor e1 = at::conv2d(s, p[i + 2], p[i + 3]);
    at::Tensor e3 = at::conv2d(s, p[i + 4], p[i + 5], {1, 1}, {1, 1});
    return fire_relu_cat_npu(e1, e3);
}

static at::Tensor pool(const at::Tensor& x)
{
    return at::max_pool2d(x, {3, 3}, {2, 2}, {0, 0}, {1, 1}, /*ceil_mode=*/true);
}

at::Tensor squeeze_net_custom_impl_npu(const at::Tensor& input, const std::vector<at::Tensor>& p)
{
    TORCH_CHECK(p.size() == 2 + 8 * 6 + 2, "SqueezeNet expects 52 parameter tensors");
    at::Tensor x = at::relu(at::conv2d(input, p[0], p[1], {2, 2}));
    x = pool(x);
    size_t k = 2;
    x = fire(x, p, k); k += 6;
    x = fire(x, p, k); k += 6;
    x = fire(x, p, k); k += 6;
    x = pool(x);
    x = fire(x, p, k); k += 6;
    x = fire(x, p, k); k += 6;
    x = fire(x, p, k); k += 6;
    x = fire(x, p, k); k += 6;
    x = pool(x);
    x = fire(x, p, k); k += 6;

    // classifier: dropout(0) -> conv1x1 -> relu -> global avg pool -> flatten
    x = at::relu(at::conv2d(x, p[k], p[k + 1]));
    return x.mean({2, 3});
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("squeeze_net_custom", &fire_relu_cat_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("squeeze_net_custom", &squeeze_net_custom_impl_npu, "SqueezeNet forward with fused fire concat");
    m.def("fire_relu_cat", &fire_relu_cat_npu, "relu(cat([a, b], 1))");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class FireModule(nn.Module):
    def __init__(self, in_channels, squeeze_channels, expand1x1_channels, expand3x3_channels):
        super().__init__()
        self.squeeze = nn.Conv2d(in_channels, squeeze_channels, kernel_size=1)
        self.squeeze_activation = nn.ReLU(inplace=True)
        self.expand1x1 = nn.Conv2d(squeeze_channels, expand1x1_channels, kernel_size=1)
        self.expand1x1_activation = nn.ReLU(inplace=True)
        self.expand3x3 = nn.Conv2d(squeeze_channels, expand3x3_channels, kernel_size=3, padding=1)
        self.expand3x3_activation = nn.ReLU(inplace=True)


class ModelNew(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 96, kernel_size=7, stride=2),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=True),
            FireModule(96, 16, 64, 64),
            FireModule(128, 16, 64, 64),
            FireModule(128, 32, 128, 128),
            nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=True),
            FireModule(256, 32, 128, 128),
            FireModule(256, 48, 192, 192),
            FireModule(384, 48, 192, 192),
            FireModule(384, 64, 256, 256),
            nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=True),
            FireModule(512, 64, 256, 256),
        )
        self.classifier = nn.Sequential(
            nn.Dropout(p=0.0),
            nn.Conv2d(512, num_classes, kernel_size=1),
            nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d((1, 1))
        )

    def forward(self, x):
        return custom_ops_lib.squeeze_net_custom(x, list(self.parameters()))
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SqueezeNetCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, len_a);      // C1 * H * W  (per sample)
  TILING_DATA_FIELD_DEF(uint32_t, len_b);      // C3 * H * W
  TILING_DATA_FIELD_DEF(uint32_t, tile_len);
  TILING_DATA_FIELD_DEF(uint32_t, tiles_a);    // ceil(len_a / tile_len)
  TILING_DATA_FIELD_DEF(uint32_t, tiles_b);
  TILING_DATA_FIELD_DEF(uint32_t, tiles_all);  // N * (tiles_a + tiles_b)
  TILING_DATA_FIELD_DEF(uint32_t, blk_num);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SqueezeNetCustom, SqueezeNetCustomTilingData)
}
"""

host_operator_src="""
#include "squeeze_net_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t TILE_LEN = 16384;   // 64KB per buffer, 2 buffers in + 2 out

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SqueezeNetCustomTilingData td;
    const gert::Shape& as = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bs = context->GetInputShape(1)->GetStorageShape();
    uint32_t n = as.GetDim(0);
    uint32_t hw = as.GetDim(2) * as.GetDim(3);
    uint32_t len_a = as.GetDim(1) * hw;
    uint32_t len_b = bs.GetDim(1) * hw;

    uint32_t tile_len = TILE_LEN;
    uint32_t big = len_a > len_b ? len_a : len_b;
    if (big < tile_len) tile_len = (big + 7) / 8 * 8;
    uint32_t tiles_a = (len_a + tile_len - 1) / tile_len;
    uint32_t tiles_b = (len_b + tile_len - 1) / tile_len;
    uint32_t tiles_all = n * (tiles_a + tiles_b);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blk_num = plat.GetCoreNumAiv();
    if (blk_num > tiles_all) blk_num = tiles_all;
    if (blk_num == 0) blk_num = 1;

    td.set_len_a(len_a);
    td.set_len_b(len_b);
    td.set_tile_len(tile_len);
    td.set_tiles_a(tiles_a);
    td.set_tiles_b(tiles_b);
    td.set_tiles_all(tiles_all);
    td.set_blk_num(blk_num);

    context->SetBlockDim(blk_num);
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
    const gert::Shape* as = context->GetInputShape(0);
    const gert::Shape* bs = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    *ys = *as;
    ys->SetDim(1, as->GetDim(1) + bs->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SqueezeNetCustom : public OpDef {
public:
    explicit SqueezeNetCustom(const char* name) : OpDef(name)
    {
        this->Input("expand1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("expand3")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SqueezeNetCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Output sample n is [relu(a[n]) | relu(b[n])] laid out back to back (NCHW concat on C).
// Work is cut into tiles that never cross a source segment; tiles are dealt round-robin
// to the cores so the two (differently sized) segments stay balanced.
class KernelFireReluCat {
public:
    __aicore__ inline KernelFireReluCat() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR y, const SqueezeNetCustomTilingData& t)
    {
        len_a = t.len_a;
        len_b = t.len_b;
        tile_len = t.tile_len;
        tiles_a = t.tiles_a;
        tiles_b = t.tiles_b;
        tiles_all = t.tiles_all;
        blk_num = t.blk_num;

        a_gm.SetGlobalBuffer((__gm__ float*)a);
        b_gm.SetGlobalBuffer((__gm__ float*)b);
        y_gm.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(in_q, BUFFER_NUM, tile_len * sizeof(float));
        pipe.InitBuffer(out_q, BUFFER_NUM, tile_len * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t per_n = tiles_a + tiles_b;
        uint64_t y_stride = (uint64_t)len_a + len_b;
        for (uint32_t t = AscendC::GetBlockIdx(); t < tiles_all; t += blk_num) {
            uint32_t n = t / per_n;
            uint32_t k = t % per_n;
            uint64_t src_off, dst_off;
            uint32_t len;
            bool from_a = k < tiles_a;
            if (from_a) {
                uint32_t s = k * tile_len;
                len = (s + tile_len <= len_a) ? tile_len : (len_a - s);
                src_off = (uint64_t)n * len_a + s;
                dst_off = (uint64_t)n * y_stride + s;
            } else {
                uint32_t s = (k - tiles_a) * tile_len;
                len = (s + tile_len <= len_b) ? tile_len : (len_b - s);
                src_off = (uint64_t)n * len_b + s;
                dst_off = (uint64_t)n * y_stride + len_a + s;
            }
            CopyIn(from_a, src_off, len);
            Compute(len);
            CopyOut(dst_off, len);
        }
    }

private:
    __aicore__ inline void CopyIn(bool from_a, uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> x_loc = in_q.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        if (from_a) {
            AscendC::DataCopyPad(x_loc, a_gm[off], cp, pad);
        } else {
            AscendC::DataCopyPad(x_loc, b_gm[off], cp, pad);
        }
        in_q.EnQue(x_loc);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> x_loc = in_q.DeQue<float>();
        AscendC::LocalTensor<float> y_loc = out_q.AllocTensor<float>();
        AscendC::Relu(y_loc, x_loc, len);
        out_q.EnQue(y_loc);
        in_q.FreeTensor(x_loc);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> y_loc = out_q.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(y_gm[off], y_loc, cp);
        out_q.FreeTensor(y_loc);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> in_q;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> out_q;
    AscendC::GlobalTensor<float> a_gm, b_gm, y_gm;
    uint32_t len_a, len_b, tile_len, tiles_a, tiles_b, tiles_all, blk_num;
};

extern "C" __global__ __aicore__ void squeeze_net_custom(GM_ADDR expand1, GM_ADDR expand3, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelFireReluCat op;
    op.Init(expand1, expand3, y, td);
    op.Process();
}
"""

project_json_src='''
[
    {
        "op": "SqueezeNetCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "expand1",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "expand3",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ]
    }
]
'''

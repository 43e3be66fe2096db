python_bind_src="""
#include <vector>
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Custom kernel: the 3x3 / stride 1 / pad 1 max pool that feeds every inception pool branch.
at::Tensor inception_pool3x3_npu(const at::Tensor& x)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnGooglenetInceptionV1Custom, xc, y);
    return y;
}

static at::Tensor conv_(const at::Tensor& x, const std::vector<at::Tensor>& p, size_t i,
                        int64_t stride, int64_t pad)
{
    return at::conv2d(x, p[i], p[i + 1], {stride, stride}, {pad, pad});
}

// params (per inception): 1x1, 3x3-reduce, 3x3, 5x5-reduce, 5x5, pool-proj (weight, bias each)
static at::Tensor inception_(const at::Tensor& x, const std::vector<at::Tensor>& p, size_t base)
{
    at::Tensor b1 = conv_(x, p, base, 1, 0);
    at::Tensor b3 = conv_(conv_(x, p, base + 2, 1, 0), p, base + 4, 1, 1);
    at::Tensor b5 = conv_(conv_(x, p, base + 6, 1, 0), p, base + 8, 1, 2);
    at::Tensor bp = conv_(inception_pool3x3_npu(x), p, base + 10, 1, 0);
    return at::cat({b1, b3, b5, bp}, 1);
}

at::Tensor googlenet_inception_v1_custom_impl_npu(const at::Tensor& input, const std::vector<at::Tensor>& p)
{
    TORCH_CHECK(p.size() == 6 + 9 * 12 + 2, "unexpected parameter count");
    at::Tensor x = at::max_pool2d(at::relu(conv_(input, p, 0, 2, 3)), {3, 3}, {2, 2}, {1, 1});
    x = at::relu(conv_(x, p, 2, 1, 0));
    x = at::max_pool2d(at::relu(conv_(x, p, 4, 1, 1)), {3, 3}, {2, 2}, {1, 1});

    size_t base = 6;
    x = inception_(x, p, base); base += 12;          // 3a
    x = inception_(x, p, base); base += 12;          // 3b
    x = at::max_pool2d(x, {3, 3}, {2, 2}, {1, 1});
    for (int i = 0; i < 5; ++i) {                    // 4a..4e
        x = inception_(x, p, base);
        base += 12;
    }
    x = at::max_pool2d(x, {3, 3}, {2, 2}, {1, 1});
    x = inception_(x, p, base); base += 12;          // 5a
    x = inception_(x, p, base); base += 12;          // 5b

    x = x.mean({2, 3});                              // adaptive avg pool (1,1) + flatten
    return at::linear(x, p[base], p[base + 1]);      // dropout(p=0) is identity
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("googlenet_inception_v1_custom", &inception_pool3x3_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("googlenet_inception_v1_custom", &googlenet_inception_v1_custom_impl_npu, "GoogLeNet v1 forward");
    m.def("inception_pool3x3", &inception_pool3x3_npu, "3x3 s1 p1 max pool");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class InceptionModule(nn.Module):
    def __init__(self, in_channels, out_1x1, reduce_3x3, out_3x3, reduce_5x5, out_5x5, pool_proj):
        super().__init__()
        self.branch1x1 = nn.Conv2d(in_channels, out_1x1, kernel_size=1)
        self.branch3x3 = nn.Sequential(
            nn.Conv2d(in_channels, reduce_3x3, kernel_size=1),
            nn.Conv2d(reduce_3x3, out_3x3, kernel_size=3, padding=1))
        self.branch5x5 = nn.Sequential(
            nn.Conv2d(in_channels, reduce_5x5, kernel_size=1),
            nn.Conv2d(reduce_5x5, out_5x5, kernel_size=5, padding=2))
        self.branch_pool = nn.Sequential(
            nn.MaxPool2d(kernel_size=3, stride=1, padding=1),
            nn.Conv2d(in_channels, pool_proj, kernel_size=1))


class ModelNew(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        # same modules / creation order as the reference so parameters match
        self.conv1 = nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3)
        self.maxpool1 = nn.MaxPool2d(3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(64, 64, kernel_size=1)
        self.conv3 = nn.Conv2d(64, 192, kernel_size=3, padding=1)
        self.maxpool2 = nn.MaxPool2d(3, stride=2, padding=1)
        self.inception3a = InceptionModule(192, 64, 96, 128, 16, 32, 32)
        self.inception3b = InceptionModule(256, 128, 128, 192, 32, 96, 64)
        self.maxpool3 = nn.MaxPool2d(3, stride=2, padding=1)
        self.inception4a = InceptionModule(480, 192, 96, 208, 16, 48, 64)
        self.inception4b = InceptionModule(512, 160, 112, 224, 24, 64, 64)
        self.inception4c = InceptionModule(512, 128, 128, 256, 24, 64, 64)
        self.inception4d = InceptionModule(512, 112, 144, 288, 32, 64, 64)
        self.inception4e = InceptionModule(528, 256, 160, 320, 32, 128, 128)
        self.maxpool4 = nn.MaxPool2d(3, stride=2, padding=1)
        self.inception5a = InceptionModule(832, 256, 160, 320, 32, 128, 128)
        self.inception5b = InceptionModule(832, 384, 192, 384, 48, 128, 128)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(0.0)
        self.fc = nn.Linear(1024, num_classes)

    def forward(self, x):
        return custom_ops_lib.googlenet_inception_v1_custom(x, list(self.parameters()))
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GooglenetInceptionV1CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);     // N * C
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, w_al);       // row stride in UB (w rounded up to 8)
  TILING_DATA_FIELD_DEF(uint32_t, p_tile);     // planes handled per iteration
  TILING_DATA_FIELD_DEF(uint32_t, grp_num);    // ceil(planes / p_tile)
  TILING_DATA_FIELD_DEF(uint32_t, blk_num);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GooglenetInceptionV1Custom, GooglenetInceptionV1CustomTilingData)
}
"""

host_operator_src="""
#include "googlenet_inception_v1_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_BYTES = 16 * 1024;   // per buffer; 3 inputs x2 + hmax + out x2 < 192KB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GooglenetInceptionV1CustomTilingData td;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    uint32_t planes = xs.GetDim(0) * xs.GetDim(1);
    uint32_t h = xs.GetDim(2);
    uint32_t w = xs.GetDim(3);
    if (w < 2 || h < 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t w_al = (w + 7) / 8 * 8;
    uint32_t plane_bytes = h * w_al * sizeof(float);
    if (plane_bytes > TILE_BYTES) {
        return ge::GRAPH_FAILED;       // inception feature maps are at most 28x28
    }
    uint32_t p_tile = TILE_BYTES / plane_bytes;
    // DataCopyPad blockCount is 12 bit
    while (p_tile > 1 && p_tile * h > 4095) p_tile--;
    if (p_tile > planes) p_tile = planes;
    uint32_t grp_num = (planes + p_tile - 1) / p_tile;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blk_num = plat.GetCoreNumAiv();
    if (blk_num > grp_num) blk_num = grp_num;
    if (blk_num == 0) blk_num = 1;

    td.set_planes(planes);
    td.set_h(h);
    td.set_w(w);
    td.set_w_al(w_al);
    td.set_p_tile(p_tile);
    td.set_grp_num(grp_num);
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
class GooglenetInceptionV1Custom : public OpDef {
public:
    explicit GooglenetInceptionV1Custom(const char* name) : OpDef(name)
    {
        this->Input("x")
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

OP_ADD(GooglenetInceptionV1Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float NEG_INF = -3.402823466e+38f;

// 3x3 max pool, stride 1, padding 1 (NCHW, planes are independent).
// Horizontal pass: the same rows are loaded three times, shifted by -1 / 0 / +1 column;
// DataCopyPad inserts the -inf border on the left / right of every row, so the three
// copies line up in UB with the same (32B aligned) row stride and a plain Max does the job.
// Vertical pass: Max of row-shifted views, which are aligned because the stride is w_al.
class MaxPool3x3S1 {
public:
    __aicore__ inline MaxPool3x3S1() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const GooglenetInceptionV1CustomTilingData& t)
    {
        planes_ = t.planes; h_ = t.h; w_ = t.w; w_al_ = t.w_al;
        p_tile_ = t.p_tile; grp_num_ = t.grp_num; blk_num_ = t.blk_num;
        plane_len_ = h_ * w_al_;

        x_gm_.SetGlobalBuffer((__gm__ float*)x);
        y_gm_.SetGlobalBuffer((__gm__ float*)y);
        uint32_t bytes = p_tile_ * plane_len_ * sizeof(float);
        pipe_.InitBuffer(left_q_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(mid_q_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(right_q_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(out_q_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(hmax_buf_, bytes);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t g = GetBlockIdx(); g < grp_num_; g += blk_num_) {
            uint32_t p0 = g * p_tile_;
            uint32_t pc = (p0 + p_tile_ <= planes_) ? p_tile_ : (planes_ - p0);
            copy_in(p0, pc);
            compute(pc);
            copy_out(p0, pc);
        }
    }

private:
    __aicore__ inline void copy_in(uint32_t p0, uint32_t pc)
    {
        uint16_t rows = static_cast<uint16_t>(pc * h_);
        uint64_t base = (uint64_t)p0 * h_ * w_;
        uint32_t full = w_ * sizeof(float);
        uint32_t part = (w_ - 1) * sizeof(float);

        LocalTensor<float> mid = mid_q_.AllocTensor<float>();
        LocalTensor<float> lft = left_q_.AllocTensor<float>();
        LocalTensor<float> rgt = right_q_.AllocTensor<float>();

        // x[r, c]
        DataCopyExtParams cp_mid{rows, full, 0, 0, 0};
        DataCopyPad(mid, x_gm_[base], cp_mid, DataCopyPadExtParams<float>{true, 0, 0, NEG_INF});
        // x[r, c - 1]: skip the last column of each row, pad one -inf in front
        DataCopyExtParams cp_side{rows, part, static_cast<uint32_t>(sizeof(float)), 0, 0};
        DataCopyPad(lft, x_gm_[base], cp_side, DataCopyPadExtParams<float>{true, 1, 0, NEG_INF});
        // x[r, c + 1]: skip the first column of each row, pad one -inf behind
        DataCopyPad(rgt, x_gm_[base + 1], cp_side, DataCopyPadExtParams<float>{true, 0, 1, NEG_INF});

        mid_q_.EnQue(mid);
        left_q_.EnQue(lft);
        right_q_.EnQue(rgt);
    }

    __aicore__ inline void compute(uint32_t pc)
    {
        LocalTensor<float> mid = mid_q_.DeQue<float>();
        LocalTensor<float> lft = left_q_.DeQue<float>();
        LocalTensor<float> rgt = right_q_.DeQue<float>();
        LocalTensor<float> hm = hmax_buf_.Get<float>();
        LocalTensor<float> out = out_q_.AllocTensor<float>();

        uint32_t total = pc * plane_len_;
        Max(hm, lft, mid, total);
        Max(hm, hm, rgt, total);

        for (uint32_t p = 0; p < pc; ++p) {
            uint32_t off = p * plane_len_;
            if (h_ == 1) {
                Adds(out[off], hm[off], 0.0f, w_al_);
                continue;
            }
            uint32_t span = (h_ - 1) * w_al_;
            // out[r] = max(hm[r], hm[r+1]) for r < h-1, out[h-1] = hm[h-1]
            Max(out[off], hm[off], hm[off + w_al_], span);
            Adds(out[off + span], hm[off + span], 0.0f, w_al_);
            PipeBarrier<PIPE_V>();
            // out[r] = max(out[r], hm[r-1]) for r >= 1
            Max(out[off + w_al_], out[off + w_al_], hm[off], span);
        }

        out_q_.EnQue(out);
        mid_q_.FreeTensor(mid);
        left_q_.FreeTensor(lft);
        right_q_.FreeTensor(rgt);
    }

    __aicore__ inline void copy_out(uint32_t p0, uint32_t pc)
    {
        LocalTensor<float> out = out_q_.DeQue<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(pc * h_), static_cast<uint32_t>(w_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(y_gm_[(uint64_t)p0 * h_ * w_], out, cp);
        out_q_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> left_q_, mid_q_, right_q_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> out_q_;
    TBuf<QuePosition::VECCALC> hmax_buf_;
    GlobalTensor<float> x_gm_, y_gm_;
    uint32_t planes_, h_, w_, w_al_, p_tile_, grp_num_, blk_num_, plane_len_;
};

extern "C" __global__ __aicore__ void googlenet_inception_v1_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    MaxPool3x3S1 op;
    op.Init(x, y, td);
    op.Process();
}
"""

project_json_src='''
[
    {
        "op": "GooglenetInceptionV1Custom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
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

project_json_src='''
[
    {
        "op": "SwintransformerV2Custom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "residual",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "gamma",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "beta",
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
        ],
        "attr": [
            {
                "name": "eps",
                "param_type": "optional",
                "type": "float",
                "default_value": "1e-5"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SwintransformerV2CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // B * L tokens
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // channels C
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, tileRows);      // rows moved per DataCopy
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invCols);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SwintransformerV2Custom, SwintransformerV2CustomTilingData)
}
"""

host_operator_src="""
#include "swintransformer_v2_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// x, residual in; y out; all double buffered -> keep one tile around 12 KB
constexpr uint32_t TILE_BYTES = 12 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SwintransformerV2CustomTilingData td;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t rank = shape.GetDimNum();
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(rank - 1));
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
    const float* epsAttr = context->GetAttrs()->GetFloat(0);
    float eps = epsAttr == nullptr ? 1e-5f : *epsAttr;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > rows) {
        cores = rows;
    }
    uint32_t tileRows = TILE_BYTES / (cols * sizeof(float));
    if (tileRows == 0) {
        tileRows = 1;
    }

    td.set_rows(rows);
    td.set_cols(cols);
    td.set_rowsPerCore(rows / cores);
    td.set_tailRows(rows % cores);
    td.set_tileRows(tileRows);
    td.set_eps(eps);
    td.set_invCols(1.0f / static_cast<float>(cols));

    context->SetBlockDim(cores);
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
class SwintransformerV2Custom : public OpDef {
public:
    explicit SwintransformerV2Custom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("residual").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SwintransformerV2Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Swin V2 uses "res-post-norm":  x = shortcut + LayerNorm(f(x)).
// This kernel fuses the LayerNorm over the channel axis with the residual add:
//     y = residual + (x - mean) * rsqrt(var + eps) * gamma + beta
// Tokens are distributed over cores, each core moves tiles of several tokens.
class KernelSwinPostNorm {
public:
    __aicore__ inline KernelSwinPostNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR res, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                uint32_t cols, uint32_t rowsPerCore, uint32_t tailRows,
                                uint32_t tileRows, float eps, float invCols)
    {
        this->cols = cols;
        this->tileRows = tileRows;
        this->eps = eps;
        this->invCols = invCols;

        uint32_t idx = GetBlockIdx();
        rowCount = rowsPerCore + (idx < tailRows ? 1 : 0);
        uint64_t rowBegin = (uint64_t)idx * rowsPerCore + (idx < tailRows ? idx : tailRows);

        xGm.SetGlobalBuffer((__gm__ float*)x + rowBegin * cols, (uint64_t)rowCount * cols);
        rGm.SetGlobalBuffer((__gm__ float*)res + rowBegin * cols, (uint64_t)rowCount * cols);
        yGm.SetGlobalBuffer((__gm__ float*)y + rowBegin * cols, (uint64_t)rowCount * cols);
        gGm.SetGlobalBuffer((__gm__ float*)gamma, cols);
        bGm.SetGlobalBuffer((__gm__ float*)beta, cols);

        uint32_t tileBytes = tileRows * cols * sizeof(float);
        pipe.InitBuffer(xQue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(rQue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(yQue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(gammaBuf, cols * sizeof(float));
        pipe.InitBuffer(betaBuf, cols * sizeof(float));
        pipe.InitBuffer(sqBuf, cols * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(workBuf, cols * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> g = gammaBuf.Get<float>();
        LocalTensor<float> b = betaBuf.Get<float>();
        DataCopy(g, gGm, cols);
        DataCopy(b, bGm, cols);
        PipeBarrier<PIPE_ALL>();

        for (uint32_t r0 = 0; r0 < rowCount; r0 += tileRows) {
            uint32_t n = rowCount - r0;
            if (n > tileRows) {
                n = tileRows;
            }
            CopyIn(r0, n);
            Compute(n, g, b);
            CopyOut(r0, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r0, uint32_t n)
    {
        LocalTensor<float> xl = xQue.AllocTensor<float>();
        LocalTensor<float> rl = rQue.AllocTensor<float>();
        DataCopy(xl, xGm[(uint64_t)r0 * cols], n * cols);
        DataCopy(rl, rGm[(uint64_t)r0 * cols], n * cols);
        xQue.EnQue(xl);
        rQue.EnQue(rl);
    }

    __aicore__ inline void Compute(uint32_t n, LocalTensor<float>& g, LocalTensor<float>& b)
    {
        LocalTensor<float> xl = xQue.DeQue<float>();
        LocalTensor<float> rl = rQue.DeQue<float>();
        LocalTensor<float> yl = yQue.AllocTensor<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();

        for (uint32_t i = 0; i < n; i++) {
            LocalTensor<float> xr = xl[i * cols];
            LocalTensor<float> yr = yl[i * cols];

            // mean
            ReduceSum(red, xr, work, cols);
            event_t e0 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(e0);
            WaitFlag<HardEvent::V_S>(e0);
            float mean = red.GetValue(0) * invCols;

            // centered values and variance
            Adds(yr, xr, -mean, cols);
            PipeBarrier<PIPE_V>();
            Mul(sq, yr, yr, cols);
            PipeBarrier<PIPE_V>();
            ReduceSum(red, sq, work, cols);
            event_t e1 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(e1);
            WaitFlag<HardEvent::V_S>(e1);
            float var = red.GetValue(0) * invCols;
            float rstd = 1.0f / sqrt(var + eps);
            event_t e2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(e2);
            WaitFlag<HardEvent::S_V>(e2);

            // affine + residual
            Muls(yr, yr, rstd, cols);
            PipeBarrier<PIPE_V>();
            Mul(yr, yr, g, cols);
            PipeBarrier<PIPE_V>();
            Add(yr, yr, b, cols);
            PipeBarrier<PIPE_V>();
            Add(yr, yr, rl[i * cols], cols);
            PipeBarrier<PIPE_V>();
        }

        yQue.EnQue(yl);
        xQue.FreeTensor(xl);
        rQue.FreeTensor(rl);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t n)
    {
        LocalTensor<float> yl = yQue.DeQue<float>();
        DataCopy(yGm[(uint64_t)r0 * cols], yl, n * cols);
        yQue.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue, rQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    TBuf<TPosition::VECCALC> gammaBuf, betaBuf, sqBuf, redBuf, workBuf;
    GlobalTensor<float> xGm, rGm, yGm, gGm, bGm;
    uint32_t cols, tileRows, rowCount;
    float eps, invCols;
};

extern "C" __global__ __aicore__ void swintransformer_v2_custom(GM_ADDR x, GM_ADDR residual, GM_ADDR gamma,
                                                                GM_ADDR beta, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelSwinPostNorm op;
    op.Init(x, residual, gamma, beta, y, td.cols, td.rowsPerCore, td.tailRows, td.tileRows, td.eps, td.invCols);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y = residual + LayerNorm(x) ; used for both post-norm residual branches of every Swin V2 block
at::Tensor swintransformer_v2_custom_impl_npu(const at::Tensor& x, const at::Tensor& residual,
                                              const at::Tensor& gamma, const at::Tensor& beta, double eps)
{
    at::Tensor xc = x.contiguous();
    at::Tensor rc = residual.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnSwintransformerV2Custom, xc, rc, gamma, beta, eps, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("swintransformer_v2_custom", &swintransformer_v2_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("swintransformer_v2_custom", &swintransformer_v2_custom_impl_npu,
          "fused residual + post LayerNorm for Swin Transformer V2");
}
"""

model_src='''
import collections
from itertools import repeat

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_npu
import custom_ops_lib


def to_2tuple(x):
    if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
        return tuple(x)
    return tuple(repeat(x, 2))


def post_norm_residual(x, shortcut, norm):
    # shortcut + norm(x) in one custom kernel
    return custom_ops_lib.swintransformer_v2_custom(x, shortcut, norm.weight, norm.bias, norm.eps)


class Mlp(nn.Module):
    def __init__(self, in_features, hidden_features=None, out_features=None, act_layer=nn.GELU, drop=0.):
        super().__init__()
        out_features = out_features or in_features
        hidden_features = hidden_features or in_features
        self.fc1 = nn.Linear(in_features, hidden_features)
        self.act = act_layer()
        self.fc2 = nn.Linear(hidden_features, out_features)
        self.drop = nn.Dropout(drop)

    def forward(self, x):
        return self.drop(self.fc2(self.drop(self.act(self.fc1(x)))))


def window_partition(x, ws):
    B, H, W, C = x.shape
    x = x.view(B, H // ws, ws, W // ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws, ws, C)


def window_reverse(windows, ws, H, W):
    B = int(windows.shape[0] / (H * W / ws / ws))
    x = windows.view(B, H // ws, W // ws, ws, ws, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(B, H, W, -1)


class WindowAttention(nn.Module):
    def __init__(self, dim, window_size, num_heads, qkv_bias=True, attn_drop=0., proj_drop=0.,
                 pretrained_window_size=[0, 0]):
        super().__init__()
        self.dim = dim
        self.window_size = window_size
        self.pretrained_window_size = pretrained_window_size
        self.num_heads = num_heads
        self.logit_scale = nn.Parameter(torch.log(10 * torch.ones((num_heads, 1, 1))), requires_grad=True)
        self.cpb_mlp = nn.Sequential(nn.Linear(2, 512, bias=True), nn.ReLU(inplace=True),
                                     nn.Linear(512, num_heads, bias=False))

        rh = torch.arange(-(window_size[0] - 1), window_size[0], dtype=torch.float32)
        rw = torch.arange(-(window_size[1] - 1), window_size[1], dtype=torch.float32)
        table = torch.stack(torch.meshgrid([rh, rw])).permute(1, 2, 0).contiguous().unsqueeze(0)
        if pretrained_window_size[0] > 0:
            table[:, :, :, 0] /= (pretrained_window_size[0] - 1)
            table[:, :, :, 1] /= (pretrained_window_size[1] - 1)
        else:
            table[:, :, :, 0] /= (window_size[0] - 1)
            table[:, :, :, 1] /= (window_size[1] - 1)
        table *= 8
        table = torch.sign(table) * torch.log2(torch.abs(table) + 1.0) / np.log2(8)
        self.register_buffer("relative_coords_table", table)

        coords = torch.stack(torch.meshgrid([torch.arange(window_size[0]), torch.arange(window_size[1])]))
        cf = torch.flatten(coords, 1)
        rel = (cf[:, :, None] - cf[:, None, :]).permute(1, 2, 0).contiguous()
        rel[:, :, 0] += window_size[0] - 1
        rel[:, :, 1] += window_size[1] - 1
        rel[:, :, 0] *= 2 * window_size[1] - 1
        self.register_buffer("relative_position_index", rel.sum(-1))

        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        if qkv_bias:
            self.q_bias = nn.Parameter(torch.zeros(dim))
            self.v_bias = nn.Parameter(torch.zeros(dim))
        else:
            self.q_bias = None
            self.v_bias = None
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x, mask=None):
        B_, N, C = x.shape
        qkv_bias = None
        if self.q_bias is not None:
            qkv_bias = torch.cat((self.q_bias, torch.zeros_like(self.v_bias), self.v_bias))
        qkv = F.linear(x, self.qkv.weight, qkv_bias)
        qkv = qkv.reshape(B_, N, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]

        attn = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
        scale = torch.clamp(self.logit_scale, max=torch.log(torch.tensor(1. / 0.01, device=x.device))).exp()
        attn = attn * scale

        bias_table = self.cpb_mlp(self.relative_coords_table).view(-1, self.num_heads)
        ws2 = self.window_size[0] * self.window_size[1]
        bias = bias_table[self.relative_position_index.view(-1)].view(ws2, ws2, -1).permute(2, 0, 1).contiguous()
        attn = attn + (16 * torch.sigmoid(bias)).unsqueeze(0)
        if mask is not None:
            nW = mask.shape[0]
            attn = attn.view(B_ // nW, nW, self.num_heads, N, N) + mask.unsqueeze(1).unsqueeze(0)
            attn = attn.view(-1, self.num_heads, N, N)
        attn = self.attn_drop(self.softmax(attn))
        x = (attn @ v).transpose(1, 2).reshape(B_, N, C)
        return self.proj_drop(self.proj(x))


class SwinTransformerBlock(nn.Module):
    def __init__(self, dim, input_resolution, num_heads, window_size=7, shift_size=0,
                 mlp_ratio=4., qkv_bias=True, drop=0., attn_drop=0., drop_path=0.,
                 act_layer=nn.GELU, norm_layer=nn.LayerNorm, pretrained_window_size=0):
        super().__init__()
        self.dim = dim
        self.input_resolution = input_resolution
        self.num_heads = num_heads
        self.window_size = window_size
        self.shift_size = shift_size
        self.mlp_ratio = mlp_ratio
        if min(self.input_resolution) <= self.window_size:
            self.shift_size = 0
            self.window_size = min(self.input_resolution)

        self.norm1 = norm_layer(dim)
        self.attn = WindowAttention(dim, window_size=to_2tuple(self.window_size), num_heads=num_heads,
                                    qkv_bias=qkv_bias, attn_drop=attn_drop, proj_drop=drop,
                                    pretrained_window_size=to_2tuple(pretrained_window_size))
        self.drop_path = nn.Identity()
        self.norm2 = norm_layer(dim)
        self.mlp = Mlp(in_features=dim, hidden_features=int(dim * mlp_ratio), act_layer=act_layer, drop=drop)

        if self.shift_size > 0:
            H, W = self.input_resolution
            img_mask = torch.zeros((1, H, W, 1))
            sl = (slice(0, -self.window_size), slice(-self.window_size, -self.shift_size),
                  slice(-self.shift_size, None))
            cnt = 0
            for h in sl:
                for w in sl:
                    img_mask[:, h, w, :] = cnt
                    cnt += 1
            mw = window_partition(img_mask, self.window_size).view(-1, self.window_size * self.window_size)
            attn_mask = mw.unsqueeze(1) - mw.unsqueeze(2)
            attn_mask = attn_mask.masked_fill(attn_mask != 0, float(-100.0)).masked_fill(attn_mask == 0, float(0.0))
        else:
            attn_mask = None
        self.register_buffer("attn_mask", attn_mask)

    def forward(self, x):
        H, W = self.input_resolution
        B, L, C = x.shape
        shortcut = x
        x = x.view(B, H, W, C)
        if self.shift_size > 0:
            x = torch.roll(x, shifts=(-self.shift_size, -self.shift_size), dims=(1, 2))
        xw = window_partition(x, self.window_size).view(-1, self.window_size * self.window_size, C)
        aw = self.attn(xw, mask=self.attn_mask).view(-1, self.window_size, self.window_size, C)
        x = window_reverse(aw, self.window_size, H, W)
        if self.shift_size > 0:
            x = torch.roll(x, shifts=(self.shift_size, self.shift_size), dims=(1, 2))
        x = x.reshape(B, H * W, C)
        x = post_norm_residual(x, shortcut, self.norm1)
        x = post_norm_residual(self.mlp(x), x, self.norm2)
        return x


class PatchMerging(nn.Module):
    def __init__(self, input_resolution, dim, norm_layer=nn.LayerNorm):
        super().__init__()
        self.input_resolution = input_resolution
        self.dim = dim
        self.reduction = nn.Linear(4 * dim, 2 * dim, bias=False)
        self.norm = norm_layer(2 * dim)

    def forward(self, x):
        H, W = self.input_resolution
        B, L, C = x.shape
        x = x.view(B, H, W, C)
        x = torch.cat([x[:, 0::2, 0::2, :], x[:, 1::2, 0::2, :],
                       x[:, 0::2, 1::2, :], x[:, 1::2, 1::2, :]], -1).view(B, -1, 4 * C)
        return self.norm(self.reduction(x))


class BasicLayer(nn.Module):
    def __init__(self, dim, input_resolution, depth, num_heads, window_size, mlp_ratio=4., qkv_bias=True,
                 drop=0., attn_drop=0., drop_path=0., norm_layer=nn.LayerNorm, downsample=None,
                 use_checkpoint=False, pretrained_window_size=0):
        super().__init__()
        self.blocks = nn.ModuleList([
            SwinTransformerBlock(dim=dim, input_resolution=input_resolution, num_heads=num_heads,
                                 window_size=window_size, shift_size=0 if (i % 2 == 0) else window_size // 2,
                                 mlp_ratio=mlp_ratio, qkv_bias=qkv_bias, drop=drop, attn_drop=attn_drop,
                                 drop_path=drop_path[i] if isinstance(drop_path, list) else drop_path,
                                 norm_layer=norm_layer, pretrained_window_size=pretrained_window_size)
            for i in range(depth)])
        self.downsample = downsample(input_resolution, dim=dim, norm_layer=norm_layer) if downsample else None

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        if self.downsample is not None:
            x = self.downsample(x)
        return x


class PatchEmbed(nn.Module):
    def __init__(self, img_size=224, patch_size=4, in_chans=3, embed_dim=96, norm_layer=None):
        super().__init__()
        img_size = to_2tuple(img_size)
        patch_size = to_2tuple(patch_size)
        self.patches_resolution = [img_size[0] // patch_size[0], img_size[1] // patch_size[1]]
        self.num_patches = self.patches_resolution[0] * self.patches_resolution[1]
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.norm = norm_layer(embed_dim) if norm_layer is not None else None

    def forward(self, x):
        x = self.proj(x).flatten(2).transpose(1, 2)
        if self.norm is not None:
            x = self.norm(x)
        return x


class ModelNew(nn.Module):
    def __init__(self, img_size=224, patch_size=4, in_chans=3, num_classes=1000,
                 embed_dim=96, depths=[2, 2, 6, 2], num_heads=[3, 6, 12, 24],
                 window_size=7, mlp_ratio=4., qkv_bias=True,
                 drop_rate=0., attn_drop_rate=0., drop_path_rate=0.1,
                 norm_layer=nn.LayerNorm, patch_norm=True,
                 use_checkpoint=False, pretrained_window_sizes=[0, 0, 0, 0], **kwargs):
        super().__init__()
        self.num_layers = len(depths)
        self.num_features = int(embed_dim * 2 ** (self.num_layers - 1))
        self.patch_embed = PatchEmbed(img_size, patch_size, in_chans, embed_dim,
                                      norm_layer if patch_norm else None)
        res = self.patch_embed.patches_resolution
        self.pos_drop = nn.Dropout(p=drop_rate)
        dpr = [x.item() for x in torch.linspace(0, drop_path_rate, sum(depths))]
        self.layers = nn.ModuleList()
        for i in range(self.num_layers):
            self.layers.append(BasicLayer(
                dim=int(embed_dim * 2 ** i),
                input_resolution=(res[0] // (2 ** i), res[1] // (2 ** i)),
                depth=depths[i], num_heads=num_heads[i], window_size=window_size,
                mlp_ratio=mlp_ratio, qkv_bias=qkv_bias, drop=drop_rate, attn_drop=attn_drop_rate,
                drop_path=dpr[sum(depths[:i]):sum(depths[:i + 1])], norm_layer=norm_layer,
                downsample=PatchMerging if (i < self.num_layers - 1) else None,
                pretrained_window_size=pretrained_window_sizes[i]))
        self.norm = norm_layer(self.num_features)
        self.avgpool = nn.AdaptiveAvgPool1d(1)
        self.head = nn.Linear(self.num_features, num_classes) if num_classes > 0 else nn.Identity()

    def forward(self, x):
        x = self.pos_drop(self.patch_embed(x))
        for layer in self.layers:
            x = layer(x)
        x = self.norm(x)
        x = torch.flatten(self.avgpool(x.transpose(1, 2)), 1)
        return self.head(x)
'''

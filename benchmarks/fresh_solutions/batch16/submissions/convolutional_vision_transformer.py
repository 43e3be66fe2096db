project_json_src='''
[
    {
        "op": "ConvolutionalVisionTransformerCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "residual", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "beta", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "epsilon", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvolutionalVisionTransformerCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // number of tokens (B * S)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // embed dim
  TILING_DATA_FIELD_DEF(uint32_t, colsAligned);   // embed dim rounded up to 8
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);      // first tailRows cores take one extra row
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvolutionalVisionTransformerCustom, ConvolutionalVisionTransformerCustomTilingData)
}
"""

host_operator_src="""
#include "convolutional_vision_transformer_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t UB_ELEMS_PER_TILE = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvolutionalVisionTransformerCustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t dims = shape.GetDimNum();
    uint32_t cols = shape.GetDim(dims - 1);
    uint32_t rows = shape.GetShapeSize() / cols;
    uint32_t colsAligned = (cols + 7) / 8 * 8;

    float eps = 1e-5f;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetAttrPointer<float>(0) != nullptr) {
        eps = *attrs->GetAttrPointer<float>(0);
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t used = rows < coreNum ? rows : coreNum;
    if (used == 0) used = 1;
    uint32_t rowsPerTile = UB_ELEMS_PER_TILE / colsAligned;
    if (rowsPerTile == 0) rowsPerTile = 1;

    context->SetBlockDim(used);
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_colsAligned(colsAligned);
    tiling.set_rowsPerCore(rows / used);
    tiling.set_tailRows(rows % used);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_eps(eps);
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
class ConvolutionalVisionTransformerCustom : public OpDef {
public:
    explicit ConvolutionalVisionTransformerCustom(const char* name) : OpDef(name)
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
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvolutionalVisionTransformerCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y = LayerNorm(x + residual) * gamma + beta   (post-norm of nn.TransformerEncoderLayer)
// Each core takes a contiguous block of rows; rows are moved rowsPerTile at a time
// and normalized one by one inside UB.
class KernelAddLayerNorm {
public:
    __aicore__ inline KernelAddLayerNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR res, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const ConvolutionalVisionTransformerCustomTilingData& td)
    {
        cols = td.cols;
        colsA = td.colsAligned;
        rowsPerTile = td.rowsPerTile;
        eps = td.eps;
        invCols = 1.0f / (float)cols;

        uint32_t idx = GetBlockIdx();
        myRows = td.rowsPerCore + (idx < td.tailRows ? 1 : 0);
        uint32_t startRow = idx * td.rowsPerCore + (idx < td.tailRows ? idx : td.tailRows);

        xGm.SetGlobalBuffer((__gm__ float*)x + (uint64_t)startRow * cols, (uint64_t)myRows * cols);
        rGm.SetGlobalBuffer((__gm__ float*)res + (uint64_t)startRow * cols, (uint64_t)myRows * cols);
        yGm.SetGlobalBuffer((__gm__ float*)y + (uint64_t)startRow * cols, (uint64_t)myRows * cols);
        gGm.SetGlobalBuffer((__gm__ float*)gamma, cols);
        bGm.SetGlobalBuffer((__gm__ float*)beta, cols);

        uint32_t tileBytes = rowsPerTile * colsA * sizeof(float);
        pipe.InitBuffer(xQue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(rQue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(yQue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(gammaBuf, colsA * sizeof(float));
        pipe.InitBuffer(betaBuf, colsA * sizeof(float));
        pipe.InitBuffer(sqBuf, colsA * sizeof(float));
        pipe.InitBuffer(workBuf, colsA * sizeof(float));
        pipe.InitBuffer(statBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (myRows == 0) {
            return;
        }
        LoadAffine();
        for (uint32_t r0 = 0; r0 < myRows; r0 += rowsPerTile) {
            uint32_t n = (myRows - r0) < rowsPerTile ? (myRows - r0) : rowsPerTile;
            CopyIn(r0, n);
            Compute(n);
            CopyOut(r0, n);
        }
    }

private:
    __aicore__ inline void LoadAffine()
    {
        LocalTensor<float> g = gammaBuf.Get<float>();
        LocalTensor<float> b = betaBuf.Get<float>();
        DataCopyExtParams cp{1, cols * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(g, gGm, cp, pad);
        DataCopyPad(b, bGm, cp, pad);
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evt);
        WaitFlag<HardEvent::MTE2_V>(evt);
    }

    __aicore__ inline void CopyIn(uint32_t r0, uint32_t n)
    {
        LocalTensor<float> xl = xQue.AllocTensor<float>();
        LocalTensor<float> rl = rQue.AllocTensor<float>();
        // rows are padded to colsA in UB, dense in GM
        DataCopyExtParams cp{(uint16_t)n, cols * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xl, xGm[(uint64_t)r0 * cols], cp, pad);
        DataCopyPad(rl, rGm[(uint64_t)r0 * cols], cp, pad);
        xQue.EnQue(xl);
        rQue.EnQue(rl);
    }

    __aicore__ inline float RowSum(const LocalTensor<float>& src)
    {
        LocalTensor<float> stat = statBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        ReduceSum<float>(stat, src, work, cols);
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);
        return stat.GetValue(0);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<float> xl = xQue.DeQue<float>();
        LocalTensor<float> rl = rQue.DeQue<float>();
        LocalTensor<float> yl = yQue.AllocTensor<float>();
        LocalTensor<float> g = gammaBuf.Get<float>();
        LocalTensor<float> b = betaBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();

        // residual add for the whole tile at once
        Add(yl, xl, rl, n * colsA);
        for (uint32_t i = 0; i < n; ++i) {
            LocalTensor<float> row = yl[i * colsA];
            float mean = RowSum(row) * invCols;
            Adds(row, row, -mean, cols);
            Mul(sq, row, row, cols);
            float var = RowSum(sq) * invCols;
            // rsqrt on the vector unit: stat = 1 / sqrt(var + eps)
            LocalTensor<float> stat = statBuf.Get<float>();
            Duplicate(stat, var + eps, 8);
            Sqrt(stat, stat, 8);
            event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(evt);
            WaitFlag<HardEvent::V_S>(evt);
            float rstd = 1.0f / stat.GetValue(0);
            event_t evt2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(evt2);
            WaitFlag<HardEvent::S_V>(evt2);
            Muls(row, row, rstd, cols);
            Mul(row, row, g, cols);
            Add(row, row, b, cols);
        }
        yQue.EnQue(yl);
        xQue.FreeTensor(xl);
        rQue.FreeTensor(rl);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t n)
    {
        LocalTensor<float> yl = yQue.DeQue<float>();
        DataCopyExtParams cp{(uint16_t)n, cols * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)r0 * cols], yl, cp);
        yQue.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue, rQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    TBuf<QuePosition::VECCALC> gammaBuf, betaBuf, sqBuf, workBuf, statBuf;
    GlobalTensor<float> xGm, rGm, yGm, gGm, bGm;
    uint32_t cols, colsA, rowsPerTile, myRows;
    float eps, invCols;
};

extern "C" __global__ __aicore__ void convolutional_vision_transformer_custom(
    GM_ADDR x, GM_ADDR residual, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelAddLayerNorm op;
    op.Init(x, residual, gamma, beta, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <cmath>
#include <vector>

// fused residual add + LayerNorm (custom kernel)
static at::Tensor add_layer_norm(const at::Tensor& x, const at::Tensor& res,
                                 const at::Tensor& gamma, const at::Tensor& beta, double eps)
{
    at::Tensor xc = x.contiguous();
    at::Tensor rc = res.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnConvolutionalVisionTransformerCustom, xc, rc, gamma, beta, eps, y);
    return y;
}

// Per layer, params holds 12 tensors in this order:
// in_proj_w, in_proj_b, out_proj_w, out_proj_b, linear1_w, linear1_b, linear2_w, linear2_b,
// norm1_w, norm1_b, norm2_w, norm2_b
at::Tensor convolutional_vision_transformer_impl_npu(
    const at::Tensor& x, const at::Tensor& conv_w, const at::Tensor& conv_b,
    const at::Tensor& proj_w, const at::Tensor& proj_b, const at::Tensor& cls_token,
    const std::vector<at::Tensor>& params, const at::Tensor& fc_w, const at::Tensor& fc_b,
    int64_t num_heads, int64_t patch_size)
{
    const int64_t B = x.size(0);
    at::Tensor h = at::conv2d(x, conv_w, conv_b, {patch_size, patch_size});
    h = h.flatten(1);
    h = at::linear(h, proj_w, proj_b);                       // (B, E)
    const int64_t E = h.size(1);
    at::Tensor cls = cls_token.expand({B, 1, E});
    h = at::cat({cls, h.unsqueeze(1)}, 1).contiguous();      // (B, 2, E)
    const int64_t S = h.size(1);
    const int64_t hd = E / num_heads;
    const double scale = 1.0 / std::sqrt((double)hd);

    TORCH_CHECK(params.size() % 12 == 0, "expected 12 tensors per encoder layer");
    const size_t layers = params.size() / 12;
    for (size_t l = 0; l < layers; ++l) {
        const at::Tensor* p = &params[l * 12];
        // multi-head self attention
        at::Tensor qkv = at::linear(h, p[0], p[1]);          // (B, S, 3E)
        std::vector<at::Tensor> parts = qkv.chunk(3, -1);
        at::Tensor q = parts[0].reshape({B, S, num_heads, hd}).transpose(1, 2);
        at::Tensor k = parts[1].reshape({B, S, num_heads, hd}).transpose(1, 2);
        at::Tensor v = parts[2].reshape({B, S, num_heads, hd}).transpose(1, 2);
        at::Tensor att = at::softmax(at::matmul(q, k.transpose(-2, -1)) * scale, -1);
        at::Tensor o = at::matmul(att, v).transpose(1, 2).reshape({B, S, E});
        o = at::linear(o, p[2], p[3]);
        h = add_layer_norm(h, o, p[8], p[9], 1e-5);
        // feed forward (relu)
        at::Tensor ff = at::linear(at::relu(at::linear(h, p[4], p[5])), p[6], p[7]);
        h = add_layer_norm(h, ff, p[10], p[11], 1e-5);
    }
    return at::linear(h.select(1, 0), fc_w, fc_b);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("convolutional_vision_transformer_custom", &convolutional_vision_transformer_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("convolutional_vision_transformer_custom", &convolutional_vision_transformer_impl_npu,
          "CViT forward with fused add+LayerNorm kernels");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, num_classes, embed_dim=512, num_heads=8, num_layers=6,
                 mlp_ratio=4.0, patch_size=4, in_channels=3, image_size=32):
        super().__init__()
        self.patch_size = patch_size
        self.num_heads = num_heads
        self.conv1 = nn.Conv2d(in_channels, embed_dim, kernel_size=patch_size, stride=patch_size)
        num_patches = (image_size // patch_size) ** 2
        self.linear_proj = nn.Linear(embed_dim * num_patches, embed_dim)
        self.transformer_layers = nn.ModuleList([
            nn.TransformerEncoderLayer(d_model=embed_dim, nhead=num_heads,
                                       dim_feedforward=int(embed_dim * mlp_ratio),
                                       dropout=0.0, batch_first=True)
            for _ in range(num_layers)
        ])
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.fc_out = nn.Linear(embed_dim, num_classes)

    def forward(self, x):
        params = []
        for layer in self.transformer_layers:
            params += [layer.self_attn.in_proj_weight, layer.self_attn.in_proj_bias,
                       layer.self_attn.out_proj.weight, layer.self_attn.out_proj.bias,
                       layer.linear1.weight, layer.linear1.bias,
                       layer.linear2.weight, layer.linear2.bias,
                       layer.norm1.weight, layer.norm1.bias,
                       layer.norm2.weight, layer.norm2.bias]
        return custom_ops_lib.convolutional_vision_transformer_custom(
            x, self.conv1.weight, self.conv1.bias, self.linear_proj.weight, self.linear_proj.bias,
            self.cls_token, params, self.fc_out.weight, self.fc_out.bias,
            self.num_heads, self.patch_size)
'''

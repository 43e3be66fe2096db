project_json_src='''
[
    {
        "op": "VisionTransformerCustom",
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
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VisionTransformerCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, numRows);      // tokens (seq * batch)
  TILING_DATA_FIELD_DEF(uint32_t, hiddenDim);    // d_model
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invDim);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VisionTransformerCustom, VisionTransformerCustomTilingData)
}
"""

host_operator_src="""
#include "vision_transformer_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
constexpr uint32_t MAX_BLOCK = 40;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    VisionTransformerCustomTilingData tiling;
    const gert::Shape s = context->GetInputShape(0)->GetOriginShape();
    uint32_t dim = static_cast<uint32_t>(s.GetDim(s.GetDimNum() - 1));
    uint32_t rows = static_cast<uint32_t>(s.GetShapeSize() / dim);

    float eps = 1e-5f;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetAttrPointer<float>(0) != nullptr) {
        eps = *attrs->GetAttrPointer<float>(0);
    }

    uint32_t blocks = rows < MAX_BLOCK ? rows : MAX_BLOCK;
    uint32_t rpc = (rows + blocks - 1) / blocks;
    blocks = (rows + rpc - 1) / rpc;

    tiling.set_numRows(rows);
    tiling.set_hiddenDim(dim);
    tiling.set_rowsPerCore(rpc);
    tiling.set_eps(eps);
    tiling.set_invDim(1.0f / static_cast<float>(dim));

    context->SetBlockDim(blocks);
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
class VisionTransformerCustom : public OpDef {
public:
    explicit VisionTransformerCustom(const char* name) : OpDef(name)
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
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VisionTransformerCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Post-norm residual block tail of nn.TransformerEncoderLayer:
//     y = LayerNorm(x + residual) * gamma + beta
// One token (row of d_model floats) per iteration, rows split across cores.
class KernelAddLayerNorm {
public:
    __aicore__ inline KernelAddLayerNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR res, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                uint32_t numRows, uint32_t dim, uint32_t rowsPerCore, float eps, float invDim)
    {
        D = dim;
        this->eps = eps;
        this->invDim = invDim;
        rowStart = GetBlockIdx() * rowsPerCore;
        rowCount = numRows > rowStart ? numRows - rowStart : 0;
        if (rowCount > rowsPerCore) rowCount = rowsPerCore;

        uint64_t base = static_cast<uint64_t>(rowStart) * dim;
        xGm.SetGlobalBuffer((__gm__ float*)x + base, static_cast<uint64_t>(rowsPerCore) * dim);
        rGm.SetGlobalBuffer((__gm__ float*)res + base, static_cast<uint64_t>(rowsPerCore) * dim);
        yGm.SetGlobalBuffer((__gm__ float*)y + base, static_cast<uint64_t>(rowsPerCore) * dim);
        gGm.SetGlobalBuffer((__gm__ float*)gamma, dim);
        bGm.SetGlobalBuffer((__gm__ float*)beta, dim);

        pipe.InitBuffer(xQue, BUFFER_NUM, D * sizeof(float));
        pipe.InitBuffer(rQue, BUFFER_NUM, D * sizeof(float));
        pipe.InitBuffer(yQue, BUFFER_NUM, D * sizeof(float));
        pipe.InitBuffer(gammaBuf, D * sizeof(float));
        pipe.InitBuffer(betaBuf, D * sizeof(float));
        pipe.InitBuffer(sumBuf, D * sizeof(float));
        pipe.InitBuffer(sqBuf, D * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowCount == 0) return;
        LocalTensor<float> g = gammaBuf.Get<float>();
        LocalTensor<float> b = betaBuf.Get<float>();
        DataCopy(g, gGm, D);
        DataCopy(b, bGm, D);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);

        for (uint32_t r = 0; r < rowCount; ++r) {
            CopyIn(r);
            Compute(g, b);
            CopyOut(r);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r)
    {
        LocalTensor<float> xl = xQue.AllocTensor<float>();
        LocalTensor<float> rl = rQue.AllocTensor<float>();
        DataCopy(xl, xGm[r * D], D);
        DataCopy(rl, rGm[r * D], D);
        xQue.EnQue(xl);
        rQue.EnQue(rl);
    }

    __aicore__ inline float RowSum(const LocalTensor<float>& src)
    {
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = sqBuf.Get<float>();
        ReduceSum(red, src, work, D);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return red.GetValue(0);
    }

    __aicore__ inline void Compute(LocalTensor<float>& g, LocalTensor<float>& b)
    {
        LocalTensor<float> xl = xQue.DeQue<float>();
        LocalTensor<float> rl = rQue.DeQue<float>();
        LocalTensor<float> yl = yQue.AllocTensor<float>();
        LocalTensor<float> s = sumBuf.Get<float>();

        Add(s, xl, rl, D);                        // residual connection
        xQue.FreeTensor(xl);
        rQue.FreeTensor(rl);

        float mean = RowSum(s) * invDim;
        Adds(s, s, -mean, D);                     // centered
        Mul(yl, s, s, D);
        float var = RowSum(yl) * invDim;

        // rstd = 1 / sqrt(var + eps), evaluated on the vector unit
        LocalTensor<float> red = redBuf.Get<float>();
        Duplicate(red, var + eps, 8);
        Sqrt(red, red, 8);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        float rstd = 1.0f / red.GetValue(0);

        Muls(s, s, rstd, D);
        Mul(yl, s, g, D);
        Add(yl, yl, b, D);
        yQue.EnQue(yl);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        LocalTensor<float> yl = yQue.DeQue<float>();
        DataCopy(yGm[r * D], yl, D);
        yQue.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue, rQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    TBuf<QuePosition::VECCALC> gammaBuf, betaBuf, sumBuf, sqBuf, redBuf;
    GlobalTensor<float> xGm, rGm, yGm, gGm, bGm;
    uint32_t D, rowStart, rowCount;
    float eps, invDim;
};

extern "C" __global__ __aicore__ void vision_transformer_custom(GM_ADDR x, GM_ADDR residual, GM_ADDR gamma,
                                                                GM_ADDR beta, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelAddLayerNorm op;
    op.Init(x, residual, gamma, beta, y, td.numRows, td.hiddenDim, td.rowsPerCore, td.eps, td.invDim);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>
#include <cmath>

// fused residual add + LayerNorm on the NPU
static at::Tensor add_layer_norm(const at::Tensor& x, const at::Tensor& res,
                                 const at::Tensor& gamma, const at::Tensor& beta, double eps)
{
    at::Tensor xc = x.contiguous();
    at::Tensor rc = res.contiguous();
    at::Tensor y = at::empty_like(xc);
    float epsF = static_cast<float>(eps);
    EXEC_NPU_CMD(aclnnVisionTransformerCustom, xc, rc, gamma, beta, epsF, y);
    return y;
}

// params layout:
//   [0] patch_w [1] patch_b [2] cls_token [3] pos_embedding
//   per layer (12): in_proj_w, in_proj_b, out_proj_w, out_proj_b,
//                   linear1_w, linear1_b, linear2_w, linear2_b,
//                   norm1_w, norm1_b, norm2_w, norm2_b
//   head (4): fc1_w, fc1_b, fc2_w, fc2_b
at::Tensor vision_transformer_custom_impl_npu(const at::Tensor& img, std::vector<at::Tensor> params,
                                              int64_t patch_size, int64_t depth, int64_t heads, double eps)
{
    const int64_t p = patch_size;
    const int64_t B = img.size(0);
    const int64_t C = img.size(1);

    // patch embedding (same unfold ordering as the reference)
    at::Tensor x = img.unfold(2, p, p).unfold(3, p, p).reshape({B, -1, p * p * C});
    x = at::linear(x, params[0], params[1]);
    at::Tensor cls = params[2].expand({B, -1, -1});
    x = at::cat({cls, x}, 1);
    x = x + params[3];

    // nn.TransformerEncoder is not batch_first: dim 0 is the sequence, dim 1 the batch
    const int64_t L = x.size(0);
    const int64_t N = x.size(1);
    const int64_t E = x.size(2);
    const int64_t hd = E / heads;
    const double scale = 1.0 / std::sqrt(static_cast<double>(hd));

    for (int64_t l = 0; l < depth; ++l) {
        const at::Tensor* w = &params[4 + l * 12];

        // ---- self attention ----
        at::Tensor qkv = at::linear(x, w[0], w[1]);              // [L, N, 3E]
        std::vector<at::Tensor> parts = qkv.chunk(3, -1);
        at::Tensor q = parts[0].contiguous().view({L, N * heads, hd}).transpose(0, 1);
        at::Tensor k = parts[1].contiguous().view({L, N * heads, hd}).transpose(0, 1);
        at::Tensor v = parts[2].contiguous().view({L, N * heads, hd}).transpose(0, 1);
        at::Tensor scores = at::bmm(q * scale, k.transpose(1, 2));   // [N*h, L, L]
        at::Tensor attn = at::softmax(scores, -1);
        at::Tensor ctx = at::bmm(attn, v).transpose(0, 1).contiguous().view({L, N, E});
        at::Tensor sa = at::linear(ctx, w[2], w[3]);

        x = add_layer_norm(sa, x, w[8], w[9], eps);

        // ---- feed forward ----
        at::Tensor ff = at::linear(at::relu(at::linear(x, w[4], w[5])), w[6], w[7]);
        x = add_layer_norm(ff, x, w[10], w[11], eps);
    }

    // classification head on token 0
    const size_t h0 = 4 + static_cast<size_t>(depth) * 12;
    at::Tensor t = x.select(1, 0);
    t = at::gelu(at::linear(t, params[h0], params[h0 + 1]));
    return at::linear(t, params[h0 + 2], params[h0 + 3]);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("vision_transformer_custom", &vision_transformer_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("vision_transformer_custom", &vision_transformer_custom_impl_npu, "ViT forward (add+LayerNorm on NPU kernel)");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, image_size, patch_size, num_classes, dim, depth, heads, mlp_dim, channels=3, dropout=0.1, emb_dropout=0.1):
        super(ModelNew, self).__init__()
        assert image_size % patch_size == 0, "Image dimensions must be divisible by the patch size."
        num_patches = (image_size // patch_size) ** 2
        patch_dim = channels * patch_size ** 2

        self.patch_size = patch_size
        self.depth = depth
        self.heads = heads
        self.pos_embedding = nn.Parameter(torch.randn(1, num_patches + 1, dim))
        self.patch_to_embedding = nn.Linear(patch_dim, dim)
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim))
        self.dropout = nn.Dropout(emb_dropout)

        self.transformer = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d_model=dim, nhead=heads, dim_feedforward=mlp_dim, dropout=dropout),
            num_layers=depth
        )

        self.to_cls_token = nn.Identity()
        self.mlp_head = nn.Sequential(
            nn.Linear(dim, mlp_dim),
            nn.GELU(),
            nn.Dropout(dropout),
            nn.Linear(mlp_dim, num_classes)
        )

    def _params(self):
        ps = [self.patch_to_embedding.weight, self.patch_to_embedding.bias,
              self.cls_token, self.pos_embedding]
        for layer in self.transformer.layers:
            ps += [layer.self_attn.in_proj_weight, layer.self_attn.in_proj_bias,
                   layer.self_attn.out_proj.weight, layer.self_attn.out_proj.bias,
                   layer.linear1.weight, layer.linear1.bias,
                   layer.linear2.weight, layer.linear2.bias,
                   layer.norm1.weight, layer.norm1.bias,
                   layer.norm2.weight, layer.norm2.bias]
        ps += [self.mlp_head[0].weight, self.mlp_head[0].bias,
               self.mlp_head[3].weight, self.mlp_head[3].bias]
        return [t.contiguous() for t in ps]

    def forward(self, img):
        eps = self.transformer.layers[0].norm1.eps
        return custom_ops_lib.vision_transformer_custom(
            img, self._params(), self.patch_size, self.depth, self.heads, eps)
'''

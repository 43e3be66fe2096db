#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <cmath>

// y = residual + LayerNorm(x) -- the Swin V2 res-post-norm, fused in one kernel
at::Tensor swintransformer_v2_custom_impl_npu(const at::Tensor& x, const at::Tensor& residual,
                                              const at::Tensor& gamma, const at::Tensor& beta, double eps)
{
    at::Tensor xc = x.contiguous();
    at::Tensor rc = residual.contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnSwintransformerV2Custom, xc, rc, gamma, beta, eps, result);
    return result;
}

static at::Tensor window_partition(const at::Tensor& x, int64_t ws)
{
    auto B = x.size(0), H = x.size(1), W = x.size(2), C = x.size(3);
    return x.view({B, H / ws, ws, W / ws, ws, C}).permute({0, 1, 3, 2, 4, 5}).contiguous().view({-1, ws, ws, C});
}

static at::Tensor window_reverse(const at::Tensor& win, int64_t ws, int64_t H, int64_t W)
{
    int64_t B = win.size(0) / ((H / ws) * (W / ws));
    return win.view({B, H / ws, W / ws, ws, ws, -1}).permute({0, 1, 3, 2, 4, 5}).contiguous().view({B, H, W, -1});
}

// Cosine window attention with the continuous relative position bias (Swin V2).
static at::Tensor window_attention(const at::Tensor& x, const std::vector<at::Tensor>& p, int64_t heads,
                                   int64_t ws, const c10::optional<at::Tensor>& mask)
{
    auto Bw = x.size(0), N = x.size(1), C = x.size(2);
    at::Tensor qkv_bias = at::cat({p[3], at::zeros_like(p[4]), p[4]});
    at::Tensor qkv = at::linear(x, p[2], qkv_bias).reshape({Bw, N, 3, heads, -1}).permute({2, 0, 3, 1, 4});
    at::Tensor q = qkv[0], k = qkv[1], v = qkv[2];

    // F.normalize(t, dim=-1) == t / max(||t||, 1e-12)
    at::Tensor qn = q / at::clamp_min(at::linalg_vector_norm(q, 2, {-1}, true), 1e-12);
    at::Tensor kn = k / at::clamp_min(at::linalg_vector_norm(k, 2, {-1}, true), 1e-12);
    at::Tensor attn = at::matmul(qn, kn.transpose(-2, -1));
    at::Tensor scale = at::clamp_max(p[5], std::log(1.0 / 0.01)).exp();
    attn = attn * scale;

    at::Tensor table = at::linear(at::relu(at::linear(p[9], p[6], p[7])), p[8]).view({-1, heads});
    at::Tensor bias = table.index_select(0, p[10].view(-1)).view({ws * ws, ws * ws, -1}).permute({2, 0, 1}).contiguous();
    attn = attn + 16.0 * at::sigmoid(bias).unsqueeze(0);

    if (mask.has_value() && mask->defined()) {
        auto nW = mask->size(0);
        attn = attn.view({Bw / nW, nW, heads, N, N}) + mask->unsqueeze(1).unsqueeze(0);
        attn = attn.view({-1, heads, N, N});
    }
    attn = at::softmax(attn, -1);
    at::Tensor out = at::matmul(attn, v).transpose(1, 2).reshape({Bw, N, C});
    return at::linear(out, p[11], p[12]);
}

// One SwinTransformerBlock. Parameter order in p:
//  0 norm1.w  1 norm1.b  2 qkv.w  3 q_bias  4 v_bias  5 logit_scale  6 cpb0.w  7 cpb0.b  8 cpb2.w
//  9 relative_coords_table  10 relative_position_index  11 proj.w  12 proj.b  13 norm2.w  14 norm2.b
// 15 fc1.w  16 fc1.b  17 fc2.w  18 fc2.b
at::Tensor swin_v2_block_forward(const at::Tensor& x, const std::vector<at::Tensor>& p, int64_t H, int64_t W,
                                 int64_t window, int64_t shift, int64_t heads,
                                 const c10::optional<at::Tensor>& attn_mask)
{
    TORCH_CHECK(p.size() == 19, "swin_v2_block_forward expects 19 parameter tensors");
    auto B = x.size(0), C = x.size(2);
    at::Tensor h = x.view({B, H, W, C});
    if (shift > 0) {
        h = at::roll(h, {-shift, -shift}, {1, 2});
    }
    at::Tensor win = window_partition(h, window).view({-1, window * window, C});
    at::Tensor att = window_attention(win, p, heads, window, attn_mask);
    h = window_reverse(att.view({-1, window, window, C}), window, H, W);
    if (shift > 0) {
        h = at::roll(h, {shift, shift}, {1, 2});
    }
    h = h.reshape({B, H * W, C});

    // x = x + norm1(attn)
    at::Tensor y = swintransformer_v2_custom_impl_npu(h, x, p[0], p[1], 1e-5);
    // y = y + norm2(mlp(y))
    at::Tensor m = at::linear(at::gelu(at::linear(y, p[15], p[16])), p[17], p[18]);
    return swintransformer_v2_custom_impl_npu(m, y, p[13], p[14], 1e-5);
}

// PatchMerging: 2x2 neighbourhood concat -> linear(4C -> 2C) -> LayerNorm
at::Tensor swin_v2_patch_merging(const at::Tensor& x, int64_t H, int64_t W, const at::Tensor& red_w,
                                 const at::Tensor& norm_w, const at::Tensor& norm_b)
{
    auto B = x.size(0), C = x.size(2);
    at::Tensor v = x.view({B, H, W, C});
    using namespace torch::indexing;
    at::Tensor x0 = v.index({Slice(), Slice(0, None, 2), Slice(0, None, 2), Slice()});
    at::Tensor x1 = v.index({Slice(), Slice(1, None, 2), Slice(0, None, 2), Slice()});
    at::Tensor x2 = v.index({Slice(), Slice(0, None, 2), Slice(1, None, 2), Slice()});
    at::Tensor x3 = v.index({Slice(), Slice(1, None, 2), Slice(1, None, 2), Slice()});
    at::Tensor m = at::cat({x0, x1, x2, x3}, -1).view({B, -1, 4 * C});
    return at::layer_norm(at::linear(m, red_w), {2 * C}, norm_w, norm_b, 1e-5);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("swintransformer_v2_custom", &swintransformer_v2_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("swintransformer_v2_custom", &swintransformer_v2_custom_impl_npu, "residual + layernorm (post-norm)",
          py::arg("x"), py::arg("residual"), py::arg("gamma"), py::arg("beta"), py::arg("eps") = 1e-5);
    m.def("swin_v2_block_forward", &swin_v2_block_forward, "Swin V2 transformer block");
    m.def("swin_v2_patch_merging", &swin_v2_patch_merging, "Swin V2 patch merging");
}

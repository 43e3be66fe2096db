#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Projections run through at::linear (cube matmuls); the attention core
// (QK^T, softmax, PV) runs in the custom AscendC kernel.
at::Tensor cross_modal_attention_custom_impl_npu(const at::Tensor& text, const at::Tensor& img,
                                                 const at::Tensor& q_w, const at::Tensor& q_b,
                                                 const at::Tensor& kv_w, const at::Tensor& kv_b,
                                                 const at::Tensor& in_proj_w, const at::Tensor& in_proj_b,
                                                 const at::Tensor& out_w, const at::Tensor& out_b,
                                                 int64_t num_heads)
{
    const int64_t B = text.size(0);
    const int64_t Lq = text.size(1);
    const int64_t Lk = img.size(1);
    const int64_t E = q_w.size(0);
    const int64_t D = E / num_heads;

    at::Tensor q = at::linear(text, q_w, q_b);
    at::Tensor kv = at::linear(img, kv_w, kv_b);

    // nn.MultiheadAttention packed in-projection
    auto w_chunks = in_proj_w.chunk(3, 0);
    auto b_chunks = in_proj_b.chunk(3, 0);
    at::Tensor Q = at::linear(q, w_chunks[0], b_chunks[0]);
    at::Tensor K = at::linear(kv, w_chunks[1], b_chunks[1]);
    at::Tensor V = at::linear(kv, w_chunks[2], b_chunks[2]);

    // [B, L, H, D] -> [B*H, L, D]
    at::Tensor Qh = Q.view({B, Lq, num_heads, D}).permute({0, 2, 1, 3}).contiguous().view({B * num_heads, Lq, D});
    at::Tensor Kt = K.view({B, Lk, num_heads, D}).permute({0, 2, 3, 1}).contiguous().view({B * num_heads, D, Lk});
    at::Tensor Vh = V.view({B, Lk, num_heads, D}).permute({0, 2, 1, 3}).contiguous().view({B * num_heads, Lk, D});

    at::Tensor attn = at::empty_like(Qh);
    EXEC_NPU_CMD(aclnnCrossModalAttentionCustom, Qh, Kt, Vh, attn);

    at::Tensor merged = attn.view({B, num_heads, Lq, D}).permute({0, 2, 1, 3}).contiguous().view({B, Lq, E});
    return at::linear(merged, out_w, out_b);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("cross_modal_attention_custom", &cross_modal_attention_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("cross_modal_attention_custom", &cross_modal_attention_custom_impl_npu,
          "cross-modal multi-head attention (text queries, image keys/values)");
}

#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Core: causal relu attention on (B*nh, T, hs) q/k/v
at::Tensor relu_self_attention_custom_impl_npu(const at::Tensor &q, const at::Tensor &k, const at::Tensor &v)
{
    TORCH_CHECK(q.dim() == 3 && k.sizes() == q.sizes() && v.sizes() == q.sizes(),
                "q, k, v must all be (B*nh, T, hs)");
    at::Tensor qC = q.contiguous();
    at::Tensor kC = k.contiguous();
    at::Tensor vC = v.contiguous();
    at::Tensor y = at::empty_like(qC);
    EXEC_NPU_CMD(aclnnReluSelfAttentionCustom, qC, kC, vC, y);
    return y;
}

// Module forward: c_attn projection, head split, custom attention, head merge.
// (The reference forward returns before c_proj, so no output projection here.)
at::Tensor relu_self_attention_forward_npu(const at::Tensor &x, const at::Tensor &c_attn_weight,
                                           const at::Tensor &c_attn_bias, int64_t n_head)
{
    const int64_t B = x.size(0);
    const int64_t T = x.size(1);
    const int64_t C = x.size(2);
    const int64_t hs = C / n_head;

    at::Tensor qkv = at::linear(x, c_attn_weight, c_attn_bias);   // (B, T, 3C)
    auto parts = qkv.split(C, 2);
    auto toHeads = [&](const at::Tensor &t) {
        return t.reshape({B, T, n_head, hs}).transpose(1, 2).reshape({B * n_head, T, hs}).contiguous();
    };
    at::Tensor q = toHeads(parts[0]);
    at::Tensor k = toHeads(parts[1]);
    at::Tensor v = toHeads(parts[2]);

    at::Tensor y = relu_self_attention_custom_impl_npu(q, k, v);   // (B*nh, T, hs)
    return y.view({B, n_head, T, hs}).transpose(1, 2).contiguous().view({B, T, C});
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("relu_self_attention_custom", &relu_self_attention_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("relu_self_attention_custom", &relu_self_attention_custom_impl_npu, "causal relu attention core");
    m.def("relu_self_attention_forward", &relu_self_attention_forward_npu, "ReLU self-attention module forward");
}

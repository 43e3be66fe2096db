#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// dropout p = 0 -> identity, not emitted
at::Tensor min_gpt_causal_attention_impl_npu(const at::Tensor& x, const at::Tensor& attn_weight,
                                             const at::Tensor& attn_bias, const at::Tensor& proj_weight,
                                             const at::Tensor& proj_bias, int64_t n_head)
{
    TORCH_CHECK(x.dim() == 3, "x must be (B, T, C)");
    at::Tensor y = at::empty_like(x);
    EXEC_NPU_CMD(aclnnMinGptCausalAttentionCustom, x, attn_weight, attn_bias, proj_weight, proj_bias,
                 n_head, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("min_gpt_causal_attention_custom", &min_gpt_causal_attention_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("min_gpt_causal_attention_custom", &min_gpt_causal_attention_impl_npu,
          "minGPT causal self-attention (qkv proj + masked softmax attention + out proj)");
}

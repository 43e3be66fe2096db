// binding: projections via aten, shared-KV attention core via custom op
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor mqa_core(const at::Tensor &q, const at::Tensor &k, const at::Tensor &v)
{
    at::Tensor out = at::empty_like(q);
    EXEC_NPU_CMD(aclnnMultiQueryAttentionCustom, q, k, v, out);
    return out;
}

at::Tensor multi_query_attention_custom_impl_npu(const at::Tensor &x, const at::Tensor &wq, const at::Tensor &bq,
                                                 const at::Tensor &wk, const at::Tensor &bk, const at::Tensor &wv,
                                                 const at::Tensor &bv, const at::Tensor &wo, const at::Tensor &bo,
                                                 int64_t heads)
{
    int64_t b = x.size(0), n = x.size(1), d = x.size(2), hd = d / heads;
    at::Tensor q = at::linear(x, wq, bq).contiguous().view({b, n * heads, hd});
    at::Tensor k = at::linear(x, wk, bk).contiguous();
    at::Tensor v = at::linear(x, wv, bv).contiguous();
    at::Tensor o = mqa_core(q, k, v).view({b, n, d});
    return at::linear(o, wo, bo);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("multi_query_attention_custom", &multi_query_attention_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("multi_query_attention_custom", &multi_query_attention_custom_impl_npu, "multi-query attention");
    m.def("mqa_core", &mqa_core, "softmax(q k^T / sqrt(d)) v with shared k, v");
}

#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// One fused Linear(+ReLU) layer: y = relu?(x @ w^T + b)
static at::Tensor linear_layer(const at::Tensor &x, const at::Tensor &w, const at::Tensor &b, bool with_relu)
{
    at::Tensor out = at::empty({x.size(0), w.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnMlpCustom, x, w, b, with_relu, out);
    return out;
}

// Whole MLP: hidden layers use the fused relu path, the last layer is plain linear.
at::Tensor mlp_custom_impl_npu(const at::Tensor &x, const std::vector<at::Tensor> &weights,
                               const std::vector<at::Tensor> &biases)
{
    TORCH_CHECK(weights.size() == biases.size() && !weights.empty(), "weights / biases mismatch");
    at::Tensor h = x.contiguous();
    size_t n_layer = weights.size();
    for (size_t i = 0; i < n_layer; ++i) {
        bool relu = (i + 1 < n_layer);
        h = linear_layer(h, weights[i].contiguous(), biases[i].contiguous(), relu);
    }
    return h;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mlp_custom", &mlp_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mlp_custom", &mlp_custom_impl_npu, "MLP: stacked Linear + ReLU layers");
}

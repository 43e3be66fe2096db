#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Linear -> x * sigmoid(x) -> * scaling_factor, fused in one kernel
at::Tensor matmul_swish_scaling_custom_impl_npu(const at::Tensor &x, const at::Tensor &weight,
                                                const at::Tensor &bias, double scaling_factor)
{
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor xC = x.contiguous();
    at::Tensor wC = weight.contiguous();
    at::Tensor bC = bias.contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    float scale = static_cast<float>(scaling_factor);
    EXEC_NPU_CMD(aclnnMatmulSwishScalingCustom, xC, wC, bC, scale, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_swish_scaling_custom", &matmul_swish_scaling_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_swish_scaling_custom", &matmul_swish_scaling_custom_impl_npu,
          "swish(x @ W^T + b) * scaling_factor");
}

#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor gemm_sigmoid_scaling_residual_add_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                             const at::Tensor& bias, double scaling_factor)
{
    TORCH_CHECK(x.size(1) == weight.size(1), "input_size mismatch between x and gemm weight");
    auto out = at::empty({x.size(0), weight.size(0)}, x.options());
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto bc = bias.contiguous();
    float scalingFactor = static_cast<float>(scaling_factor);
    EXEC_NPU_CMD(aclnnGemmSigmoidScalingResidualAddCustom, xc, wc, bc, scalingFactor, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_sigmoid_scaling_residual_add_custom", &gemm_sigmoid_scaling_residual_add_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_sigmoid_scaling_residual_add_custom", &gemm_sigmoid_scaling_residual_add_custom_impl_npu,
          "gemm -> sigmoid -> scaling -> residual add");
}

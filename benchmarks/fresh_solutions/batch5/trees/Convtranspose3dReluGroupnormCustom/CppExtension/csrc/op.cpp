#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor convtranspose3d_relu_groupnorm_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                          const at::Tensor& gamma, const at::Tensor& beta,
                                                          int64_t groups, double eps)
{
    int64_t k = weight.size(2);
    auto y = at::empty({x.size(0), weight.size(1), x.size(2) + k - 1, x.size(3) + k - 1, x.size(4) + k - 1},
                       x.options());
    EXEC_NPU_CMD(aclnnConvtranspose3dReluGroupnormCustom, x, weight, gamma, beta, groups, eps, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("convtranspose3d_relu_groupnorm_custom", &convtranspose3d_relu_groupnorm_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("convtranspose3d_relu_groupnorm_custom", &convtranspose3d_relu_groupnorm_custom_impl_npu,
          "conv_transpose3d + relu + group_norm");
}

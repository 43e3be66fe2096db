#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv3d runs on the stock NPU conv; the custom op takes the conv output and
// fuses MaxPool3d(2, 2) -> logsumexp(dim=1, keepdim) -> relu.
at::Tensor conv3d_max_log_sum_exp_relu_custom_impl_npu(const at::Tensor &x, const at::Tensor &weight,
                                                       const at::Tensor &bias, int64_t stride, int64_t padding)
{
    at::Tensor feat = at::conv3d(x, weight, bias, {stride, stride, stride}, {padding, padding, padding}).contiguous();
    at::Tensor out = at::empty({feat.size(0), 1, feat.size(2) / 2, feat.size(3) / 2, feat.size(4) / 2}, feat.options());
    EXEC_NPU_CMD(aclnnConv3dMaxLogSumExpReluCustom, feat, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv3d_max_log_sum_exp_relu_custom", &conv3d_max_log_sum_exp_relu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv3d_max_log_sum_exp_relu_custom", &conv3d_max_log_sum_exp_relu_custom_impl_npu,
          "conv3d + maxpool3d(2) + logsumexp(dim=1) + relu");
}

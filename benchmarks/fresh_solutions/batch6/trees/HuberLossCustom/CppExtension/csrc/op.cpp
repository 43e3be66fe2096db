// pybind binding for HuberLossCustom
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor huber_loss_custom_impl_npu(const at::Tensor& p, const at::Tensor& t)
{
    at::Tensor pc = p.contiguous();
    at::Tensor tc = t.contiguous();
    at::Tensor y = at::zeros({}, pc.options());
    EXEC_NPU_CMD(aclnnHuberLossCustom, pc, tc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("huber_loss_custom", &huber_loss_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("huber_loss_custom", &huber_loss_custom_impl_npu, "smooth_l1_loss mean");
}

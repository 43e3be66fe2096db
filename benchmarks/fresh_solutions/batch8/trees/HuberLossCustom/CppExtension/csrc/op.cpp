#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// smooth_l1_loss(predictions, targets), reduction='mean', beta=1.0
at::Tensor smooth_l1_mean_impl_npu(const at::Tensor &predictions, const at::Tensor &targets)
{
    TORCH_CHECK(predictions.sizes() == targets.sizes(), "smooth_l1_mean: shape mismatch");
    at::Tensor pred = predictions.contiguous();
    at::Tensor tgt = targets.contiguous();
    // the kernel accumulates partial means atomically, so the output must start at zero
    at::Tensor loss = at::zeros({}, pred.options());
    double beta = 1.0;
    EXEC_NPU_CMD(aclnnSmoothL1MeanCustom, pred, tgt, beta, loss);
    return loss;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("smooth_l1_mean_custom", &smooth_l1_mean_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("smooth_l1_mean_custom", &smooth_l1_mean_impl_npu, "mean smooth L1 (Huber) loss");
}

#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// mean((pred - target)^2) over all elements, returned as a 0-d tensor.
at::Tensor mean_squared_diff_impl_npu(const at::Tensor &pred, const at::Tensor &target)
{
    TORCH_CHECK(pred.sizes() == target.sizes(), "pred and target must have the same shape");
    at::Tensor p = pred.contiguous();
    at::Tensor t = target.contiguous();
    // Cores accumulate into this with atomic adds, so it has to start at zero.
    at::Tensor loss = at::zeros({}, pred.options());
    EXEC_NPU_CMD(aclnnMeanSquaredDiffCustom, p, t, loss);
    return loss;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mean_squared_diff_custom", &mean_squared_diff_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mean_squared_diff_custom", &mean_squared_diff_impl_npu, "mean of squared differences");
}

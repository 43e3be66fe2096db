#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// returns the updated parameter of one RMSprop step
at::Tensor rms_scaled_descent_impl_npu(const at::Tensor &param, const at::Tensor &grad, const at::Tensor &sqAvg,
                                       double lr, double alpha, double eps)
{
    TORCH_CHECK(param.sizes() == grad.sizes() && param.sizes() == sqAvg.sizes(),
                "param, grad and sq_avg must have the same shape");
    at::Tensor p = param.contiguous();
    at::Tensor g = grad.contiguous();
    at::Tensor v = sqAvg.contiguous();
    at::Tensor out = at::empty_like(p);
    EXEC_NPU_CMD(aclnnRmsScaledDescentCustom, p, g, v, lr, alpha, eps, out);
    return out;
}

at::Tensor rms_scaled_descent_default(const at::Tensor &param, const at::Tensor &grad, const at::Tensor &sqAvg)
{
    return rms_scaled_descent_impl_npu(param, grad, sqAvg, 1e-3, 0.99, 1e-8);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("rms_scaled_descent_custom", &rms_scaled_descent_default);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("rms_scaled_descent_custom", &rms_scaled_descent_impl_npu, "RMSprop parameter update",
          pybind11::arg("param"), pybind11::arg("grad"), pybind11::arg("sq_avg"),
          pybind11::arg("lr") = 1e-3, pybind11::arg("alpha") = 0.99, pybind11::arg("eps") = 1e-8);
}

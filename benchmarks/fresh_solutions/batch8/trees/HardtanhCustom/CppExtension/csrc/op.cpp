#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor bounded_clip_impl_npu(const at::Tensor &x, double lower, double upper)
{
    at::Tensor src = x.contiguous();
    at::Tensor result = at::empty_like(src);
    EXEC_NPU_CMD(aclnnBoundedClipCustom, src, lower, upper, result);
    return result;
}

at::Tensor bounded_clip_unit(const at::Tensor &x)
{
    return bounded_clip_impl_npu(x, -1.0, 1.0);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bounded_clip_custom", &bounded_clip_unit);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bounded_clip_custom", &bounded_clip_impl_npu, "hardtanh: clamp(x, lower, upper)",
          pybind11::arg("x"), pybind11::arg("lower") = -1.0, pybind11::arg("upper") = 1.0);
}

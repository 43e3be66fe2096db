#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// log_softmax over `dim`; the kernel normalises the last axis, so other dims are moved there first
at::Tensor row_log_prob_impl_npu(const at::Tensor &x, int64_t dim)
{
    int64_t nd = x.dim();
    if (dim < 0) {
        dim += nd;
    }
    TORCH_CHECK(dim >= 0 && dim < nd, "row_log_prob: dim out of range");
    at::Tensor src = (dim == nd - 1) ? x.contiguous() : x.transpose(dim, nd - 1).contiguous();
    at::Tensor out = at::empty_like(src);
    EXEC_NPU_CMD(aclnnRowLogProbCustom, src, out);
    if (dim != nd - 1) {
        out = out.transpose(dim, nd - 1).contiguous();
    }
    return out;
}

at::Tensor row_log_prob_default(const at::Tensor &x)
{
    return row_log_prob_impl_npu(x, 1);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("row_log_prob_custom", &row_log_prob_default);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("row_log_prob_custom", &row_log_prob_impl_npu, "log_softmax along a dim",
          pybind11::arg("x"), pybind11::arg("dim") = 1);
}

#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor sum_reduction_over_a_dimension_custom_impl_npu(const at::Tensor& x, int64_t dim)
{
    int64_t d = dim < 0 ? dim + x.dim() : dim;
    auto outShape = x.sizes().vec();
    outShape[d] = 1;
    at::Tensor y = at::empty(outShape, x.options());
    EXEC_NPU_CMD(aclnnSumReductionOverADimensionCustom, x, dim, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("sum_reduction_over_a_dimension_custom", &sum_reduction_over_a_dimension_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("sum_reduction_over_a_dimension_custom", &sum_reduction_over_a_dimension_custom_impl_npu,
          "sum over dim, keepdim=True");
}

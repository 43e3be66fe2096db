#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// torch.min(x, dim=dim)[0]
at::Tensor min_reduction_over_a_dimension_custom_impl_npu(const at::Tensor &x, int64_t dim)
{
    int64_t rank = x.dim();
    int64_t d = dim < 0 ? dim + rank : dim;
    TORCH_CHECK(d >= 0 && d < rank, "dim out of range");
    std::vector<int64_t> outShape;
    for (int64_t i = 0; i < rank; ++i) {
        if (i != d) {
            outShape.push_back(x.size(i));
        }
    }
    at::Tensor xC = x.contiguous();
    at::Tensor y = at::empty(outShape, x.options());
    EXEC_NPU_CMD(aclnnMinReductionOverADimensionCustom, xC, d, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("min_reduction_over_a_dimension_custom", &min_reduction_over_a_dimension_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("min_reduction_over_a_dimension_custom", &min_reduction_over_a_dimension_custom_impl_npu,
          "min over one dimension (values only)");
}

// binding: torch.mean(x, dim) through the custom op
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor mean_reduction_over_a_dimension_custom_impl_npu(const at::Tensor &x, int64_t dim)
{
    int64_t nd = x.dim();
    int64_t d = dim < 0 ? dim + nd : dim;
    std::vector<int64_t> shp;
    for (int64_t i = 0; i < nd; i++) {
        if (i != d) shp.push_back(x.size(i));
    }
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty(shp, x.options());
    EXEC_NPU_CMD(aclnnMeanReductionOverADimensionCustom, xc, dim, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mean_reduction_over_a_dimension_custom", &mean_reduction_over_a_dimension_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mean_reduction_over_a_dimension_custom", &mean_reduction_over_a_dimension_custom_impl_npu, "mean over dim");
}

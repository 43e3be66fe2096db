#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

at::Tensor min_reduction_over_a_dimension_impl_npu(const at::Tensor& x, int64_t dim)
{
    at::Tensor xc = x.contiguous();
    int64_t nd = xc.dim();
    int64_t d = dim < 0 ? dim + nd : dim;
    TORCH_CHECK(d >= 0 && d < nd, "min_reduction_over_a_dimension_custom: bad dim");

    std::vector<int64_t> out_shape;
    for (int64_t i = 0; i < nd; ++i) {
        if (i != d) {
            out_shape.push_back(xc.size(i));
        }
    }
    at::Tensor out = at::empty(out_shape, xc.options());
    EXEC_NPU_CMD(aclnnMinReductionOverADimensionCustom, xc, d, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("min_reduction_over_a_dimension_custom", &min_reduction_over_a_dimension_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("min_reduction_over_a_dimension_custom", &min_reduction_over_a_dimension_impl_npu,
          "torch.min(x, dim)[0]");
}

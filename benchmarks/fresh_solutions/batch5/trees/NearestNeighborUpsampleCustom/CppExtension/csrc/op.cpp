#include <cmath>
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor nearest_neighbor_upsample_custom_impl_npu(const at::Tensor& x, double scale_factor)
{
    TORCH_CHECK(x.dim() == 4, "nearest_neighbor_upsample_custom: expect NCHW input");
    TORCH_CHECK(scale_factor > 0.0, "scale_factor must be positive");
    int64_t oh = static_cast<int64_t>(std::floor(x.size(2) * scale_factor));
    int64_t ow = static_cast<int64_t>(std::floor(x.size(3) * scale_factor));
    at::Tensor input = x.contiguous();
    at::Tensor result = at::empty({x.size(0), x.size(1), oh, ow}, x.options());
    double scaleH = scale_factor;
    double scaleW = scale_factor;
    EXEC_NPU_CMD(aclnnNearestNeighborUpsampleCustom, input, scaleH, scaleW, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("nearest_neighbor_upsample_custom", &nearest_neighbor_upsample_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("nearest_neighbor_upsample_custom", &nearest_neighbor_upsample_custom_impl_npu,
          "F.interpolate(x, scale_factor, mode='nearest')",
          pybind11::arg("x"), pybind11::arg("scale_factor") = 4.0);
}

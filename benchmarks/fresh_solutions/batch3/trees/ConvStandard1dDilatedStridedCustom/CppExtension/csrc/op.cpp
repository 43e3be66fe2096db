#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_standard_1d_dilated_strided_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                     int64_t stride, int64_t dilation)
{
    TORCH_CHECK(x.dim() == 3 && weight.dim() == 3, "expect (N, Cin, L) input and (Cout, Cin, K) weight");
    int64_t k = weight.size(2);
    int64_t lout = (x.size(2) - dilation * (k - 1) - 1) / stride + 1;
    at::Tensor y = at::empty({x.size(0), weight.size(0), lout}, x.options());
    EXEC_NPU_CMD(aclnnConvStandard1dDilatedStridedCustom, x, weight, stride, dilation, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard_1d_dilated_strided_custom", &conv_standard_1d_dilated_strided_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard_1d_dilated_strided_custom", &conv_standard_1d_dilated_strided_impl_npu,
          "conv1d (no bias), strided + dilated");
}

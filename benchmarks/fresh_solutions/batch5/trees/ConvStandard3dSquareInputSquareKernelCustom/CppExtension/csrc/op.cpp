#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_standard_3d_square_input_square_kernel_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight)
{
    int64_t k = weight.size(2);
    auto y = at::empty({x.size(0), weight.size(0), x.size(2) - k + 1, x.size(3) - k + 1, x.size(4) - k + 1},
                       x.options());
    EXEC_NPU_CMD(aclnnConvStandard3dSquareInputSquareKernelCustom, x, weight, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard_3d_square_input_square_kernel_custom",
           &conv_standard_3d_square_input_square_kernel_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard_3d_square_input_square_kernel_custom",
          &conv_standard_3d_square_input_square_kernel_custom_impl_npu, "conv3d via im2col + matmul");
}

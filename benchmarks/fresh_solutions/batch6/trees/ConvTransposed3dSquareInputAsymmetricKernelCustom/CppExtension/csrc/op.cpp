#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// ConvTranspose3d, stride 1 / padding 0 / groups 1 / no bias (the task defaults).
// weight layout follows PyTorch: [C_in, C_out, KD, KH, KW]
at::Tensor conv_transposed_3d_square_input_asymmetric_kernel_custom_impl_npu(const at::Tensor &x,
                                                                             const at::Tensor &weight)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected 5-D input and weight");
    TORCH_CHECK(x.size(1) == weight.size(0), "channel mismatch");
    int64_t od = x.size(2) + weight.size(2) - 1;
    int64_t oh = x.size(3) + weight.size(3) - 1;
    int64_t ow = x.size(4) + weight.size(4) - 1;
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(1), od, oh, ow}, x.options());
    EXEC_NPU_CMD(aclnnConvTransposed3dSquareInputAsymmetricKernelCustom, xc, wc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed_3d_square_input_asymmetric_kernel_custom",
           &conv_transposed_3d_square_input_asymmetric_kernel_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed_3d_square_input_asymmetric_kernel_custom",
          &conv_transposed_3d_square_input_asymmetric_kernel_custom_impl_npu,
          "transposed 3D convolution (stride 1, no padding)");
}

#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// nn.ConvTranspose3d(Cin, Cout, K, stride=1, padding=0, output_padding=0, groups=1, bias=False)
//
// For stride 1 the transposed conv equals a valid convolution of x padded by K-1
// with weight.flip(spatial).transpose(0, 1). The padding / weight re-layout are cheap
// tensor ops; the convolution itself runs in the AscendC kernel.
at::Tensor conv_transposed_3d_square_input_square_kernel_custom_impl_npu(const at::Tensor& x,
                                                                         const at::Tensor& weight)
{
    TORCH_CHECK(x.dim() == 5, "x must be [N, Cin, D, H, W]");
    TORCH_CHECK(weight.dim() == 5, "weight must be [Cin, Cout, K, K, K]");
    const int64_t k = weight.size(2);
    const int64_t p = k - 1;

    at::Tensor xPad = at::constant_pad_nd(x, {p, p, p, p, p, p}, 0).contiguous();
    at::Tensor wConv = weight.flip({2, 3, 4}).transpose(0, 1).contiguous();   // [Cout, Cin, K, K, K]

    at::Tensor result = at::empty({x.size(0), weight.size(1), x.size(2) + p, x.size(3) + p, x.size(4) + p},
                                  x.options());
    EXEC_NPU_CMD(aclnnConvTransposed3dSquareInputSquareKernelCustom, xPad, wConv, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed_3d_square_input_square_kernel_custom",
           &conv_transposed_3d_square_input_square_kernel_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed_3d_square_input_square_kernel_custom",
          &conv_transposed_3d_square_input_square_kernel_custom_impl_npu,
          "ConvTranspose3d (stride 1, no padding) via padded direct convolution");
}

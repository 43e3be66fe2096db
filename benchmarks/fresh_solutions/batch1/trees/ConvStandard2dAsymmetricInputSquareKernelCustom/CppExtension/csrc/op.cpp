#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// nn.Conv2d(in, out, (k, k), stride=1, padding=p, dilation=d, groups=1, bias=False)
// Zero padding (if any) is applied on the host side so the kernel only ever
// sees a "valid" convolution.
at::Tensor conv_standard_2d_asymmetric_input_square_kernel_custom_impl_npu(const at::Tensor& x,
                                                                           const at::Tensor& weight,
                                                                           int64_t stride, int64_t padding,
                                                                           int64_t dilation)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected NCHW input and OIHW weight");
    TORCH_CHECK(weight.size(2) == weight.size(3), "kernel must be square");
    TORCH_CHECK(weight.size(1) == x.size(1), "groups != 1 is not supported");
    TORCH_CHECK(stride == 1, "only stride 1 is implemented");

    at::Tensor input = x;
    if (padding > 0) {
        input = at::constant_pad_nd(x, {padding, padding, padding, padding}, 0.0);
    }
    input = input.contiguous();
    at::Tensor w = weight.contiguous();

    int64_t span = dilation * (w.size(2) - 1) + 1;
    int64_t outH = input.size(2) - span + 1;
    int64_t outW = input.size(3) - span + 1;
    at::Tensor result = at::empty({input.size(0), w.size(0), outH, outW}, input.options());
    EXEC_NPU_CMD(aclnnConvStandard2dAsymmetricInputSquareKernelCustom, input, w, stride, dilation, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard_2d_asymmetric_input_square_kernel_custom",
           &conv_standard_2d_asymmetric_input_square_kernel_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard_2d_asymmetric_input_square_kernel_custom",
          &conv_standard_2d_asymmetric_input_square_kernel_custom_impl_npu,
          "direct 2d convolution, square kernel");
}

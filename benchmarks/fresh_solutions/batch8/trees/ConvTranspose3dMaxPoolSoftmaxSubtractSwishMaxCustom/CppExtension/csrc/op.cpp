#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Fused channel epilogue only: softmax(dim=1) -> minus shift[c] -> swish -> max over dim=1
at::Tensor channel_prob_shift_silu_peak_impl_npu(const at::Tensor &x, const at::Tensor &shift)
{
    TORCH_CHECK(x.dim() >= 3, "expected (N, C, ...) input");
    TORCH_CHECK(shift.numel() == x.size(1), "shift must have C elements");
    at::Tensor xc = x.contiguous();
    at::Tensor sc = shift.reshape({-1}).contiguous();
    std::vector<int64_t> outSize;
    outSize.push_back(xc.size(0));
    for (int64_t i = 2; i < xc.dim(); ++i) {
        outSize.push_back(xc.size(i));
    }
    at::Tensor y = at::empty(outSize, xc.options());
    EXEC_NPU_CMD(aclnnChannelProbShiftSiluPeakCustom, xc, sc, y);
    return y;
}

// Whole forward: ConvTranspose3d and MaxPool3d stay on the stock NPU kernels,
// everything after the pool runs in the custom kernel.
at::Tensor convt3d_pool_channel_epilogue_npu(const at::Tensor &x, const at::Tensor &weight, const at::Tensor &bias,
                                             const at::Tensor &shift, int64_t stride, int64_t padding,
                                             int64_t outputPadding, int64_t poolKernel, int64_t poolStride,
                                             int64_t poolPadding)
{
    at::Tensor v = at::conv_transpose3d(x, weight, bias, {stride, stride, stride}, {padding, padding, padding},
                                        {outputPadding, outputPadding, outputPadding}, 1, {1, 1, 1});
    v = at::max_pool3d(v, {poolKernel, poolKernel, poolKernel}, {poolStride, poolStride, poolStride},
                       {poolPadding, poolPadding, poolPadding});
    return channel_prob_shift_silu_peak_impl_npu(v, shift);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_prob_shift_silu_peak_custom", &channel_prob_shift_silu_peak_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_prob_shift_silu_peak_custom", &channel_prob_shift_silu_peak_impl_npu,
          "max_c swish(softmax_c(x) - shift_c)");
    m.def("convt3d_pool_channel_epilogue", &convt3d_pool_channel_epilogue_npu,
          "conv_transpose3d -> max_pool3d -> channel softmax/shift/swish/max");
}

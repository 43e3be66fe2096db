#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// torch.clamp(x, min=min_val, max=max_val) with min_val / max_val broadcast over
// the last axis of x.
at::Tensor clamp_broadcast_custom_impl_npu(const at::Tensor& x, const at::Tensor& min_val, const at::Tensor& max_val)
{
    at::Tensor xc = x.contiguous();
    const int64_t last = xc.size(-1);
    // bring bounds to a flat [last] vector (handles [1, last], scalars, etc.)
    at::Tensor lo = min_val.expand({last}).contiguous();
    at::Tensor hi = max_val.expand({last}).contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnClampBroadcastCustom, xc, lo, hi, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("clamp_broadcast_custom", &clamp_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("clamp_broadcast_custom", &clamp_broadcast_custom_impl_npu, "clamp(x, min_vec, max_vec)");
}

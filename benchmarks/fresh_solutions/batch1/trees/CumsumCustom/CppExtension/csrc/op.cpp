#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// The kernel scans along the last dimension; any other dim is moved there first.
at::Tensor cumsum_custom_impl_npu(const at::Tensor& self, int64_t dim)
{
    int64_t nd = self.dim();
    TORCH_CHECK(nd >= 1, "cumsum_custom expects at least a 1-D tensor");
    if (dim < 0) {
        dim += nd;
    }
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");

    bool moved = (dim != nd - 1);
    at::Tensor input = moved ? self.transpose(dim, nd - 1).contiguous() : self.contiguous();
    at::Tensor result = at::empty_like(input);
    EXEC_NPU_CMD(aclnnCumsumCustom, input, result);
    if (moved) {
        result = result.transpose(dim, nd - 1).contiguous();
    }
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("cumsum_custom", &cumsum_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("cumsum_custom", &cumsum_custom_impl_npu, "inclusive cumulative sum along dim");
}

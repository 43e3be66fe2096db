#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// Multi-layer, batch_first LSTM followed by Linear on the last time step.
// Per layer, the input projection for all time steps is a single GEMM; the
// recurrence does one (B, H) x (H, 4H) GEMM per step and the gate nonlinearity
// plus state update runs in the custom LstmCustom kernel.
at::Tensor lstm_custom_impl_npu(const at::Tensor &x, const at::Tensor &h0, const at::Tensor &c0,
                                const std::vector<at::Tensor> &wIh, const std::vector<at::Tensor> &wHh,
                                const std::vector<at::Tensor> &bIh, const std::vector<at::Tensor> &bHh,
                                const at::Tensor &fcWeight, const at::Tensor &fcBias)
{
    const int64_t numLayers = static_cast<int64_t>(wIh.size());
    TORCH_CHECK(numLayers > 0 && wHh.size() == wIh.size(), "lstm_custom: bad weight lists");
    const int64_t T = x.size(1);
    const int64_t B = x.size(0);
    const int64_t H = wHh[0].size(1);

    // (B, T, I) -> (T, B, I) so each time step is a contiguous (B, *) slab.
    at::Tensor layerIn = x.transpose(0, 1).contiguous();
    at::Tensor hLast;

    for (int64_t l = 0; l < numLayers; ++l) {
        at::Tensor bias = bIh[l] + bHh[l];
        // (T*B, I) x (I, 4H) + bias -> (T, B, 4H)
        at::Tensor xProj = at::addmm(bias, layerIn.reshape({T * B, layerIn.size(2)}), wIh[l].t())
                               .view({T, B, 4 * H});
        at::Tensor wHhT = wHh[l].t().contiguous();

        at::Tensor h = h0[l].contiguous();
        at::Tensor c = c0[l].contiguous();
        at::Tensor seqOut = at::empty({T, B, H}, x.options());

        for (int64_t t = 0; t < T; ++t) {
            at::Tensor xg = xProj[t];
            at::Tensor hg = at::mm(h, wHhT);
            at::Tensor hNext = at::empty({B, H}, x.options());
            at::Tensor cNext = at::empty({B, H}, x.options());
            EXEC_NPU_CMD(aclnnLstmCustom, xg, hg, c, hNext, cNext);
            seqOut[t].copy_(hNext);
            h = hNext;
            c = cNext;
        }
        layerIn = seqOut;
        hLast = h;
    }

    // fc(out[:, -1, :])
    return at::addmm(fcBias, hLast, fcWeight.t());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("lstm_custom", &lstm_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("lstm_custom", &lstm_custom_impl_npu, "LSTM (batch_first) + Linear on the last step");
}

#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/extension.h>
#include <vector>
#include "pytorch_npu_helper.hpp"

// One fused LSTM cell step on the NPU: element-wise gate activations and
// state update. Returns {h_next, c_next}.
std::vector<at::Tensor> lstm_cell_update_impl_npu(const at::Tensor &gates, const at::Tensor &c_prev)
{
    at::Tensor g = gates.contiguous();
    at::Tensor c = c_prev.contiguous();
    at::Tensor hNext = at::empty_like(c);
    at::Tensor cNext = at::empty_like(c);
    EXEC_NPU_CMD(aclnnLstmCellUpdateCustom, g, c, hNext, cNext);
    return {hNext, cNext};
}

// Multi-layer, unidirectional, batch_first LSTM returning the final hidden
// state of every layer (h_n, shape [num_layers, batch, hidden]).
// The input projection of a whole layer is a single GEMM; the recurrent GEMM
// runs per step and the cell non-linearity goes through the custom kernel.
// The model's trailing Linear does not influence h_n, so it is not evaluated.
at::Tensor lstm_last_hidden_impl_npu(const at::Tensor &x, const at::Tensor &h0, const at::Tensor &c0,
                                     const std::vector<at::Tensor> &w_ih, const std::vector<at::Tensor> &w_hh,
                                     const std::vector<at::Tensor> &b_ih, const std::vector<at::Tensor> &b_hh)
{
    TORCH_CHECK(x.dim() == 3, "x must be [batch, seq, feature]");
    const int64_t numLayers = static_cast<int64_t>(w_ih.size());
    TORCH_CHECK(numLayers > 0 && w_hh.size() == w_ih.size(), "weight lists mismatch");
    TORCH_CHECK(h0.size(0) == numLayers && c0.size(0) == numLayers, "state does not match layer count");

    const int64_t batch = x.size(0);
    const int64_t seqLen = x.size(1);
    const int64_t hidden = h0.size(2);

    at::Tensor layerIn = x.contiguous();
    std::vector<at::Tensor> finalH;
    finalH.reserve(numLayers);

    for (int64_t l = 0; l < numLayers; ++l) {
        at::Tensor bias = b_ih[l] + b_hh[l];
        // [batch, seq, 4H]
        at::Tensor xProj = at::linear(layerIn, w_ih[l], bias);
        at::Tensor whhT = w_hh[l].t().contiguous();

        at::Tensor h = h0[l].contiguous();
        at::Tensor c = c0[l].contiguous();
        const bool keepSeq = (l + 1 < numLayers);
        at::Tensor seqOut;
        if (keepSeq) {
            seqOut = at::empty({batch, seqLen, hidden}, x.options());
        }

        for (int64_t t = 0; t < seqLen; ++t) {
            at::Tensor gates = at::addmm(xProj.select(1, t), h, whhT);
            auto hc = lstm_cell_update_impl_npu(gates, c);
            h = hc[0];
            c = hc[1];
            if (keepSeq) {
                seqOut.select(1, t).copy_(h);
            }
        }
        finalH.push_back(h);
        if (keepSeq) {
            layerIn = seqOut; // dropout is 0 in this configuration
        }
    }
    return at::stack(finalH, 0);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m)
{
    m.impl("lstm_cell_update_custom", &lstm_cell_update_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("lstm_cell_update_custom", &lstm_cell_update_impl_npu, "fused LSTM cell update (NPU)");
    m.def("lstm_last_hidden", &lstm_last_hidden_impl_npu, "multi-layer LSTM returning h_n (NPU)");
}

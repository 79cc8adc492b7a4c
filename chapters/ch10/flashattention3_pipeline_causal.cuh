// flashattention3_pipeline_causal: flashattention3_pipeline (see flashattention3_pipeline.cuh) with the causal
// mask: the same in-order vs FA3-scheduled kernels, key tiles above the diagonal skipped, longest query
// blocks first; flash_attention_causal's workload (half the FLOPs), buffers and tolerance.
#pragma once
#include "flashattention3_pipeline.cuh"

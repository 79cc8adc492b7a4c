// Hopper (sm_90a) building blocks shared by the ch10 GEMM kernels: mbarriers, TMA tile loads (plain and
// cluster multicast), cluster barriers, wgmma descriptors and the m64n256k16 BF16 instruction, setmaxnreg,
// and the host-side tensor-map encoder. Only PTX wrappers live here; every variant's kernel (its pipeline,
// roles and schedule) is in its own file or in gemm_ws_kernel.cuh.
//
// Conventions (one layout for every GEMM in this chapter): C[M][N] = A[M][K] * B[N][K]^T, all row-major,
// i.e. both operands K-major (the nn.Linear layout: B is the weight matrix, output-major). wgmma reads both
// operands K-major from shared memory without a transpose, so this layout needs no data movement at all.
// Operand tiles are K-tiles of 64 BF16 = 128 bytes per row, written by TMA with the 128-byte swizzle; the
// wgmma descriptors below use the same swizzle (the two must match, or the MMA reads permuted data).
#pragma once
#include <cuda.h>          // CUtensorMap and enums (types only; nothing here links libcuda)
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "aisp/aisp.hpp"

namespace sm90 {

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarriers ---------------------------------------------------------------------------------------

__device__ __forceinline__ void mbar_init(uint64_t* bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(count) : "memory");
}

// Makes initialized barriers visible to the async proxy (TMA) and to the other CTAs of the cluster.
__device__ __forceinline__ void mbar_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// The producer's arrival: arms the barrier for `bytes` of TMA data in this phase.
__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
}

// Arrive on the barrier at the same shared-memory offset in CTA `cta_rank` of this cluster. The default
// semantics (release at CTA scope), as CUTLASS's ClusterBarrier::arrive(cta_id) uses: the arriving
// consumer's shared-memory reads (wgmma) are complete once its wait_group returned. A first version
// asked for .release.cluster here and the 2-CTA kernel ran at half the speed of the 1-CTA one on the
// H100 (392 vs 197 us at 4096^3).
__device__ __forceinline__ void mbar_arrive_cluster(uint64_t* bar, uint32_t cta_rank) {
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(smem_u32(bar)),
      "r"(cta_rank)
      : "memory");
}

// Spins until the phase with this parity has completed (fill number f of a slot has parity f & 1).
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "WAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT_%=;\n"
      "}\n" ::"r"(smem_u32(bar)),
      "r"(parity)
      : "memory");
}

// ---- clusters ----------------------------------------------------------------------------------------

__device__ __forceinline__ uint32_t cluster_ctarank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}

// All threads of all CTAs of the cluster (release/acquire: shared-memory writes before it are visible after).
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

// ---- TMA ---------------------------------------------------------------------------------------------

// One 2D box of `map` with top-left element (x = column, y = row) into shared memory at `dst`; completion
// is counted in bytes on `bar`.
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, int x, int y, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(smem_u32(bar))
      : "memory");
}

// The same box written to the same offset in every CTA of `cta_mask`, each CTA's barrier at `bar`'s offset
// receiving the byte count (sm_90a).
__device__ __forceinline__ void tma_load_2d_multicast(void* dst, const CUtensorMap* map, int x, int y, uint64_t* bar,
                                                      uint16_t cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(smem_u32(bar)), "h"(cta_mask)
      : "memory");
}

// ---- wgmma -------------------------------------------------------------------------------------------

// Shared-memory matrix descriptor for a K-major operand tile written by TMA with the 128-byte swizzle:
// rows of 128 B (64 BF16 of K), grouped in 8-row, 1024-byte swizzle atoms. Start address >> 4 in bits
// 0-13, leading-dimension offset (unused for swizzled K-major; 16 B by convention) in 16-29, stride between
// 8-row groups (1024 B) in 32-45, swizzle mode 1 (128 B) in 62-63. Moving along K inside the 128-byte row
// (k16 steps = 32 B) is done by adding to the start address, as CUTLASS and DeepGEMM do.
__device__ __forceinline__ uint64_t wgmma_desc_sw128(const void* smem_tile) {
  const uint64_t addr = smem_u32(smem_tile);
  uint64_t desc = (addr & 0x3FFFF) >> 4;
  desc |= uint64_t{16 >> 4} << 16;
  desc |= uint64_t{1024 >> 4} << 32;
  desc |= uint64_t{1} << 62;
  return desc;
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// Keeps the compiler from moving accumulator reads/writes across the asynchronous wgmma window.
template <int R>
__device__ __forceinline__ void fence_operands(float (&d)[R]) {
#pragma unroll
  for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

template <uint32_t Regs>
__device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Regs));
}
template <uint32_t Regs>
__device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Regs));
}

// wgmma.mma_async m64n256k16, BF16 x BF16 -> FP32, both operands K-major in shared memory (descriptors),
// D = A * B^T + (scale_d ? D : 0). Generated (128 accumulator operands); thread t of the warpgroup holds, for j = 0..31,
// d[4j], d[4j+1] at row 16*(t/32) + (t%32)/4 and columns 8j + 2*(t%4) + {0,1}, and d[4j+2], d[4j+3] eight rows lower.
__device__ __forceinline__ void wgmma_m64n256k16_bf16(float (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                                      int scale_d = 1) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
      "%128, %129, p, 1, 1, 0, 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
      "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
      "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
      "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
      "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
      "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
      "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
      "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
      "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
      "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
      "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
      "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
      "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
      "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
      "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

// One K-tile of 64 on a warpgroup's 64 x 256 tile: a_tile (64 rows) and b_tile (256 rows), K-major,
// 128-byte swizzled in shared memory; four m64n256k16 wgmmas (+32 B along K per k16 step = +2 in the
// descriptor's address), fenced and committed as one group. The caller waits (wgmma_wait) before it reads acc.
__device__ __forceinline__ void wgmma_ktile_m64n256(float (&acc)[128], const __nv_bfloat16* a_tile,
                                                    const __nv_bfloat16* b_tile) {
  const uint64_t da = wgmma_desc_sw128(a_tile);
  const uint64_t db = wgmma_desc_sw128(b_tile);
  fence_operands(acc);
  wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < 4; ++kk) wgmma_m64n256k16_bf16(acc, da + 2 * kk, db + 2 * kk);
  wgmma_commit();
}

// ---- the shared-memory ring ---------------------------------------------------------------------------

// A TMA + wgmma GEMM kernel's ring in dynamic shared memory, from its first 1024-byte boundary (128-byte-
// swizzled TMA destinations and wgmma operands must sit on one; launches ask for 1 KiB more than they use):
// kStages A tiles of a_bytes, kStages B tiles, `extra` bytes the kernel uses for something else (an output
// staging tile), then one "full" and one "empty" mbarrier per stage. stage_bytes = A + B tile bytes.
struct GemmRing {
  unsigned char* base;
  __nv_bfloat16 *a, *b;
  uint64_t *full, *empty;
};
__device__ __forceinline__ GemmRing carve_gemm_ring(unsigned char* smem_raw, int stages, int a_bytes, int stage_bytes,
                                                    int extra = 0) {
  GemmRing r;
  r.base = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t{1023});
  r.a = reinterpret_cast<__nv_bfloat16*>(r.base);
  r.b = reinterpret_cast<__nv_bfloat16*>(r.base + stages * a_bytes);
  r.full = reinterpret_cast<uint64_t*>(r.base + stages * stage_bytes + extra);
  r.empty = r.full + stages;
  return r;
}

// ---- tile order --------------------------------------------------------------------------------------

// Grouped raster: tile t walks down `group` tile-rows before moving one tile-column right, so the tiles in
// flight at one moment share a few A row-panels and B column-panels, which stay in L2.
struct TileCoord {
  int m, n;
};
__host__ __device__ __forceinline__ TileCoord grouped_tile(int t, int tiles_m, int tiles_n, int group) {
  const int per_group = group * tiles_n;
  const int first_m = (t / per_group) * group;
  const int rows = tiles_m - first_m < group ? tiles_m - first_m : group;
  const int in_group = t % per_group;
  return {first_m + in_group % rows, in_group / rows};
}

// ---- host: tensor maps -------------------------------------------------------------------------------

// The driver's cuTensorMapEncodeTiled, looked up once through the runtime's driver entry point, so plugins
// need no -lcuda.
inline PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    AISP_CUDA_CHECK(
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == nullptr)
      throw std::runtime_error("the driver has no cuTensorMapEncodeTiled (TMA needs CUDA 12 and sm_90)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  return encode;
}

// A row-major BF16 matrix [rows][cols] described for TMA boxes of box_rows x 64 columns (128 B, the
// 128-byte swizzle span), zero fill out of bounds.
inline CUtensorMap encode_kmajor_bf16(const void* base, int64_t rows, int64_t cols, uint32_t box_rows) {
  const PFN_cuTensorMapEncodeTiled_v12000 encode = tensor_map_encoder();
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(cols) * sizeof(__nv_bfloat16)};
  const cuuint32_t box[2] = {64, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(base), dims, strides, box,
                            element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw std::runtime_error("ch10 gemm: cuTensorMapEncodeTiled failed, CUresult " + std::to_string(r));
  return map;
}

}  // namespace sm90

// labs/kv_cache: the CPU simulation behind the pair's tolerance (kv_cache.cuh). Not built with the tree:
//   g++ -O2 -o /tmp/kv_sim labs/kv_cache/tolerance_sim.cpp && for s in 1 2 3; do /tmp/kv_sim 4 4096 $s; done
// Per sequence and head: K, V = x w (x ~ N(0,1) and w ~ U(+-sqrt(3/128)), both rounded to bf16, fp32 sums);
// the baseline attends over bf16(K), bf16(V); the compressed formats over per-(16-token block) codes times
// scale (e4m3 with round-to-nearest-even and saturation at 448; int8 -127..127); softmax in double; every
// output rounded to bf16. Prints rms |o|, and per format the rms and max error and the largest
// |error| - 2e-2 |o_baseline| (the atol the pair's rtol 2e-2 would need). Result on 2026-11-28 (3 seeds):
// rms |o| 0.090-0.094; fp8 rms 1.02-1.08e-3, max 3.9-4.0e-3, atol needed 2.9-3.9e-3; int8 rms 3.7-3.9e-4,
// max 2.0e-3, atol needed 0.9-1.0e-3.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <random>
#include <vector>
#include <algorithm>
static float bf16(float v){ uint32_t u; memcpy(&u,&v,4); uint32_t r = ((u>>16)&1) + 0x7fff; u = (u + r) & 0xffff0000u; float o; memcpy(&o,&u,4); return o; }
static float rne(float x){ return std::nearbyint(x); }
static float e4m3(float v){ float a=fabsf(v); if(a==0) return 0; float q; if(a<ldexpf(1,-6)){ float st=ldexpf(1,-9); q=rne(a/st)*st; } else { int e=(int)floorf(log2f(a)); float st=ldexpf(1,e-3); q=rne(a/st)*st; } if(q>448) q=448; return v<0?-q:q; }
int main(int argc,char**argv){
  int B=atoi(argv[1]), L=atoi(argv[2]), H=8, D=128, M=128, seed=atoi(argv[3]);
  std::mt19937 g(seed); std::normal_distribution<float> N(0,1); float a=sqrtf(3.0f/128); std::uniform_real_distribution<float> U(-a,a);
  std::vector<float> w(M*2*H*D); for(auto&x:w) x=bf16(U(g));
  double maxerr[2]={0,0}, se[2]={0,0}, so=0, need[2]={0,0}; long n=0;
  std::vector<float> x(M), K(L*D), V(L*D), Kq[2]={std::vector<float>(L*D),std::vector<float>(L*D)}, Vq[2]={std::vector<float>(L*D),std::vector<float>(L*D)};
  std::vector<std::vector<float>> X(L, std::vector<float>(M));
  for(int b=0;b<B;++b){
    for(int t=0;t<L;++t) for(int k=0;k<M;++k) X[t][k]=bf16(N(g));
    for(int h=0;h<H;++h){
      for(int t=0;t<L;++t) for(int d=0;d<D;++d){ float sk=0,sv=0; for(int k=0;k<M;++k){ sk+=X[t][k]*w[k*2*H*D + (0*H+h)*D + d]; sv+=X[t][k]*w[k*2*H*D + (1*H+h)*D + d]; } K[t*D+d]=sk; V[t*D+d]=sv; }
      // quantize per 16-token block
      for(int blk=0;blk<L/16;++blk){ for(int kv=0;kv<2;++kv){ auto& S = kv?V:K; float am=0; for(int i=blk*16*D;i<(blk+1)*16*D;++i) am=fmaxf(am,fabsf(S[i]));
          for(int f=0;f<2;++f){ auto& Q = kv?Vq[f]:Kq[f]; float sc = f==0? am/448 : am/127;
            for(int i=blk*16*D;i<(blk+1)*16*D;++i){ float y=S[i]/sc; Q[i] = f==0? e4m3(y)*sc : fmaxf(-127,fminf(127,rne(y)))*sc; } } } }
      std::vector<float> q(D); for(auto&v:q) v=bf16(N(g));
      auto attend=[&](const std::vector<float>&KK,const std::vector<float>&VV,bool round,std::vector<double>&o){ std::vector<double> s(L); double mx=-1e30; for(int t=0;t<L;++t){ double d=0; for(int i=0;i<D;++i) d+=(double)q[i]*(round?bf16(KK[t*D+i]):KK[t*D+i]); s[t]=d/sqrt(128.0); mx=std::max(mx,s[t]); } double l=0; o.assign(D,0); for(int t=0;t<L;++t){ double p=exp(s[t]-mx); l+=p; for(int i=0;i<D;++i) o[i]+=p*(round?bf16(VV[t*D+i]):VV[t*D+i]); } for(auto&v:o) v=bf16((float)(v/l)); };
      std::vector<double> ob, of[2]; attend(K,V,true,ob); attend(Kq[0],Vq[0],false,of[0]); attend(Kq[1],Vq[1],false,of[1]);
      for(int i=0;i<D;++i){ so+=ob[i]*ob[i]; ++n; for(int f=0;f<2;++f){ double e=fabs(of[f][i]-ob[i]); maxerr[f]=std::max(maxerr[f],e); se[f]+=e*e; need[f]=std::max(need[f], e-2e-2*fabs(ob[i])); } }
    }
  }
  printf("B=%d L=%d seed=%d rms|o|=%.4g | fp8 rms %.3g max %.3g atol-needed(rtol2e-2) %.3g | int8 rms %.3g max %.3g atol-needed %.3g\n",B,L,seed,sqrt(so/n),sqrt(se[0]/n),maxerr[0],need[0],sqrt(se[1]/n),maxerr[1],need[1]);
}

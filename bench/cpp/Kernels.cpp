//===- Kernels.cpp - The bench shaders written in plain C++ ---------------===//
//
// Each function is the shader of the same name in bench/shaders/, written
// as the plain loop a C++ programmer would write for it: no intrinsics, no
// manual vectorization; the compiler's auto-vectorizer does what it can.
// Floating-point operations keep the shader's order of evaluation (so the
// outputs compare within the same tolerances); a workgroup's invocations
// are one loop (or, for the 2-D shaders, a loop nest over its tile).
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"

#include <cmath>
#include <cstring>

namespace spirv2llvm::bench::S2L_CPP_VARIANT {

namespace {

template <typename T> T *buffer(const CppArgs &A, unsigned I) {
  return reinterpret_cast<T *>(A.Buffers[I]);
}
template <typename T> T push(const CppArgs &A, unsigned Index) {
  T V;
  std::memcpy(&V, A.Push + 4 * Index, sizeof(T));
  return V;
}
uint32_t endOf(uint32_t End, uint32_t GroupSize, uint32_t N) {
  uint64_t E = uint64_t(End) * GroupSize;
  return E < N ? uint32_t(E) : N;
}

void saxpy(const CppArgs &A, uint32_t First, uint32_t End) {
  const float *__restrict X = buffer<float>(A, 0);
  const float *__restrict Y = buffer<float>(A, 1);
  float *__restrict Z = buffer<float>(A, 2);
  float Alpha = push<float>(A, 0);
  uint32_t N = push<uint32_t>(A, 1);
  for (uint32_t I = First * 64, E = endOf(End, 64, N); I < E; ++I)
    Z[I] = Alpha * X[I] + Y[I];
}

void mandelbrot(const CppArgs &A, uint32_t First, uint32_t End) {
  // The shader's z is precise: no contraction into FMAs.
#pragma clang fp contract(off)
  uint32_t *Iters = buffer<uint32_t>(A, 0);
  uint32_t Width = push<uint32_t>(A, 0), Height = push<uint32_t>(A, 1);
  uint32_t MaxIter = push<uint32_t>(A, 2);
  float Sx = 2.5f / float(Width), Sy = 2.5f / float(Height);
  for (uint32_t G = First; G < End; ++G) {
    uint32_t X0 = G % A.GroupsX * 8, Y0 = G / A.GroupsX * 8;
    for (uint32_t Y = Y0; Y < Y0 + 8 && Y < Height; ++Y)
      for (uint32_t X = X0; X < X0 + 8 && X < Width; ++X) {
        float Cx = -2.0f + float(X) * Sx, Cy = -1.25f + float(Y) * Sy;
        float Zx = 0, Zy = 0;
        uint32_t K = 0;
        while (K < MaxIter && Zx * Zx + Zy * Zy < 4.0f) {
          float Nx = Zx * Zx - Zy * Zy + Cx;
          float Ny = 2.0f * Zx * Zy + Cy;
          Zx = Nx;
          Zy = Ny;
          ++K;
        }
        Iters[Y * Width + X] = K;
      }
  }
}

void transform(const CppArgs &A, uint32_t First, uint32_t End) {
  const float *__restrict Mats = buffer<float>(A, 0); // 4 column-major mat4
  const float *__restrict Pos = buffer<float>(A, 1);
  float *__restrict Out = buffer<float>(A, 2);
  uint32_t N = push<uint32_t>(A, 0);
  for (uint32_t I = First * 64, E = endOf(End, 64, N); I < E; ++I) {
    float V[4] = {Pos[4 * I], Pos[4 * I + 1], Pos[4 * I + 2], Pos[4 * I + 3]};
    for (int K = 0; K < 4; ++K) {
      const float *M = Mats + 16 * K;
      float R[4];
      for (int J = 0; J < 4; ++J)
        R[J] = M[J] * V[0] + M[4 + J] * V[1] + M[8 + J] * V[2] +
               M[12 + J] * V[3];
      for (int J = 0; J < 4; ++J)
        V[J] = R[J];
    }
    for (int J = 0; J < 4; ++J)
      Out[4 * I + J] = V[J];
  }
}

uint32_t rotl(uint32_t V, uint32_t R) { return (V << R) | (V >> (32u - R)); }

void bits(const CppArgs &A, uint32_t First, uint32_t End) {
  const uint32_t *__restrict Src = buffer<uint32_t>(A, 0);
  uint32_t *__restrict Dst = buffer<uint32_t>(A, 1);
  uint32_t N = push<uint32_t>(A, 0);
  for (uint32_t I = First * 64, E = endOf(End, 64, N); I < E; ++I) {
    uint32_t H = Src[I] ^ 0x9e3779b9u;
    for (uint32_t R = 0; R < 16; ++R) {
      H ^= H >> 16;
      H *= 0x7feb352du;
      H = rotl(H, 1u + (H & 15u));
      H ^= __builtin_bitreverse32(H) + uint32_t(__builtin_popcount(H));
      H += uint32_t(31 - __builtin_clz(H | 1u)) * 3u +
           uint32_t(__builtin_ctz(H | 0x80000000u));
      uint32_t Field = (H >> 7) & 0x1ffu;
      H = (H & ~(0x1ffu << 20)) | (Field << 20);
    }
    Dst[I] = H;
  }
}

void reduce(const CppArgs &A, uint32_t First, uint32_t End) {
  const float *__restrict Src = buffer<float>(A, 0);
  float *__restrict Partial = buffer<float>(A, 1);
  for (uint32_t G = First; G < End; ++G) {
    const float *S = Src + size_t(G) * 1024;
    float Tile[256];
    for (uint32_t L = 0; L < 256; ++L)
      Tile[L] = (S[L] + S[L + 256]) + (S[L + 512] + S[L + 768]);
    for (uint32_t Step = 128; Step > 0; Step >>= 1)
      for (uint32_t L = 0; L < Step; ++L)
        Tile[L] += Tile[L + Step];
    Partial[G] = Tile[0];
  }
}

void branchySwitch(const CppArgs &A, uint32_t First, uint32_t End) {
  const uint32_t *__restrict Src = buffer<uint32_t>(A, 0);
  uint32_t *__restrict Dst = buffer<uint32_t>(A, 1);
  uint32_t N = push<uint32_t>(A, 0);
  for (uint32_t I = First * 64, E = endOf(End, 64, N); I < E; ++I) {
    uint32_t V = Src[I], Acc = 0;
    for (uint32_t R = 0; R < 12; ++R) {
      switch ((V >> (R & 7u)) & 7u) {
      case 0: Acc += V * 3u; break;
      case 1: Acc ^= V >> 3; break;
      case 2: Acc = Acc * 5u + 1u; break;
      case 3: Acc -= V & 0xffu; break;
      case 4:
        if (Acc & 1u)
          Acc = (Acc >> 1) ^ 0xedb88320u;
        else
          Acc >>= 1;
        break;
      case 5: Acc += Acc << 7; break;
      case 6: Acc = (Acc < V ? Acc : V) + 17u; break;
      default: Acc = ~Acc; break;
      }
      V = V * 1664525u + 1013904223u;
    }
    Dst[I] = Acc;
  }
}

void transcendental(const CppArgs &A, uint32_t First, uint32_t End) {
  const float *__restrict Src = buffer<float>(A, 0);
  float *__restrict Dst = buffer<float>(A, 1);
  uint32_t N = push<uint32_t>(A, 0);
  for (uint32_t I = First * 64, E = endOf(End, 64, N); I < E; ++I) {
    float X = Src[I];
    Dst[4 * I] = std::sin(X * 6.0f) * std::cos(X * 3.0f + 0.5f);
    Dst[4 * I + 1] = std::exp(X * 2.0f - 1.0f) + std::log(X + 1.5f);
    Dst[4 * I + 2] = std::pow(X + 0.25f, 1.7f) + std::atan(X * 4.0f - 2.0f);
    Dst[4 * I + 3] = std::sqrt(X + 0.1f) * (1.0f / std::sqrt(X + 2.0f));
  }
}

void matmul(const CppArgs &A, uint32_t First, uint32_t End) {
  // One 16x16 tile of C per workgroup; each element sums its products in
  // the shader's order (k ascending).
  const float *__restrict Ma = buffer<float>(A, 0);
  const float *__restrict Mb = buffer<float>(A, 1);
  float *__restrict Mc = buffer<float>(A, 2);
  uint32_t N = push<uint32_t>(A, 0);
  for (uint32_t G = First; G < End; ++G) {
    uint32_t Col0 = G % A.GroupsX * 16, Row0 = G / A.GroupsX * 16;
    for (uint32_t R = Row0; R < Row0 + 16; ++R) {
      float Sum[16] = {};
      for (uint32_t K = 0; K < N; ++K) {
        float Aik = Ma[size_t(R) * N + K];
        for (uint32_t C = 0; C < 16; ++C)
          Sum[C] += Aik * Mb[size_t(K) * N + Col0 + C];
      }
      for (uint32_t C = 0; C < 16; ++C)
        Mc[size_t(R) * N + Col0 + C] = Sum[C];
    }
  }
}

void vote(const CppArgs &A, uint32_t First, uint32_t End) {
  const uint32_t *__restrict Src = buffer<uint32_t>(A, 0);
  uint32_t *__restrict Dst = buffer<uint32_t>(A, 1);
  uint32_t N = push<uint32_t>(A, 0);
  for (uint32_t I = First * 64, E = endOf(End, 64, N); I < E; ++I) {
    uint32_t V = Src[I], Count = V & 31u, Acc = V;
    for (uint32_t R = 0; R < Count; ++R)
      Acc = Acc * 1664525u + (Acc >> 7) + R;
    Dst[I] = Acc;
  }
}

} // namespace

CppKernel cppKernel(const char *Name) {
  struct Entry {
    const char *Name;
    CppKernel K;
  };
  static const Entry Table[] = {
      {"saxpy", saxpy},
      {"mandelbrot", mandelbrot},
      {"transform", transform},
      {"bits", bits},
      {"reduce", reduce},
      {"switch", branchySwitch},
      {"transcendental", transcendental},
      {"matmul", matmul},
      {"vote", vote},
  };
  for (const Entry &E : Table)
    if (!std::strcmp(E.Name, Name))
      return E.K;
  return nullptr;
}

const char *cppKernelFlags() { return S2L_CPP_KERNEL_FLAGS; }

} // namespace spirv2llvm::bench::S2L_CPP_VARIANT

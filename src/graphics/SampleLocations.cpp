//===- SampleLocations.cpp - Vulkan's standard sample locations -----------===//
//
// The table of Vulkan 1.3, "Multisampling" (standard sample locations),
// which lavapipe uses too; the rasterizer tests coverage at these points
// and the fragment shader's SamplePosition reads them.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Graphics.h"

namespace spirv2llvm {

std::vector<std::array<float, 2>> standardSampleLocations(uint32_t Samples) {
  // Sixteenths of a pixel.
  static const uint8_t L1[][2] = {{8, 8}};
  static const uint8_t L2[][2] = {{12, 12}, {4, 4}};
  static const uint8_t L4[][2] = {{6, 2}, {14, 6}, {2, 10}, {10, 14}};
  static const uint8_t L8[][2] = {{9, 5},  {7, 11}, {13, 9}, {5, 3},
                                  {3, 13}, {1, 7},  {11, 15}, {15, 1}};
  static const uint8_t L16[][2] = {
      {9, 9}, {7, 5}, {5, 10}, {12, 7}, {3, 6}, {10, 13}, {13, 11}, {11, 3},
      {6, 14}, {8, 1}, {4, 2}, {2, 12}, {0, 8}, {15, 4}, {14, 15}, {1, 0}};
  const uint8_t(*T)[2] = nullptr;
  switch (Samples) {
  case 1: T = L1; break;
  case 2: T = L2; break;
  case 4: T = L4; break;
  case 8: T = L8; break;
  case 16: T = L16; break;
  default: return {};
  }
  std::vector<std::array<float, 2>> Out(Samples);
  for (uint32_t I = 0; I < Samples; ++I)
    Out[I] = {T[I][0] / 16.0f, T[I][1] / 16.0f};
  return Out;
}

} // namespace spirv2llvm

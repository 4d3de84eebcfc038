//===- InterfaceLocationsTest.cpp - Components in Vulkan's location space -===//
//
// InterfaceVariable::ComponentLocations against Vulkan 1.3 "Location
// Assignment" and "Component Assignment", worked out by hand for each
// shape: matrices (a location per column), arrays (per element, the
// Component decoration on each), 64-bit vectors (two components per
// scalar, three or four spanning two locations), structs and blocks with
// member Location decorations. The rasterizer matches vertex attributes
// and stage interfaces by these.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/spirv2llvm.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace spirv2llvm;

namespace {

InterfaceLayout reflect(const std::string &Source, const char *Name) {
  TranslateOptions Opts;
  auto R = reflectBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Source.data()),
                              Source.size()),
      Name, Opts);
  if (!R) {
    ADD_FAILURE() << llvm::toString(R.takeError());
    return {};
  }
  return R->Layout;
}

/// "location.component" per component, space separated.
std::string slots(const InterfaceLayout &L, const std::string &Name) {
  const InterfaceVariable *V = L.findByName(Name);
  if (!V)
    return "(no variable " + Name + ")";
  std::string S;
  for (const LocationSlot &Slot : V->ComponentLocations) {
    if (!S.empty())
      S += ' ';
    S += std::to_string(Slot.Location);
    S += '.';
    S += std::to_string(Slot.Component);
  }
  if (V->ComponentLocations.size() != V->Components.size())
    S += " (" + std::to_string(V->Components.size()) + " components)";
  return S;
}

TEST(InterfaceLocations, VectorsMatricesArrays) {
  InterfaceLayout L = reflect(R"(#version 450
    layout(location = 0) in vec3 v;
    layout(location = 1) in mat2x3 m;          // columns at 1 and 2
    layout(location = 3, component = 1) in vec2 a[2];
    layout(location = 3, component = 0) in float b[2];
    layout(location = 5) in dvec3 d;           // x, y at 5; z at 6
    layout(location = 7) in dvec4 e[2];        // 7-8, 9-10
    layout(location = 11) in double s;
    layout(location = 11, component = 2) in double u;
    layout(location = 0) out vec4 o;
    void main() {
      o = vec4(v, 1) + vec4(m[0] + m[1], 0) + vec4(a[0], a[1]) +
          vec4(b[0] + b[1]) + vec4(d, 1) + vec4(e[0] + e[1]) +
          vec4(float(s + u));
      gl_Position = o;
    })",
                              "locations.vert");
  EXPECT_EQ(slots(L, "v"), "0.0 0.1 0.2");
  EXPECT_EQ(slots(L, "m"), "1.0 1.1 1.2 2.0 2.1 2.2");
  EXPECT_EQ(slots(L, "a"), "3.1 3.2 4.1 4.2");
  EXPECT_EQ(slots(L, "b"), "3.0 4.0");
  EXPECT_EQ(slots(L, "d"), "5.0 5.2 6.0");
  EXPECT_EQ(slots(L, "e"), "7.0 7.2 8.0 8.2 9.0 9.2 10.0 10.2");
  EXPECT_EQ(slots(L, "s"), "11.0");
  EXPECT_EQ(slots(L, "u"), "11.2");
  EXPECT_EQ(slots(L, "o"), "0.0 0.1 0.2 0.3");
}

TEST(InterfaceLocations, StructsAndBlocks) {
  InterfaceLayout L = reflect(R"(#version 450
    struct S { float f; vec2 g; mat2 h; };
    layout(location = 2) out S st;             // f 2, g 3, h 4-5
    layout(location = 8) out Blk { vec3 p; float q; } blk;
    out Mem {
      layout(location = 12) vec4 x;
      layout(location = 10) float y;
    } mem;
    void main() {
      st = S(1.0, vec2(2.0), mat2(3.0));
      blk.p = vec3(0.0); blk.q = 1.0;
      mem.x = vec4(1.0); mem.y = 2.0;
      gl_Position = vec4(0.0);
    })",
                              "blocks.vert");
  EXPECT_EQ(slots(L, "st"), "2.0 3.0 3.1 4.0 4.1 5.0 5.1");
  EXPECT_EQ(slots(L, "blk"), "8.0 8.1 8.2 9.0");
  EXPECT_EQ(slots(L, "mem"), "12.0 12.1 12.2 12.3 10.0");
  // Built-ins have none: gl_PerVertex is placed by its member built-ins.
  for (const InterfaceVariable &V : L.Outputs)
    if (!V.MemberBuiltIns.empty() || V.BuiltIn >= 0) {
      EXPECT_TRUE(V.ComponentLocations.empty()) << V.Name;
    }
}

} // namespace

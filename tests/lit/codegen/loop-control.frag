// RUN: %spirv2llvm %s --target-env vulkan1.2 | FileCheck %s
// RUN: %spirv2llvm %s --target-env vulkan1.2 --no-canonicalize | FileCheck %s
// RUN: %spirv2llvm %s --target-env vulkan1.2 -O2 | FileCheck %s --check-prefix=O2
//
// OpLoopMerge's loop control becomes llvm.loop metadata on the masked
// loop's back edge: Unroll, DontUnroll and PartialCount (whose literal
// follows PeelCount's). PeelCount has no safe counterpart and is dropped.
#version 450
#extension GL_EXT_control_flow_attributes : require
layout(location = 0) in float x;
layout(location = 0) out float r;
void main() {
  float s = 0.0;
  [[unroll]] for (int i = 0; i < 4; i++) s += x * float(i);
  [[dont_unroll]] for (int i = 0; i < int(x); i++) s += 1.0;
  [[partial_count(3), peel_count(2)]] for (int i = 0; i < int(x) * 2; i++) s -= 0.5;
  r = s;
}
// CHECK: br i1 %{{.*}}, label %loop.[[A:[0-9]+]], label %exit.[[A]], !llvm.loop ![[UNROLL:[0-9]+]]
// CHECK: br i1 %{{.*}}, label %loop.[[B:[0-9]+]], label %exit.[[B]], !llvm.loop ![[NOUNROLL:[0-9]+]]
// CHECK: br i1 %{{.*}}, label %loop.[[C:[0-9]+]], label %exit.[[C]], !llvm.loop ![[PARTIAL:[0-9]+]]
// CHECK: ![[UNROLL]] = distinct !{![[UNROLL]], ![[UE:[0-9]+]]}
// CHECK: ![[UE]] = !{!"llvm.loop.unroll.enable"}
// CHECK: ![[NOUNROLL]] = distinct !{![[NOUNROLL]], ![[UD:[0-9]+]]}
// CHECK: ![[UD]] = !{!"llvm.loop.unroll.disable"}
// CHECK: ![[PARTIAL]] = distinct !{![[PARTIAL]], ![[UC:[0-9]+]]}
// CHECK: ![[UC]] = !{!"llvm.loop.unroll.count", i32 3}
//
// After -O2 the [[dont_unroll]] loop keeps its hint.
// O2: llvm.loop.unroll.disable

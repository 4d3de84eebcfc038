// Calls kept as calls (--no-inline, --no-canonicalize) give the same buffer
// as inlined code, at every width, and the IR keeps real functions that
// take the lane mask.
//
// RUN: %spirv2llvm %s --no-inline | FileCheck %s --check-prefix=IR
// RUN: %spirv2llvm %s --no-inline --width=8 -O2 | %opt -passes=verify -disable-output
// RUN: %spirv2llvm run %s --buffer 0:104 --dispatch 2 -q --dump 0:%t.inline
// RUN: od -An -td4 -w52 -v %t.inline | FileCheck %s --check-prefix=OUT
// RUN: %spirv2llvm run %s --buffer 0:104 --dispatch 2 -q --no-inline --dump 0:%t.w4
// RUN: cmp %t.inline %t.w4
// RUN: %spirv2llvm run %s --buffer 0:104 --dispatch 2 -q --no-inline --width=8 --dump 0:%t.w8
// RUN: cmp %t.inline %t.w8
// RUN: %spirv2llvm run %s --buffer 0:104 --dispatch 2 -q --no-canonicalize --width=16 --dump 0:%t.w16
// RUN: cmp %t.inline %t.w16
#version 450
layout(local_size_x = 13) in;
layout(std430, binding = 0) buffer Out { int r[]; };
int counter = 0;
float table[8];
// A return inside a loop, taken by some lanes only.
int sumTo(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (i == 7) return s * 2;
    s += i;
  }
  return s;
}
// An inout parameter and a Private variable, written under divergence.
void bump(inout int x, int by) { x += by; counter += 1; }
// A Private array indexed dynamically: it lives in lane memory.
int pick(int k) { return int(table[k & 7]); }
void fill() { for (int i = 0; i < 8; i++) table[i] = float(i * 3); }
void main() {
  uint id = gl_GlobalInvocationID.x;
  fill();
  int v = int(id);
  if ((id & 1u) == 0u) { bump(v, 100); }
  else { v = sumTo(int(id)); }
  for (int i = 0; i < int(id % 4u); i++) bump(v, i);
  r[id] = v * 1000 + counter * 10 + pick(int(id));
}
// IR-DAG: define internal { <4 x i32> } @s2l.fn.sumTo_i1_(ptr %args, ptr %env, <4 x i1> %mask, ptr
// IR-DAG: define internal void @s2l.fn.bump_i1_i1_(ptr %args, ptr %env, <4 x i1> %mask, ptr %{{.*}}, ptr
// IR-DAG: call void @s2l.fn.bump_i1_i1_(ptr %args, ptr %env, <4 x i1> %mask.
//
// Invocation i: even ones add 100 (counter 1), odd ones get sumTo(i) (the
// early return doubles at i == 7: 2 * 21 for i >= 8); then i % 4 more bumps
// by 0, 1, ...; then table[i & 7] = 3 * (i & 7).
// OUT:      100010 13 103036 6039 104022 10025 107048 24051 108010 42013 111036 45039 112022
// OUT-NEXT: 42025 115048 45051 116010 42013 119036 45039 120022 42025 123048 45051 124010 42013

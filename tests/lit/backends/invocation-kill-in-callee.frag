// RUN: not %spirv2llvm --backend=invocation --no-inline %s 2>&1 | FileCheck %s
// Ending the invocation inside a called function (kept by --no-inline) is
// not supported by the invocation back end; inlined (the default) it is.
// RUN: %spirv2llvm --backend=invocation %s | %opt -passes=verify -disable-output
// CHECK: error: {{.*}}word {{[0-9]+}}: {{OpKill|OpTerminateInvocation}}: unsupported: ending the invocation inside a called function in the invocation back end (run without --no-inline)
#version 450
layout(location = 0) in float V;
layout(location = 0) out vec4 Color;
void maybeDiscard(float x) {
  if (x < 0.5)
    discard;
}
void main() {
  maybeDiscard(V);
  Color = vec4(V);
}

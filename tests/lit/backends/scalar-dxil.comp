// RUN: %spirv2llvm --backend=scalar %s | FileCheck --check-prefix=SCALAR %s
// RUN: %spirv2llvm --backend=scalar %s | %opt -passes=verify -disable-output
// RUN: %spirv2llvm --backend=scalar %s | %vectorcheck
// RUN: %spirv2llvm --backend=dxil %s | %vectorcheck
// RUN: %spirv2llvm --backend=dxil --dxil-native-vectors %s | %vectorcheck --allow-native
// RUN: %spirv2llvm --backend=invocation %s | not %vectorcheck 2>&1 | FileCheck --check-prefix=INV %s
// RUN: %spirv2llvm --backend=dxil %s | FileCheck --check-prefix=DXIL %s
// RUN: %spirv2llvm --backend=dxil %s | %opt -passes=verify -disable-output
// RUN: %spirv2llvm --backend=dxil --dxil-native-vectors %s | FileCheck --check-prefix=NATIVE %s
// RUN: %spirv2llvm --backend=dxil --dxil-native-vectors %s | %opt -passes=verify -disable-output
//
// The DXIL-shaped back ends are the invocation back end followed by the
// passes of src/passes (docs/backends.md): --backend=scalar leaves no vector
// type anywhere (the groupshared vectors become arrays too);
// --backend=dxil also turns sin into dx.op; --dxil-native-vectors keeps
// vectors and uses the vector dx.op overloads. s2l-vector-check finds the
// vectors of the invocation back end's output.
#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Data { vec4 V[]; } D;
shared vec4 Tile[8];

// INV: vector type [8 x <4 x float>] in global @Tile
// SCALAR: @Tile = addrspace(3) global [8 x [4 x float]]
// SCALAR: define i32 @s2l_main
// SCALAR-NOT: fadd <4 x float>
// SCALAR-NOT: call <4 x float> @llvm.sin
// SCALAR: call float @llvm.sin.f32
// SCALAR-NOT: fadd <4 x float>
// SCALAR: ret i32 1

// DXIL: @Tile = addrspace(3) global [32 x float]
// DXIL: define i32 @s2l_main
// DXIL-NOT: {{^  .*<4 x float>}}
// DXIL: call float @dx.op.unary.f32(i32 13, float
// DXIL-NOT: {{^  .*<4 x float>}}
// DXIL: ret i32 1

// NATIVE: @Tile = addrspace(3) global [8 x <4 x float>]
// NATIVE: call <4 x float> @dx.op.unary.v4f32(i32 13, <4 x float>
void main() {
  uint L = gl_LocalInvocationID.x;
  Tile[L] = D.V[gl_GlobalInvocationID.x] + vec4(1.0);
  barrier();
  D.V[gl_GlobalInvocationID.x] = sin(Tile[7u - L]);
}

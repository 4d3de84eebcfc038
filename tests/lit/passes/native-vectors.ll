; dxil-native-vectors (seed dxil-native-vectors.md, DXIL 1.9), in its
; pipeline dxil-native-vectors, dxil-flatten-arrays, dxil-op-lower<vectors>.
; RUN: %dxilopt -S -passes='dxil-native-vectors,dxil-flatten-arrays,dxil-op-lower<vectors>' %s | %opt -S -passes=verify | FileCheck %s
; The pass alone: single-element vectors gone, element-wise intrinsics kept
; (as LLVM vector intrinsics, for dxil-op-lower), the rest scalarized.
; RUN: %dxilopt -S -passes=dxil-native-vectors %s | %opt -S -passes=verify | FileCheck %s --check-prefix=ALONE
; No single-element vector is left outside the exported signature (and the
; conversions at its boundary):
; RUN: %dxilopt -S -passes='dxil-native-vectors,dxil-flatten-arrays,dxil-op-lower<vectors>' %s | grep -v -e '^define' -e '%x.s = extractelement' -e 'ret <1 x float>' -e 'insertelement <1 x float> poison' | FileCheck %s --check-prefix=ONE --implicit-check-not='<1 x'
; ONE: @gsv

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; Vectors stay vectors in groupshared memory and globals, arrays of vectors
; stay arrays of vectors; the 2-D array of vectors is flattened to 1-D;
; single-element vectors become scalars.
; CHECK: @gsv = internal addrspace(3) global [8 x <4 x float>] zeroinitializer, align 16
; CHECK: @grid = internal global [4 x <3 x i32>] zeroinitializer, align 16
; CHECK: @one = internal global float 2.000000e+00, align 4
; CHECK: @ones = internal global [4 x i32] zeroinitializer, align 4
@gsv = internal addrspace(3) global [8 x <4 x float>] zeroinitializer, align 16
@grid = internal global [2 x [2 x <3 x i32>]] zeroinitializer, align 16
@one = internal global <1 x float> <float 2.0>, align 4
@ones = internal global [4 x <1 x i32>] zeroinitializer, align 4

; Element-wise operations use the vector dx.op overloads (13 Sin, 35 FMax,
; 47 Fma); copysign has no DXIL operation and is scalarized; dynamic
; vector indexing stays extractelement with a dynamic index; the vector
; alloca stays a vector alloca.
; CHECK-LABEL: define void @elementwise(
; CHECK:         %v = load <4 x float>, ptr addrspace(3) %p, align 16
; CHECK-NEXT:    %s = call <4 x float> @dx.op.unary.v4f32(i32 13, <4 x float> %v)
; CHECK-NEXT:    %m = call <4 x float> @dx.op.binary.v4f32(i32 35, <4 x float> %s, <4 x float> %v)
; CHECK-NEXT:    %f = call <4 x float> @dx.op.tertiary.v4f32(i32 47, <4 x float> %m, <4 x float> %v, <4 x float> %s)
; CHECK-COUNT-4: call float @llvm.copysign.f32(float
; CHECK:         %x = extractelement <4 x float> %cs, i32 %i
; CHECK-NEXT:    %a = alloca <4 x float>, align 16
; CHECK-NEXT:    store <4 x float> %cs, ptr %a, align 16
; CHECK-NEXT:    %e = getelementptr <4 x float>, ptr %a, i32 0, i32 %i
; CHECK-NEXT:    store float %x, ptr %e, align 4
; CHECK-NEXT:    %r = load <4 x float>, ptr %a, align 16
; CHECK-NEXT:    store <4 x float> %r, ptr addrspace(3) %p, align 16
; ALONE-LABEL: define void @elementwise(
; ALONE:         call <4 x float> @llvm.sin.v4f32(
; ALONE:         call <4 x float> @llvm.fma.v4f32(
; ALONE-NOT:     call <4 x float> @llvm.copysign
define void @elementwise(i32 %i, ptr %out) {
  %p = getelementptr [8 x <4 x float>], ptr addrspace(3) @gsv, i32 0, i32 %i
  %v = load <4 x float>, ptr addrspace(3) %p, align 16
  %s = call <4 x float> @llvm.sin.v4f32(<4 x float> %v)
  %m = call <4 x float> @llvm.maxnum.v4f32(<4 x float> %s, <4 x float> %v)
  %f = call <4 x float> @llvm.fma.v4f32(<4 x float> %m, <4 x float> %v, <4 x float> %s)
  %cs = call <4 x float> @llvm.copysign.v4f32(<4 x float> %f, <4 x float> %v)
  %x = extractelement <4 x float> %cs, i32 %i
  %a = alloca <4 x float>, align 16
  store <4 x float> %cs, ptr %a
  %e = getelementptr <4 x float>, ptr %a, i32 0, i32 %i
  store float %x, ptr %e
  %r = load <4 x float>, ptr %a
  store <4 x float> %r, ptr addrspace(3) %p, align 16
  ret void
}

; The flattened array of vectors is indexed i*2 + j; Countbits (31) and
; UMax (39) on <3 x i32>; the add reduction is scalarized, the or reduction
; is VectorReduceOr (310).
; CHECK-LABEL: define i32 @gridf(
; CHECK-NEXT:    %1 = mul i32 %i, 2
; CHECK-NEXT:    %2 = add i32 %1, %j
; CHECK-NEXT:    %3 = getelementptr [4 x <3 x i32>], ptr @grid, i32 0, i32 %2
; CHECK-NEXT:    store <3 x i32> %v, ptr %3, align 16
; CHECK:         %q = load <3 x i32>, ptr %{{.*}}, align 16
; CHECK-NEXT:    %c = call <3 x i32> @dx.op.unaryBits.v3i32(i32 31, <3 x i32> %q)
; CHECK-NEXT:    %u = call <3 x i32> @dx.op.binary.v3i32(i32 39, <3 x i32> %c, <3 x i32> %v)
; CHECK-NEXT:    %[[E0:.*]] = extractelement <3 x i32> %u, i64 0
; CHECK-NEXT:    %[[E1:.*]] = extractelement <3 x i32> %u, i64 1
; CHECK-NEXT:    %[[S1:.*]] = add i32 %[[E0]], %[[E1]]
; CHECK-NEXT:    %[[E2:.*]] = extractelement <3 x i32> %u, i64 2
; CHECK-NEXT:    %[[S2:.*]] = add i32 %[[S1]], %[[E2]]
; CHECK-NEXT:    %b = icmp ne <3 x i32> %u, zeroinitializer
; CHECK-NEXT:    %any = call i1 @dx.op.vectorReduce.v3i1(i32 310, <3 x i1> %b)
define i32 @gridf(i32 %i, i32 %j, <3 x i32> %v) {
  %p = getelementptr [2 x [2 x <3 x i32>]], ptr @grid, i32 0, i32 %i, i32 %j
  store <3 x i32> %v, ptr %p, align 16
  %q = load <3 x i32>, ptr %p, align 16
  %c = call <3 x i32> @llvm.ctpop.v3i32(<3 x i32> %q)
  %u = call <3 x i32> @llvm.umax.v3i32(<3 x i32> %c, <3 x i32> %v)
  %r = call i32 @llvm.vector.reduce.add.v3i32(<3 x i32> %u)
  %b = icmp ne <3 x i32> %u, zeroinitializer
  %any = call i1 @llvm.vector.reduce.or.v3i1(<3 x i1> %b)
  %z = zext i1 %any to i32
  %t = add i32 %r, %z
  ret i32 %t
}

; An exported function keeps <1 x float> in its signature; inside, the
; value is a float (converted at entry and at the return), the cos is the
; scalar dx.op, the <1 x i32> global array is an i32 array, and a shuffle
; of single-element vectors becomes inserts of scalars.
; CHECK-LABEL: define <1 x float> @exported(<1 x float> %x, i32 %i, ptr %out) {
; CHECK-NEXT:    %x.s = extractelement <1 x float> %x, i64 0
; CHECK-NEXT:    %o = load float, ptr @one, align 4
; CHECK-NEXT:    %s = fadd float %x.s, %o
; CHECK-NEXT:    %c = call float @dx.op.unary.f32(i32 12, float %s)
; CHECK-NEXT:    %1 = getelementptr [4 x i32], ptr @ones, i32 0, i32 %i
; CHECK-NEXT:    %iv = load i32, ptr %1, align 4
; CHECK-NEXT:    %fv = sitofp i32 %iv to float
; CHECK-NEXT:    %e = fmul float %c, %fv
; CHECK-NEXT:    %[[R:.*]] = insertelement <1 x float> poison, float %e, i64 0
; CHECK-NEXT:    %w = insertelement <4 x float> zeroinitializer, float %e, i32 1
; CHECK-NEXT:    %[[S0:.*]] = insertelement <2 x float> poison, float %x.s, i64 0
; CHECK-NEXT:    %sh = insertelement <2 x float> %[[S0]], float %e, i64 1
; CHECK-NEXT:    store <2 x float> %sh, ptr %out, align 8
; CHECK-NEXT:    store <4 x float> %w, ptr %out, align 16
; CHECK-NEXT:    ret <1 x float> %[[R]]
define <1 x float> @exported(<1 x float> %x, i32 %i, ptr %out) {
  %o = load <1 x float>, ptr @one
  %s = fadd <1 x float> %x, %o
  %c = call <1 x float> @llvm.cos.v1f32(<1 x float> %s)
  %p = getelementptr [4 x <1 x i32>], ptr @ones, i32 0, i32 %i
  %iv = load <1 x i32>, ptr %p
  %fv = sitofp <1 x i32> %iv to <1 x float>
  %r = fmul <1 x float> %c, %fv
  %e = extractelement <1 x float> %r, i32 0
  %w = insertelement <4 x float> zeroinitializer, float %e, i32 1
  %sh = shufflevector <1 x float> %r, <1 x float> %x, <2 x i32> <i32 1, i32 0>
  store <2 x float> %sh, ptr %out
  store <4 x float> %w, ptr %out
  ret <1 x float> %r
}

; CHECK-DAG: declare <4 x float> @dx.op.unary.v4f32(i32, <4 x float>) #[[A:[0-9]+]]
; CHECK-DAG: declare <4 x float> @dx.op.binary.v4f32(i32, <4 x float>, <4 x float>) #[[A]]
; CHECK-DAG: declare <4 x float> @dx.op.tertiary.v4f32(i32, <4 x float>, <4 x float>, <4 x float>) #[[A]]
; CHECK-DAG: declare <3 x i32> @dx.op.unaryBits.v3i32(i32, <3 x i32>) #[[A]]
; CHECK-DAG: declare i1 @dx.op.vectorReduce.v3i1(i32, <3 x i1>) #[[A]]
; CHECK-DAG: declare float @dx.op.unary.f32(i32, float) #[[A]]
; CHECK: attributes #[[A]] = { nounwind memory(none) }

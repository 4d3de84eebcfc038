; dxil-scalarizer on memory: vector allocas with dynamic indexing, typed and
; i8 GEPs into vectors, memcpy/memset over vector data, structs holding
; vectors, nested arrays of vectors, and globals holding vectors.
; RUN: %dxilopt -S -passes='function(dxil-scalarizer)' %s | %opt -S -passes=verify | FileCheck %s
; After the scalar pipeline no instruction mentions a vector type (global
; value types are the module passes' business; the type and declare lines
; are dropped before the check):
; RUN: %dxilopt -S -passes='function(dxil-scalarizer)' %s | grep -v -e '^@' -e '^%' -e '^declare' | FileCheck %s --check-prefix=NOVEC --implicit-check-not='<{{[0-9]+}} x'
; NOVEC: define void @dyn
; NOVEC: define void @nested
; NOVEC: define void @glob
; NOVEC: define void @memops
; NOVEC: define void @bytes
; NOVEC: define void @escapes

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
%S = type { <3 x float>, i32, [2 x <2 x i32>] }
@g4 = internal global <4 x float> <float 1.0, float 2.0, float 3.0, float 4.0>, align 16
@garr = internal addrspace(3) global [4 x <3 x float>] zeroinitializer, align 16
@gs = internal global %S zeroinitializer, align 16

; A vector alloca indexed dynamically survives SROA; it becomes an array of
; arrays and each access a scalar one (the i8 GEP at byte 36 is [2][1]).
; CHECK-LABEL: define void @dyn(
; CHECK:         %a = alloca [4 x [4 x float]], align 16
; CHECK:         getelementptr [4 x [4 x float]], ptr %a, i32 0, i32 %i, i32 0
; CHECK:         store float 1.000000e+00
; CHECK:         getelementptr [4 x [4 x float]], ptr %a, i32 0, i32 %i, i32 3
; CHECK:         store float 4.000000e+00
; CHECK:         %[[E:.*]] = getelementptr [4 x [4 x float]], ptr %a, i32 0, i32 %i, i32 2
; CHECK-NEXT:    store float %f, ptr %[[E]], align 4
; CHECK:         %[[B:.*]] = getelementptr [4 x [4 x float]], ptr %a, i32 0, i32 2, i32 1
; CHECK-NEXT:    %v = load float, ptr %[[B]], align 4
; Dynamic extractelement becomes a select chain.
; CHECK:         %i.is.3 = icmp eq i32 %i, 3
; CHECK:         %x.upto3 = select i1 %i.is.3
define void @dyn(i32 %i, float %f, ptr %out) {
  %a = alloca [4 x <4 x float>], align 16
  %p = getelementptr [4 x <4 x float>], ptr %a, i32 0, i32 %i
  store <4 x float> <float 1.0, float 2.0, float 3.0, float 4.0>, ptr %p, align 16
  %e = getelementptr <4 x float>, ptr %p, i32 0, i32 2
  store float %f, ptr %e, align 4
  %b = getelementptr i8, ptr %a, i32 36
  %v = load float, ptr %b, align 4
  %w = load <4 x float>, ptr %p, align 16
  %x = extractelement <4 x float> %w, i32 %i
  %s = fadd float %v, %x
  store float %s, ptr %out
  ret void
}

; Nested arrays of vectors, indexed dynamically at both levels.
; CHECK-LABEL: define void @nested(
; CHECK:         %m = alloca [2 x [3 x [2 x float]]], align 8
; CHECK:         getelementptr [2 x [3 x [2 x float]]], ptr %m, i32 0, i32 %i, i32 %j, i32 1
; CHECK:         store float %f
define void @nested(i32 %i, i32 %j, float %f, ptr %out) {
  %m = alloca [2 x [3 x <2 x float>]], align 8
  call void @llvm.memset.p0.i64(ptr %m, i8 0, i64 48, i1 false)
  %p = getelementptr [2 x [3 x <2 x float>]], ptr %m, i32 0, i32 %i, i32 %j, i32 1
  store float %f, ptr %p
  %q = getelementptr [2 x [3 x <2 x float>]], ptr %m, i32 0, i32 1, i32 %j
  %v = load <2 x float>, ptr %q
  store <2 x float> %v, ptr %out
  ret void
}

; Globals keep their type here; their accesses become scalar at the same
; byte offsets (a dynamic index scales by the 16-byte vec3 stride).
; CHECK-LABEL: define void @glob(
; CHECK:         %[[O:.*]] = mul i32 %i, 16
; CHECK-NEXT:    %[[P:.*]] = getelementptr i8, ptr addrspace(3) @garr, i32 %[[O]]
; CHECK-NEXT:    load float, ptr addrspace(3) %[[P]], align 4
; CHECK:         store float %{{.*}}, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @garr, i32 32), align 4
; CHECK:         store float %{{.*}}, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @garr, i32 36), align 4
; CHECK:         store float %{{.*}}, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @garr, i32 40), align 4
; The reduction is a chain of scalar fadds.
; CHECK:         load float, ptr getelementptr (i8, ptr @g4, i32 12), align 4
; CHECK:         %[[R0:.*]] = fadd float 0.000000e+00,
; CHECK-NEXT:    %[[R1:.*]] = fadd float %[[R0]],
; CHECK-NEXT:    %[[R2:.*]] = fadd float %[[R1]],
; CHECK-NEXT:    %[[R3:.*]] = fadd float %[[R2]],
; CHECK-NEXT:    store float %[[R3]], ptr %out
define void @glob(i32 %i, ptr %out) {
  %p = getelementptr [4 x <3 x float>], ptr addrspace(3) @garr, i32 0, i32 %i
  %v = load <3 x float>, ptr addrspace(3) %p, align 16
  %q = getelementptr inbounds i8, ptr addrspace(3) @garr, i32 32
  store <3 x float> %v, ptr addrspace(3) %q, align 16
  %g = load <4 x float>, ptr @g4, align 16
  %r = call float @llvm.vector.reduce.fadd.v4f32(float 0.0, <4 x float> %g)
  store float %r, ptr %out
  ret void
}

; A struct holding vectors, memset then memcpy'd into a global: the copy to
; the global becomes one scalar store per element, skipping the padding
; after the vec3 (bytes 12-15).
; CHECK-LABEL: define void @memops(
; CHECK:         store float %{{.*}}, ptr @gs, align 4
; CHECK-NEXT:    store float %{{.*}}, ptr getelementptr (i8, ptr @gs, i32 4), align 4
; CHECK-NEXT:    store float %{{.*}}, ptr getelementptr (i8, ptr @gs, i32 8), align 4
; CHECK-NEXT:    store i32 %{{.*}}, ptr getelementptr (i8, ptr @gs, i32 16), align 4
; CHECK-NEXT:    store i32 %{{.*}}, ptr getelementptr (i8, ptr @gs, i32 24), align 4
; CHECK-NOT:     call void @llvm.memcpy
define void @memops(ptr %out) {
  %t = alloca %S, align 16
  call void @llvm.memset.p0.i64(ptr %t, i8 0, i64 48, i1 false)
  %f = getelementptr %S, ptr %t, i32 0, i32 2, i32 1, i32 1
  store i32 7, ptr %f
  call void @llvm.memcpy.p0.p0.i64(ptr @gs, ptr %t, i64 48, i1 false)
  %y = getelementptr %S, ptr @gs, i32 0, i32 2, i32 1
  %yv = load <2 x i32>, ptr %y
  store <2 x i32> %yv, ptr %out
  ret void
}

; A vector alloca that SROA cannot promote (dynamic byte offset): memset and
; memcpy over it become per-element stores and loads, and the i8 GEP with a
; dynamic byte offset (%k * 16 + 8) is decoded as element [%k][2].
; CHECK-LABEL: define void @bytes(
; CHECK:         %v = alloca [2 x [4 x i32]], align 16
; CHECK-COUNT-8: store i32 16843009, ptr
; CHECK-NOT:     call void @llvm.mem
; CHECK:         %[[P:.*]] = getelementptr [2 x [4 x i32]], ptr %v, i32 0, i32 %k, i32 2
; CHECK-NEXT:    store i32 5, ptr %[[P]], align 4
; CHECK:         %[[L:.*]] = load i32, ptr %{{[0-9]+}}, align 4
; CHECK:         store i32 %[[L]], ptr %out, align 4
; CHECK-NOT:     call void @llvm.mem
; CHECK:         ret void
define void @bytes(i32 %k, ptr %out) {
  %v = alloca [2 x <4 x i32>], align 16
  call void @llvm.memset.p0.i64(ptr %v, i8 1, i64 32, i1 false)
  %off = mul i32 %k, 16
  %off2 = add i32 %off, 8
  %p = getelementptr i8, ptr %v, i32 %off2
  store i32 5, ptr %p
  call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr %v, i64 32, i1 false)
  ret void
}

; When the address escapes, the alloca keeps its exact layout as bytes
; (still no vector type); the vector store through it is split.
; CHECK-LABEL: define void @escapes(
; CHECK:         %v = alloca [32 x i8], align 16
; CHECK:         store i32 %{{.*}}, ptr %v, align 16
; CHECK:         call void @sink(ptr %v)
define void @escapes(ptr %src) {
  %v = alloca [2 x <4 x i32>], align 16
  %x = load <4 x i32>, ptr %src
  store <4 x i32> %x, ptr %v
  call void @sink(ptr %v)
  ret void
}
declare void @sink(ptr)

; What the passes cannot follow is left as it was, valid, with a warning
; naming the object and the reason (never a crash, never a half rewrite).
; RUN: %dxilopt -S -passes='dxil-data-scalarization,dxil-flatten-arrays,dxil-op-lower' %s 2>%t.err | %opt -S -passes=verify | FileCheck %s
; RUN: FileCheck %s --check-prefix=WARN < %t.err

; WARN-DAG: warning: dxil-data-scalarization: @stored left unchanged: unsupported use: {{.*}}store ptr @stored
; WARN-DAG: warning: dxil-data-scalarization: @viaphi left unchanged: unsupported use: {{.*}}phi ptr
; WARN-DAG: warning: dxil-flatten-arrays: %grid left unchanged: unsupported use: {{.*}}call void @use(ptr %grid)
; WARN-DAG: warning: dxil-data-scalarization: @partial left unchanged: memset that cannot be expanded per element
; WARN-DAG: warning: dxil-op-lower: dx.op.unary.f32 already exists with another type; llvm.sin.f32 left as is

; CHECK: @stored = internal global <4 x float> zeroinitializer
; CHECK: @viaphi = internal global <2 x i32> zeroinitializer
; CHECK: @partial = internal global [2 x <3 x float>] zeroinitializer
; CHECK: @fine = internal global [2 x float] zeroinitializer
; CHECK: @one3 = internal global [3 x float]
@stored = internal global <4 x float> zeroinitializer
@viaphi = internal global <2 x i32> zeroinitializer
@partial = internal global [2 x <3 x float>] zeroinitializer
@fine = internal global <2 x float> zeroinitializer

; CHECK-LABEL: define void @escape(ptr %slot)
; CHECK-NEXT:    store ptr @stored, ptr %slot
define void @escape(ptr %slot) {
  store ptr @stored, ptr %slot
  store float 1.0, ptr @fine
  ret void
}

; CHECK-LABEL: define i32 @phi(
; CHECK:         %p = phi ptr [ @viaphi, %a ], [ %q, %b ]
define i32 @phi(i1 %c, ptr %q) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %j
b:
  br label %j
j:
  %p = phi ptr [ @viaphi, %a ], [ %q, %b ]
  %v = load i32, ptr %p
  ret i32 %v
}

; A memset over two vec3s, whose padding goes away, would have to become
; per-element stores of a byte pattern only known at run time. (Over one
; vec3 it stays one memset: see @dynset1.)
; CHECK-LABEL: define void @dynset(
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr @partial, i8 %b, i64 32, i1 false)
define void @dynset(i8 %b) {
  call void @llvm.memset.p0.i64(ptr @partial, i8 %b, i64 32, i1 false)
  ret void
}

; CHECK-LABEL: define void @dynset1(
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr @one3, i8 %b, i64 12, i1 false)
@one3 = internal global <3 x float> zeroinitializer
define void @dynset1(i8 %b) {
  call void @llvm.memset.p0.i64(ptr @one3, i8 %b, i64 12, i1 false)
  ret void
}

; CHECK-LABEL: define void @local(
; CHECK-NEXT:    %grid = alloca [2 x [2 x i32]]
declare void @use(ptr)
define void @local() {
  %grid = alloca [2 x [2 x i32]]
  call void @use(ptr %grid)
  ret void
}

; The module already uses the name dx.op.unary.f32 for something else.
; CHECK-LABEL: define float @clash(
; CHECK-NEXT:    %s = call float @llvm.sin.f32(float %x)
declare i32 @dx.op.unary.f32(i32)
define float @clash(float %x) {
  %s = call float @llvm.sin.f32(float %x)
  ret float %s
}

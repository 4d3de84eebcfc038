; dxil-scalarizer on what a SIMD-style module contains (spirv2llvm's own
; default back end emits these): masked loads and stores, and bitcasts
; between a lane mask integer and an i1 vector. Afterwards no vector type is
; left in the function.
; RUN: %dxilopt -S -passes='function(dxil-scalarizer)' %s | %opt -S -passes=verify | FileCheck %s
; RUN: %dxilopt -S -passes='function(dxil-scalarizer)' %s | grep -v '^declare' | FileCheck %s --check-prefix=NOVEC --implicit-check-not='<{{[0-9]+}} x'
; NOVEC: define void @masked
; Execution: same output before and after.
; RUN: lli %s > %t.ref
; RUN: FileCheck %s --check-prefix=OUT < %t.ref
; RUN: %dxilopt -S -passes='function(dxil-scalarizer)' %s -o %t.ll
; RUN: lli %t.ll > %t.out
; RUN: diff %t.ref %t.out
; OUT: 10 0 30 0 mask 5

; Lane k of the mask is bit k of the i4 (and back).
; CHECK-LABEL: define void @masked(
; CHECK:         %[[B0:.*]] = trunc i4 %m to i1
; CHECK-NEXT:    %[[S1:.*]] = lshr i4 %m, 1
; CHECK-NEXT:    %[[B1:.*]] = trunc i4 %[[S1]] to i1
; CHECK:         %[[Z1:.*]] = zext i1 %[[B1]] to i4
; CHECK-NEXT:    shl i4 %[[Z1]], 1
; A masked load becomes a branch per lane.
; CHECK:         br i1 %{{.*}}, label %cond.load, label %else
; CHECK:       cond.load:
; CHECK-NEXT:    %[[P:.*]] = getelementptr inbounds float, ptr %src, i32 0
; CHECK-NEXT:    load float, ptr %[[P]], align 4
; CHECK-NOT:     @llvm.masked
; CHECK:         ret void
define void @masked(ptr %src, ptr %dst, i4 %m, ptr %mout) {
  %mask = bitcast i4 %m to <4 x i1>
  %v = call <4 x float> @llvm.masked.load.v4f32.p0(ptr %src, i32 4, <4 x i1> %mask, <4 x float> zeroinitializer)
  %w = fmul <4 x float> %v, <float 10.0, float 10.0, float 10.0, float 10.0>
  call void @llvm.masked.store.v4f32.p0(<4 x float> %w, ptr %dst, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  %nm = xor <4 x i1> %mask, <i1 false, i1 false, i1 false, i1 false>
  %bits = bitcast <4 x i1> %nm to i4
  store i4 %bits, ptr %mout
  ret void
}

@src = internal global [4 x float] [float 1.0, float 2.0, float 3.0, float 4.0]
@fmt = private constant [21 x i8] c"%g %g %g %g mask %d\0A\00"
declare i32 @printf(ptr, ...)
define i32 @main() {
  %dst = alloca [4 x float]
  %mo = alloca i4
  call void @masked(ptr @src, ptr %dst, i4 5, ptr %mo)
  %p1 = getelementptr float, ptr %dst, i32 1
  %p2 = getelementptr float, ptr %dst, i32 2
  %p3 = getelementptr float, ptr %dst, i32 3
  %a = load float, ptr %dst
  %b = load float, ptr %p1
  %c = load float, ptr %p2
  %d = load float, ptr %p3
  %ad = fpext float %a to double
  %bd = fpext float %b to double
  %cd = fpext float %c to double
  %dd = fpext float %d to double
  %m = load i4, ptr %mo
  %mi = zext i4 %m to i32
  call i32 (ptr, ...) @printf(ptr @fmt, double %ad, double %bd, double %cd, double %dd, i32 %mi)
  ret i32 0
}

; dxil-op-lower: LLVM intrinsics become dx.op calls with DXIL opcodes
; (DXIL.rst numbering; dxil-native-vectors.md Appendix 1 for the
; element-wise ones), declared as DXIL declares them.
; RUN: %dxilopt -S -passes=dxil-op-lower %s | %opt -S -passes=verify | FileCheck %s
; In the scalar DXIL pipeline, vector calls are scalarized first:
; RUN: %dxilopt -S -passes='function(dxil-scalarizer),dxil-op-lower' %s | %opt -S -passes=verify | FileCheck %s --check-prefix=PIPE
; No LLVM math intrinsic with a DXIL operation is left:
; RUN: %dxilopt -S -passes=dxil-op-lower %s | FileCheck %s --check-prefix=GONE --implicit-check-not='@llvm.'
; GONE: define

; CHECK-LABEL: define float @unary(float %x)
; CHECK-NEXT:    %a = call float @dx.op.unary.f32(i32 6, float %x)
; CHECK-NEXT:    %b = call float @dx.op.unary.f32(i32 12, float %a)
; CHECK-NEXT:    %c = call float @dx.op.unary.f32(i32 13, float %b)
; CHECK-NEXT:    %d = call float @dx.op.unary.f32(i32 14, float %c)
; CHECK-NEXT:    %e = call float @dx.op.unary.f32(i32 15, float %d)
; CHECK-NEXT:    %f = call float @dx.op.unary.f32(i32 16, float %e)
; CHECK-NEXT:    %g = call float @dx.op.unary.f32(i32 17, float %f)
; CHECK-NEXT:    %h = call float @dx.op.unary.f32(i32 18, float %g)
; CHECK-NEXT:    %i = call float @dx.op.unary.f32(i32 19, float %h)
; CHECK-NEXT:    %j = call float @dx.op.unary.f32(i32 20, float %i)
; CHECK-NEXT:    %k = call float @dx.op.unary.f32(i32 21, float %j)
; CHECK-NEXT:    %l = call float @dx.op.unary.f32(i32 23, float %k)
; CHECK-NEXT:    %m = call float @dx.op.unary.f32(i32 24, float %l)
; CHECK-NEXT:    %n = call float @dx.op.unary.f32(i32 26, float %m)
; CHECK-NEXT:    %o = call float @dx.op.unary.f32(i32 27, float %n)
; CHECK-NEXT:    %p = call float @dx.op.unary.f32(i32 28, float %o)
; CHECK-NEXT:    %q = call float @dx.op.unary.f32(i32 29, float %p)
; CHECK-NEXT:    ret float %q
define float @unary(float %x) {
  %a = call float @llvm.fabs.f32(float %x)
  %b = call float @llvm.cos.f32(float %a)
  %c = call float @llvm.sin.f32(float %b)
  %d = call float @llvm.tan.f32(float %c)
  %e = call float @llvm.acos.f32(float %d)
  %f = call float @llvm.asin.f32(float %e)
  %g = call float @llvm.atan.f32(float %f)
  %h = call float @llvm.cosh.f32(float %g)
  %i = call float @llvm.sinh.f32(float %h)
  %j = call float @llvm.tanh.f32(float %i)
  %k = call float @llvm.exp2.f32(float %j)
  %l = call float @llvm.log2.f32(float %k)
  %m = call float @llvm.sqrt.f32(float %l)
  %n = call float @llvm.roundeven.f32(float %m)
  %o = call float @llvm.floor.f32(float %n)
  %p = call float @llvm.ceil.f32(float %o)
  %q = call float @llvm.trunc.f32(float %p)
  ret float %q
}

; CHECK-LABEL: define half @binary_half(half %x, half %y)
; CHECK-NEXT:    %a = call half @dx.op.binary.f16(i32 35, half %x, half %y)
; CHECK-NEXT:    %b = call half @dx.op.binary.f16(i32 36, half %a, half %y)
; CHECK-NEXT:    %c = call half @dx.op.tertiary.f16(i32 46, half %a, half %b, half %x)
define half @binary_half(half %x, half %y) {
  %a = call half @llvm.maxnum.f16(half %x, half %y)
  %b = call half @llvm.minnum.f16(half %a, half %y)
  %c = call half @llvm.fmuladd.f16(half %a, half %b, half %x)
  ret half %c
}

; CHECK-LABEL: define double @fma_double(double %x, double %y)
; CHECK-NEXT:    %a = call double @dx.op.tertiary.f64(i32 47, double %x, double %y, double %x)
define double @fma_double(double %x, double %y) {
  %a = call double @llvm.fma.f64(double %x, double %y, double %x)
  ret double %a
}

; Countbits returns i32 whatever the operand width.
; CHECK-LABEL: define i64 @ints(i32 %x, i32 %y, i64 %z)
; CHECK-NEXT:    %a = call i32 @dx.op.binary.i32(i32 37, i32 %x, i32 %y)
; CHECK-NEXT:    %b = call i32 @dx.op.binary.i32(i32 38, i32 %a, i32 %y)
; CHECK-NEXT:    %c = call i32 @dx.op.binary.i32(i32 39, i32 %b, i32 %x)
; CHECK-NEXT:    %d = call i32 @dx.op.binary.i32(i32 40, i32 %c, i32 %x)
; CHECK-NEXT:    %e = call i32 @dx.op.unary.i32(i32 30, i32 %d)
; CHECK-NEXT:    %f = call i32 @dx.op.unaryBits.i32(i32 31, i32 %e)
; CHECK-NEXT:    %[[G:.*]] = call i32 @dx.op.unaryBits.i64(i32 31, i64 %z)
; CHECK-NEXT:    %g = zext i32 %[[G]] to i64
define i64 @ints(i32 %x, i32 %y, i64 %z) {
  %a = call i32 @llvm.smax.i32(i32 %x, i32 %y)
  %b = call i32 @llvm.smin.i32(i32 %a, i32 %y)
  %c = call i32 @llvm.umax.i32(i32 %b, i32 %x)
  %d = call i32 @llvm.umin.i32(i32 %c, i32 %x)
  %e = call i32 @llvm.bitreverse.i32(i32 %d)
  %f = call i32 @llvm.ctpop.i32(i32 %e)
  %g = call i64 @llvm.ctpop.i64(i64 %z)
  %h = zext i32 %f to i64
  %r = add i64 %g, %h
  ret i64 %r
}

; exp, log and pow go through the base-2 operations, as DXC lowers them.
; CHECK-LABEL: define float @natural(float %x, float %y)
; CHECK-NEXT:    %[[M:.*]] = fmul float %x, 0x3FF7154760000000
; CHECK-NEXT:    %a = call float @dx.op.unary.f32(i32 21, float %[[M]])
; CHECK-NEXT:    %[[L:.*]] = call float @dx.op.unary.f32(i32 23, float %a)
; CHECK-NEXT:    %b = fmul float %[[L]], 0x3FE62E4300000000
; CHECK-NEXT:    %[[L2:.*]] = call float @dx.op.unary.f32(i32 23, float %b)
; CHECK-NEXT:    %[[P:.*]] = fmul float %y, %[[L2]]
; CHECK-NEXT:    %c = call float @dx.op.unary.f32(i32 21, float %[[P]])
define float @natural(float %x, float %y) {
  %a = call float @llvm.exp.f32(float %x)
  %b = call float @llvm.log.f32(float %a)
  %c = call float @llvm.pow.f32(float %b, float %y)
  ret float %c
}

; A vector call reaching dxil-op-lower in scalar mode is split per element.
; CHECK-LABEL: define <2 x float> @vec(<2 x float> %v)
; CHECK-NEXT:    %[[A:.*]] = extractelement <2 x float> %v, i64 0
; CHECK-NEXT:    %[[B:.*]] = call float @dx.op.unary.f32(i32 24, float %[[A]])
; CHECK-NEXT:    %[[C:.*]] = insertelement <2 x float> poison, float %[[B]], i64 0
; CHECK-NEXT:    %[[D:.*]] = extractelement <2 x float> %v, i64 1
; CHECK-NEXT:    %[[E:.*]] = call float @dx.op.unary.f32(i32 24, float %[[D]])
; CHECK-NEXT:    %s = insertelement <2 x float> %[[C]], float %[[E]], i64 1
; PIPE-LABEL: define <2 x float> @vec(<2 x float> %v)
; PIPE-NEXT:    %v.i0 = extractelement <2 x float> %v, i64 0
; PIPE-NEXT:    %s.i0 = call float @dx.op.unary.f32(i32 24, float %v.i0)
; PIPE-NEXT:    %v.i1 = extractelement <2 x float> %v, i64 1
; PIPE-NEXT:    %s.i1 = call float @dx.op.unary.f32(i32 24, float %v.i1)
define <2 x float> @vec(<2 x float> %v) {
  %s = call <2 x float> @llvm.sqrt.v2f32(<2 x float> %v)
  ret <2 x float> %s
}

; CHECK-DAG: declare float @dx.op.unary.f32(i32, float) #[[A:[0-9]+]]
; CHECK-DAG: declare half @dx.op.binary.f16(i32, half, half) #[[A]]
; CHECK-DAG: declare double @dx.op.tertiary.f64(i32, double, double, double) #[[A]]
; CHECK-DAG: declare i32 @dx.op.unaryBits.i64(i32, i64) #[[A]]
; CHECK: attributes #[[A]] = { nounwind memory(none) }

; dxil-scalarize-signatures: internal functions whose parameters or return
; value are or hold vectors get vector-free signatures (each such type T
; becomes T with vectors as arrays), their bodies and call sites convert at
; the boundary and are scalarized again; exported functions keep their ABI;
; unused declarations mentioning vectors are dropped.
;
; The pass alone (it runs dxil-scalarizer on what it touched):
; RUN: %dxilopt -S -passes='dxil-scalarize-signatures' %s -o %t.alone.ll
; RUN: FileCheck %s < %t.alone.ll
; RUN: %opt -disable-output -passes=verify %t.alone.ll
; In the scalar and DXIL pipelines only @exported keeps vectors:
; RUN: %dxilopt -S -passes='dxil-data-scalarization,function(dxil-scalarizer),dxil-scalarize-signatures,verify' %s -o %t.scalar.ll
; RUN: FileCheck %s --check-prefix=PIPE < %t.scalar.ll
; RUN: not %vectorcheck %t.scalar.ll 2>&1 | FileCheck %s --check-prefix=LEFT
; RUN: %dxilopt -S -passes='dxil-data-scalarization,function(dxil-scalarizer),dxil-scalarize-signatures,dxil-flatten-arrays,dxil-op-lower,verify' %s -o %t.dxil.ll
; RUN: not %vectorcheck %t.dxil.ll 2>&1 | FileCheck %s --check-prefix=LEFT
; Without the signature pass the internal signatures keep their vectors:
; RUN: %dxilopt -S -passes='function(dxil-scalarizer)' %s | not %vectorcheck - 2>&1 | FileCheck %s --check-prefix=NOSIG
;
; LEFT-NOT: @scale
; LEFT-NOT: @pair
; LEFT-NOT: @sink
; LEFT: vector type <2 x float> (<2 x float>) in signature of @exported
; LEFT-NOT: @scale
; LEFT-NOT: @pair
; LEFT-NOT: @sink
; LEFT: 2 place(s) with a vector type
; NOSIG-DAG: in signature of @scale
; NOSIG-DAG: in signature of @pair
; NOSIG-DAG: in signature of @sink

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

%S = type { <3 x float>, i32 }

; CHECK-LABEL: define internal [4 x float] @scale([4 x float] %v, float %s)
; CHECK-COUNT-4: fmul float
; CHECK-NOT: {{<[0-9]+ x}}
; CHECK: ret [4 x float]
define internal <4 x float> @scale(<4 x float> %v, float %s) {
  %sp = insertelement <4 x float> poison, float %s, i64 0
  %ss = shufflevector <4 x float> %sp, <4 x float> poison, <4 x i32> zeroinitializer
  %r = fmul <4 x float> %v, %ss
  ret <4 x float> %r
}

; CHECK-LABEL: define internal { [2 x i32], i32 } @pair(ptr %p)
; CHECK-NOT: {{<[0-9]+ x}}
; CHECK: ret { [2 x i32], i32 }
define internal { <2 x i32>, i32 } @pair(ptr %p) {
  %v = load <2 x i32>, ptr %p, align 8
  %q = getelementptr inbounds i8, ptr %p, i64 8
  %n = load i32, ptr %q, align 4
  %a = insertvalue { <2 x i32>, i32 } poison, <2 x i32> %v, 0
  %b = insertvalue { <2 x i32>, i32 } %a, i32 %n, 1
  ret { <2 x i32>, i32 } %b
}

; A named struct holding a vector, and a recursive call.
; CHECK-LABEL: define internal void @sink(%S.scalar %s, i32 %depth, ptr %out)
; CHECK: call void @sink(%S.scalar
; CHECK-NOT: {{<[0-9]+ x}}
; CHECK: ret void
define internal void @sink(%S %s, i32 %depth, ptr %out) {
entry:
  %more = icmp sgt i32 %depth, 0
  br i1 %more, label %rec, label %done
rec:
  %d1 = sub i32 %depth, 1
  call void @sink(%S %s, i32 %d1, ptr %out)
  br label %done
done:
  store %S %s, ptr %out, align 16
  ret void
}

; Exported: the signature is the function's ABI and stays.
; CHECK-LABEL: define <2 x float> @exported(<2 x float> %x)
define <2 x float> @exported(<2 x float> %x) {
  ret <2 x float> %x
}

; CHECK-LABEL: define void @caller(
; CHECK: call [4 x float] @scale([4 x float]
; CHECK: call { [2 x i32], i32 } @pair(ptr
; CHECK: call void @sink(%S.scalar
; PIPE-LABEL: define void @caller(
; PIPE-NOT: {{<[0-9]+ x}}
; PIPE: ret void
define void @caller(ptr %in, ptr %out) {
  %v = load <4 x float>, ptr %in, align 16
  %w = call <4 x float> @llvm.sin.v4f32(<4 x float> %v)
  %r = call <4 x float> @scale(<4 x float> %w, float 2.0)
  store <4 x float> %r, ptr %out, align 16
  %p = call { <2 x i32>, i32 } @pair(ptr %in)
  %q = getelementptr inbounds i8, ptr %out, i64 16
  store { <2 x i32>, i32 } %p, ptr %q, align 8
  %e = extractelement <4 x float> %r, i32 3
  %s0 = insertelement <3 x float> zeroinitializer, float %e, i32 1
  %s = insertvalue %S { <3 x float> zeroinitializer, i32 7 }, <3 x float> %s0, 0
  %o = getelementptr inbounds i8, ptr %out, i64 32
  call void @sink(%S %s, i32 2, ptr %o)
  ret void
}

; The vector overload of sin is unused after the pipeline and is dropped.
; PIPE-NOT: declare <4 x float> @llvm.sin.v4f32
declare <4 x float> @llvm.sin.v4f32(<4 x float>)

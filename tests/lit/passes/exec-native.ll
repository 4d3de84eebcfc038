; Execution: single-element vectors in globals, allocas and SSA values, a
; 3-D array indexed dynamically and copied by rows, element-wise math
; (floor, ceil, sqrt, fabs, smax, umin, bitreverse, fmuladd) and i1 vector
; reductions give the same output under lli before and after the scalar,
; DXIL and native-vector pipelines.
; RUN: lli %s > %t.ref
; RUN: FileCheck %s --check-prefix=OUT < %t.ref
; RUN: %dxilopt -S -passes='function(dxil-scalarizer),verify' %s -o %t.scalar.ll
; RUN: lli %t.scalar.ll > %t.scalar
; RUN: diff %t.ref %t.scalar
; RUN: %dxilopt -S -passes='function(dxil-scalarizer),dxil-data-scalarization,dxil-flatten-arrays,dxil-op-lower,verify' %s -o %t.dxil.ll
; RUN: llvm-link -S --only-needed %t.dxil.ll %dxilrt -o %t.dxil.linked.ll
; RUN: lli %t.dxil.linked.ll > %t.dxil
; RUN: diff %t.ref %t.dxil
; RUN: %dxilopt -S -passes='dxil-native-vectors,dxil-flatten-arrays,dxil-op-lower<vectors>,verify' %s -o %t.nv.ll
; RUN: FileCheck %s --check-prefix=NV < %t.nv.ll
; RUN: llvm-link -S --only-needed %t.nv.ll %dxilrt -o %t.nv.linked.ll
; RUN: lli %t.nv.linked.ll > %t.nv
; RUN: diff %t.ref %t.nv
; spirv2llvm's --backend=scalar and --backend=dxil pipelines: no vector type
; anywhere, same output; native vectors keep only vectors of 2+ elements.
; RUN: %dxilopt -S -passes='dxil-data-scalarization,function(dxil-scalarizer),dxil-scalarize-signatures,verify' %s -o %t.bscalar.ll
; RUN: %vectorcheck %t.bscalar.ll
; RUN: lli %t.bscalar.ll > %t.bscalar
; RUN: diff %t.ref %t.bscalar
; RUN: %dxilopt -S -passes='dxil-data-scalarization,function(dxil-scalarizer),dxil-scalarize-signatures,dxil-flatten-arrays,dxil-op-lower,verify' %s -o %t.bdxil.ll
; RUN: %vectorcheck %t.bdxil.ll
; RUN: llvm-link -S --only-needed %t.bdxil.ll %dxilrt -o %t.bdxil.linked.ll
; RUN: lli %t.bdxil.linked.ll > %t.bdxil
; RUN: diff %t.ref %t.bdxil
; The scalar pass alone leaves no vector type in @main:
; RUN: FileCheck %s --check-prefix=NOVEC < %t.scalar.ll
; NOVEC-LABEL: define i32 @main()
; NOVEC-NOT:   <{{[0-9]+}} x
; NOVEC:       ret i32 0
; NOVEC-NEXT:  }

; NV: @scale = internal global float 2.000000e+00
; NV: @cube = internal global [24 x i32]
; NV-NOT: <1 x
; NV: call <4 x float> @dx.op.unary.v4f32(i32 27,
; NV: call <4 x float> @dx.op.unary.v4f32(i32 28,
; NV: call <4 x i32> @dx.op.binary.v4i32(i32 37,
; NV: call i1 @dx.op.vectorReduce.v4i1(i32 309,
; NV: call i1 @dx.op.vectorReduce.v4i1(i32 310,

; OUT: cube = 276
; OUT: rows = 40
; floor 6.5, floor -0.5, sqrt 4, sqrt(4)*|-1|+ceil(1.5), smax(-9,-8),
; sqrt(9)*|-3|+ceil(2), bitreverse(1<<31), umin(smax(5,7),4):
; OUT: math = 6 -1 2 4 -8 11 1 4
; OUT: all = 0 any = 1
; OUT: one = 5

@scale = internal global <1 x float> <float 2.0>
@cube = internal global [2 x [3 x [4 x i32]]] zeroinitializer, align 16
@fi = private constant [11 x i8] c"cube = %d\0A\00"
@fr = private constant [11 x i8] c"rows = %d\0A\00"
@fm = private constant [32 x i8] c"math = %g %g %g %g %g %g %d %d\0A\00"
@fb = private constant [19 x i8] c"all = %d any = %d\0A\00"
@fo = private constant [10 x i8] c"one = %g\0A\00"
declare i32 @printf(ptr, ...)

define i32 @main() {
entry:
  br label %outer
outer:
  ; cube[a][b][c] = a*100 + b*10 + c through a typed GEP with three dynamic indices
  %n = phi i32 [ 0, %entry ], [ %n.next, %outer ]
  %a = udiv i32 %n, 12
  %r = urem i32 %n, 12
  %b = udiv i32 %r, 4
  %c = urem i32 %r, 4
  %a100 = mul i32 %a, 100
  %b10 = mul i32 %b, 10
  %ab = add i32 %a100, %b10
  %val = add i32 %ab, %c
  %p = getelementptr [2 x [3 x [4 x i32]]], ptr @cube, i32 0, i32 %a, i32 %b, i32 %c
  store i32 %val, ptr %p, align 4
  %n.next = add i32 %n, 1
  %ndone = icmp eq i32 %n.next, 24
  br i1 %ndone, label %sum, label %outer
sum:
  ; sum over the diagonal-ish cube[1][b][b] for b < 3 = 100+0+0 + 100+10+1 + 100+20+2 = 333
  ; minus cube[0][2][3] (23) minus 34 = 276, read with i8 GEPs (byte 4*(12+5b))
  %s0 = load i32, ptr getelementptr (i8, ptr @cube, i32 48)
  %s1 = load i32, ptr getelementptr (i8, ptr @cube, i32 68)
  %s2 = load i32, ptr getelementptr (i8, ptr @cube, i32 88)
  %s3 = load i32, ptr getelementptr ([3 x [4 x i32]], ptr @cube, i32 0, i32 2, i32 3)
  %t0 = add i32 %s0, %s1
  %t1 = add i32 %t0, %s2
  %t2 = sub i32 %t1, %s3
  %t3 = sub i32 %t2, 34
  call i32 (ptr, ...) @printf(ptr @fi, i32 %t3)
  ; copy row cube[1][2] into a local 2-D array at [1], sum it: 120+121+122+123 = 486,
  ; and the untouched row [0] of the memset local (0): print 486 - 446 = 40
  %loc = alloca [2 x [4 x i32]], align 16
  call void @llvm.memset.p0.i64(ptr %loc, i8 0, i64 32, i1 false)
  %dst = getelementptr [2 x [4 x i32]], ptr %loc, i32 0, i32 1
  %src = getelementptr [2 x [3 x [4 x i32]]], ptr @cube, i32 0, i32 1, i32 2
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false)
  %rowv = load <4 x i32>, ptr %dst, align 16
  %rowsum = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %rowv)
  %row0 = load <4 x i32>, ptr %loc, align 16
  %row0sum = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %row0)
  %rs = add i32 %rowsum, %row0sum
  %rs2 = sub i32 %rs, 446
  call i32 (ptr, ...) @printf(ptr @fr, i32 %rs2)
  ; element-wise math
  %f = call <4 x float> @llvm.floor.v4f32(<4 x float> <float 6.5, float -0.5, float 2.0, float 3.75>)
  %cl = call <4 x float> @llvm.ceil.v4f32(<4 x float> <float 1.5, float -0.5, float 2.0, float 3.25>)
  %sq = call <4 x float> @llvm.sqrt.v4f32(<4 x float> <float 4.0, float 0.25, float 9.0, float 16.0>)
  %ab4 = call <4 x float> @llvm.fabs.v4f32(<4 x float> <float -1.0, float 2.0, float -3.0, float 4.0>)
  %fm = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %sq, <4 x float> %ab4, <4 x float> %cl)
  %sm = call <4 x i32> @llvm.smax.v4i32(<4 x i32> <i32 -3, i32 1, i32 5, i32 -9>, <4 x i32> <i32 -4, i32 0, i32 7, i32 -8>)
  %um = call <4 x i32> @llvm.umin.v4i32(<4 x i32> %sm, <4 x i32> <i32 4, i32 4, i32 4, i32 4>)
  %br = call <4 x i32> @llvm.bitreverse.v4i32(<4 x i32> <i32 -2147483648, i32 1, i32 0, i32 0>)
  %f0 = extractelement <4 x float> %f, i32 0
  %f1 = extractelement <4 x float> %f, i32 1
  %q1 = extractelement <4 x float> %sq, i32 0
  %fm3 = extractelement <4 x float> %fm, i32 0
  %fm2 = extractelement <4 x float> %fm, i32 2
  %sm3 = extractelement <4 x i32> %sm, i32 3
  %smf = sitofp i32 %sm3 to float
  %br0 = extractelement <4 x i32> %br, i32 0
  %um1 = extractelement <4 x i32> %um, i32 2
  %d0 = fpext float %f0 to double
  %d1 = fpext float %f1 to double
  %d2 = fpext float %q1 to double
  %d3 = fpext float %fm3 to double
  %d4 = fpext float %smf to double
  %d5 = fpext float %fm2 to double
  call i32 (ptr, ...) @printf(ptr @fm, double %d0, double %d1, double %d2, double %d3, double %d4, double %d5, i32 %br0, i32 %um1)
  ; i1 vector reductions
  %cmp = icmp sgt <4 x i32> %sm, zeroinitializer
  %all = call i1 @llvm.vector.reduce.and.v4i1(<4 x i1> %cmp)
  %any = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %cmp)
  %alli = zext i1 %all to i32
  %anyi = zext i1 %any to i32
  call i32 (ptr, ...) @printf(ptr @fb, i32 %alli, i32 %anyi)
  ; single-element vectors: alloca, global, arithmetic, extract
  %o = alloca <1 x float>, align 4
  %g = load <1 x float>, ptr @scale
  %m1 = fmul <1 x float> %g, <float 2.0>
  store <1 x float> %m1, ptr %o
  %ol = load <1 x float>, ptr %o
  %o2 = fadd <1 x float> %ol, <float 1.0>
  %oe = extractelement <1 x float> %o2, i32 0
  %od = fpext float %oe to double
  call i32 (ptr, ...) @printf(ptr @fo, double %od)
  ret i32 0
}

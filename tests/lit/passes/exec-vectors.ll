; Execution: a program using vectors in allocas, groupshared and global
; data (arrays of vectors, a 2-D array of vectors, a struct holding vectors),
; dynamic indexing, typed and i8 GEPs, memcpy/memset, vector math and
; reductions, runs under lli before and after each pipeline with the same
; output. Lowered dx.op calls run on the reference runtime in
; Inputs/dxil-runtime.ll (an unknown opcode would abort).
;
; RUN: lli %s > %t.ref
; RUN: FileCheck %s --check-prefix=OUT < %t.ref
;
; Scalar pipeline.
; RUN: %dxilopt -S -passes='function(dxil-scalarizer),verify' %s -o %t.scalar.ll
; RUN: lli %t.scalar.ll > %t.scalar
; RUN: diff %t.ref %t.scalar
; Each data pass alone, and the data passes before the scalarizer.
; RUN: %dxilopt -S -passes='dxil-data-scalarization,verify' %s -o %t.ds.ll
; RUN: lli %t.ds.ll > %t.ds
; RUN: diff %t.ref %t.ds
; RUN: %dxilopt -S -passes='dxil-flatten-arrays,verify' %s -o %t.fa.ll
; RUN: lli %t.fa.ll > %t.fa
; RUN: diff %t.ref %t.fa
; RUN: %dxilopt -S -passes='dxil-data-scalarization,dxil-flatten-arrays,function(dxil-scalarizer),verify' %s -o %t.plugin.ll
; RUN: lli %t.plugin.ll > %t.plugin
; RUN: diff %t.ref %t.plugin
; The DXIL pipeline, with dx.op calls, linked with the runtime.
; RUN: %dxilopt -S -passes='function(dxil-scalarizer),dxil-data-scalarization,dxil-flatten-arrays,dxil-op-lower,verify' %s -o %t.dxil.ll
; RUN: FileCheck %s --check-prefix=DXIL < %t.dxil.ll
; RUN: llvm-link -S --only-needed %t.dxil.ll %dxilrt -o %t.dxil.linked.ll
; RUN: lli %t.dxil.linked.ll > %t.dxil
; RUN: diff %t.ref %t.dxil
; spirv2llvm's --backend=scalar and --backend=dxil pipelines
; (dxilPipelineText in src/passes/Passes.cpp): no vector type left.
; RUN: %dxilopt -S -passes='dxil-data-scalarization,function(dxil-scalarizer),dxil-scalarize-signatures,verify' %s -o %t.bscalar.ll
; RUN: %vectorcheck %t.bscalar.ll
; RUN: lli %t.bscalar.ll > %t.bscalar
; RUN: diff %t.ref %t.bscalar
; RUN: %dxilopt -S -passes='dxil-data-scalarization,function(dxil-scalarizer),dxil-scalarize-signatures,dxil-flatten-arrays,dxil-op-lower,verify' %s -o %t.bdxil.ll
; RUN: %vectorcheck %t.bdxil.ll
; RUN: llvm-link -S --only-needed %t.bdxil.ll %dxilrt -o %t.bdxil.linked.ll
; RUN: lli %t.bdxil.linked.ll > %t.bdxil
; RUN: diff %t.ref %t.bdxil
; The native-vector pipeline, with vector dx.op overloads.
; RUN: %dxilopt -S -passes='dxil-native-vectors,dxil-flatten-arrays,dxil-op-lower<vectors>,verify' %s -o %t.nv.ll
; RUN: FileCheck %s --check-prefix=NV < %t.nv.ll
; RUN: llvm-link -S --only-needed %t.nv.ll %dxilrt -o %t.nv.linked.ll
; RUN: lli %t.nv.linked.ll > %t.nv
; RUN: diff %t.ref %t.nv

; DXIL: @gs = internal addrspace(3) global [12 x float]
; DXIL: @tab = internal global [12 x i32]
; DXIL: call float @dx.op.unary.f32(i32 13,
; DXIL: call float @dx.op.tertiary.f32(i32 46,
; DXIL: call float @dx.op.binary.f32(i32 35,
; DXIL: call i32 @dx.op.unaryBits.i32(i32 31,
; NV: @gs = internal addrspace(3) global [4 x <3 x float>]
; NV: @tab = internal global [6 x <2 x i32>]
; NV: call <4 x float> @dx.op.unary.v4f32(i32 13,
; NV: call <2 x i32> @dx.op.unaryBits.v2i32(i32 31,

; Values computed by hand: loc[0][1] = sin(1)*1 + 1, gs[0].z = sin(0)*0 + 1:
; OUT: loc 0 = 1.84147{{[0-9]*}}
; OUT-NEXT: gs 0 = 1{{$}}
; OUT: sum 6 = 20
; OUT: tab 0 = 3
; OUT: tab 1 = 4
; OUT: tab 2 = 5
; OUT: st = 1.5 2.5 99 7
; OUT: counts 0 = 11

@gs = internal addrspace(3) global [4 x <3 x float>] zeroinitializer, align 16
@tab = internal global [2 x [3 x <2 x i32>]] [[3 x <2 x i32>] [<2 x i32> <i32 1, i32 2>, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 5, i32 6>], [3 x <2 x i32>] [<2 x i32> <i32 7, i32 8>, <2 x i32> <i32 15, i32 0>, <2 x i32> <i32 255, i32 1>]], align 8
@st = internal global { <3 x float>, i32, [2 x <2 x float>] } { <3 x float> <float 1.5, float 2.5, float 3.5>, i32 7, [2 x <2 x float>] [<2 x float> <float 10.0, float 20.0>, <2 x float> <float 30.0, float 40.0>] }, align 16
@ff = private constant [9 x i8] c"%s %d = \00"
@fv = private constant [6 x i8] c"%.9g\0A\00"
@fi = private constant [4 x i8] c"%d\0A\00"
@fst = private constant [18 x i8] c"st = %g %g %g %d\0A\00"
@nm.loc = private constant [4 x i8] c"loc\00"
@nm.gs = private constant [3 x i8] c"gs\00"
@nm.sum = private constant [4 x i8] c"sum\00"
@nm.tab = private constant [4 x i8] c"tab\00"
@nm.cnt = private constant [7 x i8] c"counts\00"
declare i32 @printf(ptr, ...)

define internal void @pf(ptr %name, i32 %i, float %x) {
  call i32 (ptr, ...) @printf(ptr @ff, ptr %name, i32 %i)
  %d = fpext float %x to double
  call i32 (ptr, ...) @printf(ptr @fv, double %d)
  ret void
}
define internal void @pi(ptr %name, i32 %i, i32 %x) {
  call i32 (ptr, ...) @printf(ptr @ff, ptr %name, i32 %i)
  call i32 (ptr, ...) @printf(ptr @fi, i32 %x)
  ret void
}

define i32 @main() {
entry:
  %loc = alloca [4 x <4 x float>], align 16
  call void @llvm.memset.p0.i64(ptr %loc, i8 0, i64 64, i1 false)
  br label %fill

fill:
  %i = phi i32 [ 0, %entry ], [ %i.next, %fill ]
  %fi = sitofp i32 %i to float
  %b0 = insertelement <4 x float> poison, float %fi, i32 0
  %splat = shufflevector <4 x float> %b0, <4 x float> poison, <4 x i32> zeroinitializer
  %v = fadd <4 x float> %splat, <float 0.0, float 1.0, float 2.0, float 3.0>
  %s = call <4 x float> @llvm.sin.v4f32(<4 x float> %v)
  %m = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %s, <4 x float> %v, <4 x float> <float 1.0, float 1.0, float 1.0, float 1.0>)
  %mx = call <4 x float> @llvm.maxnum.v4f32(<4 x float> %m, <4 x float> <float 0.5, float 0.5, float 0.5, float 0.5>)
  %pl = getelementptr [4 x <4 x float>], ptr %loc, i32 0, i32 %i
  store <4 x float> %mx, ptr %pl, align 16
  %v3 = shufflevector <4 x float> %mx, <4 x float> poison, <3 x i32> <i32 2, i32 1, i32 0>
  %pg = getelementptr [4 x <3 x float>], ptr addrspace(3) @gs, i32 0, i32 %i
  store <3 x float> %v3, ptr addrspace(3) %pg, align 16
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, 4
  br i1 %done, label %read, label %fill

read:
  %j = phi i32 [ 0, %fill ], [ %j.next, %read ]
  ; loc[j][(j+1)%4] through an i8 GEP with a dynamic byte offset
  %j1 = add i32 %j, 1
  %lane = and i32 %j1, 3
  %rowoff = mul i32 %j, 16
  %laneoff = mul i32 %lane, 4
  %off = add i32 %rowoff, %laneoff
  %pb = getelementptr i8, ptr %loc, i32 %off
  %x = load float, ptr %pb, align 4
  call void @pf(ptr @nm.loc, i32 %j, float %x)
  ; gs[j].z through a byte offset into the padded vec3 layout
  %goff = add i32 %rowoff, 8
  %pgb = getelementptr i8, ptr addrspace(3) @gs, i32 %goff
  %y = load float, ptr addrspace(3) %pgb, align 4
  call void @pf(ptr @nm.gs, i32 %j, float %y)
  ; a dynamic extractelement
  %row = load <4 x float>, ptr %pb, align 4
  %pr = getelementptr [4 x <4 x float>], ptr %loc, i32 0, i32 %j
  %rv = load <4 x float>, ptr %pr, align 16
  %ex = extractelement <4 x float> %rv, i32 %lane
  call void @pf(ptr @nm.loc, i32 %lane, float %ex)
  %j.next = add i32 %j, 1
  %jdone = icmp eq i32 %j.next, 4
  br i1 %jdone, label %copy, label %read

copy:
  ; memcpy gs[1] (a vec3, 12 bytes) into a local vec3, reduce it
  %tmp = alloca <3 x float>, align 16
  call void @llvm.memcpy.p0.p3.i64(ptr %tmp, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @gs, i64 16), i64 12, i1 false)
  %t = load <3 x float>, ptr %tmp, align 16
  %red = call float @llvm.vector.reduce.fadd.v3f32(float 0.0, <3 x float> %t)
  call void @pf(ptr @nm.gs, i32 9, float %red)
  ; integers: tab[a][b] for a in 0..1, b dynamic; sum of tab[0][*] = 21 - 1
  %t00 = getelementptr [2 x [3 x <2 x i32>]], ptr @tab, i32 0, i32 0
  %t0 = load [3 x <2 x i32>], ptr %t00, align 8
  %e0 = extractvalue [3 x <2 x i32>] %t0, 0
  %e1 = extractvalue [3 x <2 x i32>] %t0, 1
  %e2 = extractvalue [3 x <2 x i32>] %t0, 2
  %a01 = add <2 x i32> %e0, %e1
  %a012 = add <2 x i32> %a01, %e2
  %sum = call i32 @llvm.vector.reduce.add.v2i32(<2 x i32> %a012)
  %sum1 = sub i32 %sum, 1
  call void @pi(ptr @nm.sum, i32 6, i32 %sum1)
  br label %tabl

tabl:
  ; tab[0][k].y - tab[0][k].x + k + 2 with k dynamic = 3, 4, 5
  %k = phi i32 [ 0, %copy ], [ %k.next, %tabl ]
  %pk = getelementptr [2 x [3 x <2 x i32>]], ptr @tab, i32 0, i32 0, i32 %k
  %tk = load <2 x i32>, ptr %pk, align 8
  %tx = extractelement <2 x i32> %tk, i32 0
  %ty = extractelement <2 x i32> %tk, i32 1
  %d1 = sub i32 %ty, %tx
  %d2 = add i32 %d1, %k
  %d3 = add i32 %d2, 2
  call void @pi(ptr @nm.tab, i32 %k, i32 %d3)
  %k.next = add i32 %k, 1
  %kdone = icmp eq i32 %k.next, 3
  br i1 %kdone, label %structs, label %tabl

structs:
  ; copy the struct out, change a member through byte offset 36 (= member 2, [1].y
  ; in the old layout), copy it back, read members back
  %sc = alloca { <3 x float>, i32, [2 x <2 x float>] }, align 16
  call void @llvm.memcpy.p0.p0.i64(ptr %sc, ptr @st, i64 48, i1 false)
  %p40 = getelementptr i8, ptr %sc, i32 36
  store float 99.0, ptr %p40, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr @st, ptr %sc, i64 48, i1 false)
  %sx = load float, ptr @st, align 16
  %sy = load float, ptr getelementptr (i8, ptr @st, i32 4), align 4
  %sw = getelementptr { <3 x float>, i32, [2 x <2 x float>] }, ptr @st, i32 0, i32 2, i32 1, i32 1
  %sz = load float, ptr %sw, align 4
  %si = load i32, ptr getelementptr (i8, ptr @st, i32 16), align 4
  %sxd = fpext float %sx to double
  %syd = fpext float %sy to double
  %szd = fpext float %sz to double
  call i32 (ptr, ...) @printf(ptr @fst, double %sxd, double %syd, double %szd, i32 %si)
  ; bit counts of tab[1][*] (7,8,15,0,255,1 -> 3+1+4+0+8+1 = 17) minus umax
  ; adjustments: umax(count, 1) on each, summed over tab[1][1..2] = 4+1+8+1 = 14,
  ; minus 3 = 11
  %p11 = getelementptr [2 x [3 x <2 x i32>]], ptr @tab, i32 0, i32 1, i32 1
  %c11 = load <2 x i32>, ptr %p11, align 8
  %p12 = getelementptr [2 x [3 x <2 x i32>]], ptr @tab, i32 0, i32 1, i32 2
  %c12 = load <2 x i32>, ptr %p12, align 8
  %n11 = call <2 x i32> @llvm.ctpop.v2i32(<2 x i32> %c11)
  %n12 = call <2 x i32> @llvm.ctpop.v2i32(<2 x i32> %c12)
  %u11 = call <2 x i32> @llvm.umax.v2i32(<2 x i32> %n11, <2 x i32> <i32 1, i32 1>)
  %u12 = call <2 x i32> @llvm.umax.v2i32(<2 x i32> %n12, <2 x i32> <i32 1, i32 1>)
  %uu = add <2 x i32> %u11, %u12
  %cnt = call i32 @llvm.vector.reduce.add.v2i32(<2 x i32> %uu)
  %cnt3 = sub i32 %cnt, 3
  call void @pi(ptr @nm.cnt, i32 0, i32 %cnt3)
  ret i32 0
}

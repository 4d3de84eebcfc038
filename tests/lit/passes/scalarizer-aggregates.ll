; Struct and array SSA values holding vectors (whole-struct loads, stores
; and copies, insertvalue/extractvalue, phis, selects and freezes of such
; structs, matrices as arrays of column vectors, intrinsics returning a
; struct of vectors) are split by dxil-scalarizer into scalars: the memory
; layout stays the old one (each scalar at its byte offset in
; %S = { <3 x float>, i32, [2 x <2 x i32>] }: 0, 4, 8, 16, 24, 28, 32, 36).
;
; The pass alone:
; RUN: %dxilopt -S -passes='function(dxil-scalarizer)' %s -o %t.alone.ll
; RUN: FileCheck %s < %t.alone.ll
; RUN: %opt -disable-output -passes=verify %t.alone.ll
; Alone it changes no global's type nor @build's (exported) signature, and
; cannot drop the vector intrinsic declarations; every instruction of the
; other functions is vector-free:
; RUN: not %vectorcheck %t.alone.ll 2>&1 | FileCheck %s --check-prefix=ALONE
; The scalar and DXIL pipelines (spirv2llvm's --backend=scalar / dxil):
; RUN: %dxilopt -S -passes='dxil-data-scalarization,function(dxil-scalarizer),dxil-scalarize-signatures' %s -o %t.scalar.ll
; RUN: not %vectorcheck %t.scalar.ll 2>&1 | FileCheck %s --check-prefix=PIPE
; RUN: %dxilopt -S -passes='dxil-data-scalarization,function(dxil-scalarizer),dxil-scalarize-signatures,dxil-flatten-arrays,dxil-op-lower,verify' %s -o %t.dxil.ll
; RUN: not %vectorcheck %t.dxil.ll 2>&1 | FileCheck %s --check-prefix=PIPE
; RUN: FileCheck %s --check-prefix=DXIL < %t.dxil.ll

; ALONE-DAG: vector type void (<3 x float>, i32, ptr) in signature of @build
; ALONE-DAG: in declaration @llvm.uadd.with.overflow.v4i32
; ALONE-DAG: in declaration @llvm.frexp.v2f32.v2i32
; ALONE-DAG: in global @gs
; ALONE-NOT: in function @{{[^b]}}
; ALONE: 9 place(s) with a vector type
; PIPE-NOT: declaration
; PIPE: vector type void (<3 x float>, i32, ptr) in signature of @build
; PIPE-NOT: declaration
; PIPE: 4 place(s) with a vector type

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

%S = type { <3 x float>, i32, [2 x <2 x i32>] }

; CHECK-LABEL: define void @copy(
; CHECK-DAG: load float, ptr %src, align 16
; CHECK-DAG: [[I16:%.*]] = getelementptr inbounds i8, ptr %src, i64 16
; CHECK-DAG: load i32, ptr [[I16]], align 16
; CHECK-DAG: [[I24:%.*]] = getelementptr inbounds i8, ptr %src, i64 24
; CHECK-DAG: load i32, ptr [[I24]], align 8
; CHECK-DAG: [[I32:%.*]] = getelementptr inbounds i8, ptr %src, i64 32
; CHECK-DAG: load i32, ptr [[I32]], align 16
; CHECK-DAG: [[O16:%.*]] = getelementptr inbounds i8, ptr %dst, i64 16
; CHECK-DAG: store i32 {{.*}}, ptr [[O16]], align 16
; CHECK-NOT: {{<[0-9]+ x|%S}}
; CHECK: ret void
define void @copy(ptr %dst, ptr %src) {
  %v = load %S, ptr %src, align 16
  store %S %v, ptr %dst, align 16
  ret void
}

; Only the two scalars used are loaded.
; CHECK-LABEL: define float @field(
; CHECK-NEXT: [[P8:%.*]] = getelementptr float, ptr %src, i32 2
; CHECK-NEXT: [[X:%.*]] = load float, ptr [[P8]], align 8
; CHECK-NEXT: [[P32:%.*]] = getelementptr inbounds i8, ptr %src, i64 32
; CHECK-NEXT: [[P36:%.*]] = getelementptr i32, ptr [[P32]], i32 1
; CHECK-NEXT: [[Y:%.*]] = load i32, ptr [[P36]], align 4
; CHECK-NEXT: [[YF:%.*]] = sitofp i32 [[Y]] to float
; CHECK-NEXT: fadd float [[X]], [[YF]]
define float @field(ptr %src) {
  %v = load %S, ptr %src, align 16
  %e = extractvalue %S %v, 0
  %x = extractelement <3 x float> %e, i32 2
  %i = extractvalue %S %v, 2, 1
  %y = extractelement <2 x i32> %i, i32 1
  %yf = sitofp i32 %y to float
  %r = fadd float %x, %yf
  ret float %r
}

; One phi, select and freeze per scalar (8 of each).
; CHECK-LABEL: define void @phi_select(
; CHECK: join:
; CHECK-COUNT-3: phi float
; CHECK-COUNT-5: phi i32
; CHECK-COUNT-3: select i1 %d, float
; CHECK-COUNT-5: select i1 %d, i32
; CHECK-COUNT-3: freeze float
; CHECK-COUNT-5: freeze i32
; CHECK-NOT: {{<[0-9]+ x|%S}}
; CHECK: ret void
define void @phi_select(i1 %c, i1 %d, ptr %a, ptr %b, ptr %out) {
entry:
  %va = load %S, ptr %a, align 16
  br i1 %c, label %then, label %join
then:
  %vb = load %S, ptr %b, align 16
  br label %join
join:
  %p = phi %S [ %va, %entry ], [ %vb, %then ]
  %s = select i1 %d, %S %p, %S %va
  %f = freeze %S %s
  store %S %f, ptr %out, align 16
  ret void
}

; insertvalue into a constant struct: the constant's leaves are stored.
; CHECK-LABEL: define void @build(
; CHECK: store i32 %n,
; CHECK: store i32 15,
; CHECK: store i32 25,
; CHECK: store i32 3,
; CHECK: store i32 4,
; CHECK-NEXT: ret void
define void @build(<3 x float> %v, i32 %n, ptr %out) {
  %s0 = insertvalue %S { <3 x float> zeroinitializer, i32 0, [2 x <2 x i32>] [<2 x i32> <i32 1, i32 2>, <2 x i32> <i32 3, i32 4>] }, <3 x float> %v, 0
  %s1 = insertvalue %S %s0, i32 %n, 1
  %w = add <2 x i32> <i32 10, i32 20>, <i32 5, i32 5>
  %s2 = insertvalue %S %s1, <2 x i32> %w, 2, 0
  store %S %s2, ptr %out, align 16
  ret void
}

; A 2x2 matrix value ([2 x <2 x float>]): column 1 is at byte 8.
; CHECK-LABEL: define void @matrix(
; CHECK-DAG: [[C1:%.*]] = getelementptr inbounds i8, ptr %m, i64 8
; CHECK-DAG: fmul float %{{.*}}, %k
; CHECK-DAG: fmul float %{{.*}}, %k
; CHECK-DAG: fadd float
; CHECK-DAG: fadd float
; CHECK-NOT: {{<[0-9]+ x}}
; CHECK: ret void
define void @matrix(ptr %m, float %k, ptr %out) {
  %a = load [2 x <2 x float>], ptr %m, align 8
  %c0 = extractvalue [2 x <2 x float>] %a, 0
  %c1 = extractvalue [2 x <2 x float>] %a, 1
  %ks = insertelement <2 x float> poison, float %k, i64 0
  %kk = shufflevector <2 x float> %ks, <2 x float> poison, <2 x i32> zeroinitializer
  %d0 = fmul <2 x float> %c0, %kk
  %d1 = fadd <2 x float> %c1, %c0
  %r0 = insertvalue [2 x <2 x float>] poison, <2 x float> %d0, 0
  %r1 = insertvalue [2 x <2 x float>] %r0, <2 x float> %d1, 1
  store [2 x <2 x float>] %r1, ptr %out, align 8
  ret void
}

; Intrinsics returning a struct of vectors: one scalar call per lane.
; CHECK-LABEL: define void @carry(
; CHECK-COUNT-4: call { i32, i1 } @llvm.uadd.with.overflow.i32(i32
; CHECK-COUNT-2: call { float, i32 } @llvm.frexp.f32.i32(float
; CHECK-NOT: {{<[0-9]+ x}}
; CHECK: ret void
define void @carry(ptr %pa, ptr %pb, ptr %out, ptr %fl) {
  %a = load <4 x i32>, ptr %pa, align 16
  %b = load <4 x i32>, ptr %pb, align 16
  %r = call { <4 x i32>, <4 x i1> } @llvm.uadd.with.overflow.v4i32(<4 x i32> %a, <4 x i32> %b)
  %s = extractvalue { <4 x i32>, <4 x i1> } %r, 0
  %o = extractvalue { <4 x i32>, <4 x i1> } %r, 1
  %oz = zext <4 x i1> %o to <4 x i32>
  store <4 x i32> %s, ptr %out, align 16
  store <4 x i32> %oz, ptr %fl, align 16
  %fx = load <2 x float>, ptr %pa, align 8
  %fr = call { <2 x float>, <2 x i32> } @llvm.frexp.v2f32.v2i32(<2 x float> %fx)
  %m = extractvalue { <2 x float>, <2 x i32> } %fr, 0
  %ex = extractvalue { <2 x float>, <2 x i32> } %fr, 1
  store <2 x float> %m, ptr %pb, align 8
  store <2 x i32> %ex, ptr %pa, align 8
  ret void
}

; A struct alloca that escapes keeps its layout as bytes; the whole-struct
; store into it and load from it become per-scalar accesses.
; CHECK-LABEL: define void @escaping(
; CHECK: %t = alloca [48 x i8], align 16
; CHECK-NOT: {{<[0-9]+ x|%S}}
; CHECK: ret void
define void @escaping(ptr %src, ptr %out) {
  %t = alloca %S, align 16
  %v = load %S, ptr %src, align 16
  store %S %v, ptr %t, align 16
  call void @use(ptr %t)
  %w = load %S, ptr %t, align 16
  store %S %w, ptr %out, align 16
  ret void
}

; The same through a global holding a struct with vectors: in the pipeline,
; dxil-data-scalarization gives it the type { [3 x float], i32, [2 x [2 x i32]] }
; (flattened to [4 x i32] by dxil-flatten-arrays).
; DXIL: %S.scalar.flat = type { [3 x float], i32, [4 x i32] }
; DXIL: @gs = internal addrspace(3) global %S.scalar.flat zeroinitializer
@gs = internal addrspace(3) global %S zeroinitializer, align 16
define void @global_copy(ptr %src, ptr %out) {
  %v = load %S, ptr %src, align 16
  store %S %v, ptr addrspace(3) @gs, align 16
  %w = load %S, ptr addrspace(3) @gs, align 16
  store %S %w, ptr %out, align 16
  ret void
}

; A boolean vector member is accessed as the integer of its bits (i4).
; CHECK-LABEL: define void @bits(
; CHECK: load i4, ptr %src
; CHECK: store i4 {{.*}}, ptr %dst
; CHECK-NOT: {{<[0-9]+ x}}
; CHECK: ret void
define void @bits(ptr %src, ptr %dst) {
  %v = load { <4 x i1>, i32 }, ptr %src, align 4
  store { <4 x i1>, i32 } %v, ptr %dst, align 4
  ret void
}

declare void @use(ptr)
declare { <4 x i32>, <4 x i1> } @llvm.uadd.with.overflow.v4i32(<4 x i32>, <4 x i32>)
declare { <2 x float>, <2 x i32> } @llvm.frexp.v2f32.v2i32(<2 x float>)

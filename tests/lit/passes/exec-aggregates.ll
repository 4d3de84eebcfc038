; Execution: vectors inside aggregates. A program with whole-struct copies
; of a struct holding vectors (global -> alloca -> global, through a loop
; phi and a select), a matrix as an array of column vectors, internal
; functions taking and returning vectors and such structs, and intrinsics
; returning a struct of vectors, run under lli before and after each
; pipeline: same output, and after the scalar and DXIL pipelines no vector
; type anywhere (s2l-vector-check).
;
; RUN: lli %s > %t.ref
; RUN: FileCheck %s --check-prefix=OUT < %t.ref
; Each pass alone.
; RUN: %dxilopt -S -passes='function(dxil-scalarizer),verify' %s -o %t.sc.ll
; RUN: lli %t.sc.ll > %t.sc
; RUN: diff %t.ref %t.sc
; RUN: %dxilopt -S -passes='dxil-scalarize-signatures,verify' %s -o %t.sig.ll
; RUN: lli %t.sig.ll > %t.sig
; RUN: diff %t.ref %t.sig
; RUN: %dxilopt -S -passes='dxil-data-scalarization,verify' %s -o %t.ds.ll
; RUN: lli %t.ds.ll > %t.ds
; RUN: diff %t.ref %t.ds
; The scalar pipeline (--backend=scalar).
; RUN: %dxilopt -S -passes='dxil-data-scalarization,function(dxil-scalarizer),dxil-scalarize-signatures,verify' %s -o %t.scalar.ll
; RUN: %vectorcheck %t.scalar.ll
; RUN: lli %t.scalar.ll > %t.scalar
; RUN: diff %t.ref %t.scalar
; The DXIL pipeline (--backend=dxil), linked with the dx.op runtime.
; RUN: %dxilopt -S -passes='dxil-data-scalarization,function(dxil-scalarizer),dxil-scalarize-signatures,dxil-flatten-arrays,dxil-op-lower,verify' %s -o %t.dxil.ll
; RUN: %vectorcheck %t.dxil.ll
; RUN: FileCheck %s --check-prefix=DXIL < %t.dxil.ll
; RUN: llvm-link -S --only-needed %t.dxil.ll %dxilrt -o %t.dxil.linked.ll
; RUN: lli %t.dxil.linked.ll > %t.dxil
; RUN: diff %t.ref %t.dxil
; The scalarizer first (the order before data passes works too).
; RUN: %dxilopt -S -passes='function(dxil-scalarizer),dxil-data-scalarization,dxil-flatten-arrays,dxil-scalarize-signatures,verify' %s -o %t.late.ll 2>&1
; RUN: %vectorcheck %t.late.ll
; RUN: lli %t.late.ll > %t.late
; RUN: diff %t.ref %t.late
; The native-vector pipeline.
; RUN: %dxilopt -S -passes='dxil-native-vectors,dxil-flatten-arrays,dxil-op-lower<vectors>,verify' %s -o %t.nv.ll
; RUN: llvm-link -S --only-needed %t.nv.ll %dxilrt -o %t.nv.linked.ll
; RUN: lli %t.nv.linked.ll > %t.nv
; RUN: diff %t.ref %t.nv

; DXIL: @tab = internal global [2 x %Item.scalar.flat]
; DXIL: define internal [2 x float] @mix([2 x float] %a, [2 x float] %b, float %t)

; Hand-computed: item 1 copied 3 times through the loop, pos + 3*(0.5, 1, 2):
; OUT: item 1.5 3 6.5 id 10 pair 4 5 6 7
; mix((1, 2), (3, 6), 0.25) = (1.5, 3):
; OUT: mix 1.5 3
; (1 2; 3 4) * (5 6; 7 8) = (19 22; 43 50), printed row by row:
; OUT: mat 19 22 43 50
; 0xffffffff + 1 and 10 + 0xfffffffb both carry out:
; OUT: carry 0 1 5 1
; frexp(12) = 0.75 * 2^4, frexp(0.5) = 0.5 * 2^0:
; OUT: frexp 0.75 4 0.5 0
; OUT: sel 4 5 6 7

%Item = type { <3 x float>, i32, [2 x <2 x i32>] }

@tab = internal global [2 x %Item] [
  %Item { <3 x float> <float 1.0, float 2.0, float 3.0>, i32 9, [2 x <2 x i32>] [<2 x i32> <i32 1, i32 2>, <2 x i32> <i32 3, i32 4>] },
  %Item { <3 x float> <float 0.0, float 0.0, float 0.5>, i32 7, [2 x <2 x i32>] [<2 x i32> <i32 4, i32 5>, <2 x i32> <i32 6, i32 7>] }
], align 16
@out = internal global %Item zeroinitializer, align 16

@fitem = private constant [38 x i8] c"item %g %g %g id %d pair %d %d %d %d\0A\00"
@fmix = private constant [11 x i8] c"mix %g %g\0A\00"
@fmat = private constant [17 x i8] c"mat %g %g %g %g\0A\00"
@fcarry = private constant [19 x i8] c"carry %d %d %d %d\0A\00"
@ffrexp = private constant [19 x i8] c"frexp %g %d %g %d\0A\00"
@fsel = private constant [17 x i8] c"sel %d %d %d %d\0A\00"

declare i32 @printf(ptr, ...)

; Internal, vectors in and out.
define internal <2 x float> @mix(<2 x float> %a, <2 x float> %b, float %t) {
  %d = fsub <2 x float> %b, %a
  %ti = insertelement <2 x float> poison, float %t, i64 0
  %ts = shufflevector <2 x float> %ti, <2 x float> poison, <2 x i32> zeroinitializer
  %m = fmul <2 x float> %d, %ts
  %r = fadd <2 x float> %a, %m
  ret <2 x float> %r
}

; Internal, a struct holding vectors in and out.
define internal %Item @bump(%Item %x) {
  %p = extractvalue %Item %x, 0
  %q = fadd <3 x float> %p, <float 0.5, float 1.0, float 2.0>
  %n = extractvalue %Item %x, 1
  %n1 = add i32 %n, 1
  %y = insertvalue %Item %x, <3 x float> %q, 0
  %z = insertvalue %Item %y, i32 %n1, 1
  ret %Item %z
}

; Internal, a matrix ([2 x <2 x float>]) in and out.
define internal [2 x <2 x float>] @matmul([2 x <2 x float>] %a, [2 x <2 x float>] %b) {
  %a0 = extractvalue [2 x <2 x float>] %a, 0
  %a1 = extractvalue [2 x <2 x float>] %a, 1
  %b0 = extractvalue [2 x <2 x float>] %b, 0
  %b1 = extractvalue [2 x <2 x float>] %b, 1
  %b00 = shufflevector <2 x float> %b0, <2 x float> poison, <2 x i32> zeroinitializer
  %b01 = shufflevector <2 x float> %b0, <2 x float> poison, <2 x i32> <i32 1, i32 1>
  %b10 = shufflevector <2 x float> %b1, <2 x float> poison, <2 x i32> zeroinitializer
  %b11 = shufflevector <2 x float> %b1, <2 x float> poison, <2 x i32> <i32 1, i32 1>
  %c0a = fmul <2 x float> %a0, %b00
  %c0b = fmul <2 x float> %a1, %b01
  %c0 = fadd <2 x float> %c0a, %c0b
  %c1a = fmul <2 x float> %a0, %b10
  %c1b = fmul <2 x float> %a1, %b11
  %c1 = fadd <2 x float> %c1a, %c1b
  %r0 = insertvalue [2 x <2 x float>] poison, <2 x float> %c0, 0
  %r1 = insertvalue [2 x <2 x float>] %r0, <2 x float> %c1, 1
  ret [2 x <2 x float>] %r1
}

define i32 @main() {
entry:
  %tmp = alloca %Item, align 16
  %g1 = getelementptr inbounds [2 x %Item], ptr @tab, i32 0, i32 1
  %it = load %Item, ptr %g1, align 16
  br label %loop
loop:
  %cur = phi %Item [ %it, %entry ], [ %next, %loop ]
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  store %Item %cur, ptr %tmp, align 16
  %back = load %Item, ptr %tmp, align 16
  %next = call %Item @bump(%Item %back)
  %k1 = add i32 %k, 1
  %again = icmp slt i32 %k1, 3
  br i1 %again, label %loop, label %exit
exit:
  store %Item %next, ptr @out, align 16
  %o = load %Item, ptr @out, align 16
  %op = extractvalue %Item %o, 0
  %ox = extractelement <3 x float> %op, i32 0
  %oy = extractelement <3 x float> %op, i32 1
  %oz = extractelement <3 x float> %op, i32 2
  %oxd = fpext float %ox to double
  %oyd = fpext float %oy to double
  %ozd = fpext float %oz to double
  %oid = extractvalue %Item %o, 1
  %pa = extractvalue %Item %o, 2, 0
  %pb = extractvalue %Item %o, 2, 1
  %pa0 = extractelement <2 x i32> %pa, i32 0
  %pa1 = extractelement <2 x i32> %pa, i32 1
  %pb0 = extractelement <2 x i32> %pb, i32 0
  %pb1 = extractelement <2 x i32> %pb, i32 1
  call i32 (ptr, ...) @printf(ptr @fitem, double %oxd, double %oyd, double %ozd, i32 %oid, i32 %pa0, i32 %pa1, i32 %pb0, i32 %pb1)

  %mx = call <2 x float> @mix(<2 x float> <float 1.0, float 2.0>, <2 x float> <float 3.0, float 6.0>, float 0.25)
  %mx0 = extractelement <2 x float> %mx, i32 0
  %mx1 = extractelement <2 x float> %mx, i32 1
  %mx0d = fpext float %mx0 to double
  %mx1d = fpext float %mx1 to double
  call i32 (ptr, ...) @printf(ptr @fmix, double %mx0d, double %mx1d)

  %ma = insertvalue [2 x <2 x float>] poison, <2 x float> <float 1.0, float 3.0>, 0
  %ma1 = insertvalue [2 x <2 x float>] %ma, <2 x float> <float 2.0, float 4.0>, 1
  %mb = insertvalue [2 x <2 x float>] poison, <2 x float> <float 5.0, float 7.0>, 0
  %mb1 = insertvalue [2 x <2 x float>] %mb, <2 x float> <float 6.0, float 8.0>, 1
  %mc = call [2 x <2 x float>] @matmul([2 x <2 x float>] %ma1, [2 x <2 x float>] %mb1)
  %mc0 = extractvalue [2 x <2 x float>] %mc, 0
  %mc1 = extractvalue [2 x <2 x float>] %mc, 1
  %m00 = extractelement <2 x float> %mc0, i32 0
  %m10 = extractelement <2 x float> %mc0, i32 1
  %m01 = extractelement <2 x float> %mc1, i32 0
  %m11 = extractelement <2 x float> %mc1, i32 1
  %m00d = fpext float %m00 to double
  %m10d = fpext float %m10 to double
  %m01d = fpext float %m01 to double
  %m11d = fpext float %m11 to double
  call i32 (ptr, ...) @printf(ptr @fmat, double %m00d, double %m01d, double %m10d, double %m11d)

  %ca = insertelement <2 x i32> <i32 -1, i32 2>, i32 %oid, i32 1
  %cb = insertelement <2 x i32> <i32 1, i32 3>, i32 -5, i32 1
  %cr = call { <2 x i32>, <2 x i1> } @llvm.uadd.with.overflow.v2i32(<2 x i32> %ca, <2 x i32> %cb)
  %cs = extractvalue { <2 x i32>, <2 x i1> } %cr, 0
  %co = extractvalue { <2 x i32>, <2 x i1> } %cr, 1
  %cs0 = extractelement <2 x i32> %cs, i32 0
  %cs1 = extractelement <2 x i32> %cs, i32 1
  %co0 = extractelement <2 x i1> %co, i32 0
  %co1 = extractelement <2 x i1> %co, i32 1
  %co0i = zext i1 %co0 to i32
  %co1i = zext i1 %co1 to i32
  call i32 (ptr, ...) @printf(ptr @fcarry, i32 %cs0, i32 %co0i, i32 %cs1, i32 %co1i)

  ; (<4 x float>: LLVM 19's x86 back end cannot widen a <2 x float> frexp.)
  %fr = call { <4 x float>, <4 x i32> } @llvm.frexp.v4f32.v4i32(<4 x float> <float 12.0, float 0.5, float 1.0, float 3.0>)
  %fm = extractvalue { <4 x float>, <4 x i32> } %fr, 0
  %fe = extractvalue { <4 x float>, <4 x i32> } %fr, 1
  %fm0 = extractelement <4 x float> %fm, i32 0
  %fm1 = extractelement <4 x float> %fm, i32 1
  %fe0 = extractelement <4 x i32> %fe, i32 0
  %fe1 = extractelement <4 x i32> %fe, i32 1
  %fm0d = fpext float %fm0 to double
  %fm1d = fpext float %fm1 to double
  call i32 (ptr, ...) @printf(ptr @ffrexp, double %fm0d, i32 %fe0, double %fm1d, i32 %fe1)

  ; A select between two whole structs, on a loaded condition.
  %g0 = getelementptr inbounds [2 x %Item], ptr @tab, i32 0, i32 0
  %i0 = load %Item, ptr %g0, align 16
  %big = icmp ugt i32 %oid, 9
  %sel = select i1 %big, %Item %o, %Item %i0
  %sp = extractvalue %Item %sel, 2
  %sp0 = extractvalue [2 x <2 x i32>] %sp, 0
  %sp1 = extractvalue [2 x <2 x i32>] %sp, 1
  %s0 = extractelement <2 x i32> %sp0, i32 0
  %s1 = extractelement <2 x i32> %sp0, i32 1
  %s2 = extractelement <2 x i32> %sp1, i32 0
  %s3 = extractelement <2 x i32> %sp1, i32 1
  call i32 (ptr, ...) @printf(ptr @fsel, i32 %s0, i32 %s1, i32 %s2, i32 %s3)
  ret i32 0
}

declare { <2 x i32>, <2 x i1> } @llvm.uadd.with.overflow.v2i32(<2 x i32>, <2 x i32>)
declare { <4 x float>, <4 x i32> } @llvm.frexp.v4f32.v4i32(<4 x float>)

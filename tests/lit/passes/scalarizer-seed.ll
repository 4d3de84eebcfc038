; Every IR example of seed dxil-scalarization.md, through dxil-scalarizer
; (which runs SROA, then LLVM's Scalarizer with load/store and variable
; insert/extract scalarization, then DCE). The expected bodies are the seed's.
; RUN: %dxilopt -S -passes='function(dxil-scalarizer)' %s | %opt -S -passes=verify | FileCheck %s
; No vector operation is left: vectors only remain at the signatures of the
; functions that take or return them (extracts at entry, inserts at return).
; RUN: %dxilopt -S -passes='function(dxil-scalarizer)' %s | FileCheck %s --check-prefix=NOVEC

declare i8 @use(ptr)

; "Allocas and what SROA can do for us": the temporary splits in two, the
; memcpy too, alignment is denoted.
; CHECK-LABEL: define void @test(i7 %x) {
; CHECK-NEXT:  bb:
; CHECK-NEXT:    %res = alloca [2 x i8], align 1
; CHECK-NEXT:    %tmp.sroa.0 = alloca i1, align 8
; CHECK-NEXT:    %tmp.sroa.1 = alloca i3, align 1
; CHECK-NEXT:    store i7 %x, ptr %tmp.sroa.1, align 1
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 1 %res, ptr align 8 %tmp.sroa.0, i64 1, i1 false)
; CHECK-NEXT:    %tmp.sroa.1.0.res.sroa_idx = getelementptr inbounds i8, ptr %res, i64 1
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 1 %tmp.sroa.1.0.res.sroa_idx, ptr align 1 %tmp.sroa.1, i64 1, i1 false)
; CHECK-NEXT:    %0 = call i8 @use(ptr %res)
; CHECK-NEXT:    ret void
define void @test(i7 %x) {
bb:
  %res = alloca [2 x i8]
  %tmp = alloca { i1, i3 }
  %tmp.1 = getelementptr i8, ptr %tmp, i64 1
  store i7 %x, ptr %tmp.1
  call void @llvm.memcpy.p0.p0.i64(ptr %res, ptr %tmp, i64 2, i1 false)
  call i8 @use(ptr %res)
  ret void
}

; The vector alloca is gone.
; CHECK-LABEL: define <4 x float> @test_vec(<4 x float> %x) {
; CHECK-NEXT:  bb:
; CHECK-NEXT:    ret <4 x float> %x
define  <4 x float>  @test_vec( <4 x float> %x) {
bb:
  %res = alloca <4 x float>
  store <4 x float> %x, <4 x float>* %res
  %val = load <4 x float>, ptr %res
  ret <4 x float> %val
}

; CHECK-LABEL: define noundef <4 x float> @cos_sin_float_test(<4 x float> noundef %0) {
; CHECK-NEXT:    %.i0 = extractelement <4 x float> %0, i64 0
; CHECK-NEXT:    %.i01 = call float @llvm.sin.f32(float %.i0)
; CHECK-NEXT:    %.i1 = extractelement <4 x float> %0, i64 1
; CHECK-NEXT:    %.i12 = call float @llvm.sin.f32(float %.i1)
; CHECK-NEXT:    %.i2 = extractelement <4 x float> %0, i64 2
; CHECK-NEXT:    %.i23 = call float @llvm.sin.f32(float %.i2)
; CHECK-NEXT:    %.i3 = extractelement <4 x float> %0, i64 3
; CHECK-NEXT:    %.i34 = call float @llvm.sin.f32(float %.i3)
; CHECK-NEXT:    %.i05 = call float @llvm.cos.f32(float %.i01)
; CHECK-NEXT:    %.i16 = call float @llvm.cos.f32(float %.i12)
; CHECK-NEXT:    %.i27 = call float @llvm.cos.f32(float %.i23)
; CHECK-NEXT:    %.i38 = call float @llvm.cos.f32(float %.i34)
; CHECK-NEXT:    %.upto09 = insertelement <4 x float> poison, float %.i05, i64 0
; CHECK-NEXT:    %.upto110 = insertelement <4 x float> %.upto09, float %.i16, i64 1
; CHECK-NEXT:    %.upto211 = insertelement <4 x float> %.upto110, float %.i27, i64 2
; CHECK-NEXT:    %2 = insertelement <4 x float> %.upto211, float %.i38, i64 3
; CHECK-NEXT:    ret <4 x float> %2
define noundef <4 x float> @cos_sin_float_test(<4 x float> noundef %0) {
  %2 = tail call <4 x float> @llvm.sin.v4f32(<4 x float> %0)
  %3 = tail call <4 x float> @llvm.cos.v4f32(<4 x float> %2)
  ret <4 x float> %3
}

; "Example 2 Cleanup": the dead sin chain goes, the extracts are shared.
; CHECK-LABEL: define noundef <4 x float> @cos_sin_float_test2(<4 x float> noundef %a) {
; CHECK-NEXT:    %a.i3 = extractelement <4 x float> %a, i64 3
; CHECK-NEXT:    %a.i2 = extractelement <4 x float> %a, i64 2
; CHECK-NEXT:    %a.i1 = extractelement <4 x float> %a, i64 1
; CHECK-NEXT:    %a.i0 = extractelement <4 x float> %a, i64 0
; CHECK-NEXT:    %Cos = call float @llvm.cos.f32(float %a.i0)
; CHECK-NEXT:    %Cos1 = call float @llvm.cos.f32(float %a.i1)
; CHECK-NEXT:    %Cos2 = call float @llvm.cos.f32(float %a.i2)
; CHECK-NEXT:    %Cos3 = call float @llvm.cos.f32(float %a.i3)
; CHECK-NEXT:    %.upto016 = insertelement <4 x float> poison, float %Cos, i64 0
; CHECK-NEXT:    %.upto117 = insertelement <4 x float> %.upto016, float %Cos1, i64 1
; CHECK-NEXT:    %.upto218 = insertelement <4 x float> %.upto117, float %Cos2, i64 2
; CHECK-NEXT:    %1 = insertelement <4 x float> %.upto218, float %Cos3, i64 3
; CHECK-NEXT:    ret <4 x float> %1
define noundef <4 x float> @cos_sin_float_test2(<4 x float> noundef %a) {
  %1 = extractelement <4 x float> %a, i64 0
  %Sin = call float  @llvm.sin.f32(float %1)
  %2 = insertelement <4 x float> undef, float %Sin, i64 0
  %3 = extractelement <4 x float> %a, i64 1
  %Sin1 = call float  @llvm.sin.f32(float %3)
  %4 = insertelement <4 x float> %2, float %Sin1, i64 1
  %5 = extractelement <4 x float> %a, i64 2
  %Sin2 = call float  @llvm.sin.f32(float %5)
  %6 = insertelement <4 x float> %4, float %Sin2, i64 2
  %7 = extractelement <4 x float> %a, i64 3
  %Sin3 = call float  @llvm.sin.f32(float %7)
  %8 = insertelement <4 x float> %6, float %Sin3, i64 3
   %9 = extractelement <4 x float> %a, i64 0
  %Cos = call float  @llvm.cos.f32(float %9)
  %10 = insertelement <4 x float> undef, float %Cos, i64 0
  %11 = extractelement <4 x float> %a, i64 1
  %Cos1 = call float  @llvm.cos.f32(float %11)
  %12 = insertelement <4 x float> %10, float %Cos1, i64 1
  %13 = extractelement <4 x float> %a, i64 2
  %Cos2 = call float  @llvm.cos.f32(float %13)
  %14 = insertelement <4 x float> %12, float %Cos2, i64 2
  %15 = extractelement <4 x float> %a, i64 3
  %Cos3 = call float  @llvm.cos.f32(float %15)
  %16 = insertelement <4 x float> %14, float %Cos3, i64 3
  ret <4 x float> %16
}

; "Example 3 add and mul".
; CHECK-LABEL: define <4 x float> @add_float_int(<4 x float> %0, <4 x float> %1) {
; CHECK-NEXT:    %.i0 = extractelement <4 x float> %0, i64 0
; CHECK-NEXT:    %.i01 = extractelement <4 x float> %1, i64 0
; CHECK-NEXT:    %.i02 = fadd float %.i0, %.i01
; CHECK-NEXT:    %.i1 = extractelement <4 x float> %0, i64 1
; CHECK-NEXT:    %.i13 = extractelement <4 x float> %1, i64 1
; CHECK-NEXT:    %.i14 = fadd float %.i1, %.i13
; CHECK-NEXT:    %.i2 = extractelement <4 x float> %0, i64 2
; CHECK-NEXT:    %.i25 = extractelement <4 x float> %1, i64 2
; CHECK-NEXT:    %.i26 = fadd float %.i2, %.i25
; CHECK-NEXT:    %.i3 = extractelement <4 x float> %0, i64 3
; CHECK-NEXT:    %.i37 = extractelement <4 x float> %1, i64 3
; CHECK-NEXT:    %.i38 = fadd float %.i3, %.i37
; CHECK-NEXT:    %.upto0 = insertelement <4 x float> poison, float %.i02, i64 0
; CHECK-NEXT:    %.upto1 = insertelement <4 x float> %.upto0, float %.i14, i64 1
; CHECK-NEXT:    %.upto2 = insertelement <4 x float> %.upto1, float %.i26, i64 2
; CHECK-NEXT:    %3 = insertelement <4 x float> %.upto2, float %.i38, i64 3
; CHECK-NEXT:    ret <4 x float> %3
define <4 x float> @add_float_int(<4 x float> %0, <4 x float> %1)  {
  %4 = fadd <4 x float> %0, %1
  ret <4 x float> %4
}

; CHECK-LABEL: define <4 x float> @mul_float_int(<4 x float> %0, <4 x float> %1) {
; CHECK-NEXT:    %.i0 = extractelement <4 x float> %0, i64 0
; CHECK-NEXT:    %.i01 = extractelement <4 x float> %1, i64 0
; CHECK-NEXT:    %.i02 = fmul float %.i0, %.i01
; CHECK-NEXT:    %.i1 = extractelement <4 x float> %0, i64 1
; CHECK-NEXT:    %.i13 = extractelement <4 x float> %1, i64 1
; CHECK-NEXT:    %.i14 = fmul float %.i1, %.i13
; CHECK-NEXT:    %.i2 = extractelement <4 x float> %0, i64 2
; CHECK-NEXT:    %.i25 = extractelement <4 x float> %1, i64 2
; CHECK-NEXT:    %.i26 = fmul float %.i2, %.i25
; CHECK-NEXT:    %.i3 = extractelement <4 x float> %0, i64 3
; CHECK-NEXT:    %.i37 = extractelement <4 x float> %1, i64 3
; CHECK-NEXT:    %.i38 = fmul float %.i3, %.i37
; CHECK-NEXT:    %.upto0 = insertelement <4 x float> poison, float %.i02, i64 0
; CHECK-NEXT:    %.upto1 = insertelement <4 x float> %.upto0, float %.i14, i64 1
; CHECK-NEXT:    %.upto2 = insertelement <4 x float> %.upto1, float %.i26, i64 2
; CHECK-NEXT:    %3 = insertelement <4 x float> %.upto2, float %.i38, i64 3
; CHECK-NEXT:    ret <4 x float> %3
define <4 x float> @mul_float_int(<4 x float> %0, <4 x float> %1)  {
  %4 = fmul <4 x float> %0, %1
  ret <4 x float> %4
}

; "BitCast": per-element bitcasts.
; CHECK-LABEL: define <4 x float> @add_float_int_bc(<4 x float> %0, <4 x i32> %1) {
; CHECK-NEXT:    %.i05 = extractelement <4 x float> %0, i64 0
; CHECK-NEXT:    %.i17 = extractelement <4 x float> %0, i64 1
; CHECK-NEXT:    %.i29 = extractelement <4 x float> %0, i64 2
; CHECK-NEXT:    %.i311 = extractelement <4 x float> %0, i64 3
; CHECK-NEXT:    %.i0 = extractelement <4 x i32> %1, i64 0
; CHECK-NEXT:    %.i01 = bitcast i32 %.i0 to float
; CHECK-NEXT:    %.i1 = extractelement <4 x i32> %1, i64 1
; CHECK-NEXT:    %.i12 = bitcast i32 %.i1 to float
; CHECK-NEXT:    %.i2 = extractelement <4 x i32> %1, i64 2
; CHECK-NEXT:    %.i23 = bitcast i32 %.i2 to float
; CHECK-NEXT:    %.i3 = extractelement <4 x i32> %1, i64 3
; CHECK-NEXT:    %.i34 = bitcast i32 %.i3 to float
; CHECK-NEXT:    %.i06 = fadd float %.i05, %.i01
; CHECK-NEXT:    %.i18 = fadd float %.i17, %.i12
; CHECK-NEXT:    %.i210 = fadd float %.i29, %.i23
; CHECK-NEXT:    %.i312 = fadd float %.i311, %.i34
; CHECK-NEXT:    %.upto013 = insertelement <4 x float> poison, float %.i06, i64 0
; CHECK-NEXT:    %.upto114 = insertelement <4 x float> %.upto013, float %.i18, i64 1
; CHECK-NEXT:    %.upto215 = insertelement <4 x float> %.upto114, float %.i210, i64 2
; CHECK-NEXT:    %3 = insertelement <4 x float> %.upto215, float %.i312, i64 3
; CHECK-NEXT:    ret <4 x float> %3
define <4 x float> @add_float_int_bc(<4 x float> %0, <4 x i32> %1)  {
  %3 = bitcast <4 x i32> %1 to <4 x float>
  %4 = fadd <4 x float> %0, %3
  ret <4 x float> %4
}

; CHECK-LABEL: define <4 x float> @mul_float_int_bc(<4 x float> %0, <4 x i32> %1) {
; CHECK-NEXT:    %.i05 = extractelement <4 x float> %0, i64 0
; CHECK-NEXT:    %.i17 = extractelement <4 x float> %0, i64 1
; CHECK-NEXT:    %.i29 = extractelement <4 x float> %0, i64 2
; CHECK-NEXT:    %.i311 = extractelement <4 x float> %0, i64 3
; CHECK-NEXT:    %.i0 = extractelement <4 x i32> %1, i64 0
; CHECK-NEXT:    %.i01 = bitcast i32 %.i0 to float
; CHECK-NEXT:    %.i1 = extractelement <4 x i32> %1, i64 1
; CHECK-NEXT:    %.i12 = bitcast i32 %.i1 to float
; CHECK-NEXT:    %.i2 = extractelement <4 x i32> %1, i64 2
; CHECK-NEXT:    %.i23 = bitcast i32 %.i2 to float
; CHECK-NEXT:    %.i3 = extractelement <4 x i32> %1, i64 3
; CHECK-NEXT:    %.i34 = bitcast i32 %.i3 to float
; CHECK-NEXT:    %.i06 = fmul float %.i05, %.i01
; CHECK-NEXT:    %.i18 = fmul float %.i17, %.i12
; CHECK-NEXT:    %.i210 = fmul float %.i29, %.i23
; CHECK-NEXT:    %.i312 = fmul float %.i311, %.i34
; CHECK-NEXT:    %.upto013 = insertelement <4 x float> poison, float %.i06, i64 0
; CHECK-NEXT:    %.upto114 = insertelement <4 x float> %.upto013, float %.i18, i64 1
; CHECK-NEXT:    %.upto215 = insertelement <4 x float> %.upto114, float %.i210, i64 2
; CHECK-NEXT:    %3 = insertelement <4 x float> %.upto215, float %.i312, i64 3
; CHECK-NEXT:    ret <4 x float> %3
define <4 x float> @mul_float_int_bc(<4 x float> %0, <4 x i32> %1)  {
  %3 = bitcast <4 x i32> %1 to <4 x float>
  %4 = fmul <4 x float> %0, %3
  ret <4 x float> %4
}

; Between the entry extracts and the return inserts, everything is scalar:
; NOVEC-LABEL: define noundef <4 x float> @cos_sin_float_test(
; NOVEC:         extractelement <4 x float> %0, i64 3
; NOVEC-NOT:     <4 x float> @llvm
; NOVEC:         insertelement <4 x float> poison
; NOVEC-LABEL: define <4 x float> @add_float_int_bc(
; NOVEC-NOT:     bitcast <4 x i32>
; NOVEC-NOT:     fadd <4 x float>
; NOVEC:         ret <4 x float>

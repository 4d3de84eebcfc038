; dxil-data-scalarization (seed dxil-data-scalarization.md): vectors in
; static, global and groupshared data become arrays (vecM -> [M x T],
; [N x vecM] -> [N x [M x T]], also inside structs), initializers and every
; use rewritten. Run alone (vector accesses are split into element accesses)
; and in the DXIL pipeline (then flattened to one dimension).
; RUN: %dxilopt -S -passes=dxil-data-scalarization %s 2>%t.err | %opt -S -passes=verify | FileCheck %s
; RUN: FileCheck %s --check-prefix=WARN < %t.err
; RUN: %dxilopt -S -passes='function(dxil-scalarizer),dxil-data-scalarization,dxil-flatten-arrays' %s 2>/dev/null | %opt -S -passes=verify | FileCheck %s --check-prefix=PIPE
; The escaping @esc is the only global left with a vector type, and
; functions without vector parameters or results have no vector left:
; RUN: %dxilopt -S -passes='function(dxil-scalarizer),dxil-data-scalarization,dxil-flatten-arrays' %s 2>/dev/null | grep -v -e '^@esc' | FileCheck %s --check-prefix=NOVEC
; NOVEC-NOT:   <{{[0-9]+}} x
; NOVEC-LABEL: define <4 x float> @whole()
; NOVEC-LABEL: define void @bytes
; NOVEC-NOT:   <{{[0-9]+}} x
; NOVEC:       ret void
; NOVEC-LABEL: define void @structs
; NOVEC-NOT:   <{{[0-9]+}} x
; NOVEC:       ret void

; CHECK: @sv = internal global [4 x float] [float 1.000000e+00, float 2.000000e+00, float 3.000000e+00, float 4.000000e+00], align 16
; CHECK: @sarr = internal global [2 x [3 x i32]] {{\[}}[3 x i32] [i32 1, i32 2, i32 3], [3 x i32] [i32 4, i32 5, i32 6]], align 16
; CHECK: @gs = internal addrspace(3) global [4 x [2 x float]] zeroinitializer, align 8
; CHECK: @st = internal global { [2 x float], i32, [2 x [3 x float]] } { [2 x float] [float 1.000000e+00, float 2.000000e+00], i32 3, [2 x [3 x float]] {{\[}}[3 x float] [float 4.000000e+00, float 5.000000e+00, float 6.000000e+00], [3 x float] [float 7.000000e+00, float 8.000000e+00, float 9.000000e+00]] }, align 16
; An object with a use the pass cannot follow is left as it was, with a warning.
; CHECK: @esc = internal global <2 x i32> zeroinitializer
; WARN: warning: dxil-data-scalarization: @esc left unchanged: unsupported use: {{.*}}call void @sink(ptr @esc)

; PIPE: @sv = internal global [4 x float] [float 1.000000e+00, float 2.000000e+00, float 3.000000e+00, float 4.000000e+00], align 16
; PIPE: @sarr = internal global [6 x i32] [i32 1, i32 2, i32 3, i32 4, i32 5, i32 6], align 16
; PIPE: @gs = internal addrspace(3) global [8 x float] zeroinitializer, align 8
; PIPE: @st = internal global { [2 x float], i32, [6 x float] } { [2 x float] [float 1.000000e+00, float 2.000000e+00], i32 3, [6 x float] [float 4.000000e+00, float 5.000000e+00, float 6.000000e+00, float 7.000000e+00, float 8.000000e+00, float 9.000000e+00] }, align 16

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
@sv = internal global <4 x float> <float 1.0, float 2.0, float 3.0, float 4.0>, align 16
@sarr = internal global [2 x <3 x i32>] [<3 x i32> <i32 1, i32 2, i32 3>, <3 x i32> <i32 4, i32 5, i32 6>], align 16
@gs = internal addrspace(3) global [4 x <2 x float>] zeroinitializer, align 8
@st = internal global { <2 x float>, i32, [2 x <3 x float>] } { <2 x float> <float 1.0, float 2.0>, i32 3, [2 x <3 x float>] [<3 x float> <float 4.0, float 5.0, float 6.0>, <3 x float> <float 7.0, float 8.0, float 9.0>] }, align 16
@esc = internal global <2 x i32> zeroinitializer
declare void @sink(ptr)

; A whole-vector load becomes element loads rebuilt into the vector value.
; CHECK-LABEL: define <4 x float> @whole()
; CHECK-NEXT:    %1 = load float, ptr @sv, align 4
; CHECK-NEXT:    %2 = load float, ptr getelementptr ([4 x float], ptr @sv, i32 0, i32 1), align 4
; CHECK-NEXT:    %3 = load float, ptr getelementptr ([4 x float], ptr @sv, i32 0, i32 2), align 4
; CHECK-NEXT:    %4 = load float, ptr getelementptr ([4 x float], ptr @sv, i32 0, i32 3), align 4
; CHECK-NEXT:    %5 = insertelement <4 x float> poison, float %1, i64 0
; CHECK-NEXT:    %6 = insertelement <4 x float> %5, float %2, i64 1
; CHECK-NEXT:    %7 = insertelement <4 x float> %6, float %3, i64 2
; CHECK-NEXT:    %v = insertelement <4 x float> %7, float %4, i64 3
; CHECK-NEXT:    ret <4 x float> %v
define <4 x float> @whole() {
  %v = load <4 x float>, ptr @sv, align 16
  ret <4 x float> %v
}

; i8 GEPs with byte offsets into the padded vec3 layout (16 = [1][0],
; 20 = [1][1]) and a dynamic typed GEP.
; CHECK-LABEL: define void @bytes(
; CHECK-NEXT:    %a = load i32, ptr getelementptr ([2 x [3 x i32]], ptr @sarr, i32 0, i32 1, i32 0), align 4
; CHECK-NEXT:    %b = load i32, ptr getelementptr ([2 x [3 x i32]], ptr @sarr, i32 0, i32 1, i32 1), align 4
; CHECK-NEXT:    %1 = getelementptr [2 x [3 x i32]], ptr @sarr, i32 0, i32 %i, i32 2
; CHECK-NEXT:    %c = load i32, ptr %1, align 4
; PIPE-LABEL: define void @bytes(
; PIPE-NEXT:    %a = load i32, ptr getelementptr ([6 x i32], ptr @sarr, i32 0, i32 3), align 4
; PIPE-NEXT:    %b = load i32, ptr getelementptr ([6 x i32], ptr @sarr, i32 0, i32 4), align 4
; PIPE-NEXT:    %1 = mul i32 %i, 3
; PIPE-NEXT:    %2 = add i32 %1, 2
; PIPE-NEXT:    %3 = getelementptr [6 x i32], ptr @sarr, i32 0, i32 %2
; PIPE-NEXT:    %c = load i32, ptr %3, align 4
define void @bytes(i32 %i, ptr %out) {
  %a = load i32, ptr getelementptr (i8, ptr @sarr, i32 16)
  %b = load i32, ptr getelementptr (i8, ptr @sarr, i32 20)
  %p = getelementptr [2 x <3 x i32>], ptr @sarr, i32 0, i32 %i, i32 2
  %c = load i32, ptr %p
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  store i32 %t, ptr %out
  ret void
}

; Groupshared: vec2 has no padding, so memset and memcpy stay single calls
; over the new array; the dynamically indexed vector store is split.
; CHECK-LABEL: define void @groupshared(
; CHECK-NEXT:    call void @llvm.memset.p3.i64(ptr addrspace(3) @gs, i8 0, i64 32, i1 false)
; CHECK-NEXT:    %1 = extractelement <2 x float> %v, i64 0
; CHECK-NEXT:    %2 = extractelement <2 x float> %v, i64 1
; CHECK-NEXT:    %3 = getelementptr [4 x [2 x float]], ptr addrspace(3) @gs, i32 0, i32 %i, i32 0
; CHECK-NEXT:    store float %1, ptr addrspace(3) %3, align 4
; CHECK-NEXT:    %4 = getelementptr [4 x [2 x float]], ptr addrspace(3) @gs, i32 0, i32 %i, i32 1
; CHECK-NEXT:    store float %2, ptr addrspace(3) %4, align 4
; CHECK-NEXT:    call void @llvm.memcpy.p0.p3.i64(ptr %out, ptr addrspace(3) @gs, i64 32, i1 false)
define void @groupshared(i32 %i, <2 x float> %v, ptr %out) {
  call void @llvm.memset.p3.i64(ptr addrspace(3) @gs, i8 0, i64 32, i1 false)
  %p = getelementptr [4 x <2 x float>], ptr addrspace(3) @gs, i32 0, i32 %i
  store <2 x float> %v, ptr addrspace(3) %p
  call void @llvm.memcpy.p0.p3.i64(ptr %out, ptr addrspace(3) @gs, i64 32, i1 false)
  ret void
}

; A struct holding vectors: the memcpy out of it (old layout on the other
; side) becomes element copies that skip the old padding.
; CHECK-LABEL: define void @structs(
; CHECK-NEXT:    %1 = load float, ptr @st, align 4
; CHECK-NEXT:    %2 = load float, ptr getelementptr ({ [2 x float], i32, [2 x [3 x float]] }, ptr @st, i32 0, i32 0, i32 1), align 4
; CHECK-NEXT:    %3 = load i32, ptr getelementptr ({ [2 x float], i32, [2 x [3 x float]] }, ptr @st, i32 0, i32 1), align 4
; CHECK-NEXT:    %4 = load float, ptr getelementptr ({ [2 x float], i32, [2 x [3 x float]] }, ptr @st, i32 0, i32 2, i32 0, i32 0), align 4
; CHECK:         %9 = load float, ptr getelementptr ({ [2 x float], i32, [2 x [3 x float]] }, ptr @st, i32 0, i32 2, i32 1, i32 2), align 4
; CHECK-NEXT:    store float %1, ptr %out, align 4
; CHECK:         %[[O:.*]] = getelementptr i8, ptr %out, i64 16
; CHECK-NEXT:    store float %4, ptr %[[O]], align 4
; CHECK:         %[[L:.*]] = getelementptr i8, ptr %out, i64 40
; CHECK-NEXT:    store float %9, ptr %[[L]], align 4
; CHECK-NEXT:    store float 5.000000e-01, ptr getelementptr ({ [2 x float], i32, [2 x [3 x float]] }, ptr @st, i32 0, i32 2, i32 1, i32 2), align 4
define void @structs(ptr %out) {
  call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr @st, i64 64, i1 false)
  %f = getelementptr { <2 x float>, i32, [2 x <3 x float>] }, ptr @st, i32 0, i32 2, i32 1, i32 2
  store float 0.5, ptr %f
  ret void
}

; CHECK-LABEL: define void @escape(
; CHECK-NEXT:    call void @sink(ptr @esc)
define void @escape() {
  call void @sink(ptr @esc)
  ret void
}

; Negative constants stay with their index: in the padded vec3 layout,
; [i][j-1] and [i-1][j] are different from what one combined byte offset
; would suggest, and are kept apart.
; CHECK-LABEL: define i32 @neg(
; CHECK:         getelementptr [2 x [3 x i32]], ptr @sarr, i32 0, i32 %i, i32 %j1
; CHECK:         getelementptr [2 x [3 x i32]], ptr @sarr, i32 0, i32 %i1, i32 %j
define i32 @neg(i32 %i, i32 %j) {
  %j1 = add nsw i32 %j, -1
  %i1 = add nsw i32 %i, -1
  %p = getelementptr inbounds [2 x <3 x i32>], ptr @sarr, i32 0, i32 %i, i32 %j1
  %q = getelementptr inbounds [2 x <3 x i32>], ptr @sarr, i32 0, i32 %i1, i32 %j
  %a = load i32, ptr %p
  %b = load i32, ptr %q
  %s = add i32 %a, %b
  ret i32 %s
}

; dxil-flatten-arrays: multi-dimensional arrays (globals, groupshared,
; allocas, inside structs) become one-dimensional; typed GEPs, i8 GEPs with
; constant and dynamic byte offsets, loads, stores, memset and memcpy are
; rewritten to index the flat array. Initializers are flattened in order.
; RUN: %dxilopt -S -passes=dxil-flatten-arrays %s | %opt -S -passes=verify | FileCheck %s
; No multi-dimensional array is left in memory (the SSA aggregate that
; @whole returns keeps its type; its lines are dropped before the check):
; RUN: %dxilopt -S -passes=dxil-flatten-arrays %s | grep -v -e insertvalue -e '@whole' -e 'ret \[' | FileCheck %s --check-prefix=FLAT --implicit-check-not='x ['
; FLAT: define i32 @typed

; CHECK: @m = internal global [6 x i32] [i32 1, i32 2, i32 3, i32 4, i32 5, i32 6], align 4
; CHECK: @cube = internal addrspace(3) global [24 x float] zeroinitializer, align 4
; CHECK: @sa = internal global { i32, [4 x i32] } { i32 9, [4 x i32] [i32 1, i32 2, i32 3, i32 4] }
@m = internal global [2 x [3 x i32]] [[3 x i32] [i32 1, i32 2, i32 3], [3 x i32] [i32 4, i32 5, i32 6]], align 4
@cube = internal addrspace(3) global [2 x [3 x [4 x float]]] zeroinitializer, align 4
@sa = internal global { i32, [2 x [2 x i32]] } { i32 9, [2 x [2 x i32]] [[2 x i32] [i32 1, i32 2], [2 x i32] [i32 3, i32 4]] }

; [i][j] -> i*3 + j; a GEP stepping over rows ([3 x i32] source, index 1)
; is decoded too: row 1, column 2 = element 5.
; CHECK-LABEL: define i32 @typed(
; CHECK-NEXT:    %1 = mul i32 %i, 3
; CHECK-NEXT:    %2 = add i32 %1, %j
; CHECK-NEXT:    %3 = getelementptr [6 x i32], ptr @m, i32 0, i32 %2
; CHECK-NEXT:    %v = load i32, ptr %3, align 4
; CHECK-NEXT:    %w = load i32, ptr getelementptr ([6 x i32], ptr @m, i32 0, i32 5), align 4
define i32 @typed(i32 %i, i32 %j) {
  %p = getelementptr [2 x [3 x i32]], ptr @m, i32 0, i32 %i, i32 %j
  %v = load i32, ptr %p
  %q = getelementptr inbounds [3 x i32], ptr @m, i32 1, i32 2
  %w = load i32, ptr %q
  %s = add i32 %v, %w
  ret i32 %s
}

; Byte 52 of [2 x [3 x [4 x float]]] is [1][0][1] = element 13; %i*48 + 20
; is [%i][1][1] = ((%i*3 + 1)*4 + 1).
; CHECK-LABEL: define float @bytes(
; CHECK-NEXT:    %a = load float, ptr addrspace(3) getelementptr ([24 x float], ptr addrspace(3) @cube, i32 0, i32 13), align 4
; CHECK-NEXT:    %1 = mul i32 %i, 3
; CHECK-NEXT:    %2 = add i32 %1, 1
; CHECK-NEXT:    %3 = mul i32 %2, 4
; CHECK-NEXT:    %4 = add i32 %3, 1
; CHECK-NEXT:    %5 = getelementptr [24 x float], ptr addrspace(3) @cube, i32 0, i32 %4
; CHECK-NEXT:    %b = load float, ptr addrspace(3) %5, align 4
define float @bytes(i32 %i) {
  %a = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @cube, i32 52)
  %o = mul i32 %i, 48
  %p = getelementptr i8, ptr addrspace(3) @cube, i32 %o
  %q = getelementptr i8, ptr addrspace(3) %p, i32 20
  %b = load float, ptr addrspace(3) %q
  %s = fadd float %a, %b
  ret float %s
}

; Allocas too; a memcpy into a dynamically selected row, a row load, and a
; nested array inside a struct indexed dynamically.
; CHECK-LABEL: define void @memops(
; CHECK-NEXT:    %loc = alloca [6 x i32], align 4
; CHECK-NEXT:    %1 = getelementptr [6 x i32], ptr %loc, i32 0, i32 0
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr %1, i8 0, i64 24, i1 false)
; CHECK-NEXT:    %2 = mul i32 %i, 2
; CHECK-NEXT:    %3 = getelementptr [6 x i32], ptr %loc, i32 0, i32 %2
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %3, ptr @m, i64 8, i1 false)
; CHECK-NEXT:    %4 = mul i32 %i, 2
; CHECK-NEXT:    %5 = getelementptr [6 x i32], ptr %loc, i32 0, i32 %4
; CHECK-NEXT:    %row = load [2 x i32], ptr %5, align 4
; CHECK-NEXT:    store [2 x i32] %row, ptr %out, align 4
; CHECK-NEXT:    %6 = add i32 2, %i
; CHECK-NEXT:    %7 = getelementptr { i32, [4 x i32] }, ptr @sa, i32 0, i32 1, i32 %6
; CHECK-NEXT:    store i32 7, ptr %7, align 4
define void @memops(i32 %i, ptr %out) {
  %loc = alloca [3 x [2 x i32]], align 4
  call void @llvm.memset.p0.i64(ptr %loc, i8 0, i64 24, i1 false)
  %r = getelementptr [3 x [2 x i32]], ptr %loc, i32 0, i32 %i
  call void @llvm.memcpy.p0.p0.i64(ptr %r, ptr @m, i64 8, i1 false)
  %row = load [2 x i32], ptr %r
  store [2 x i32] %row, ptr %out
  %x = getelementptr { i32, [2 x [2 x i32]] }, ptr @sa, i32 0, i32 1, i32 1, i32 %i
  store i32 7, ptr %x
  ret void
}

; A whole 2-D load is rebuilt element by element from the flat array.
; CHECK-LABEL: define [2 x [3 x i32]] @whole(
; CHECK:         load i32, ptr getelementptr ([6 x i32], ptr @m, i32 0, i32 5), align 4
; CHECK:         insertvalue [2 x [3 x i32]]
; CHECK-NOT:     load [2 x [3 x i32]]
define [2 x [3 x i32]] @whole() {
  %v = load [2 x [3 x i32]], ptr @m
  ret [2 x [3 x i32]] %v
}

; Index arithmetic with a negative constant part (m[i][j - 1]) keeps the
; constant with its index.
; CHECK-LABEL: define i32 @neg(
; CHECK-NEXT:    %j1 = add nsw i32 %j, -1
; CHECK-NEXT:    %1 = mul i32 %i, 3
; CHECK-NEXT:    %2 = add i32 %1, %j1
; CHECK-NEXT:    %3 = getelementptr [6 x i32], ptr @m, i32 0, i32 %2
; CHECK-NEXT:    %v = load i32, ptr %3, align 4
define i32 @neg(i32 %i, i32 %j) {
  %j1 = add nsw i32 %j, -1
  %p = getelementptr inbounds [2 x [3 x i32]], ptr @m, i32 0, i32 %i, i32 %j1
  %v = load i32, ptr %p
  ret i32 %v
}

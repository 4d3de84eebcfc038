; The scalarizer before the data passes (the order the issue first had):
; dxil-scalarizer keeps a global's type and rewrites its vector accesses as
; scalar accesses at byte offsets, which dxil-data-scalarization must then
; decode. Offsets are computed in the widest index type (an i64 index next
; to i32 ones is not truncated), so the 3-D groupshared array of vec2 is
; rewritten with no "left unchanged" warning.
; RUN: %dxilopt -S -passes='function(dxil-scalarizer),dxil-data-scalarization,dxil-flatten-arrays,verify' %s 2>%t.err -o %t.ll
; RUN: count 0 < %t.err
; RUN: FileCheck %s < %t.ll
; RUN: %vectorcheck %t.ll

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; CHECK: @grid = internal addrspace(3) global [288 x float] zeroinitializer
@grid = internal addrspace(3) global [2 x [8 x [9 x <2 x float>]]] zeroinitializer, align 16

; grid[a][b][c].y is element ((a * 8 + b) * 9 + c) * 2 + 1 of the flat array.
; CHECK-LABEL: define float @f(
; CHECK-NOT: trunc
; CHECK: getelementptr [288 x float], ptr addrspace(3) @grid, i32 0, i64
; CHECK-NOT: <2 x float>
; CHECK: ret float
define float @f(i64 %a, i32 %b, i32 %c, float %x) {
  %p = getelementptr inbounds [2 x [8 x [9 x <2 x float>]]], ptr addrspace(3) @grid, i32 0, i64 %a, i32 %b, i32 %c
  %v = insertelement <2 x float> poison, float %x, i64 0
  %w = insertelement <2 x float> %v, float 2.0, i64 1
  store <2 x float> %w, ptr addrspace(3) %p, align 8
  %q = getelementptr inbounds [2 x [8 x [9 x <2 x float>]]], ptr addrspace(3) @grid, i32 0, i32 %b, i64 %a, i32 %c, i32 1
  %r = load float, ptr addrspace(3) %q, align 4
  ret float %r
}

; The groupshared float3 store example of seed dxil-scalarization.md.
; LLVM's own scalarizer with load/store scalarization gives the seed output:
; RUN: %opt -S -passes=scalarizer -scalarize-load-store %s | FileCheck %s --check-prefix=SEED
; dxil-scalarizer stores each element at the same byte offset, through i8
; GEPs, so that no vector type is left in the instructions:
; RUN: %dxilopt -S -passes='function(dxil-scalarizer)' %s | %opt -S -passes=verify | FileCheck %s --check-prefix=SCALAR
; The DXIL data passes then give the groupshared array a scalar layout:
; [2 x <3 x float>] -> [2 x [3 x float]] -> [6 x float]; the second vector,
; at byte 16 of the old (padded) layout, lands at element 3.
; RUN: %dxilopt -S -passes='function(dxil-scalarizer),dxil-data-scalarization,dxil-flatten-arrays' %s | %opt -S -passes=verify | FileCheck %s --check-prefix=DXIL
; The seed's order of the plugin example works as well:
; RUN: %dxilopt -S -passes='dxil-data-scalarization,dxil-flatten-arrays,function(dxil-scalarizer)' %s | %opt -S -passes=verify | FileCheck %s --check-prefix=DXIL

@"?sharedData@@3PAT?$__vector@M$02@__clang@@A" = local_unnamed_addr addrspace(3) global [2 x <3 x float>] zeroinitializer, align 16

; SEED: @"?sharedData@@3PAT?$__vector@M$02@__clang@@A" = local_unnamed_addr addrspace(3) global [2 x <3 x float>] zeroinitializer, align 16
; SEED-LABEL: define void @"?fn2@@YAXXZ"() local_unnamed_addr {
; SEED-NEXT:    store float 1.000000e+00, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", align 16
; SEED-NEXT:    store float 2.000000e+00, ptr addrspace(3) getelementptr (float, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 1), align 4
; SEED-NEXT:    store float 3.000000e+00, ptr addrspace(3) getelementptr (float, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 2), align 8
; SEED-NEXT:    store float 2.000000e+00, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 16), align 16
; SEED-NEXT:    store float 4.000000e+00, ptr addrspace(3) getelementptr (float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 16), i32 1), align 4
; SEED-NEXT:    store float 6.000000e+00, ptr addrspace(3) getelementptr (float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 16), i32 2), align 8
; SEED-NEXT:    ret void

; SCALAR-LABEL: define void @"?fn2@@YAXXZ"()
; SCALAR-NEXT:    store float 1.000000e+00, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", align 4
; SCALAR-NEXT:    store float 2.000000e+00, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 4), align 4
; SCALAR-NEXT:    store float 3.000000e+00, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 8), align 4
; SCALAR-NEXT:    store float 2.000000e+00, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 16), align 4
; SCALAR-NEXT:    store float 4.000000e+00, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 20), align 4
; SCALAR-NEXT:    store float 6.000000e+00, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 24), align 4
; SCALAR-NEXT:    ret void

; DXIL: @"?sharedData@@3PAT?$__vector@M$02@__clang@@A" = local_unnamed_addr addrspace(3) global [6 x float] zeroinitializer, align 16
; DXIL-LABEL: define void @"?fn2@@YAXXZ"()
; DXIL-NEXT:    store float 1.000000e+00, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", align 4
; DXIL-NEXT:    store float 2.000000e+00, ptr addrspace(3) getelementptr ([6 x float], ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 0, i32 1), align 4
; DXIL-NEXT:    store float 3.000000e+00, ptr addrspace(3) getelementptr ([6 x float], ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 0, i32 2), align 4
; DXIL-NEXT:    store float 2.000000e+00, ptr addrspace(3) getelementptr ([6 x float], ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 0, i32 3), align 4
; DXIL-NEXT:    store float 4.000000e+00, ptr addrspace(3) getelementptr ([6 x float], ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 0, i32 4), align 4
; DXIL-NEXT:    store float 6.000000e+00, ptr addrspace(3) getelementptr ([6 x float], ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 0, i32 5), align 4
; DXIL-NEXT:    ret void
; DXIL-NOT:   <{{[0-9]+}} x
define void @"?fn2@@YAXXZ"() local_unnamed_addr {
  store <3 x float> <float 1.000000e+00, float 2.000000e+00, float 3.000000e+00>, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", align 16
  store <3 x float> <float 2.000000e+00, float 4.000000e+00, float 6.000000e+00>, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @"?sharedData@@3PAT?$__vector@M$02@__clang@@A", i32 16), align 16
  ret void
}

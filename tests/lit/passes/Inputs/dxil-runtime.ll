; Reference dx.op implementations for running DXIL-lowered test programs
; under lli (linked with llvm-link). Each dx.op function dispatches on the
; DXIL opcode to the LLVM intrinsic it stands for; an unknown opcode aborts,
; so a wrong opcode in the lowering fails the execution test.
; Vector overloads apply the scalar one per element.
declare void @abort()

define float @dx.op.unary.f32(i32 %op, float %a0) {
  switch i32 %op, label %bad [i32 6, label %op6 i32 12, label %op12 i32 13, label %op13 i32 14, label %op14 i32 15, label %op15 i32 16, label %op16 i32 17, label %op17 i32 18, label %op18 i32 19, label %op19 i32 20, label %op20 i32 21, label %op21 i32 23, label %op23 i32 24, label %op24 i32 26, label %op26 i32 27, label %op27 i32 28, label %op28 i32 29, label %op29]
op6:
  %r6 = call float @llvm.fabs.f32(float %a0)
  ret float %r6
op12:
  %r12 = call float @llvm.cos.f32(float %a0)
  ret float %r12
op13:
  %r13 = call float @llvm.sin.f32(float %a0)
  ret float %r13
op14:
  %r14 = call float @llvm.tan.f32(float %a0)
  ret float %r14
op15:
  %r15 = call float @llvm.acos.f32(float %a0)
  ret float %r15
op16:
  %r16 = call float @llvm.asin.f32(float %a0)
  ret float %r16
op17:
  %r17 = call float @llvm.atan.f32(float %a0)
  ret float %r17
op18:
  %r18 = call float @llvm.cosh.f32(float %a0)
  ret float %r18
op19:
  %r19 = call float @llvm.sinh.f32(float %a0)
  ret float %r19
op20:
  %r20 = call float @llvm.tanh.f32(float %a0)
  ret float %r20
op21:
  %r21 = call float @llvm.exp2.f32(float %a0)
  ret float %r21
op23:
  %r23 = call float @llvm.log2.f32(float %a0)
  ret float %r23
op24:
  %r24 = call float @llvm.sqrt.f32(float %a0)
  ret float %r24
op26:
  %r26 = call float @llvm.roundeven.f32(float %a0)
  ret float %r26
op27:
  %r27 = call float @llvm.floor.f32(float %a0)
  ret float %r27
op28:
  %r28 = call float @llvm.ceil.f32(float %a0)
  ret float %r28
op29:
  %r29 = call float @llvm.trunc.f32(float %a0)
  ret float %r29
bad:
  call void @abort()
  unreachable
}
define float @dx.op.binary.f32(i32 %op, float %a0, float %a1) {
  switch i32 %op, label %bad [i32 35, label %op35 i32 36, label %op36]
op35:
  %r35 = call float @llvm.maxnum.f32(float %a0, float %a1)
  ret float %r35
op36:
  %r36 = call float @llvm.minnum.f32(float %a0, float %a1)
  ret float %r36
bad:
  call void @abort()
  unreachable
}
define float @dx.op.tertiary.f32(i32 %op, float %a0, float %a1, float %a2) {
  switch i32 %op, label %bad [i32 46, label %op46 i32 47, label %op47]
op46:
  %r46 = call float @llvm.fmuladd.f32(float %a0, float %a1, float %a2)
  ret float %r46
op47:
  %r47 = call float @llvm.fma.f32(float %a0, float %a1, float %a2)
  ret float %r47
bad:
  call void @abort()
  unreachable
}
define i32 @dx.op.binary.i32(i32 %op, i32 %a0, i32 %a1) {
  switch i32 %op, label %bad [i32 37, label %op37 i32 38, label %op38 i32 39, label %op39 i32 40, label %op40]
op37:
  %r37 = call i32 @llvm.smax.i32(i32 %a0, i32 %a1)
  ret i32 %r37
op38:
  %r38 = call i32 @llvm.smin.i32(i32 %a0, i32 %a1)
  ret i32 %r38
op39:
  %r39 = call i32 @llvm.umax.i32(i32 %a0, i32 %a1)
  ret i32 %r39
op40:
  %r40 = call i32 @llvm.umin.i32(i32 %a0, i32 %a1)
  ret i32 %r40
bad:
  call void @abort()
  unreachable
}
define i32 @dx.op.unary.i32(i32 %op, i32 %a0) {
  switch i32 %op, label %bad [i32 30, label %op30]
op30:
  %r30 = call i32 @llvm.bitreverse.i32(i32 %a0)
  ret i32 %r30
bad:
  call void @abort()
  unreachable
}
define i32 @dx.op.unaryBits.i32(i32 %op, i32 %a0) {
  switch i32 %op, label %bad [i32 31, label %op31]
op31:
  %c = call i32 @llvm.ctpop.i32(i32 %a0)
  %r = add i32 %c, 0
  ret i32 %r
bad:
  call void @abort()
  unreachable
}
define i32 @dx.op.unaryBits.i64(i32 %op, i64 %a0) {
  switch i32 %op, label %bad [i32 31, label %op31]
op31:
  %c = call i64 @llvm.ctpop.i64(i64 %a0)
  %r = trunc i64 %c to i32
  ret i32 %r
bad:
  call void @abort()
  unreachable
}
define <2 x float> @dx.op.unary.v2f32(i32 %op, <2 x float> %a0) {
  %e0_0 = extractelement <2 x float> %a0, i32 0
  %s0 = call float @dx.op.unary.f32(i32 %op, float %e0_0)
  %v0 = insertelement <2 x float> poison, float %s0, i32 0
  %e1_0 = extractelement <2 x float> %a0, i32 1
  %s1 = call float @dx.op.unary.f32(i32 %op, float %e1_0)
  %v1 = insertelement <2 x float> %v0, float %s1, i32 1
  ret <2 x float> %v1
}
define <2 x float> @dx.op.binary.v2f32(i32 %op, <2 x float> %a0, <2 x float> %a1) {
  %e0_0 = extractelement <2 x float> %a0, i32 0
  %e0_1 = extractelement <2 x float> %a1, i32 0
  %s0 = call float @dx.op.binary.f32(i32 %op, float %e0_0, float %e0_1)
  %v0 = insertelement <2 x float> poison, float %s0, i32 0
  %e1_0 = extractelement <2 x float> %a0, i32 1
  %e1_1 = extractelement <2 x float> %a1, i32 1
  %s1 = call float @dx.op.binary.f32(i32 %op, float %e1_0, float %e1_1)
  %v1 = insertelement <2 x float> %v0, float %s1, i32 1
  ret <2 x float> %v1
}
define <2 x float> @dx.op.tertiary.v2f32(i32 %op, <2 x float> %a0, <2 x float> %a1, <2 x float> %a2) {
  %e0_0 = extractelement <2 x float> %a0, i32 0
  %e0_1 = extractelement <2 x float> %a1, i32 0
  %e0_2 = extractelement <2 x float> %a2, i32 0
  %s0 = call float @dx.op.tertiary.f32(i32 %op, float %e0_0, float %e0_1, float %e0_2)
  %v0 = insertelement <2 x float> poison, float %s0, i32 0
  %e1_0 = extractelement <2 x float> %a0, i32 1
  %e1_1 = extractelement <2 x float> %a1, i32 1
  %e1_2 = extractelement <2 x float> %a2, i32 1
  %s1 = call float @dx.op.tertiary.f32(i32 %op, float %e1_0, float %e1_1, float %e1_2)
  %v1 = insertelement <2 x float> %v0, float %s1, i32 1
  ret <2 x float> %v1
}
define <2 x i32> @dx.op.binary.v2i32(i32 %op, <2 x i32> %a0, <2 x i32> %a1) {
  %e0_0 = extractelement <2 x i32> %a0, i32 0
  %e0_1 = extractelement <2 x i32> %a1, i32 0
  %s0 = call i32 @dx.op.binary.i32(i32 %op, i32 %e0_0, i32 %e0_1)
  %v0 = insertelement <2 x i32> poison, i32 %s0, i32 0
  %e1_0 = extractelement <2 x i32> %a0, i32 1
  %e1_1 = extractelement <2 x i32> %a1, i32 1
  %s1 = call i32 @dx.op.binary.i32(i32 %op, i32 %e1_0, i32 %e1_1)
  %v1 = insertelement <2 x i32> %v0, i32 %s1, i32 1
  ret <2 x i32> %v1
}
define <2 x i32> @dx.op.unaryBits.v2i32(i32 %op, <2 x i32> %a0) {
  %e0_0 = extractelement <2 x i32> %a0, i32 0
  %s0 = call i32 @dx.op.unaryBits.i32(i32 %op, i32 %e0_0)
  %v0 = insertelement <2 x i32> poison, i32 %s0, i32 0
  %e1_0 = extractelement <2 x i32> %a0, i32 1
  %s1 = call i32 @dx.op.unaryBits.i32(i32 %op, i32 %e1_0)
  %v1 = insertelement <2 x i32> %v0, i32 %s1, i32 1
  ret <2 x i32> %v1
}
define <2 x i32> @dx.op.unary.v2i32(i32 %op, <2 x i32> %a0) {
  %e0_0 = extractelement <2 x i32> %a0, i32 0
  %s0 = call i32 @dx.op.unary.i32(i32 %op, i32 %e0_0)
  %v0 = insertelement <2 x i32> poison, i32 %s0, i32 0
  %e1_0 = extractelement <2 x i32> %a0, i32 1
  %s1 = call i32 @dx.op.unary.i32(i32 %op, i32 %e1_0)
  %v1 = insertelement <2 x i32> %v0, i32 %s1, i32 1
  ret <2 x i32> %v1
}
define <3 x float> @dx.op.unary.v3f32(i32 %op, <3 x float> %a0) {
  %e0_0 = extractelement <3 x float> %a0, i32 0
  %s0 = call float @dx.op.unary.f32(i32 %op, float %e0_0)
  %v0 = insertelement <3 x float> poison, float %s0, i32 0
  %e1_0 = extractelement <3 x float> %a0, i32 1
  %s1 = call float @dx.op.unary.f32(i32 %op, float %e1_0)
  %v1 = insertelement <3 x float> %v0, float %s1, i32 1
  %e2_0 = extractelement <3 x float> %a0, i32 2
  %s2 = call float @dx.op.unary.f32(i32 %op, float %e2_0)
  %v2 = insertelement <3 x float> %v1, float %s2, i32 2
  ret <3 x float> %v2
}
define <3 x float> @dx.op.binary.v3f32(i32 %op, <3 x float> %a0, <3 x float> %a1) {
  %e0_0 = extractelement <3 x float> %a0, i32 0
  %e0_1 = extractelement <3 x float> %a1, i32 0
  %s0 = call float @dx.op.binary.f32(i32 %op, float %e0_0, float %e0_1)
  %v0 = insertelement <3 x float> poison, float %s0, i32 0
  %e1_0 = extractelement <3 x float> %a0, i32 1
  %e1_1 = extractelement <3 x float> %a1, i32 1
  %s1 = call float @dx.op.binary.f32(i32 %op, float %e1_0, float %e1_1)
  %v1 = insertelement <3 x float> %v0, float %s1, i32 1
  %e2_0 = extractelement <3 x float> %a0, i32 2
  %e2_1 = extractelement <3 x float> %a1, i32 2
  %s2 = call float @dx.op.binary.f32(i32 %op, float %e2_0, float %e2_1)
  %v2 = insertelement <3 x float> %v1, float %s2, i32 2
  ret <3 x float> %v2
}
define <3 x float> @dx.op.tertiary.v3f32(i32 %op, <3 x float> %a0, <3 x float> %a1, <3 x float> %a2) {
  %e0_0 = extractelement <3 x float> %a0, i32 0
  %e0_1 = extractelement <3 x float> %a1, i32 0
  %e0_2 = extractelement <3 x float> %a2, i32 0
  %s0 = call float @dx.op.tertiary.f32(i32 %op, float %e0_0, float %e0_1, float %e0_2)
  %v0 = insertelement <3 x float> poison, float %s0, i32 0
  %e1_0 = extractelement <3 x float> %a0, i32 1
  %e1_1 = extractelement <3 x float> %a1, i32 1
  %e1_2 = extractelement <3 x float> %a2, i32 1
  %s1 = call float @dx.op.tertiary.f32(i32 %op, float %e1_0, float %e1_1, float %e1_2)
  %v1 = insertelement <3 x float> %v0, float %s1, i32 1
  %e2_0 = extractelement <3 x float> %a0, i32 2
  %e2_1 = extractelement <3 x float> %a1, i32 2
  %e2_2 = extractelement <3 x float> %a2, i32 2
  %s2 = call float @dx.op.tertiary.f32(i32 %op, float %e2_0, float %e2_1, float %e2_2)
  %v2 = insertelement <3 x float> %v1, float %s2, i32 2
  ret <3 x float> %v2
}
define <3 x i32> @dx.op.binary.v3i32(i32 %op, <3 x i32> %a0, <3 x i32> %a1) {
  %e0_0 = extractelement <3 x i32> %a0, i32 0
  %e0_1 = extractelement <3 x i32> %a1, i32 0
  %s0 = call i32 @dx.op.binary.i32(i32 %op, i32 %e0_0, i32 %e0_1)
  %v0 = insertelement <3 x i32> poison, i32 %s0, i32 0
  %e1_0 = extractelement <3 x i32> %a0, i32 1
  %e1_1 = extractelement <3 x i32> %a1, i32 1
  %s1 = call i32 @dx.op.binary.i32(i32 %op, i32 %e1_0, i32 %e1_1)
  %v1 = insertelement <3 x i32> %v0, i32 %s1, i32 1
  %e2_0 = extractelement <3 x i32> %a0, i32 2
  %e2_1 = extractelement <3 x i32> %a1, i32 2
  %s2 = call i32 @dx.op.binary.i32(i32 %op, i32 %e2_0, i32 %e2_1)
  %v2 = insertelement <3 x i32> %v1, i32 %s2, i32 2
  ret <3 x i32> %v2
}
define <3 x i32> @dx.op.unaryBits.v3i32(i32 %op, <3 x i32> %a0) {
  %e0_0 = extractelement <3 x i32> %a0, i32 0
  %s0 = call i32 @dx.op.unaryBits.i32(i32 %op, i32 %e0_0)
  %v0 = insertelement <3 x i32> poison, i32 %s0, i32 0
  %e1_0 = extractelement <3 x i32> %a0, i32 1
  %s1 = call i32 @dx.op.unaryBits.i32(i32 %op, i32 %e1_0)
  %v1 = insertelement <3 x i32> %v0, i32 %s1, i32 1
  %e2_0 = extractelement <3 x i32> %a0, i32 2
  %s2 = call i32 @dx.op.unaryBits.i32(i32 %op, i32 %e2_0)
  %v2 = insertelement <3 x i32> %v1, i32 %s2, i32 2
  ret <3 x i32> %v2
}
define <3 x i32> @dx.op.unary.v3i32(i32 %op, <3 x i32> %a0) {
  %e0_0 = extractelement <3 x i32> %a0, i32 0
  %s0 = call i32 @dx.op.unary.i32(i32 %op, i32 %e0_0)
  %v0 = insertelement <3 x i32> poison, i32 %s0, i32 0
  %e1_0 = extractelement <3 x i32> %a0, i32 1
  %s1 = call i32 @dx.op.unary.i32(i32 %op, i32 %e1_0)
  %v1 = insertelement <3 x i32> %v0, i32 %s1, i32 1
  %e2_0 = extractelement <3 x i32> %a0, i32 2
  %s2 = call i32 @dx.op.unary.i32(i32 %op, i32 %e2_0)
  %v2 = insertelement <3 x i32> %v1, i32 %s2, i32 2
  ret <3 x i32> %v2
}
define <4 x float> @dx.op.unary.v4f32(i32 %op, <4 x float> %a0) {
  %e0_0 = extractelement <4 x float> %a0, i32 0
  %s0 = call float @dx.op.unary.f32(i32 %op, float %e0_0)
  %v0 = insertelement <4 x float> poison, float %s0, i32 0
  %e1_0 = extractelement <4 x float> %a0, i32 1
  %s1 = call float @dx.op.unary.f32(i32 %op, float %e1_0)
  %v1 = insertelement <4 x float> %v0, float %s1, i32 1
  %e2_0 = extractelement <4 x float> %a0, i32 2
  %s2 = call float @dx.op.unary.f32(i32 %op, float %e2_0)
  %v2 = insertelement <4 x float> %v1, float %s2, i32 2
  %e3_0 = extractelement <4 x float> %a0, i32 3
  %s3 = call float @dx.op.unary.f32(i32 %op, float %e3_0)
  %v3 = insertelement <4 x float> %v2, float %s3, i32 3
  ret <4 x float> %v3
}
define <4 x float> @dx.op.binary.v4f32(i32 %op, <4 x float> %a0, <4 x float> %a1) {
  %e0_0 = extractelement <4 x float> %a0, i32 0
  %e0_1 = extractelement <4 x float> %a1, i32 0
  %s0 = call float @dx.op.binary.f32(i32 %op, float %e0_0, float %e0_1)
  %v0 = insertelement <4 x float> poison, float %s0, i32 0
  %e1_0 = extractelement <4 x float> %a0, i32 1
  %e1_1 = extractelement <4 x float> %a1, i32 1
  %s1 = call float @dx.op.binary.f32(i32 %op, float %e1_0, float %e1_1)
  %v1 = insertelement <4 x float> %v0, float %s1, i32 1
  %e2_0 = extractelement <4 x float> %a0, i32 2
  %e2_1 = extractelement <4 x float> %a1, i32 2
  %s2 = call float @dx.op.binary.f32(i32 %op, float %e2_0, float %e2_1)
  %v2 = insertelement <4 x float> %v1, float %s2, i32 2
  %e3_0 = extractelement <4 x float> %a0, i32 3
  %e3_1 = extractelement <4 x float> %a1, i32 3
  %s3 = call float @dx.op.binary.f32(i32 %op, float %e3_0, float %e3_1)
  %v3 = insertelement <4 x float> %v2, float %s3, i32 3
  ret <4 x float> %v3
}
define <4 x float> @dx.op.tertiary.v4f32(i32 %op, <4 x float> %a0, <4 x float> %a1, <4 x float> %a2) {
  %e0_0 = extractelement <4 x float> %a0, i32 0
  %e0_1 = extractelement <4 x float> %a1, i32 0
  %e0_2 = extractelement <4 x float> %a2, i32 0
  %s0 = call float @dx.op.tertiary.f32(i32 %op, float %e0_0, float %e0_1, float %e0_2)
  %v0 = insertelement <4 x float> poison, float %s0, i32 0
  %e1_0 = extractelement <4 x float> %a0, i32 1
  %e1_1 = extractelement <4 x float> %a1, i32 1
  %e1_2 = extractelement <4 x float> %a2, i32 1
  %s1 = call float @dx.op.tertiary.f32(i32 %op, float %e1_0, float %e1_1, float %e1_2)
  %v1 = insertelement <4 x float> %v0, float %s1, i32 1
  %e2_0 = extractelement <4 x float> %a0, i32 2
  %e2_1 = extractelement <4 x float> %a1, i32 2
  %e2_2 = extractelement <4 x float> %a2, i32 2
  %s2 = call float @dx.op.tertiary.f32(i32 %op, float %e2_0, float %e2_1, float %e2_2)
  %v2 = insertelement <4 x float> %v1, float %s2, i32 2
  %e3_0 = extractelement <4 x float> %a0, i32 3
  %e3_1 = extractelement <4 x float> %a1, i32 3
  %e3_2 = extractelement <4 x float> %a2, i32 3
  %s3 = call float @dx.op.tertiary.f32(i32 %op, float %e3_0, float %e3_1, float %e3_2)
  %v3 = insertelement <4 x float> %v2, float %s3, i32 3
  ret <4 x float> %v3
}
define <4 x i32> @dx.op.binary.v4i32(i32 %op, <4 x i32> %a0, <4 x i32> %a1) {
  %e0_0 = extractelement <4 x i32> %a0, i32 0
  %e0_1 = extractelement <4 x i32> %a1, i32 0
  %s0 = call i32 @dx.op.binary.i32(i32 %op, i32 %e0_0, i32 %e0_1)
  %v0 = insertelement <4 x i32> poison, i32 %s0, i32 0
  %e1_0 = extractelement <4 x i32> %a0, i32 1
  %e1_1 = extractelement <4 x i32> %a1, i32 1
  %s1 = call i32 @dx.op.binary.i32(i32 %op, i32 %e1_0, i32 %e1_1)
  %v1 = insertelement <4 x i32> %v0, i32 %s1, i32 1
  %e2_0 = extractelement <4 x i32> %a0, i32 2
  %e2_1 = extractelement <4 x i32> %a1, i32 2
  %s2 = call i32 @dx.op.binary.i32(i32 %op, i32 %e2_0, i32 %e2_1)
  %v2 = insertelement <4 x i32> %v1, i32 %s2, i32 2
  %e3_0 = extractelement <4 x i32> %a0, i32 3
  %e3_1 = extractelement <4 x i32> %a1, i32 3
  %s3 = call i32 @dx.op.binary.i32(i32 %op, i32 %e3_0, i32 %e3_1)
  %v3 = insertelement <4 x i32> %v2, i32 %s3, i32 3
  ret <4 x i32> %v3
}
define <4 x i32> @dx.op.unaryBits.v4i32(i32 %op, <4 x i32> %a0) {
  %e0_0 = extractelement <4 x i32> %a0, i32 0
  %s0 = call i32 @dx.op.unaryBits.i32(i32 %op, i32 %e0_0)
  %v0 = insertelement <4 x i32> poison, i32 %s0, i32 0
  %e1_0 = extractelement <4 x i32> %a0, i32 1
  %s1 = call i32 @dx.op.unaryBits.i32(i32 %op, i32 %e1_0)
  %v1 = insertelement <4 x i32> %v0, i32 %s1, i32 1
  %e2_0 = extractelement <4 x i32> %a0, i32 2
  %s2 = call i32 @dx.op.unaryBits.i32(i32 %op, i32 %e2_0)
  %v2 = insertelement <4 x i32> %v1, i32 %s2, i32 2
  %e3_0 = extractelement <4 x i32> %a0, i32 3
  %s3 = call i32 @dx.op.unaryBits.i32(i32 %op, i32 %e3_0)
  %v3 = insertelement <4 x i32> %v2, i32 %s3, i32 3
  ret <4 x i32> %v3
}
define <4 x i32> @dx.op.unary.v4i32(i32 %op, <4 x i32> %a0) {
  %e0_0 = extractelement <4 x i32> %a0, i32 0
  %s0 = call i32 @dx.op.unary.i32(i32 %op, i32 %e0_0)
  %v0 = insertelement <4 x i32> poison, i32 %s0, i32 0
  %e1_0 = extractelement <4 x i32> %a0, i32 1
  %s1 = call i32 @dx.op.unary.i32(i32 %op, i32 %e1_0)
  %v1 = insertelement <4 x i32> %v0, i32 %s1, i32 1
  %e2_0 = extractelement <4 x i32> %a0, i32 2
  %s2 = call i32 @dx.op.unary.i32(i32 %op, i32 %e2_0)
  %v2 = insertelement <4 x i32> %v1, i32 %s2, i32 2
  %e3_0 = extractelement <4 x i32> %a0, i32 3
  %s3 = call i32 @dx.op.unary.i32(i32 %op, i32 %e3_0)
  %v3 = insertelement <4 x i32> %v2, i32 %s3, i32 3
  ret <4 x i32> %v3
}
define i1 @dx.op.vectorReduce.v2i1(i32 %op, <2 x i1> %a0) {
  switch i32 %op, label %bad [i32 309, label %and i32 310, label %or]
and:
  %ra = call i1 @llvm.vector.reduce.and.v2i1(<2 x i1> %a0)
  ret i1 %ra
or:
  %ro = call i1 @llvm.vector.reduce.or.v2i1(<2 x i1> %a0)
  ret i1 %ro
bad:
  call void @abort()
  unreachable
}
define i1 @dx.op.vectorReduce.v3i1(i32 %op, <3 x i1> %a0) {
  switch i32 %op, label %bad [i32 309, label %and i32 310, label %or]
and:
  %ra = call i1 @llvm.vector.reduce.and.v3i1(<3 x i1> %a0)
  ret i1 %ra
or:
  %ro = call i1 @llvm.vector.reduce.or.v3i1(<3 x i1> %a0)
  ret i1 %ro
bad:
  call void @abort()
  unreachable
}
define i1 @dx.op.vectorReduce.v4i1(i32 %op, <4 x i1> %a0) {
  switch i32 %op, label %bad [i32 309, label %and i32 310, label %or]
and:
  %ra = call i1 @llvm.vector.reduce.and.v4i1(<4 x i1> %a0)
  ret i1 %ra
or:
  %ro = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %a0)
  ret i1 %ro
bad:
  call void @abort()
  unreachable
}
define i32 @dx.op.vectorReduce.v2i32(i32 %op, <2 x i32> %a0) {
  switch i32 %op, label %bad [i32 309, label %and i32 310, label %or]
and:
  %ra = call i32 @llvm.vector.reduce.and.v2i32(<2 x i32> %a0)
  ret i32 %ra
or:
  %ro = call i32 @llvm.vector.reduce.or.v2i32(<2 x i32> %a0)
  ret i32 %ro
bad:
  call void @abort()
  unreachable
}
define i32 @dx.op.vectorReduce.v3i32(i32 %op, <3 x i32> %a0) {
  switch i32 %op, label %bad [i32 309, label %and i32 310, label %or]
and:
  %ra = call i32 @llvm.vector.reduce.and.v3i32(<3 x i32> %a0)
  ret i32 %ra
or:
  %ro = call i32 @llvm.vector.reduce.or.v3i32(<3 x i32> %a0)
  ret i32 %ro
bad:
  call void @abort()
  unreachable
}
define i32 @dx.op.vectorReduce.v4i32(i32 %op, <4 x i32> %a0) {
  switch i32 %op, label %bad [i32 309, label %and i32 310, label %or]
and:
  %ra = call i32 @llvm.vector.reduce.and.v4i32(<4 x i32> %a0)
  ret i32 %ra
or:
  %ro = call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> %a0)
  ret i32 %ro
bad:
  call void @abort()
  unreachable
}

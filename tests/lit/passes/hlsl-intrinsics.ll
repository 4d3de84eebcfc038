; clang's HLSL output uses llvm.dx.* intrinsics. Those with a DXIL
; operation are lowered to it (Frc 22, Rsqrt 25, IsInf 9, IMad 48, UMad 49,
; Dot2/3/4 54-56, ThreadId 93, GroupId 94, ThreadIdInGroup 95,
; FlattenedThreadIdInGroup 96); the others are expanded as DXC does
; (clamp -> FMax/FMin, uclamp -> UMax/UMin, lerp, rcp, any/all, sdot/udot).
; RUN: %dxilopt -S -passes='function(dxil-scalarizer),dxil-op-lower' %s | %opt -S -passes=verify | FileCheck %s
; RUN: %dxilopt -S -passes='function(dxil-scalarizer),dxil-op-lower' %s | FileCheck %s --check-prefix=GONE --implicit-check-not='@llvm.dx.'
; GONE: define
; Native vectors: element-wise ones keep vector overloads, any uses
; VectorReduceOr.
; RUN: %dxilopt -S -passes='dxil-native-vectors,dxil-flatten-arrays,dxil-op-lower<vectors>' %s | %opt -S -passes=verify | FileCheck %s --check-prefix=NV

; CHECK-LABEL: define void @elementwise(
; The scalar pipeline splits the vector frac per element:
; CHECK:         call float @dx.op.unary.f32(i32 22, float
; CHECK:         call float @dx.op.unary.f32(i32 22, float
; CHECK:         call float @dx.op.unary.f32(i32 25, float %s)
; CHECK:         call i1 @dx.op.isSpecialFloat.f32(i32 9, float %s)
; CHECK:         call i32 @dx.op.tertiary.i32(i32 48, i32 %a, i32 %b, i32 %c)
; CHECK:         call i32 @dx.op.tertiary.i32(i32 49, i32 %a, i32 %b, i32 %c)
; NV-LABEL: define void @elementwise(
; NV:         call <2 x float> @dx.op.unary.v2f32(i32 22, <2 x float> %v)
define void @elementwise(<2 x float> %v, float %s, i32 %a, i32 %b, i32 %c, ptr %out) {
  %f = call <2 x float> @llvm.dx.frac.v2f32(<2 x float> %v)
  store <2 x float> %f, ptr %out
  %r = call float @llvm.dx.rsqrt.f32(float %s)
  store float %r, ptr %out
  %i = call i1 @llvm.dx.isinf.f32(float %s)
  store i1 %i, ptr %out
  %m = call i32 @llvm.dx.imad.i32(i32 %a, i32 %b, i32 %c)
  store i32 %m, ptr %out
  %u = call i32 @llvm.dx.umad.i32(i32 %a, i32 %b, i32 %c)
  store i32 %u, ptr %out
  ret void
}

; CHECK-LABEL: define float @dots(<3 x float> %a, <3 x float> %b)
; CHECK:         call float @dx.op.dot3.f32(i32 55, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}})
define float @dots(<3 x float> %a, <3 x float> %b) {
  %d = call float @llvm.dx.dot3.v3f32(<3 x float> %a, <3 x float> %b)
  ret float %d
}

; CHECK-LABEL: define i32 @ids()
; CHECK-NEXT:    %t = call i32 @dx.op.threadId.i32(i32 93, i32 0)
; CHECK-NEXT:    %g = call i32 @dx.op.groupId.i32(i32 94, i32 1)
; CHECK-NEXT:    %l = call i32 @dx.op.threadIdInGroup.i32(i32 95, i32 2)
; CHECK-NEXT:    %f = call i32 @dx.op.flattenedThreadIdInGroup.i32(i32 96)
define i32 @ids() {
  %t = call i32 @llvm.dx.thread.id(i32 0)
  %g = call i32 @llvm.dx.group.id(i32 1)
  %l = call i32 @llvm.dx.thread.id.in.group(i32 2)
  %f = call i32 @llvm.dx.flattened.thread.id.in.group()
  %s1 = add i32 %t, %g
  %s2 = add i32 %s1, %l
  %s3 = add i32 %s2, %f
  ret i32 %s3
}

; CHECK-LABEL: define float @expanded(float %x, float %y, float %s, i32 %i)
; CHECK:         %[[MX:.*]] = call float @dx.op.binary.f32(i32 35, float %x, float 0.000000e+00)
; CHECK-NEXT:    %c = call float @dx.op.binary.f32(i32 36, float %[[MX]], float 1.000000e+00)
; CHECK:         %[[UX:.*]] = call i32 @dx.op.binary.i32(i32 39, i32 %i, i32 2)
; CHECK-NEXT:    %uc = call i32 @dx.op.binary.i32(i32 40, i32 %[[UX]], i32 9)
; CHECK:         %[[D:.*]] = fsub float %y, %x
; CHECK-NEXT:    %[[P:.*]] = fmul float %s, %[[D]]
; CHECK-NEXT:    %l = fadd float %x, %[[P]]
; CHECK-NEXT:    %r = fdiv float 1.000000e+00, %x
define float @expanded(float %x, float %y, float %s, i32 %i) {
  %c = call float @llvm.dx.clamp.f32(float %x, float 0.0, float 1.0)
  %uc = call i32 @llvm.dx.uclamp.i32(i32 %i, i32 2, i32 9)
  %l = call float @llvm.dx.lerp.f32(float %x, float %y, float %s)
  %r = call float @llvm.dx.rcp.f32(float %x)
  %ucf = uitofp i32 %uc to float
  %a = fadd float %c, %l
  %b = fadd float %a, %r
  %d = fadd float %b, %ucf
  ret float %d
}

; CHECK-LABEL: define i32 @bools(<4 x float> %v, <3 x i32> %a, <3 x i32> %b)
; CHECK:         fcmp une float %{{.*}}, 0.000000e+00
; CHECK:         %any = or i1
; CHECK:         %all = and i1
; CHECK:         %dot = add i32
; NV-LABEL: define i32 @bools(
; NV:         %[[NZ:.*]] = fcmp une <4 x float> %v, zeroinitializer
; NV-NEXT:    %any = call i1 @dx.op.vectorReduce.v4i1(i32 310, <4 x i1> %[[NZ]])
define i32 @bools(<4 x float> %v, <3 x i32> %a, <3 x i32> %b) {
  %any = call i1 @llvm.dx.any.v4f32(<4 x float> %v)
  %all = call i1 @llvm.dx.all.v3i32(<3 x i32> %a)
  %dot = call i32 @llvm.dx.sdot.v3i32(<3 x i32> %a, <3 x i32> %b)
  %x = zext i1 %any to i32
  %y = zext i1 %all to i32
  %s = add i32 %x, %y
  %t = add i32 %s, %dot
  ret i32 %t
}

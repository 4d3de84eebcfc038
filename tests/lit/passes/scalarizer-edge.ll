; dxil-scalarizer on corner cases found with llvm-stress: bitcasts between
; vectors of different lengths, loads/stores of <N x i1>, constant
; expressions over vectors, and out-of-range constant lane indices (on
; which LLVM 19's own Scalarizer crashes). No vector is left, and the
; program prints the same before and after.
; RUN: %dxilopt -S -passes='function(dxil-scalarizer)' %s | %opt -S -passes=verify | grep -v '^declare' | FileCheck %s --implicit-check-not='<{{[0-9]+}} x'
; CHECK: define i32 @main
; RUN: lli %s > %t.ref
; RUN: FileCheck %s --check-prefix=OUT < %t.ref
; RUN: %dxilopt -S -passes='function(dxil-scalarizer)' %s -o %t.ll
; RUN: lli %t.ll > %t.out
; RUN: diff %t.ref %t.out
; 2.0f = 0x40000000, 1.0f = 0x3F800000: bytes 0,0,0,64 + 0,0,128,63 = 255;
; mask <1,0,1,1> = 13; 0x00020001 as <2 x i16> lanes summed = 3.
; OUT: bytes 255 mask 13 lanes 3

@fmt = private constant [27 x i8] c"bytes %d mask %d lanes %d\0A\00"
declare i32 @printf(ptr, ...)

define i32 @main() {
  %v = insertelement <2 x float> <float poison, float 1.0>, float 2.0, i32 0
  %b = bitcast <2 x float> %v to <8 x i8>
  %w = zext <8 x i8> %b to <8 x i32>
  %s = call i32 @llvm.vector.reduce.add.v8i32(<8 x i32> %w)
  %m = alloca <4 x i1>
  store <4 x i1> <i1 true, i1 false, i1 true, i1 true>, ptr %m
  %ml = load <4 x i1>, ptr %m
  %mi = bitcast <4 x i1> %ml to i4
  %mz = zext i4 %mi to i32
  %c = extractelement <2 x i16> bitcast (<1 x i32> <i32 131073> to <2 x i16>), i32 0
  %d = extractelement <2 x i16> bitcast (<1 x i32> <i32 131073> to <2 x i16>), i32 1
  %oor = extractelement <4 x i32> zeroinitializer, i32 7
  %cd = add i16 %c, %d
  %l = zext i16 %cd to i32
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %s, i32 %mz, i32 %l)
  ret i32 0
}

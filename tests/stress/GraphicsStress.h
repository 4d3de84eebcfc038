//===- GraphicsStress.h - The graphics part of s2l-thread-stress -*- C++ -*-===//
#ifndef SPIRV2LLVM_TESTS_STRESS_GRAPHICSSTRESS_H
#define SPIRV2LLVM_TESTS_STRESS_GRAPHICSSTRESS_H

namespace spirv2llvm::stress {

/// Creates pipelines and draws on \p Threads host threads, \p Reps times
/// each (GraphicsStress.cpp); prints what differs from the single-threaded
/// draws. Returns the number of failed draws (0: all matched).
unsigned runGraphicsStress(unsigned Threads, unsigned Reps);

} // namespace spirv2llvm::stress

#endif

//===- Main.cpp - The control-flow suite's entry point --------------------===//
//
//   s2l-controlflow-tests [gtest options]        runs the suite
//   s2l-controlflow-tests --write-lavapipe-references DIR
//       writes lavapipe's results of every compute shader to DIR (the ctest
//       fixture CF/lavapipe-references; the compute tests then read them
//       when S2L_CF_LAVAPIPE_DIR=DIR)
//
//===----------------------------------------------------------------------===//
#include "Suite.h"

#include <gtest/gtest.h>

#include <cstring>

int main(int argc, char **argv) {
  if (argc == 3 && std::strcmp(argv[1], "--write-lavapipe-references") == 0)
    return spirv2llvm::cftest::writeLavapipeReferences(argv[2]);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

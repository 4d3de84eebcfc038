//===- CApiCacheTest.cpp - The compile cache through the C API ------------===//
//
// Only the C header: s2l_cache_open and s2l_compute_shader_create_cached
// miss, then hit, and both give shaders that compute the same; a directory
// that cannot be used disables the cache without failing.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm-c/spirv2llvm.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

const char *const Saxpy = S2L_SOURCE_DIR "/shaders/examples/saxpy.spvasm";

std::vector<char> readFile(const char *Path) {
  std::ifstream F(Path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(F), {});
}

std::string tempDir() {
  char T[] = "/tmp/s2l-capi-cache-XXXXXX";
  EXPECT_NE(mkdtemp(T), nullptr);
  return T;
}

/// Runs saxpy (a = 2, n = 1024, x = y = i) and checks y = 3i.
void runSaxpy(s2l_context Ctx, s2l_compute_shader S) {
  std::vector<float> X(1024), Y(1024);
  for (int I = 0; I < 1024; ++I)
    X[I] = Y[I] = float(I);
  s2l_resources R = s2l_resources_create();
  ASSERT_EQ(s2l_resources_bind_buffer(R, 0, 0, X.data(), 4096), S2L_SUCCESS);
  ASSERT_EQ(s2l_resources_bind_buffer(R, 0, 1, Y.data(), 4096), S2L_SUCCESS);
  struct {
    float A;
    uint32_t N;
  } Push = {2.0f, 1024};
  ASSERT_EQ(s2l_resources_set_push_constants(R, &Push, sizeof Push),
            S2L_SUCCESS);
  ASSERT_EQ(s2l_compute_shader_dispatch(Ctx, S, R, 16, 1, 1, 0), S2L_SUCCESS)
      << s2l_context_error(Ctx);
  s2l_resources_destroy(R);
  for (int I = 0; I < 1024; ++I)
    ASSERT_EQ(Y[I], 3.0f * float(I)) << "element " << I;
}

TEST(CApiCache, MissThenHit) {
  std::string Dir = tempDir() + "/cache";
  std::vector<char> Bytes = readFile(Saxpy);
  s2l_context Ctx = s2l_context_create();
  s2l_cache Cache;
  ASSERT_EQ(s2l_cache_open(Dir.c_str(), 0, &Cache), S2L_SUCCESS);
  ASSERT_TRUE(s2l_cache_enabled(Cache)) << s2l_cache_warning(Cache);
  for (int Round = 0; Round < 2; ++Round) {
    s2l_compute_shader S;
    int FromCache = -1;
    ASSERT_EQ(s2l_compute_shader_create_cached(Ctx, Cache, nullptr,
                                               Bytes.data(), Bytes.size(),
                                               "saxpy.spvasm", 2, &S,
                                               &FromCache),
              S2L_SUCCESS)
        << s2l_context_error(Ctx);
    EXPECT_EQ(FromCache, Round);
    uint32_t Size[3];
    s2l_compute_shader_workgroup_size(S, Size);
    EXPECT_EQ(Size[0], 64u);
    runSaxpy(Ctx, S);
    s2l_compute_shader_destroy(S);
  }
  uint64_t Hits, Misses, Stores;
  s2l_cache_stats(Cache, &Hits, &Misses, &Stores);
  EXPECT_EQ(Hits, 1u);
  EXPECT_EQ(Misses, 1u);
  EXPECT_EQ(Stores, 1u);
  EXPECT_STREQ(s2l_cache_warning(Cache), "");
  s2l_cache_destroy(Cache);

  // Bad input is still an error (and not cached).
  s2l_cache Again;
  ASSERT_EQ(s2l_cache_open(Dir.c_str(), 0, &Again), S2L_SUCCESS);
  s2l_compute_shader S = nullptr;
  EXPECT_EQ(s2l_compute_shader_create_cached(Ctx, Again, nullptr, "junk", 4,
                                             "x.spv", 2, &S, nullptr),
            S2L_ERROR_INVALID_INPUT);
  EXPECT_EQ(S, nullptr);
  EXPECT_STRNE(s2l_context_error(Ctx), "");
  s2l_cache_destroy(Again);
  s2l_context_destroy(Ctx);
}

TEST(CApiCache, UnusableDirectoryCompilesAnyway) {
  std::string Dir = tempDir();
  std::ofstream(Dir + "/file") << "x";
  std::string Bad = Dir + "/file/cache";
  s2l_cache Cache;
  ASSERT_EQ(s2l_cache_open(Bad.c_str(), 0, &Cache), S2L_SUCCESS);
  EXPECT_FALSE(s2l_cache_enabled(Cache));
  EXPECT_NE(std::string(s2l_cache_warning(Cache)).find("file/cache"),
            std::string::npos);
  std::vector<char> Bytes = readFile(Saxpy);
  s2l_context Ctx = s2l_context_create();
  s2l_compute_shader S;
  int FromCache = -1;
  ASSERT_EQ(s2l_compute_shader_create_cached(Ctx, Cache, nullptr, Bytes.data(),
                                             Bytes.size(), "saxpy.spvasm", 2,
                                             &S, &FromCache),
            S2L_SUCCESS);
  EXPECT_EQ(FromCache, 0);
  runSaxpy(Ctx, S);
  s2l_compute_shader_destroy(S);
  s2l_cache_destroy(Cache);
  s2l_context_destroy(Ctx);
  EXPECT_EQ(s2l_cache_open(nullptr, 0, &Cache), S2L_ERROR_INVALID_ARGUMENT);
}

} // namespace

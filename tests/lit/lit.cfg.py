# lit configuration for spirv2llvm's IR and dump tests.
import os
import lit.formats

config.name = "spirv2llvm"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".spvasm", ".frag", ".vert", ".comp", ".test", ".ll"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.s2l_obj_root, "tests", "lit")

config.substitutions.append(("%spirv2llvm", os.path.join(config.s2l_bin_dir, "spirv2llvm")))
config.substitutions.append(("%examples", os.path.join(config.s2l_src_root, "shaders", "examples")))
# The external corpus (../shared/corpus or -DSPIRV2LLVM_CORPUS_DIR): tests
# that read it say `REQUIRES: shared-corpus` and are UNSUPPORTED without it.
config.substitutions.append(("%corpus", config.s2l_corpus_dir))
if os.path.isdir(os.path.join(config.s2l_corpus_dir, "glslang")):
    config.available_features.add("shared-corpus")
else:
    lit_config.note("%s not found: the tests that need it are UNSUPPORTED "
                    "(configure with -DSPIRV2LLVM_CORPUS_DIR=...)"
                    % os.path.join(config.s2l_corpus_dir, "glslang"))
config.substitutions.append(("%opt", config.opt))
# opt with the DXIL passes plugin (tests/lit/passes).
config.substitutions.append(("%dxilopt", config.opt + " -load-pass-plugin=" + config.passes_plugin))
config.substitutions.append(("%vectorcheck", os.path.join(config.s2l_bin_dir, "s2l-vector-check")))
config.substitutions.append(("%dxilplugin", config.passes_plugin))
config.substitutions.append(("%dxilrt", os.path.join(config.test_source_root, "passes", "Inputs", "dxil-runtime.ll")))
config.substitutions.append(("FileCheck", config.filecheck))
config.environment["PATH"] = os.pathsep.join([config.llvm_bin_dir, config.environment.get("PATH", "")])

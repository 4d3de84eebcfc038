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
config.substitutions.append(("%shared", os.path.join(config.s2l_src_root, "..", "shared")))
config.substitutions.append(("%opt", config.opt))
# opt with the DXIL passes plugin (tests/lit/passes).
config.substitutions.append(("%dxilopt", config.opt + " -load-pass-plugin=" + config.passes_plugin))
config.substitutions.append(("%vectorcheck", os.path.join(config.s2l_bin_dir, "s2l-vector-check")))
config.substitutions.append(("%dxilplugin", config.passes_plugin))
config.substitutions.append(("%dxilrt", os.path.join(config.test_source_root, "passes", "Inputs", "dxil-runtime.ll")))
config.substitutions.append(("FileCheck", config.filecheck))
config.environment["PATH"] = os.pathsep.join([config.llvm_bin_dir, config.environment.get("PATH", "")])

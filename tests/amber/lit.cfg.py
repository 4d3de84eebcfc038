# lit configuration for the Amber scripts of `spirv2llvm amber`.
import os
import lit.formats

config.name = "spirv2llvm-amber"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".amber", ".vkscript"]
config.excludes = ["inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.join(os.path.dirname(__file__), "scripts")
config.test_exec_root = os.path.join(config.s2l_obj_root, "tests", "amber")

config.substitutions.append(("%spirv2llvm", os.path.join(config.s2l_bin_dir, "spirv2llvm")))
config.substitutions.append(("FileCheck", config.filecheck))
config.environment["PATH"] = os.pathsep.join([config.llvm_bin_dir, config.environment.get("PATH", "")])

#!/usr/bin/env python3
"""Generates OpcodeTable.inc: the opcode property table (issue 15).

Joins the SPIR-V grammar that SPIRV-Headers installs (opcode numbers, and
the operand counts of the GLSL.std.450 instructions) with the hand-written
OpcodeProperties.txt (family, uniformity rule, OpSpecConstantOp form,
flags, Key=Value columns), and takes from the grammar whether an opcode's
operands start with a scope. Fails, naming the line, on an opcode the
grammar does not know, on an unknown family, rule, form, flag, column or
column value, and on an opcode listed twice, so the property file cannot
drift from the grammar.

usage: gen_opcode_table.py CORE_GRAMMAR GLSL_GRAMMAR PROPERTIES OUT
"""
import json
import sys

FAMILIES = ["None", "NoCode", "ExtInst", "ControlFlow", "Arithmetic",
            "Bitwise", "Composite", "Matrix", "Memory", "PhysicalPointer",
            "Atomic", "Barrier", "Call", "Subgroup", "Helper", "Derivative", "Image"]
RULES = ["Operands", "Special", "Varying", "Uniform", "ReduceUniform",
         "ReduceOperands"]
FORMS = ["None", "Convert", "Quantize", "Unary", "Binary", "Shift",
         "Compare", "Select", "Shuffle", "Extract", "Insert"]
KINDS = ["Other", "Bool", "Int", "Float"]
SHAPES = ["None", "FloatBinary", "FloatUnary", "IntBinary", "IntUnary",
          "IntUnaryAnyWidth", "Shift", "BoolBinary", "BoolUnary", "IntCompare",
          "FloatCompare", "FloatTest", "BoolReduce", "FloatToInt", "IntToFloat", "IntToInt",
          "FloatToFloat", "GroupInt", "GroupFloat", "GroupBool", "Bitcast",
          "ExtendedInt", "Dot", "MatrixTranspose", "VectorScale", "MatrixScale",
          "VectorTimesMatrix", "MatrixTimesVector", "MatrixTimesMatrix",
          "OuterProduct", "GroupPredicate", "GroupElect", "GroupValue",
          "GroupValueIndex", "GroupAllEqual", "BallotTest",
          "BallotBitExtract", "BallotBitCount", "BallotFind"]
FLAGS = ["Binary", "Unary", "Speculatable", "TypeDecl",
         "ConstantDecl", "Terminator", "QuadDerivatives"]
# Key=Value columns after the flags: the values each key allows, the first
# being the default of an opcode that does not name the key.
DEFINES = ["Value", "Variable", "Function", "Label", "ExtInstImport", "String",
           "DecorationGroup"]
TYPES = ["Unsupported", "Void", "Bool", "Int", "Float", "Vector", "Matrix",
         "Array", "RuntimeArray", "Struct", "Pointer", "Function", "Image",
         "Sampler", "SampledImage"]
CONSTANTS = ["None", "True", "False", "Scalar", "Composite", "Null", "Undef",
             "Op"]
TERMINATORS = ["Return", "Branch", "BranchConditional", "Switch", "Kill",
               "Unreachable"]
ID_RULES = ["Values", "Labels", "BranchTargets", "PhiPairs", "Call", "ExtInst",
            "ModeIds"]
# What the instruction does, for the emitters: key -> (C++ enum, values),
# emitted after the columns above in this order (OpcodeInfo's fields).
ENUM_KEYS = {
    "Memory": ("MemoryOpKind", ["None", "Variable", "Load", "Store", "Copy",
                                "ArrayLength", "PointerCompare",
                                "AccessChain", "PtrAccessChain"]),
    "Combine": ("CombineKind", ["None", "Add", "Sub", "Mul", "FAdd", "FMul",
                                "SMin", "UMin", "FMin", "SMax", "UMax", "FMax",
                                "And", "Or", "Xor", "Exchange"]),
    "Atomic": ("AtomicForm", ["None", "Load", "Store", "Update",
                              "UpdateByOne", "CompareExchange"]),
    "Subgroup": ("SubgroupOpKind", ["None", "Elect", "All", "Any", "AllEqual",
                                    "Broadcast", "Shuffle", "Ballot",
                                    "InverseBallot", "BallotBitExtract",
                                    "BallotBitCount", "BallotFindLSB",
                                    "BallotFindMSB", "Arithmetic"]),
    "Lane": ("LaneSource", ["None", "First", "Index", "Xor", "Up", "Down",
                            "QuadBroadcast", "QuadSwap"]),
    "Derivative": ("DerivativeKind", ["None", "X", "Y", "Width"]),
    "Quad": ("QuadRows", ["Fine", "Coarse"]),
    "Image": ("ImageOpKind", ["None", "SampledImage", "Image", "TexelPointer",
                              "TexelsResident", "OpenClQuery", "Sample",
                              "Fetch", "Gather", "Read", "Write", "QuerySize",
                              "QueryLevels", "QuerySamples", "QueryLod"]),
}
# ImageForm=A+B: a set of ImageFormBit bits.
IMAGE_FORM = ["Coord", "Proj", "Dref", "Component", "Texel", "Lod", "Sparse"]
KEYS = {**{k: v for k, (_, v) in ENUM_KEYS.items()}, "Shape": SHAPES, "Defines": DEFINES, "Type": TYPES,
        "Constant": CONSTANTS, "SpecConstant": CONSTANTS, "Ids": ID_RULES,
        "Terminator": TERMINATORS}


def fail(path, line_no, msg):
    sys.exit(f"{path}:{line_no}: {msg}")


def main():
    core_path, glsl_path, props_path, out_path = sys.argv[1:5]
    core = json.load(open(core_path))
    glsl = json.load(open(glsl_path))
    opcodes = {}
    scoped = {}
    for inst in core["instructions"]:
        opcodes.setdefault(inst["opname"], inst["opcode"])
        # Whether the operands start with a scope (the KHR subgroup forms
        # have none): the type checker counts operands after it.
        scoped[inst["opname"]] = any(o["kind"] == "IdScope"
                                     for o in inst.get("operands", []))

    rows = {}
    reserved = set()
    for no, raw in enumerate(open(props_path), 1):
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        if line[0] == "ext":
            if line[1:2] != ["GLSL.std.450"] or line[3:] != ["reserved"]:
                fail(props_path, no, "expected: ext GLSL.std.450 NAME reserved")
            reserved.add(line[2])
            continue
        if len(line) < 4:
            fail(props_path, no, "expected: opcode family uniformity specop flags...")
        name, family, rule, spec, flags = line[0], line[1], line[2], line[3], line[4:]
        if name not in opcodes:
            fail(props_path, no, f"{name} is not an opcode of the grammar")
        if opcodes[name] in rows:
            fail(props_path, no, f"{name} is listed twice")
        if family not in FAMILIES:
            fail(props_path, no, f"unknown family {family}")
        if rule not in RULES:
            fail(props_path, no, f"unknown uniformity rule {rule}")
        form, kind = "None", "Other"
        if spec != "-":
            form, _, kind = spec.partition(":")
            if form not in FORMS or kind not in KINDS:
                fail(props_path, no, f"unknown OpSpecConstantOp form {spec}")
        form_bits = []
        for f in [f for f in flags if f.startswith("ImageForm=")]:
            for v in f[len("ImageForm="):].split("+"):
                if v not in IMAGE_FORM:
                    fail(props_path, no, f"unknown ImageForm value {v}")
                form_bits.append(f"ImageFormBit::{v}")
        flags = [f for f in flags if not f.startswith("ImageForm=")]
        values = {}
        for f in [f for f in flags if "=" in f]:
            key, _, value = f.partition("=")
            if key not in KEYS:
                fail(props_path, no, f"unknown column {key}")
            if value not in KEYS[key]:
                fail(props_path, no, f"unknown {key} value {value}")
            if key in values or (key in ("Constant", "SpecConstant") and
                                 ("Constant" in values or
                                  "SpecConstant" in values)):
                fail(props_path, no, f"{key} given twice")
            values[key] = value
        flags = [f for f in flags if "=" not in f]
        for f in flags:
            if f not in FLAGS:
                fail(props_path, no, f"unknown flag {f}")
        # The Terminator column sets the flag; the flag alone would leave
        # the kind unsaid.
        if "Terminator" in flags:
            fail(props_path, no, "write Terminator=K, not the bare flag")
        if "Terminator" in values:
            flags.append("Terminator")
        shape = values.get("Shape", "None")
        # TypeDecl and ConstantDecl lines define a type and a constant; the
        # Defines column names the other kinds.
        defines = values.get("Defines", "Value")
        if "Type" in values and "TypeDecl" not in flags:
            fail(props_path, no, "Type= on a line without TypeDecl")
        constant = values.get("Constant", values.get("SpecConstant", "None"))
        if constant not in ("None", "Undef") and "ConstantDecl" not in flags:
            fail(props_path, no, "Constant= on a line without ConstantDecl")
        if "ConstantDecl" in flags and constant == "None":
            fail(props_path, no, "ConstantDecl without Constant= or SpecConstant=")
        defines_kind = ("Type" if "TypeDecl" in flags else
                        "Constant" if "ConstantDecl" in flags else defines)
        if defines != "Value" and defines_kind != defines:
            fail(props_path, no, "Defines= on a type or constant declaration")
        is_spec = "true" if "SpecConstant" in values else "false"
        has_scope = "true" if scoped.get(name) else "false"
        bits = " | ".join(f"OpcodeFlag::{f}" for f in flags) or "0"
        rows[opcodes[name]] = (
            f"  {{spv::Op({opcodes[name]}), OpcodeFamily::{family}, "
            f"UniformityRule::{rule}, SpecConstantForm::{form}, "
            f"SpecConstantKind::{kind}, uint8_t({bits}), "
            f"OperandShape::{shape}, IdKind::{defines_kind}, "
            f"TypeKind::{values.get('Type', 'Unsupported')}, "
            f"ConstantForm::{constant}, {is_spec}, "
            f"IdOperandRule::{values.get('Ids', 'Values')}, {has_scope}, "
            f"TerminatorKind::{values.get('Terminator', 'Return')}, "
            + "".join(f"{enum}::{values.get(k, vals[0])}, "
                      for k, (enum, vals) in ENUM_KEYS.items())
            + f"uint8_t({' | '.join(form_bits) or '0'})}}, // {name}")

    counts = {}
    for inst in glsl["instructions"]:
        n = 0 if inst["opname"] in reserved else len(inst.get("operands", []))
        counts[inst["opcode"]] = n
    unknown = reserved - {i["opname"] for i in glsl["instructions"]}
    if unknown:
        sys.exit(f"{props_path}: not GLSL.std.450 instructions: {sorted(unknown)}")

    out = ["// Generated by gen_opcode_table.py from SPIRV-Headers' grammar and",
           "// OpcodeProperties.txt. Do not edit.",
           "// Sorted by opcode for the binary search in OpcodeTable.cpp.",
           "static const OpcodeInfo OpcodeInfos[] = {"]
    out += [rows[k] for k in sorted(rows)]
    out.append("};")
    out.append("// Operands after the instruction number, by GLSL.std.450 number;")
    out.append("// 0 for numbers that are not instructions.")
    top = max(counts)
    out.append(f"static const uint8_t GlslStd450OperandCounts[{top + 1}] = {{")
    out.append("  " + ", ".join(str(counts.get(k, 0)) for k in range(top + 1)))
    out.append("};")
    text = "\n".join(out) + "\n"
    try:
        if open(out_path).read() == text:
            return
    except OSError:
        pass
    with open(out_path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Generates OpcodeTable.inc: the opcode property table (issue 15).

Joins the SPIR-V grammar that SPIRV-Headers installs (opcode numbers, and
the operand counts of the GLSL.std.450 instructions) with the hand-written
OpcodeProperties.txt (family, uniformity rule, OpSpecConstantOp form,
flags, Key=Value columns). Fails, naming the line, on an opcode the grammar
does not know, on an unknown family, rule, form, flag, column or column
value, and on an opcode listed twice, so the property file cannot drift
from the grammar.

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
          "FloatToFloat", "GroupInt", "GroupFloat", "GroupBool", "Bitcast"]
FLAGS = ["Binary", "Unary", "Speculatable", "TypeDecl",
         "ConstantDecl", "Terminator", "QuadDerivatives"]
# Key=Value columns after Shape: key -> (C++ enum, values; the first is the
# default of an opcode that does not name the key). Emitted in this order,
# the order of OpcodeInfo's fields.
KEYS = {
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
    "Scope": ("GroupScope", ["Operand", "Subgroup"]),
    "Lane": ("LaneSource", ["None", "First", "Index", "Xor", "Up", "Down",
                            "QuadBroadcast", "QuadSwap"]),
    "Derivative": ("DerivativeKind", ["None", "X", "Y", "Width"]),
    "Quad": ("QuadRows", ["Fine", "Coarse"]),
    "Image": ("ImageOpKind", ["None", "SampledImage", "Image", "TexelPointer",
                              "TexelsResident", "OpenClQuery", "Sample",
                              "Fetch", "Gather", "Read", "Write", "QuerySize",
                              "QueryLevels", "QuerySamples", "QueryLod"]),
}
# Key=A+B columns: sets of bits (namespace of the bit constants, values).
SET_KEYS = {
    "ImageForm": ("ImageFormBit", ["Coord", "Proj", "Dref", "Component",
                                   "Texel", "Lod", "Sparse"]),
}


def fail(path, line_no, msg):
    sys.exit(f"{path}:{line_no}: {msg}")


def main():
    core_path, glsl_path, props_path, out_path = sys.argv[1:5]
    core = json.load(open(core_path))
    glsl = json.load(open(glsl_path))
    opcodes = {}
    for inst in core["instructions"]:
        opcodes.setdefault(inst["opname"], inst["opcode"])

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
        shape = "None"
        for f in [f for f in flags if f.startswith("Shape=")]:
            shape = f[len("Shape="):]
            if shape not in SHAPES:
                fail(props_path, no, f"unknown operand shape {shape}")
        keyed = {k: values[0] for k, (_, values) in KEYS.items()}
        sets = {k: [] for k in SET_KEYS}
        for f in [f for f in flags if "=" in f and not f.startswith("Shape=")]:
            key, _, value = f.partition("=")
            if key in KEYS:
                if value not in KEYS[key][1]:
                    fail(props_path, no, f"unknown {key} value {value}")
                keyed[key] = value
            elif key in SET_KEYS:
                for v in value.split("+"):
                    if v not in SET_KEYS[key][1]:
                        fail(props_path, no, f"unknown {key} value {v}")
                    sets[key].append(v)
            else:
                fail(props_path, no, f"unknown column {key}")
        flags = [f for f in flags if "=" not in f]
        for f in flags:
            if f not in FLAGS:
                fail(props_path, no, f"unknown flag {f}")
        bits = " | ".join(f"OpcodeFlag::{f}" for f in flags) or "0"
        rows[opcodes[name]] = (
            f"  {{spv::Op({opcodes[name]}), OpcodeFamily::{family}, "
            f"UniformityRule::{rule}, SpecConstantForm::{form}, "
            f"SpecConstantKind::{kind}, uint8_t({bits}), "
            f"OperandShape::{shape}, "
            + "".join(f"{KEYS[k][0]}::{v}, " for k, v in keyed.items())
            + ", ".join(" | ".join(f"{SET_KEYS[k][0]}::{v}" for v in vs)
                        or "0" for k, vs in sets.items())
            + f"}}, // {name}")

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

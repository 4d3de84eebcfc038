#!/usr/bin/env python3
"""Generates OpcodeTable.inc: the opcode property table (issue 15).

Joins the SPIR-V grammar that SPIRV-Headers installs (opcode numbers, and
the operand counts of the GLSL.std.450 instructions) with the hand-written
OpcodeProperties.txt (family, uniformity rule, OpSpecConstantOp form,
flags, Key=Value columns; the GLSL.std.450 instructions' forms), and takes
from the grammar whether an opcode's operands start with a scope. Fails,
naming the line, on an opcode the grammar does not know, on an unknown
family, rule, form, flag, key or value, on an opcode listed twice and on a
GLSL.std.450 instruction not listed, so the property file cannot drift from
the grammar.

usage: gen_opcode_table.py CORE_GRAMMAR GLSL_GRAMMAR PROPERTIES OUT
"""
import json
import sys

FAMILIES = ["None", "NoCode", "ExtInst", "ControlFlow", "Arithmetic",
            "Bitwise", "Composite", "Matrix", "Memory", "PhysicalPointer",
            "Atomic", "Barrier", "Call", "Subgroup", "Helper", "Derivative", "Image",
            "Geometry"]
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
# What declarations declare, the kinds of <id> operands and how a
# terminator leaves its block (the parser, the type checker, the CFG).
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
# Key=Value columns of an opcode line: key -> (OpcodeInfo field, C++ enum,
# allowed values). A key that is not given keeps the field's default (the
# enum's first value). Constant and SpecConstant set one field (and
# SpecConstant the flag of that name): a line gives one of them.
KEYS = {
    "Shape": ("Shape", "OperandShape", SHAPES),
    "Defines": ("Defines", "IdKind", DEFINES),
    "Type": ("DeclaredType", "TypeKind", TYPES),
    "Constant": ("Constant", "ConstantForm", CONSTANTS),
    "SpecConstant": ("Constant", "ConstantForm", CONSTANTS),
    "Ids": ("IdOperands", "IdOperandRule", ID_RULES),
    "Terminator": ("Terminator", "TerminatorKind", TERMINATORS),
    # How an opcode computes its value, for the emitters (codegen/common).
    "Bin": ("Bin", "BinaryOpKind",
            ["None", "Add", "FAdd", "Sub", "FSub", "Mul", "FMul", "UDiv",
             "SDiv", "FDiv", "URem", "SRem", "FRem", "Shl", "LShr", "AShr",
             "And", "Or", "Xor", "SMod", "FMod"]),
    "Cmp": ("Cmp", "CompareKind",
            ["None", "FCMP_OEQ", "FCMP_OGT", "FCMP_OGE", "FCMP_OLT",
             "FCMP_OLE", "FCMP_ONE", "FCMP_UNO", "FCMP_UEQ", "FCMP_UGT",
             "FCMP_UGE", "FCMP_ULT", "FCMP_ULE", "FCMP_UNE", "ICMP_EQ",
             "ICMP_NE", "ICMP_UGT", "ICMP_UGE", "ICMP_ULT", "ICMP_ULE",
             "ICMP_SGT", "ICMP_SGE", "ICMP_SLT", "ICMP_SLE"]),
    "Unary": ("Unary", "UnaryOpKind", ["None", "Neg", "FNeg", "Not", "Copy"]),
    "Cast": ("Cast", "CastKind",
             ["None", "ZExt", "SExt", "FPExt", "UIToFP", "SIToFP", "FPToUI",
              "FPToSI", "BitCast"]),
    "Intr": ("Intr", "IntrinsicKind",
             ["None", "bitreverse", "ctpop", "uadd_with_overflow",
              "usub_with_overflow"]),
    "Eval": ("Eval", "EvalKind",
             ["None", "Select", "Scale", "Dot", "Undef", "Reduce", "FloatTest",
              "BitFieldInsert", "BitFieldExtract", "UnaryIntrinsic",
              "WithOverflow", "ExtendedMul", "Quantize", "Product",
              "Transpose", "Construct", "Shuffle", "Member"]),
    "Lhs": ("Lhs", "MatrixOperandKind", ["None", "Matrix", "Column", "Row"]),
    "Rhs": ("Rhs", "MatrixOperandKind", ["None", "Matrix", "Column", "Row"]),
    "Access": ("Access", "MemberAccessKind", ["None", "Read", "Write"]),
    "Index": ("Index", "MemberIndexKind", ["None", "Literal", "Dynamic"]),
    # What a memory, atomic, subgroup, derivative or image instruction
    # does, for both emitters (codegen/common decoders).
    "Memory": ("Memory", "MemoryOpKind",
               ["None", "Variable", "Load", "Store", "Copy", "ArrayLength",
                "PointerCompare", "AccessChain", "PtrAccessChain"]),
    "Combine": ("Combine", "CombineKind",
                ["None", "Add", "Sub", "Mul", "FAdd", "FMul", "SMin", "UMin",
                 "FMin", "SMax", "UMax", "FMax", "And", "Or", "Xor",
                 "Exchange"]),
    "Atomic": ("Atomic", "AtomicForm",
               ["None", "Load", "Store", "Update", "UpdateByOne",
                "CompareExchange"]),
    "Subgroup": ("Subgroup", "SubgroupOpKind",
                 ["None", "Elect", "All", "Any", "AllEqual", "Broadcast",
                  "Shuffle", "Ballot", "InverseBallot", "BallotBitExtract",
                  "BallotBitCount", "BallotFindLSB", "BallotFindMSB",
                  "Arithmetic"]),
    "Lane": ("Lane", "LaneSource",
             ["None", "First", "Index", "Xor", "Up", "Down", "QuadBroadcast",
              "QuadSwap"]),
    "Derivative": ("Derivative", "DerivativeKind", ["None", "X", "Y", "Width"]),
    "Quad": ("Quad", "QuadRows", ["Fine", "Coarse"]),
    "Image": ("Image", "ImageOpKind",
              ["None", "SampledImage", "Image", "TexelPointer",
               "TexelsResident", "OpenClQuery", "Sample", "Fetch", "Gather",
               "Read", "Write", "QuerySize", "QueryLevels", "QuerySamples",
               "QueryLod"]),
    # How lane shapes (uniformity/LaneShape.h) pass through the opcode.
    "Affine": ("Affine", "AffineRule",
               ["None", "Add", "Sub", "Mul", "Shl", "Negate", "Convert",
                "Extract", "Construct", "Load"]),
}
# ImageForm=A+B: a set of ImageFormBit bits (the field ImageForm).
IMAGE_FORM = ["Coord", "Proj", "Dref", "Component", "Texel", "Lod", "Sparse"]
# OpcodeInfo's fields after Flags, in declaration order (designated
# initializers must follow it); the values the generator derives (Defines
# of declarations, SpecConstant, HasScope) among them.
FIELDS = ["Shape", "Defines", "DeclaredType", "Constant", "SpecConstant",
          "IdOperands", "HasScope", "Terminator", "Bin", "Cmp", "Unary",
          "Cast", "Intr", "Eval", "Lhs", "Rhs", "Access", "Index", "Memory",
          "Combine", "Atomic", "Subgroup", "Lane", "Derivative", "Quad",
          "Image", "ImageForm", "Affine"]
assert {v[0] for v in KEYS.values()} <= set(FIELDS), "a KEYS field missing in FIELDS"
# The GLSL.std.450 lines' Key=Value columns, as KEYS.
GLSL_FORMS = ["None", "ComponentWise", "Length", "Normalize", "Cross",
              "FaceForward", "Reflect", "Refract", "Determinant",
              "MatrixInverse", "Modf", "Frexp", "Ldexp", "FindBit", "Pack",
              "Unpack", "PackDouble", "UnpackDouble", "Interpolate"]
GLSL_KEYS = {
    "Form": ("Form", "GlslFormKind", GLSL_FORMS),
    "Out": ("Out", "GlslOutKind", ["None", "Pointer", "Struct"]),
    "Find": ("Find", "GlslFindKind", ["None", "Lsb", "UMsb", "SMsb"]),
    "Packing": ("Packing", "GlslPackingKind",
                ["None", "Snorm4x8", "Unorm4x8", "Snorm2x16", "Unorm2x16",
                 "Half2x16"]),
    "Speculatable": ("Speculatable", "GlslSpeculatable", ["No", "Yes"]),
}


def fail(path, line_no, msg):
    sys.exit(f"{path}:{line_no}: {msg}")


def flags_ok(flags, has):
    """Whether an opcode without Eval= has value columns only as a
    component-wise opcode."""
    binary = has("Bin") or has("Cmp")
    unary = has("Unary") or has("Cast")
    return ("Binary" in flags or not binary) and ("Unary" in flags or not unary)


def key_values(path, no, tokens, keys):
    """Field -> (value, C++ initializer) of the Key=Value tokens; fails on
    an unknown key or value and on a field given twice."""
    fields = {}
    for t in tokens:
        key, _, value = t.partition("=")
        if key not in keys:
            fail(path, no, f"unknown key {key}")
        field, enum, values = keys[key]
        if value not in values:
            fail(path, no, f"unknown {key} value {value}")
        if field in fields:
            fail(path, no, f"{key} given twice")
        fields[field] = (value, f"{enum}::{value}")
    return fields


def initializers(fields, order):
    """The designated initializers of \p fields in the struct's order."""
    return [f".{f} = {fields[f][1]}" for f in order if f in fields]


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
    glsl_rows = {}
    for no, raw in enumerate(open(props_path), 1):
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        if line[0] == "ext":
            if line[1:2] != ["GLSL.std.450"] or len(line) < 4:
                fail(props_path, no, "expected: ext GLSL.std.450 NAME "
                     "(reserved | Key=Value...)")
            if line[2] in glsl_rows or line[2] in reserved:
                fail(props_path, no, f"{line[2]} is listed twice")
            if line[3:] == ["reserved"]:
                reserved.add(line[2])
            else:
                keyed = key_values(props_path, no, line[3:], GLSL_KEYS)
                if "Form" not in keyed:
                    fail(props_path, no, f"{line[2]} has no Form")
                glsl_rows[line[2]] = initializers(
                    keyed, [v[0] for v in GLSL_KEYS.values()])
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
        bits = []
        for f in [f for f in flags if f.startswith("ImageForm=")]:
            for v in f[len("ImageForm="):].split("+"):
                if v not in IMAGE_FORM:
                    fail(props_path, no, f"unknown ImageForm value {v}")
                bits.append(f"ImageFormBit::{v}")
        flags = [f for f in flags if not f.startswith("ImageForm=")]
        keyed = key_values(props_path, no,
                           [f for f in flags if "=" in f], KEYS)
        if bits:
            keyed["ImageForm"] = ("+".join(bits),
                                  f"uint8_t({' | '.join(bits)})")
        flags = [f for f in flags if "=" not in f]
        for f in flags:
            if f not in FLAGS:
                fail(props_path, no, f"unknown flag {f}")
        # The component-wise flags and the columns that say how to compute
        # the value must agree (ComponentOps.cpp reads the columns).
        # (Eval= opcodes use Bin, Cmp and Cast as parameters.)
        has = lambda k: k in keyed
        if has("Eval"):
            if "Binary" in flags or "Unary" in flags or has("Unary"):
                fail(props_path, no, "Eval= is not component-wise")
        elif ("Binary" in flags) != (has("Bin") != has("Cmp")):
            fail(props_path, no, "Binary needs exactly one of Bin= or Cmp=")
        elif ("Unary" in flags) != (has("Unary") != has("Cast")):
            fail(props_path, no, "Unary needs exactly one of Unary= or Cast=")
        elif not flags_ok(flags, has):
            fail(props_path, no, "Bin=, Cmp=, Unary= and Cast= need Binary "
                 "or Unary")
        # The Terminator column sets the flag; the flag alone would leave
        # the kind unsaid.
        if "Terminator" in flags:
            fail(props_path, no, "write Terminator=K, not the bare flag")
        if "Terminator" in keyed:
            flags.append("Terminator")
        # TypeDecl and ConstantDecl lines define a type and a constant; the
        # Defines column names the other kinds.
        defines = keyed.get("Defines", ("Value",))[0]
        if "DeclaredType" in keyed and "TypeDecl" not in flags:
            fail(props_path, no, "Type= on a line without TypeDecl")
        constant = keyed.get("Constant", ("None",))[0]
        if constant not in ("None", "Undef") and "ConstantDecl" not in flags:
            fail(props_path, no, "Constant= on a line without ConstantDecl")
        if "ConstantDecl" in flags and constant == "None":
            fail(props_path, no, "ConstantDecl without Constant= or SpecConstant=")
        defines_kind = ("Type" if "TypeDecl" in flags else
                        "Constant" if "ConstantDecl" in flags else defines)
        if defines != "Value" and defines_kind != defines:
            fail(props_path, no, "Defines= on a type or constant declaration")
        if defines_kind != "Value":
            keyed["Defines"] = (defines_kind, f"IdKind::{defines_kind}")
        if any(t.startswith("SpecConstant=") for t in raw.split("#", 1)[0].split()):
            keyed["SpecConstant"] = ("true", "true")
        if scoped.get(name):
            keyed["HasScope"] = ("true", "true")
        bits = " | ".join(f"OpcodeFlag::{f}" for f in flags) or "0"
        rows[opcodes[name]] = (
            f"  {{.Opcode = spv::Op({opcodes[name]}), "
            f".Family = OpcodeFamily::{family}, "
            f".Uniformity = UniformityRule::{rule}, "
            f".SpecForm = SpecConstantForm::{form}, "
            f".SpecKind = SpecConstantKind::{kind}, .Flags = uint8_t({bits})"
            + "".join(f", {k}" for k in initializers(keyed, FIELDS))
            + f"}}, // {name}")

    counts = {}
    glsl_infos = {}
    for inst in glsl["instructions"]:
        name = inst["opname"]
        n = 0 if name in reserved else len(inst.get("operands", []))
        counts[inst["opcode"]] = n
        if name in reserved:
            continue
        if name not in glsl_rows:
            sys.exit(f"{props_path}: GLSL.std.450 {name} is not listed")
        glsl_infos[inst["opcode"]] = (
            f"  {{.OperandCount = {n}"
            + "".join(f", {k}" for k in glsl_rows[name])
            + f"}}, // {name}")
    unknown = (reserved | set(glsl_rows)) - {
        i["opname"] for i in glsl["instructions"]}
    if unknown:
        sys.exit(f"{props_path}: not GLSL.std.450 instructions: {sorted(unknown)}")

    out = ["// Generated by gen_opcode_table.py from SPIRV-Headers' grammar and",
           "// OpcodeProperties.txt. Do not edit.",
           "// Sorted by opcode for the binary search in OpcodeTable.cpp.",
           "static const OpcodeInfo OpcodeInfos[] = {"]
    out += [rows[k] for k in sorted(rows)]
    out.append("};")
    out.append("// By GLSL.std.450 number; {0} for numbers that are not instructions.")
    top = max(counts)
    out.append(f"static const GlslStd450Info GlslStd450Infos[{top + 1}] = {{")
    out += [glsl_infos.get(k, f"  {{0}}, // {k}: not an instruction")
            for k in range(top + 1)]
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

#!/usr/bin/env python3
"""Writes SPIR-V modules at the translator's resource limits (docs/robustness.md).

Usage: gen_limits.py CASE OUT.spv [N]

Cases (N overrides the size):
  instructions   one compute shader with N (default 1,000,000) instructions,
                 a dependent chain of OpIAdd in one block
  nested-ifs     N (default 10,000) selection constructs nested in each other,
                 each on a per-invocation (varying) condition
  nested-loops   N (default 10,000) loops nested in each other
  blocks         one function of N (default 10,000) blocks, rounded down
                 to 2 + a multiple of 3: a sequence of if/else diamonds on
                 varying conditions
  id-bound       a small shader whose header declares an id bound of N
                 (default 4,000,000), with its last ids used
  run-nested-ifs, run-nested-loops
                 N (default 1,000) nested selections or loops (each loop
                 runs its body at most once) that a 64-invocation
                 workgroup runs: invocation x enters level i while
                 x != 7i mod 64 and writes the number of levels it entered
                 to word x of the storage buffer at binding 0
                 (expected_levels() computes it)
The modules are valid SPIR-V 1.0 (spirv-val accepts them) so that only their
size can be the problem. Binary output is written directly (no assembler),
which keeps generation of a million instructions fast.
"""
import struct
import sys

OP = dict(Capability=17, MemoryModel=14, EntryPoint=15, ExecutionMode=16,
          Decorate=71, TypeVoid=19, TypeBool=20, TypeInt=21, TypeVector=23,
          TypePointer=32, TypeFunction=33, Constant=43, Variable=59,
          Function=54, FunctionEnd=56, Label=248, Branch=249,
          BranchConditional=250, SelectionMerge=247, LoopMerge=246,
          Return=253, Load=61, Store=62, IAdd=128, ULessThan=176,
          CompositeExtract=81, TypeStruct=30, TypeRuntimeArray=29,
          MemberDecorate=72, AccessChain=65, INotEqual=171, IEqual=170,
          LogicalAnd=167, Phi=245)


class Builder:
    def __init__(self):
        self.words = []
        self.next_id = 1

    def id(self):
        self.next_id += 1
        return self.next_id - 1

    def op(self, name, *operands):
        self.words.append((len(operands) + 1) << 16 | OP[name])
        self.words.extend(operands)

    def string(self, s):
        b = s.encode() + b"\0"
        b += b"\0" * (-len(b) % 4)
        return list(struct.unpack("<%dI" % (len(b) // 4), b))

    def binary(self, bound=None):
        header = [0x07230203, 0x00010000, 0, bound or self.next_id, 0]
        return struct.pack("<%dI" % (len(header) + len(self.words)),
                           *header, *self.words)


def preamble(b):
    """Types, the invocation id input and the start of main. Returns a dict
    of ids; the caller adds blocks and ends the function."""
    ids = {k: b.id() for k in ("void", "fn", "uint", "bool", "v3", "pv3",
                               "gid", "main", "c0", "c1", "c7", "pu",
                               "out")}
    b.op("Capability", 1)                       # Shader
    b.op("MemoryModel", 0, 1)                   # Logical GLSL450
    b.op("EntryPoint", 5, ids["main"], *b.string("main"), ids["gid"])
    b.op("ExecutionMode", ids["main"], 17, 4, 1, 1)   # LocalSize
    b.op("Decorate", ids["gid"], 11, 28)        # BuiltIn GlobalInvocationId
    b.op("TypeVoid", ids["void"])
    b.op("TypeFunction", ids["fn"], ids["void"])
    b.op("TypeInt", ids["uint"], 32, 0)
    b.op("TypeBool", ids["bool"])
    b.op("TypeVector", ids["v3"], ids["uint"], 3)
    b.op("TypePointer", ids["pv3"], 1, ids["v3"])   # Input
    b.op("TypePointer", ids["pu"], 6, ids["uint"])  # Private
    b.op("Constant", ids["uint"], ids["c0"], 0)
    b.op("Constant", ids["uint"], ids["c1"], 1)
    b.op("Constant", ids["uint"], ids["c7"], 7)
    b.op("Variable", ids["pv3"], ids["gid"], 1)
    b.op("Variable", ids["pu"], ids["out"], 6)
    b.op("Function", ids["void"], ids["main"], 0, ids["fn"])
    entry = b.id()
    b.op("Label", entry)
    v = b.id()
    b.op("Load", ids["v3"], v, ids["gid"])
    x = b.id()
    b.op("CompositeExtract", ids["uint"], x, v, 0)
    ids["x"] = x
    return ids


def varying_cond(b, ids):
    c = b.id()
    b.op("ULessThan", ids["bool"], c, ids["x"], ids["c7"])
    return c


def end(b, ids, value=None):
    if value is not None:
        b.op("Store", ids["out"], value)
    b.op("Return")
    b.op("FunctionEnd")


def gen_instructions(n):
    b = Builder()
    ids = preamble(b)
    acc = ids["x"]
    for _ in range(n - 25):  # the preamble has about 25 instructions
        nxt = b.id()
        b.op("IAdd", ids["uint"], nxt, acc, ids["c1"])
        acc = nxt
    end(b, ids, acc)
    return b.binary()


def gen_nested_ifs(n):
    b = Builder()
    ids = preamble(b)
    cond = varying_cond(b, ids)
    heads = [b.id() for _ in range(n + 1)]
    joins = [b.id() for _ in range(n)]
    b.op("Branch", heads[0])
    for i in range(n):
        b.op("Label", heads[i])
        b.op("SelectionMerge", joins[i], 0)
        b.op("BranchConditional", cond, heads[i + 1], joins[i])
    b.op("Label", heads[n])
    b.op("Store", ids["out"], ids["c1"])
    b.op("Branch", joins[n - 1])
    for i in reversed(range(n)):
        b.op("Label", joins[i])
        if i:
            b.op("Branch", joins[i - 1])
    end(b, ids)
    return b.binary()


def gen_nested_loops(n):
    b = Builder()
    ids = preamble(b)
    cond = varying_cond(b, ids)
    heads = [b.id() for _ in range(n)]
    bodies = [b.id() for _ in range(n)]
    conts = [b.id() for _ in range(n)]
    merges = [b.id() for _ in range(n)]
    b.op("Branch", heads[0])
    for i in range(n):
        b.op("Label", heads[i])
        b.op("LoopMerge", merges[i], conts[i], 0)
        b.op("BranchConditional", cond, bodies[i], merges[i])
        b.op("Label", bodies[i])
        b.op("Branch", heads[i + 1] if i + 1 < n else conts[i])
    for i in reversed(range(n)):
        b.op("Label", conts[i])
        b.op("Branch", heads[i])
        b.op("Label", merges[i])
        if i:
            b.op("Branch", conts[i - 1])
    end(b, ids)
    return b.binary()


def gen_blocks(n):
    b = Builder()
    ids = preamble(b)
    # The entry, then per diamond its header, two arms (the join is the
    # next header), and the last join: 2 + 3 * diamonds blocks.
    diamonds = max(1, (n - 2) // 3)
    nxt = b.id()
    b.op("Branch", nxt)
    for _ in range(diamonds):
        then, other, join = b.id(), b.id(), b.id()
        b.op("Label", nxt)
        cond = varying_cond(b, ids)
        b.op("SelectionMerge", join, 0)
        b.op("BranchConditional", cond, then, other)
        b.op("Label", then)
        b.op("Store", ids["out"], ids["c1"])
        b.op("Branch", join)
        b.op("Label", other)
        b.op("Store", ids["out"], ids["c0"])
        b.op("Branch", join)
        nxt = join
    b.op("Label", nxt)
    end(b, ids)
    return b.binary()


def gen_id_bound(n):
    b = Builder()
    ids = preamble(b)
    # The last ids of the bound are the ones used.
    b.next_id = n - 3
    acc = b.id()
    b.op("IAdd", ids["uint"], acc, ids["x"], ids["c1"])
    acc2 = b.id()
    b.op("IAdd", ids["uint"], acc2, acc, ids["c1"])
    end(b, ids, acc2)
    return b.binary(bound=n)


RUN_GROUP = 64


def expected_levels(n, x):
    """Levels invocation x enters in a run-nested-* module of depth n."""
    for i in range(n):
        if x == 7 * i % RUN_GROUP:
            return i
    return n


def run_preamble(b):
    """A 64-invocation compute shader with a uint storage buffer (binding 0)
    and a Function counter; returns ids, the function is open."""
    ids = {k: b.id() for k in ("void", "fn", "uint", "bool", "v3", "pv3",
                               "gid", "main", "c0", "c1", "arr", "blk",
                               "pblk", "buf", "pu", "pfu", "cnt")}
    b.op("Capability", 1)
    b.op("MemoryModel", 0, 1)
    b.op("EntryPoint", 5, ids["main"], *b.string("main"), ids["gid"])
    b.op("ExecutionMode", ids["main"], 17, RUN_GROUP, 1, 1)
    b.op("Decorate", ids["gid"], 11, 28)
    b.op("Decorate", ids["arr"], 6, 4)          # ArrayStride 4
    b.op("MemberDecorate", ids["blk"], 0, 35, 0)  # Offset 0
    b.op("Decorate", ids["blk"], 3)             # BufferBlock
    b.op("Decorate", ids["buf"], 34, 0)         # DescriptorSet 0
    b.op("Decorate", ids["buf"], 33, 0)         # Binding 0
    b.op("TypeVoid", ids["void"])
    b.op("TypeFunction", ids["fn"], ids["void"])
    b.op("TypeInt", ids["uint"], 32, 0)
    b.op("TypeBool", ids["bool"])
    b.op("TypeVector", ids["v3"], ids["uint"], 3)
    b.op("TypePointer", ids["pv3"], 1, ids["v3"])
    b.op("TypeRuntimeArray", ids["arr"], ids["uint"])
    b.op("TypeStruct", ids["blk"], ids["arr"])
    b.op("TypePointer", ids["pblk"], 2, ids["blk"])   # Uniform
    b.op("TypePointer", ids["pu"], 2, ids["uint"])
    b.op("TypePointer", ids["pfu"], 7, ids["uint"])   # Function
    b.op("Constant", ids["uint"], ids["c0"], 0)
    b.op("Constant", ids["uint"], ids["c1"], 1)
    consts = {}
    for i in range(RUN_GROUP):
        consts[i] = b.id()
        b.op("Constant", ids["uint"], consts[i], i)
    ids["k"] = consts
    b.op("Variable", ids["pv3"], ids["gid"], 1)
    b.op("Variable", ids["pblk"], ids["buf"], 2)
    b.op("Function", ids["void"], ids["main"], 0, ids["fn"])
    b.op("Label", b.id())
    b.op("Variable", ids["pfu"], ids["cnt"], 7)
    b.op("Store", ids["cnt"], ids["c0"])
    v = b.id()
    b.op("Load", ids["v3"], v, ids["gid"])
    ids["x"] = b.id()
    b.op("CompositeExtract", ids["uint"], ids["x"], v, 0)
    return ids


def run_level_cond(b, ids, i):
    c = b.id()
    b.op("INotEqual", ids["bool"], c, ids["x"], ids["k"][7 * i % RUN_GROUP])
    return c


def run_count(b, ids):
    old, new = b.id(), b.id()
    b.op("Load", ids["uint"], old, ids["cnt"])
    b.op("IAdd", ids["uint"], new, old, ids["c1"])
    b.op("Store", ids["cnt"], new)


def run_end(b, ids):
    ptr, val = b.id(), b.id()
    b.op("AccessChain", ids["pu"], ptr, ids["buf"], ids["c0"], ids["x"])
    b.op("Load", ids["uint"], val, ids["cnt"])
    b.op("Store", ptr, val)
    b.op("Return")
    b.op("FunctionEnd")


def gen_run_nested_ifs(n):
    b = Builder()
    ids = run_preamble(b)
    heads = [b.id() for _ in range(n + 1)]
    bodies = [b.id() for _ in range(n)]
    joins = [b.id() for _ in range(n)]
    b.op("Branch", heads[0])
    for i in range(n):
        b.op("Label", heads[i])
        cond = run_level_cond(b, ids, i)
        b.op("SelectionMerge", joins[i], 0)
        b.op("BranchConditional", cond, bodies[i], joins[i])
        b.op("Label", bodies[i])
        run_count(b, ids)
        b.op("Branch", heads[i + 1])
    b.op("Label", heads[n])
    b.op("Branch", joins[n - 1])
    for i in reversed(range(n)):
        b.op("Label", joins[i])
        if i:
            b.op("Branch", joins[i - 1])
    run_end(b, ids)
    return b.binary()


def gen_run_nested_loops(n):
    b = Builder()
    ids = run_preamble(b)
    pre = [b.id() for _ in range(n)]     # the block that enters loop i
    heads = [b.id() for _ in range(n)]
    bodies = [b.id() for _ in range(n)]
    conts = [b.id() for _ in range(n)]
    merges = [b.id() for _ in range(n)]
    first = [b.id() for _ in range(n)]   # phi: 1 on the first iteration
    b.op("Branch", pre[0])
    b.op("Label", pre[0])
    b.op("Branch", heads[0])
    for i in range(n):
        b.op("Label", heads[i])
        b.op("Phi", ids["uint"], first[i], ids["c1"], pre[i],
             ids["c0"], conts[i])
        once = b.id()
        b.op("IEqual", ids["bool"], once, first[i], ids["c1"])
        cond = run_level_cond(b, ids, i)
        both = b.id()
        b.op("LogicalAnd", ids["bool"], both, once, cond)
        b.op("LoopMerge", merges[i], conts[i], 0)
        b.op("BranchConditional", both, bodies[i], merges[i])
        b.op("Label", bodies[i])
        run_count(b, ids)
        if i + 1 < n:
            b.op("Branch", pre[i + 1])
            b.op("Label", pre[i + 1])
            b.op("Branch", heads[i + 1])
        else:
            b.op("Branch", conts[i])
    for i in reversed(range(n)):
        b.op("Label", conts[i])
        b.op("Branch", heads[i])
        b.op("Label", merges[i])
        if i:
            b.op("Branch", conts[i - 1])
    run_end(b, ids)
    return b.binary()


CASES = {"instructions": (gen_instructions, 1000000),
         "nested-ifs": (gen_nested_ifs, 10000),
         "nested-loops": (gen_nested_loops, 10000),
         "blocks": (gen_blocks, 10000),
         "id-bound": (gen_id_bound, 4000000),
         "run-nested-ifs": (gen_run_nested_ifs, 1000),
         "run-nested-loops": (gen_run_nested_loops, 1000)}

if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in CASES:
        sys.exit(__doc__)
    gen, default = CASES[sys.argv[1]]
    n = int(sys.argv[3]) if len(sys.argv) == 4 else default
    with open(sys.argv[2], "wb") as f:
        f.write(gen(n))

//===- Uniformity.cpp - Constant/Uniform/Varying fixed point --------------===//
//
// All state lives in one UniformityState (the shape of Mesa's
// nir_divergence_analysis): every round re-evaluates the blocks, then the
// instructions of every analyzed function, lowering lattice values
// monotonically until a round changes nothing. Lattice height is 3, so each
// value changes at most twice; rounds are cheap linear sweeps in reverse
// postorder, which settles acyclic code in one round.
//
//===----------------------------------------------------------------------===//
#include "uniformity/Uniformity.h"

#include "cfg/DominatorTree.h"
#include "parser/OpcodeTable.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/Support/CommandLine.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <queue>
#include <unordered_set>

#include <spirv/unified1/GLSL.std.450.h>

using namespace llvm;

namespace spirv2llvm {

namespace {
// For A/B measurements only (s2l-bench's vote shader): subgroup results
// Varying, as before the subgroup-uniform rules.
llvm::cl::opt<bool> NoSubgroupUniform(
    "s2l-no-subgroup-uniform", llvm::cl::Hidden,
    llvm::cl::desc("treat votes, broadcasts, ballots and reductions as "
                   "Varying (A/B measurements)"));
} // namespace

const char *uniformityName(Uniformity U) {
  switch (U) {
  case Uniformity::Constant:
    return "Constant";
  case Uniformity::Uniform:
    return "Uniform";
  case Uniformity::Varying:
    return "Varying";
  }
  return "Varying";
}

bool isPerInvocationStorage(spv::StorageClass SC) {
  switch (SC) {
  case spv::StorageClass::Function:
  case spv::StorageClass::Private:
  case spv::StorageClass::Input:
  case spv::StorageClass::Output:
    return true;
  default:
    return false;
  }
}

namespace {

using cfg::BlockIndex;

/// Built-ins with one value per SIMD group.
bool isUniformBuiltIn(spv::BuiltIn B) {
  switch (B) {
  case spv::BuiltIn::WorkgroupId:
  case spv::BuiltIn::NumWorkgroups:
  case spv::BuiltIn::WorkgroupSize:
  case spv::BuiltIn::SubgroupSize:
  case spv::BuiltIn::NumSubgroups:
  case spv::BuiltIn::SubgroupId:
  case spv::BuiltIn::ViewIndex:
  case spv::BuiltIn::DrawIndex:
  case spv::BuiltIn::BaseVertex:
  case spv::BuiltIn::BaseInstance:
    return true;
  default:
    return false;
  }
}

/// A pointer derived from operand 0 (for the root variable walk).
bool isPointerChain(spv::Op Op) {
  return isAccessChain(Op) || Op == spv::Op::OpCopyObject;
}

/// The group operation of an arithmetic group instruction or of
/// OpGroupNonUniformBallotBitCount (the literal after the scope).
std::optional<spv::GroupOperation> groupOperation(const Instruction &I) {
  if (I.Operands.size() < 2 || I.OperandIsId[1])
    return std::nullopt;
  return spv::GroupOperation(I.Operands[1]);
}

/// OpImageRead of a SubpassData image: an input attachment read at the
/// fragment's position plus the coordinate, so per lane even when the
/// image and the coordinate are uniform.
bool isSubpassLoad(const Module &M, const Instruction &I) {
  if (I.Opcode != spv::Op::OpImageRead || I.Operands.empty())
    return false;
  const Type *T = M.findType(M.typeOf(I.Operands[0]).value());
  return T && T->Kind == TypeKind::Image &&
         T->ImageDim == uint32_t(spv::Dim::SubpassData);
}

class UniformityState {
public:
  UniformityState(const Module &M, const EntryPoint &EP,
                  const cfg::ModuleAnalysis &MA)
      : M(M), EP(EP), MA(MA) {}

  UniformityInfo run();

private:
  void initialize();
  void markReachableFunctions();
  bool evaluateBlocks(uint32_t Fn);
  bool evaluateInstructions(uint32_t Fn);
  bool evaluateTemporalDivergence(uint32_t Fn);
  void computeIterationDependences(uint32_t Fn);
  bool markJoinPoints(uint32_t Fn);
  /// True if \p B is in the loop construct of header \p H: O(1) from the
  /// dominator tree's DFS numbers (H dominates B, the merge block does not).
  static bool inLoop(const cfg::FunctionAnalysis &A, BlockIndex H,
                     BlockIndex B) {
    BlockIndex Merge = A.G.block(H).MergeBlock;
    return A.G.isReachable(B) && A.DT.dominates(H, B) &&
           !(Merge < A.G.size() && A.G.isReachable(Merge) &&
             A.DT.dominates(Merge, B));
  }
  /// The variable a pointer value is derived from, or 0 if unknown.
  uint32_t rootVariable(uint32_t Ptr) const;
  bool lower(std::vector<Uniformity> &Table, uint32_t Id, Uniformity U) {
    if (U <= Table[Id])
      return false;
    Table[Id] = U;
    return true;
  }
  Uniformity operandsMeet(const Instruction &I) const;

  const Module &M;
  const EntryPoint &EP;
  const cfg::ModuleAnalysis &MA;
  UniformityInfo R;
  /// Per function: for each block, the varying-branch blocks it is
  /// (iteratively) control dependent on, sorted. Sparse: a block depends on
  /// about as many branches as constructs enclose it, so the sets cost
  /// blocks x nesting depth, not blocks squared.
  std::vector<std::vector<std::vector<BlockIndex>>> Vcd;
  /// Per function: per block, the branches it is control dependent on
  /// within one iteration of an enclosing loop (computeIterationDependences).
  std::vector<std::vector<std::vector<BlockIndex>>> IterationDeps;
  /// Per function: per block, the innermost loop header (or NoBlock).
  std::vector<std::vector<BlockIndex>> InnermostLoop;
  /// Per instruction index: its block and function (~0u outside functions).
  std::vector<BlockIndex> DefBlockOf;
  std::vector<uint32_t> DefFunction;
  /// Per function: varying branches whose join points are already marked.
  std::vector<std::unordered_set<BlockIndex>> JoinsDone;
};

uint32_t UniformityState::rootVariable(uint32_t Ptr) const {
  // Chains are finite: each step moves to an operand defined earlier in
  // dominance order; bound the walk anyway against malformed input.
  for (unsigned Steps = 0; Steps < 4096; ++Steps) {
    if (M.findVariable(Ptr))
      return Ptr;
    const Instruction *I = M.def(Ptr);
    if (!I || !isPointerChain(I->Opcode) || I->Operands.empty())
      return 0;
    Ptr = I->Operands[0];
  }
  return 0;
}

Uniformity UniformityState::operandsMeet(const Instruction &I) const {
  Uniformity U = Uniformity::Constant;
  for (size_t K = 0; K < I.Operands.size(); ++K) {
    if (!I.OperandIsId[K])
      continue;
    uint32_t Id = I.Operands[K];
    IdKind Kind = M.kindOf(Id);
    if (Kind == IdKind::Constant || Kind == IdKind::Value)
      U = meet(U, R.Values[Id]);
    else if (Kind == IdKind::Variable)
      U = meet(U, R.Addresses[Id]);
  }
  return U;
}

void UniformityState::initialize() {
  uint32_t Bound = M.Bound;
  R.Values.assign(Bound, Uniformity::Constant);
  R.Addresses.assign(Bound, Uniformity::Constant);
  R.Has.assign(Bound, false);
  R.Functions.resize(M.Functions.size());
  Vcd.resize(M.Functions.size());
  InnermostLoop.resize(M.Functions.size());
  IterationDeps.resize(M.Functions.size());
  JoinsDone.resize(M.Functions.size());

  for (ValueId C : M.ConstantOrder) {
    R.Has[C.value()] = true;
    const Constant &K = *M.findConstant(C.value());
    // Specialization constants are fixed before the shader runs: the same
    // in every lane, but not known to the translator.
    R.Values[C.value()] = K.IsSpec ? Uniformity::Uniform : Uniformity::Constant;
  }
  for (ValueId V : M.GlobalVariables) {
    const Variable &Var = *M.findVariable(V.value());
    uint32_t Id = V.value();
    R.Has[Id] = true;
    R.Addresses[Id] = Uniformity::Uniform;
    Uniformity Contents = Uniformity::Constant;
    switch (Var.Storage) {
    case spv::StorageClass::Input: {
      Contents = Uniformity::Varying;
      auto BI = M.decorationValue(Id, spv::Decoration::BuiltIn);
      if (BI && isUniformBuiltIn(static_cast<spv::BuiltIn>(*BI)))
        Contents = Uniformity::Uniform;
      else if (EP.Model == spv::ExecutionModel::Fragment &&
               M.hasDecoration(Id, spv::Decoration::Flat))
        Contents = Uniformity::Uniform;
      else if (!BI) {
        // A block of built-ins (gl_PerVertex) is varying as a whole.
      }
      break;
    }
    case spv::StorageClass::Output:
    case spv::StorageClass::Private:
      Contents = Var.Initializer ? R.Values[Var.Initializer.value()]
                                 : Uniformity::Constant;
      break;
    default:
      Contents = Uniformity::Uniform;
      break;
    }
    R.Values[Id] = Contents;
  }
}

void UniformityState::markReachableFunctions() {
  std::vector<uint32_t> Work;
  auto Visit = [&](uint32_t FnId) {
    auto It = M.FunctionIndexOf.find(FnId);
    if (It == M.FunctionIndexOf.end() || R.Functions[It->second].Analyzed)
      return;
    R.Functions[It->second].Analyzed = true;
    Work.push_back(It->second);
  };
  Visit(EP.Function.value());
  while (!Work.empty()) {
    uint32_t Fn = Work.back();
    Work.pop_back();
    for (const Block &B : M.Functions[Fn].Blocks)
      for (uint32_t Index : B.Insts)
        if (M.Insts[Index].Opcode == spv::Op::OpFunctionCall)
          Visit(M.Insts[Index].Operands[0]);
  }

  for (uint32_t Fn = 0; Fn < M.Functions.size(); ++Fn) {
    if (!R.Functions[Fn].Analyzed)
      continue;
    const cfg::FunctionAnalysis &A = MA[Fn];
    size_t N = A.G.size();
    auto &FI = R.Functions[Fn];
    FI.Blocks.assign(N, Uniformity::Uniform);
    FI.VaryingBranch.assign(N, false);
    FI.DivergentLoop.assign(N, false);
    FI.DivergentJoin.assign(N, false);
    Vcd[Fn].assign(N, {});
    InnermostLoop[Fn].assign(N, cfg::NoBlock);
    for (BlockIndex B = 0; B < N; ++B) {
      if (!A.G.isReachable(B))
        continue;
      uint32_t Node = A.Tree.loopOf(B);
      if (Node != 0)
        InnermostLoop[Fn][B] = A.Tree.node(Node).Block;
    }
    computeIterationDependences(Fn);
    const Function &F = M.Functions[Fn];
    for (ValueId P : F.Params) {
      R.Has[P.value()] = true;
      R.Values[P.value()] = Uniformity::Varying;
      R.Addresses[P.value()] = Uniformity::Varying;
    }
    for (const Block &B : F.Blocks)
      for (uint32_t Index : B.Insts) {
        const Instruction &I = M.Insts[Index];
        if (!I.Result)
          continue;
        R.Has[I.Result.value()] = true;
        if (I.Opcode == spv::Op::OpVariable) {
          R.Addresses[I.Result.value()] = Uniformity::Uniform;
        }
      }
  }
}

// Control dependence from the post-dominator tree says whether a block runs
// at all, not in which iteration: a block that is the only way out of a loop
// (`for (;;) { if (v) break; }`, or a return or kill there) post-dominates
// the whole loop, yet lanes reach it in different iterations when a Varying
// branch in the loop decides. So, per loop, cut the back edges and the exits
// (all into one virtual sink, as are returns and kills), compute the
// post-dominator tree of the loop's blocks for one iteration, and record the
// control dependences it gives (Ferrante, Ottenstein and Warren: walk from
// each successor up to the branch's own post-dominator);
// evaluateBlocks adds them to the others. Cost: the loop's size per loop
// (blocks x loop depth), plus the dependences found.
void UniformityState::computeIterationDependences(uint32_t Fn) {
  const cfg::FunctionAnalysis &A = MA[Fn];
  size_t N = A.G.size();
  auto &Deps = IterationDeps[Fn];
  Deps.assign(N, {});
  std::vector<uint32_t> Local(N, ~0u); // loop block -> index in C.Blocks
  std::vector<uint32_t> OnChain;       // stamps: Y's post-dominator chain
  for (const cfg::Construct &C : A.Tree.constructs()) {
    if (C.Kind != cfg::ConstructKind::Loop)
      continue;
    const uint32_t K = uint32_t(C.Blocks.size()), Sink = K;
    for (uint32_t I = 0; I < K; ++I)
      Local[C.Blocks[I]] = I;
    auto Target = [&](BlockIndex S) {
      return S == C.Header || Local[S] == ~0u ? Sink : Local[S];
    };
    // The reverse graph of one iteration, rooted at the sink.
    std::vector<std::vector<BlockIndex>> RevSuccs(K + 1), RevPreds(K + 1);
    for (uint32_t I = 0; I < K; ++I) {
      const std::vector<BlockIndex> &Succs = A.G.block(C.Blocks[I]).Succs;
      if (Succs.empty()) {
        RevSuccs[Sink].push_back(I);
        RevPreds[I].push_back(Sink);
      }
      for (BlockIndex S : Succs) {
        RevSuccs[Target(S)].push_back(I);
        RevPreds[I].push_back(Target(S));
      }
    }
    std::vector<BlockIndex> Ipdom =
        cfg::computeImmediateDominators(RevSuccs, RevPreds, Sink);
    for (uint32_t Y = 0; Y < K; ++Y) {
      const std::vector<BlockIndex> &Succs = A.G.block(C.Blocks[Y]).Succs;
      // A branch that never reaches the sink (an infinite inner loop) is
      // post-dominated by everything: nothing depends on it.
      if (Succs.size() < 2 || Ipdom[Y] == cfg::NoBlock)
        continue;
      for (BlockIndex S : Succs) {
        uint32_t T = Target(S);
        if (T == Sink)
          continue;
        if (Ipdom[T] != cfg::NoBlock) {
          // The blocks that post-dominate T but not Y.
          for (uint32_t X = T; X != Sink && X != Y && X != Ipdom[Y];
               X = Ipdom[X])
            Deps[C.Blocks[X]].push_back(C.Blocks[Y]);
          continue;
        }
        // T never reaches the sink, so everything post-dominates it: every
        // loop block off Y's post-dominator chain depends on Y.
        OnChain.assign(K + 1, 0);
        for (uint32_t X = Y; X != cfg::NoBlock; X = Ipdom[X])
          OnChain[X] = 1;
        for (uint32_t I = 0; I < K; ++I)
          if (!OnChain[I])
            Deps[C.Blocks[I]].push_back(C.Blocks[Y]);
      }
    }
    for (BlockIndex B : C.Blocks)
      Local[B] = ~0u;
  }
}

// Join points proper (the sync dependence of Karrenberg and Hack): paths
// from different successors of a varying branch meet at B. The control
// dependence rule of evaluateBlocks misses joins whose incoming blocks
// depend on the same varying branches as B itself, e.g. a continue target
// reached from a varying `continue` and from the rest of the body when a
// varying `break` makes the continue target depend on the branch too.
// Propagate one label per successor forward in reverse postorder (not
// across back edges); a block reached with two labels is a join and starts
// a label of its own. Once all edges still to be followed carry one label,
// no further join can happen and the walk stops: each branch costs the
// region its paths cover until they meet, not the rest of the function.
bool UniformityState::markJoinPoints(uint32_t Fn) {
  const cfg::FunctionAnalysis &A = MA[Fn];
  auto &FI = R.Functions[Fn];
  size_t N = A.G.size();
  bool Changed = false;
  const std::vector<BlockIndex> &Rpo = A.G.rpo();
  std::vector<BlockIndex> Label(N, cfg::NoBlock);
  // Per label: seeds and edges from blocks with that label not yet
  // followed. Live counts the labels with any.
  std::vector<uint32_t> Pending(N, 0);
  std::vector<uint8_t> Queued(N, 0), Seed(N, 0);
  std::vector<uint64_t> Stamp(N, 0);
  uint64_t Clock = 0;
  std::vector<BlockIndex> Touched;
  for (BlockIndex X : Rpo) {
    if (!FI.VaryingBranch[X] || JoinsDone[Fn].count(X))
      continue;
    JoinsDone[Fn].insert(X);
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> Heap;
    unsigned Live = 0;
    auto AddPending = [&](BlockIndex L) { Live += Pending[L]++ == 0; };
    auto DropPending = [&](BlockIndex L) { Live -= --Pending[L] == 0; };
    auto Enqueue = [&](BlockIndex S) {
      if (Queued[S])
        return;
      Queued[S] = 1;
      Touched.push_back(S);
      Heap.push(A.G.rpoIndex(S));
    };
    for (BlockIndex S : A.G.block(X).Succs)
      if (A.G.isReachable(S) && !A.G.isBackEdge(X, S) && !Seed[S]) {
        Seed[S] = 1;
        Label[S] = S;
        AddPending(S);
        Enqueue(S);
      }
    while (!Heap.empty() && Live > 1) {
      BlockIndex B = Rpo[Heap.top()];
      Heap.pop();
      if (Seed[B])
        DropPending(B);
      ++Clock;
      for (BlockIndex P : A.G.block(B).Preds) {
        if (!A.G.isReachable(P) || A.G.isBackEdge(P, B) ||
            Label[P] == cfg::NoBlock || Stamp[P] == Clock)
          continue;
        Stamp[P] = Clock; // each edge once, however often it is listed
        DropPending(Label[P]);
        if (Label[B] == cfg::NoBlock) {
          Label[B] = Label[P];
        } else if (Label[B] != Label[P]) {
          if (!FI.DivergentJoin[B]) {
            FI.DivergentJoin[B] = true;
            Changed = true;
          }
          Label[B] = B;
        }
      }
      ++Clock;
      for (BlockIndex S : A.G.block(B).Succs) {
        if (A.G.isBackEdge(B, S) || Stamp[S] == Clock)
          continue;
        Stamp[S] = Clock;
        AddPending(Label[B]);
        Enqueue(S);
      }
    }
    for (BlockIndex T : Touched) {
      Label[T] = cfg::NoBlock;
      Pending[T] = 0;
      Queued[T] = Seed[T] = 0;
    }
    Touched.clear();
  }
  return Changed;
}

bool UniformityState::evaluateBlocks(uint32_t Fn) {
  const cfg::FunctionAnalysis &A = MA[Fn];
  const Function &F = M.Functions[Fn];
  auto &FI = R.Functions[Fn];
  bool Changed = false;
  size_t N = A.G.size();

  // Varying branches.
  for (BlockIndex B : A.G.rpo()) {
    const cfg::CfgBlock &CB = A.G.block(B);
    if (CB.Succs.size() < 2 || FI.VaryingBranch[B])
      continue;
    const Instruction &T = M.Insts[F.Blocks[B].TerminatorInst];
    uint32_t Cond = T.Operands.empty() ? 0 : T.Operands[0];
    if (R.Values[Cond] == Uniformity::Varying) {
      FI.VaryingBranch[B] = true;
      Changed = true;
    }
  }

  // Iterated control dependence on varying branches, to a fixed point
  // (dependences through back edges need a second sweep).
  // The sets only grow, so a block's set changed when it got longer.
  // Membership is a stamp per block rather than a merge of sorted lists:
  // a block inside D nested loops has D iteration dependences, each with
  // a set of up to D branches, and merging each into the whole set copied
  // it D times per sweep.
  std::vector<std::vector<BlockIndex>> &V = Vcd[Fn];
  std::vector<BlockIndex> New;
  std::vector<uint32_t> Mark(N, 0);
  uint32_t Stamp = 0;
  bool Again = true;
  while (Again) {
    Again = false;
    for (BlockIndex B : A.G.rpo()) {
      ++Stamp;
      New = V[B];
      for (BlockIndex X : New)
        Mark[X] = Stamp;
      auto Add = [&](BlockIndex X) {
        if (Mark[X] != Stamp) {
          Mark[X] = Stamp;
          New.push_back(X);
        }
      };
      auto DependOn = [&](BlockIndex X) {
        if (X >= N)
          return;
        if (FI.VaryingBranch[X])
          Add(X);
        for (BlockIndex Y : V[X])
          Add(Y);
      };
      for (BlockIndex X : A.CD.dependsOn(B))
        DependOn(X);
      for (BlockIndex X : IterationDeps[Fn][B])
        DependOn(X);
      if (New.size() != V[B].size()) {
        std::sort(New.begin(), New.end());
        V[B] = New;
        Again = true;
      }
    }
  }
  for (BlockIndex B : A.G.rpo()) {
    Uniformity U = !V[B].empty() ? Uniformity::Varying : Uniformity::Uniform;
    if (U != FI.Blocks[B]) {
      FI.Blocks[B] = U;
      Changed = true;
    }
  }

  // Divergent joins: an incoming edge leaves a varying branch, or comes from
  // a block that depends on a varying branch this block does not.
  for (BlockIndex B : A.G.rpo()) {
    if (FI.DivergentJoin[B])
      continue;
    bool Div = false;
    for (BlockIndex P : A.G.block(B).Preds) {
      if (!A.G.isReachable(P))
        continue;
      if (FI.VaryingBranch[P]) {
        Div = true;
        break;
      }
      if (!std::includes(V[B].begin(), V[B].end(), V[P].begin(),
                         V[P].end())) {
        Div = true;
        break;
      }
    }
    if (Div) {
      FI.DivergentJoin[B] = true;
      Changed = true;
    }
  }

  // Join points proper (the sync dependence of Karrenberg and Hack): paths
  // from different successors of a varying branch meet at B. The rule above
  // misses joins whose incoming blocks depend on the same varying branches
  // as B itself, e.g. a continue target reached from a varying `continue`
  // and from the rest of the body when a varying `break` makes the
  // continue target depend on the branch too. Propagate one label per
  // successor forward in reverse postorder (not across back edges); a block
  // reached with two labels is a join and starts a label of its own.
  Changed |= markJoinPoints(Fn);

  // Divergent loops: some lanes leave while others stay.
  for (const cfg::Construct &C : A.Tree.constructs()) {
    if (C.Kind != cfg::ConstructKind::Loop || FI.DivergentLoop[C.Header])
      continue;
    bool Div = false;
    for (BlockIndex X : C.Blocks) {
      const cfg::CfgBlock &XB = A.G.block(X);
      bool Exits = XB.Terminator == cfg::TerminatorKind::Return ||
                   XB.Terminator == cfg::TerminatorKind::Kill;
      bool Stays = false;
      for (BlockIndex S : XB.Succs) {
        if (S < N && inLoop(A, C.Header, S))
          Stays = true;
        else
          Exits = true;
      }
      if (!Exits)
        continue;
      bool Inside = std::any_of(V[X].begin(), V[X].end(), [&](BlockIndex Y) {
        return inLoop(A, C.Header, Y);
      });
      if ((FI.VaryingBranch[X] && Stays) || Inside) {
        Div = true;
        break;
      }
    }
    if (Div) {
      FI.DivergentLoop[C.Header] = true;
      Changed = true;
    }
  }
  return Changed;
}

bool UniformityState::evaluateInstructions(uint32_t Fn) {
  const cfg::FunctionAnalysis &A = MA[Fn];
  const Function &F = M.Functions[Fn];
  auto &FI = R.Functions[Fn];
  bool Changed = false;
  for (BlockIndex B : A.G.rpo()) {
    const Block &Blk = F.Blocks[B];
    for (uint32_t Index : Blk.Insts) {
      const Instruction &I = M.Insts[Index];
      uint32_t Id = I.Result.value();
      switch (I.Opcode) {
      case spv::Op::OpVariable: {
        Uniformity U = Uniformity::Constant;
        if (I.Operands.size() > 1)
          U = R.Values[I.Operands[1]];
        Changed |= lower(R.Values, Id, U);
        continue;
      }
      case spv::Op::OpStore: {
        uint32_t Ptr = I.Operands[0];
        uint32_t Var = rootVariable(Ptr);
        const Variable *V = Var ? M.findVariable(Var) : nullptr;
        if (V && !isPerInvocationStorage(V->Storage))
          continue;
        Uniformity U = meet(R.Values[I.Operands[1]], R.Addresses[Ptr]);
        U = meet(U, FI.Blocks[B]);
        if (FI.CalledDivergently &&
            (!V || V->Storage != spv::StorageClass::Function))
          U = Uniformity::Varying;
        if (Var)
          Changed |= lower(R.Values, Var, U);
        continue;
      }
      case spv::Op::OpCopyMemory:
      case spv::Op::OpCopyMemorySized: {
        uint32_t Dst = rootVariable(I.Operands[0]);
        uint32_t Src = rootVariable(I.Operands[1]);
        Uniformity U = meet(R.Addresses[I.Operands[0]],
                            R.Addresses[I.Operands[1]]);
        U = meet(U, Src ? R.Values[Src] : Uniformity::Varying);
        U = meet(U, FI.Blocks[B]);
        const Variable *DV = Dst ? M.findVariable(Dst) : nullptr;
        if (FI.CalledDivergently &&
            (!DV || DV->Storage != spv::StorageClass::Function))
          U = Uniformity::Varying;
        if (Dst)
          Changed |= lower(R.Values, Dst, U);
        continue;
      }
      case spv::Op::OpExtInst: {
        // GLSL.std.450 Modf and Frexp store through their pointer operand
        // like OpStore; InterpolateAt* read an input like OpLoad.
        auto Set = M.ExtInstImports.find(I.Operands[0]);
        if (Set == M.ExtInstImports.end() || Set->second != "GLSL.std.450" ||
            I.Operands.size() < 4)
          break;
        uint32_t Ext = I.Operands[1];
        if (Ext == GLSLstd450Modf || Ext == GLSLstd450Frexp) {
          uint32_t Ptr = I.Operands[3];
          if (uint32_t Var = rootVariable(Ptr)) {
            const Variable *V = M.findVariable(Var);
            if (V && isPerInvocationStorage(V->Storage)) {
              Uniformity U = meet(R.Values[I.Operands[2]], R.Addresses[Ptr]);
              Changed |= lower(R.Values, Var, meet(U, FI.Blocks[B]));
            }
          }
        }
        break;
      }
      case spv::Op::OpFunctionCall: {
        // Pointer arguments may be written by the callee.
        for (size_t K = 1; K < I.Operands.size(); ++K)
          if (uint32_t Var = rootVariable(I.Operands[K]))
            Changed |= lower(R.Values, Var, Uniformity::Varying);
        auto Callee = M.FunctionIndexOf.find(I.Operands[0]);
        if (Callee != M.FunctionIndexOf.end() &&
            (FI.Blocks[B] == Uniformity::Varying || FI.CalledDivergently) &&
            !R.Functions[Callee->second].CalledDivergently) {
          R.Functions[Callee->second].CalledDivergently = true;
          Changed = true;
        }
        break;
      }
      default:
        break;
      }
      if (!Id)
        continue;

      Uniformity U;
      UniformityRule Rule = opcodeInfo(I.Opcode).Uniformity;
      if (NoSubgroupUniform && (Rule == UniformityRule::Uniform ||
                                Rule == UniformityRule::ReduceUniform ||
                                Rule == UniformityRule::ReduceOperands))
        Rule = UniformityRule::Varying;
      bool Reduce =
          groupOperation(I) == spv::GroupOperation::Reduce;
      if (Rule == UniformityRule::Varying ||
          (Rule == UniformityRule::ReduceUniform && !Reduce) ||
          (Rule == UniformityRule::ReduceOperands && !Reduce)) {
        U = Uniformity::Varying;
      } else if (Rule == UniformityRule::Uniform ||
                 Rule == UniformityRule::ReduceUniform) {
        // The same in every active lane whatever the operands (a vote, a
        // broadcast, a ballot, a reduction): the subgroup is the SIMD group.
        U = Uniformity::Uniform;
      } else if (Rule == UniformityRule::ReduceOperands) {
        U = meet(operandsMeet(I), Uniformity::Uniform);
      } else if (I.Opcode == spv::Op::OpPhi) {
        U = operandsMeet(I);
        // Different incoming values are not one compile-time constant.
        bool Distinct = false;
        for (size_t K = 2; K < I.Operands.size(); K += 2)
          Distinct |= I.Operands[K] != I.Operands[0];
        if (Distinct)
          U = meet(U, Uniformity::Uniform);
        if (FI.DivergentJoin[B])
          U = Uniformity::Varying;
      } else if (I.Opcode == spv::Op::OpLoad) {
        uint32_t Ptr = I.Operands[0];
        U = R.Addresses[Ptr];
        uint32_t Var = rootVariable(Ptr);
        const Variable *V = Var ? M.findVariable(Var) : nullptr;
        if (!V)
          U = Uniformity::Varying;
        else if (isPerInvocationStorage(V->Storage))
          U = meet(U, R.Values[Var]);
        else
          U = meet(U, Uniformity::Uniform);
      } else if (I.Opcode == spv::Op::OpExtInst &&
                 M.ExtInstImports.count(I.Operands[0]) &&
                 M.ExtInstImports.at(I.Operands[0]) == "GLSL.std.450" &&
                 I.Operands.size() >= 3 &&
                 (I.Operands[1] == GLSLstd450InterpolateAtCentroid ||
                  I.Operands[1] == GLSLstd450InterpolateAtSample ||
                  I.Operands[1] == GLSLstd450InterpolateAtOffset)) {
        // Reads the input its pointer operand names, like a load.
        uint32_t Var = rootVariable(I.Operands[2]);
        U = Var ? meet(R.Values[Var], operandsMeet(I)) : Uniformity::Varying;
        U = meet(U, Uniformity::Uniform);
      } else if (I.Opcode == spv::Op::OpUndef) {
        U = Uniformity::Constant;
      } else if (isSubpassLoad(M, I)) {
        // Reads at the fragment's position, whatever its operands.
        U = Uniformity::Varying;
      } else {
        U = operandsMeet(I);
        // Anything not computed from constants alone is at best Uniform
        // (we do not fold instruction results).
        if (I.Opcode != spv::Op::OpCopyObject)
          U = meet(U, Uniformity::Uniform);
      }
      const Type *RT = M.findType(I.ResultType.value());
      if (RT && RT->Kind == TypeKind::Pointer) {
        Changed |= lower(R.Addresses, Id, U);
        // A pointer's row in the table shows its address.
        Changed |= lower(R.Values, Id, U);
      } else {
        Changed |= lower(R.Values, Id, U);
      }
    }
  }
  return Changed;
}

bool UniformityState::evaluateTemporalDivergence(uint32_t Fn) {
  const cfg::FunctionAnalysis &A = MA[Fn];
  const Function &F = M.Functions[Fn];
  auto &FI = R.Functions[Fn];
  bool Changed = false;
  // For each use in block U of a value defined in block D: every divergent
  // loop containing D but not U makes the value Varying.
  for (BlockIndex B : A.G.rpo()) {
    for (uint32_t Index : F.Blocks[B].Insts) {
      const Instruction &I = M.Insts[Index];
      for (size_t K = 0; K < I.Operands.size(); ++K) {
        if (!I.OperandIsId[K])
          continue;
        uint32_t Id = I.Operands[K];
        if (M.kindOf(Id) != IdKind::Value || R.Values[Id] == Uniformity::Varying)
          continue;
        // The def's innermost loop; walk outwards while the use is not in it.
        uint32_t DefIndex = M.DefInst[Id];
        if (DefIndex == ~0u || DefFunction[DefIndex] != Fn)
          continue;
        BlockIndex DB = DefBlockOf[DefIndex];
        if (!A.G.isReachable(DB))
          continue;
        // A phi uses its value on the incoming edge, at the end of the
        // predecessor block.
        BlockIndex UseB = B;
        if (I.Opcode == spv::Op::OpPhi && K % 2 == 0 && K + 1 < I.Operands.size()) {
          auto P = F.BlockIndexOf.find(I.Operands[K + 1]);
          if (P != F.BlockIndexOf.end())
            UseB = P->second;
        }
        for (BlockIndex H = InnermostLoop[Fn][DB]; H != cfg::NoBlock;) {
          if (inLoop(A, H, UseB))
            break;
          if (FI.DivergentLoop[H]) {
            Changed |= lower(R.Values, Id, Uniformity::Varying);
            break;
          }
          uint32_t Node = A.Tree.loopOf(H);
          uint32_t Parent = A.Tree.node(Node).Parent;
          H = Parent == ~0u || Parent == 0 ? cfg::NoBlock
                                           : A.Tree.node(Parent).Block;
        }
      }
    }
  }
  return Changed;
}

UniformityInfo UniformityState::run() {
  initialize();
  markReachableFunctions();
  DefBlockOf.assign(M.Insts.size(), cfg::NoBlock);
  DefFunction.assign(M.Insts.size(), ~0u);
  for (uint32_t Fn = 0; Fn < M.Functions.size(); ++Fn) {
    if (!R.Functions[Fn].Analyzed)
      continue;
    for (BlockIndex B = 0; B < M.Functions[Fn].Blocks.size(); ++B)
      for (uint32_t Index : M.Functions[Fn].Blocks[B].Insts) {
        DefBlockOf[Index] = B;
        DefFunction[Index] = Fn;
      }
  }
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (uint32_t Fn = 0; Fn < M.Functions.size(); ++Fn) {
      if (!R.Functions[Fn].Analyzed)
        continue;
      Changed |= evaluateBlocks(Fn);
      Changed |= evaluateInstructions(Fn);
      Changed |= evaluateTemporalDivergence(Fn);
    }
  }
  return std::move(R);
}

} // namespace

UniformityInfo computeUniformity(const Module &M, const EntryPoint &EP,
                                 const cfg::ModuleAnalysis &MA) {
  return UniformityState(M, EP, MA).run();
}

} // namespace spirv2llvm

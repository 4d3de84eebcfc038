//===- SpirvTools.cpp - Assembler, validator, optimizer, disassembler -----===//
//
// Wrappers over the SPIRV-Tools library. SPIRV-Tools reports problems through
// a message consumer; these wrappers turn the first error into an llvm::Error
// in the project's style ("word N: ..."), and keep the tool's own text (its
// capitalization included) after that prefix.
//
// Positions: SPIRV-Tools 2023.1 reports the 1-based ordinal of the offending
// instruction in spv_position_t::index, both from the binary parser
// (Parser::diagnostic passes instruction_count) and from the validator
// (ValidationState_t::diag passes Instruction::LineNum()); 0 means the header
// or the module as a whole. The wrappers turn ordinals into word offsets so
// that every message names a word, as the parser's own messages do.
//
//===----------------------------------------------------------------------===//

#include "frontend/Frontend.h"
#include "frontend/PreOptimizerCheck.h"
#include "support/Diagnostic.h"
#include "support/Limits.h"

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>
// After the utility code is enabled: it includes spirv.hpp11 too.
#include "parser/OpcodeTable.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace spirv2llvm::frontend {

namespace {

constexpr size_t HeaderWords = 5;

/// The first error a SPIRV-Tools component reports. Later messages are
/// usually consequences of the first, so only that one is kept.
struct FirstError {
  bool Seen = false;
  spv_position_t Position = {0, 0, 0};
  std::string Message;

  spvtools::MessageConsumer consumer() {
    return [this](spv_message_level_t Level, const char *,
                  const spv_position_t &Pos, const char *Msg) {
      if (Seen || Level > SPV_MSG_ERROR)
        return;
      Seen = true;
      Position = Pos;
      Message = Msg ? Msg : "";
    };
  }
};

/// Makes a SPIRV-Tools message fit the project's style: one line per
/// problem, no final period. The validator appends the disassembled
/// instruction on a second, indented line ("  %19 = OpPhi ..."); it is kept,
/// quoted, after the message.
std::string tidyMessage(llvm::StringRef Msg) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Msg.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string Result;
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    if (Line.empty())
      continue;
    if (Result.empty()) {
      Result = Line.rtrim('.').str();
      continue;
    }
    Result += (": '" + Line + "'").str();
  }
  if (Result.empty())
    Result = "no message";
  return Result;
}

/// Where each instruction after the header starts, as far as the word
/// counts can be followed.
struct InstructionOffsets {
  std::vector<size_t> Offsets;
  /// False when an instruction's word count is 0 or runs past the end; its
  /// start is then the last entry of Offsets.
  bool Complete = true;
};

InstructionOffsets instructionOffsets(llvm::ArrayRef<uint32_t> Words) {
  InstructionOffsets Result;
  if (Words.size() < HeaderWords) {
    Result.Complete = false;
    return Result;
  }
  for (size_t Offset = HeaderWords; Offset < Words.size();) {
    Result.Offsets.push_back(Offset);
    uint32_t WordCount = Words[Offset] >> 16;
    if (WordCount == 0 || WordCount > Words.size() - Offset) {
      Result.Complete = false;
      break;
    }
    Offset += WordCount;
  }
  return Result;
}

/// Makes an error for a SPIRV-Tools message about \p Words: "word N: "
/// first when the position names an instruction, then \p What and the
/// message.
llvm::Error toolError(llvm::ArrayRef<uint32_t> Words, llvm::StringRef What,
                      const FirstError &First) {
  std::string Msg =
      (What + ": " + (First.Seen ? tidyMessage(First.Message) : "no message"))
          .str();
  size_t Ordinal = First.Seen ? First.Position.index : 0;
  std::vector<size_t> Offsets = instructionOffsets(Words).Offsets;
  if (Ordinal == 0 || Ordinal > Offsets.size())
    return makeError(Msg);
  return makeErrorAt(Offsets[Ordinal - 1], Msg);
}

} // namespace

llvm::Expected<std::vector<uint32_t>> assembleSpirv(llvm::StringRef Text,
                                                    spv_target_env Env,
                                                    llvm::StringRef FileName) {
  spvtools::SpirvTools Tools(Env);
  FirstError First;
  Tools.SetMessageConsumer(First.consumer());
  std::vector<uint32_t> Words;
  if (Tools.Assemble(Text.data(), Text.size(), &Words,
                     SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS))
    return Words;
  if (!First.Seen)
    return makeError(FileName + ": assembly failed");
  // The assembler counts lines and columns from 0.
  return makeError(FileName + ":" + llvm::Twine(First.Position.line + 1) + ":" +
                   llvm::Twine(First.Position.column + 1) + ": " +
                   tidyMessage(First.Message));
}

/// Stage inputs and outputs larger than limits::MaxValueScalars, found
/// from the raw words before the validator runs: SPIRV-Tools' interface
/// checks allocate per location, and a 16M-element output array took more
/// than 3 GB there (a fuzz finding). The translator refuses such variables
/// anyway (Parser.cpp); this says so first.
static llvm::Error checkInterfaceSizes(llvm::ArrayRef<uint32_t> Words) {
  std::unordered_map<uint32_t, uint64_t> Scalars, Constants, Pointee;
  auto Of = [&](uint32_t Id) -> uint64_t {
    auto It = Scalars.find(Id);
    return It == Scalars.end() ? 1 : It->second;
  };
  const uint64_t Cap = uint64_t(1) << 40; // saturate: no overflow
  auto Mul = [&](uint64_t A, uint64_t B) {
    return B && A > Cap / B ? Cap : std::min(A * B, Cap);
  };
  for (size_t P = 5; P < Words.size();) {
    uint32_t Op = Words[P] & 0xffff, N = Words[P] >> 16;
    if (N == 0 || P + N > Words.size())
      break; // malformed: the validator says where
    const uint32_t *W = &Words[P];
    // What the opcode declares, from the opcode table.
    const OpcodeInfo &Info = opcodeInfo(spv::Op(Op));
    if (Info.Constant == ConstantForm::Scalar && !Info.SpecConstant) {
      if (N >= 4)
        Constants[W[2]] = W[3];
    } else if (Info.Defines == IdKind::Variable) {
      if (N >= 4 && (W[3] == uint32_t(spv::StorageClass::Input) ||
                     W[3] == uint32_t(spv::StorageClass::Output))) {
        auto T = Pointee.find(W[1]);
        uint64_t S = T == Pointee.end() ? 1 : Of(uint32_t(T->second));
        if (S > limits::MaxValueScalars)
          return makeError("stage input or output %" + llvm::Twine(W[2]) +
                           " has " + llvm::Twine(S) +
                           " scalars; the limit is " +
                           llvm::Twine(limits::MaxValueScalars));
      }
    } else {
      // DeclaredType is Unsupported for what declares no type.
      switch (Info.DeclaredType) {
      case TypeKind::Vector:
      case TypeKind::Matrix:
        if (N >= 4)
          Scalars[W[1]] = Mul(Of(W[2]), W[3]);
        break;
      case TypeKind::Array:
        if (N >= 4) {
          auto C = Constants.find(W[3]);
          Scalars[W[1]] =
              Mul(Of(W[2]), C == Constants.end() ? 1 : C->second);
        }
        break;
      case TypeKind::Struct: {
        if (N < 2)
          break; // no result id (a fuzz finding: W[1] was past the end)
        uint64_t Sum = 0;
        for (uint32_t K = 2; K < N; ++K)
          Sum = std::min(Sum + Of(W[K]), Cap);
        Scalars[W[1]] = Sum;
        break;
      }
      case TypeKind::Pointer:
        if (N >= 4)
          Pointee[W[1]] = W[3];
        break;
      default:
        break;
      }
    }
    P += N;
  }
  return llvm::Error::success();
}

llvm::Error validateSpirv(llvm::ArrayRef<uint32_t> Words, spv_target_env Env) {
  if (llvm::Error E = checkInterfaceSizes(Words))
    return E;
  spvtools::SpirvTools Tools(Env);
  FirstError First;
  Tools.SetMessageConsumer(First.consumer());
  // Default options, as spirv-val without flags (friendly names in
  // messages included).
  spvtools::ValidatorOptions Options;
  // Shaders may declare scalar block layout (VK_EXT_scalar_block_layout,
  // core in Vulkan 1.2); the translator reads whatever Offset and
  // ArrayStride decorations say, so accept it.
  Options.SetScalarBlockLayout(true);
  if (Tools.Validate(Words.data(), Words.size(), Options))
    return llvm::Error::success();
  return toolError(Words, "validation failed", First);
}

/// The passes that reshape functions (after specialization).
/// Modules larger than this many words skip SPIRV-Tools' SSA rewrite
/// (local-multi-store-elim): its check of a variable's references walks all
/// users of the variable for each reference, quadratic in the uses of one
/// variable (a 15,001-block shader spent 45 s there). The translator keeps
/// the variables it leaves in memory and promotes them itself, in time
/// linear in their live ranges (SimdEmitter::promoteSlots). Real shaders are
/// far below this size, so their translation does not change.
constexpr size_t MaxWordsForSsaRewrite = 1 << 18;

/// Whether \p Words define more than one function. With a single function
/// (the entry point: a valid module names one) there is nothing to inline
/// and no dead function, and the two passes would only build their
/// analyses to find that out (0.08 s of the 15,001-block shader's 0.5 s).
static bool hasSeveralFunctions(llvm::ArrayRef<uint32_t> Words) {
  unsigned Functions = 0;
  for (size_t P = HeaderWords; P < Words.size();) {
    uint32_t N = Words[P] >> 16;
    if (N == 0)
      return true; // malformed: keep every pass, as before
    if (spv::Op(Words[P] & 0xffff) == spv::Op::OpFunction && ++Functions > 1)
      return true;
    P += N;
  }
  return false;
}

static void registerCanonicalization(spvtools::Optimizer &Optimizer,
                                     const CanonicalizeOptions &Opts,
                                     bool RemoveUnreachable,
                                     llvm::ArrayRef<uint32_t> Words) {
  size_t ModuleWords = Words.size();
  if (RemoveUnreachable)
    Optimizer.RegisterPass(spvtools::CreateDeadBranchElimPass());
  // The inliner skips functions with early returns, so returns are merged
  // first (spirv-opt -O does the same).
  Optimizer.RegisterPass(spvtools::CreateMergeReturnPass());
  if (Opts.Inline && hasSeveralFunctions(Words))
    Optimizer.RegisterPass(spvtools::CreateInlineExhaustivePass())
        .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
  // No dead-branch elimination or CFG simplification: they fold branches on
  // constants and merge blocks, changing the control flow a user compares
  // with the input in --print-cfg. Merge-return does change it, but only
  // for functions with several returns, which the structure tree cannot
  // express otherwise.
  Optimizer.RegisterPass(spvtools::CreatePrivateToLocalPass())
      .RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
      .RegisterPass(spvtools::CreateLocalSingleStoreElimPass());
  if (ModuleWords <= MaxWordsForSsaRewrite)
    Optimizer.RegisterPass(spvtools::CreateLocalMultiStoreElimPass());
  Optimizer.RegisterPass(spvtools::CreateAggressiveDCEPass());
}

static llvm::Expected<std::vector<uint32_t>>
runOptimizer(spvtools::Optimizer &Optimizer, llvm::ArrayRef<uint32_t> Words,
             FirstError &First) {
  // The input is valid by contract (validateSpirv ran, or the user turned it
  // off on purpose); validating again would only cost time.
  spvtools::OptimizerOptions OptimizerOpts;
  OptimizerOpts.set_run_validator(false);
  std::vector<uint32_t> Result;
  // Passes report position {0, 0, 0}; only the module parser names an
  // instruction.
  if (!Optimizer.Run(Words.data(), Words.size(), &Result, OptimizerOpts))
    return toolError(Words, "canonicalization failed", First);
  return Result;
}

/// The canonicalization passes; \p RemoveUnreachable first removes
/// unreachable blocks (dead-branch elimination does), which merge-return
/// cannot handle.
static llvm::Expected<std::vector<uint32_t>>
runCanonicalization(llvm::ArrayRef<uint32_t> Words, spv_target_env Env,
                    const CanonicalizeOptions &Opts, bool RemoveUnreachable) {
  spvtools::Optimizer Optimizer(Env);
  FirstError First;
  Optimizer.SetMessageConsumer(First.consumer());

  if (!Opts.SpecValues.empty()) {
    // Later entries for the same SpecId win, as with repeated command-line
    // options.
    std::unordered_map<uint32_t, std::string> Values;
    for (const auto &[SpecId, Value] : Opts.SpecValues)
      Values[SpecId] = Value;
    Optimizer.RegisterPass(
        spvtools::CreateSetSpecConstantDefaultValuePass(Values));
  }
  Optimizer.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass())
      .RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass());
  if (!Opts.SpecializeOnly)
    registerCanonicalization(Optimizer, Opts, RemoveUnreachable, Words);
  return runOptimizer(Optimizer, Words, First);
}

llvm::Expected<std::vector<uint32_t>>
canonicalizeSpirv(llvm::ArrayRef<uint32_t> Words, spv_target_env Env,
                  const CanonicalizeOptions &Opts) {
  if (llvm::Error E = checkBeforeOptimizer(Words, Env))
    return E;
  auto R = runCanonicalization(Words, Env, Opts, false);
  if (R)
    return R;
  // Merge-return refuses functions with unreachable blocks (valid SPIR-V,
  // GraphicsFuzz makes them). Only then are they removed first, so that the
  // CFG dumps of other modules still show the input's blocks.
  std::string Msg = llvm::toString(R.takeError());
  if (llvm::StringRef(Msg).contains("unreachable blocks"))
    return runCanonicalization(Words, Env, Opts, true);
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Expected<std::vector<uint32_t>>
optimizeSpirv(llvm::ArrayRef<uint32_t> Words, spv_target_env Env,
              llvm::ArrayRef<std::string> Flags) {
  if (llvm::Error E = checkBeforeOptimizer(Words, Env))
    return E;
  spvtools::Optimizer Optimizer(Env);
  FirstError First;
  Optimizer.SetMessageConsumer(First.consumer());
  // One flag at a time, so that the error names the flag spirv-opt did
  // not take.
  for (const std::string &Flag : Flags)
    if (!Optimizer.RegisterPassesFromFlags({Flag}))
      return makeError("unknown spirv-opt pass '" + Flag + "'");
  auto R = runOptimizer(Optimizer, Words, First);
  if (!R)
    return R.takeError();
  // The translator relies on valid input; a pass is not trusted to keep it.
  if (llvm::Error E = validateSpirv(*R, Env))
    return makeError("after spirv-opt passes: " + llvm::toString(std::move(E)));
  return R;
}

llvm::Expected<std::string> disassembleSpirv(llvm::ArrayRef<uint32_t> Words,
                                             spv_target_env Env) {
  // spirv-dis's defaults: indented, friendly names, and the header comment
  // (version, generator, bound), which --print-after-all dumps want: the
  // bound tells whether a pass allocated new ids.
  spvtools::SpirvTools Tools(Env);
  FirstError First;
  Tools.SetMessageConsumer(First.consumer());
  std::string Text;
  if (!Tools.Disassemble(Words.data(), Words.size(), &Text,
                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES |
                             SPV_BINARY_TO_TEXT_OPTION_INDENT))
    return toolError(Words, "disassembly failed", First);
  return Text;
}

std::vector<std::string> friendlyNames(llvm::ArrayRef<uint32_t> Words,
                                       uint32_t Bound, spv_target_env Env) {
  std::vector<std::string> Names(Bound);
  // The result id of every instruction that has one, in module order. The
  // disassembler prints these instructions as "%name = Op...", one line
  // each and in the same order, so the n-th such line names the n-th id.
  InstructionOffsets Walk = instructionOffsets(Words);
  std::vector<uint32_t> ResultIds;
  bool WalkOk = Walk.Complete;
  for (size_t I = 0; WalkOk && I < Walk.Offsets.size(); ++I) {
    size_t Offset = Walk.Offsets[I];
    uint32_t WordCount = Words[Offset] >> 16;
    bool HasResult = false, HasResultType = false;
    spv::HasResultAndType(static_cast<spv::Op>(Words[Offset] & 0xffff),
                          &HasResult, &HasResultType);
    if (!HasResult)
      continue;
    uint32_t ResultWord = HasResultType ? 2 : 1;
    if (ResultWord >= WordCount)
      WalkOk = false;
    else
      ResultIds.push_back(Words[Offset + ResultWord]);
  }
  if (!WalkOk) {
    // Which ids are results is unknown: name them all by number.
    for (uint32_t Id = 1; Id < Bound; ++Id)
      Names[Id] = std::to_string(Id);
    return Names;
  }

  spvtools::SpirvTools Tools(Env);
  std::string Text;
  bool Ok = Tools.Disassemble(Words.data(), Words.size(), &Text,
                              SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES |
                                  SPV_BINARY_TO_TEXT_OPTION_NO_HEADER);
  std::vector<std::string> TextNames;
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Text).split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    // Without indentation a result-bearing instruction starts with '%';
    // nothing else does (a string operand spanning lines could, and then
    // the counts below disagree).
    if (!Ok || !Line.consume_front("%"))
      continue;
    size_t Eq = Line.find(" = ");
    if (Eq == llvm::StringRef::npos || Eq == 0)
      Ok = false;
    else
      TextNames.push_back(Line.take_front(Eq).str());
  }
  if (!Ok || TextNames.size() != ResultIds.size()) {
    // Without a reliable pairing, results are named by their numbers.
    for (uint32_t Id : ResultIds)
      if (Id < Bound)
        Names[Id] = std::to_string(Id);
    return Names;
  }
  for (size_t I = 0; I < ResultIds.size(); ++I)
    if (ResultIds[I] < Bound)
      Names[ResultIds[I]] = std::move(TextNames[I]);
  return Names;
}

} // namespace spirv2llvm::frontend

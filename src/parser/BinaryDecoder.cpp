//===- BinaryDecoder.cpp - Words to instructions via SPIRV-Tools ----------===//
//
// The word-level decoding (header, word counts, opcodes, operand kinds,
// byte order) is SPIRV-Tools' grammar-driven spvBinaryParse; this file turns
// its callbacks into Instruction records and its diagnostics into ours.
//
//===----------------------------------------------------------------------===//
#include "parser/Decoder.h"

#include "parser/SpirvNames.h"
#include "support/Diagnostic.h"
#include "support/Limits.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SwapByteOrder.h"

#include <spirv-tools/libspirv.h>

#include <cctype>

using namespace llvm;

namespace spirv2llvm {

namespace {

/// Largest id bound accepted: the SPIR-V universal limit (spirv-val's
/// default). Per-id tables are sized by the bound, so a forged header must
/// not make them huge.
constexpr uint32_t MaxIdBound = limits::MaxIdBound - 1;

struct DecodeState {
  DecodedBinary *Out;
  std::string Error;
  bool HeaderSeen = false;
};

bool isIdOperand(spv_operand_type_t T) {
  switch (T) {
  case SPV_OPERAND_TYPE_ID:
  case SPV_OPERAND_TYPE_TYPE_ID:
  case SPV_OPERAND_TYPE_RESULT_ID:
  case SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID:
  case SPV_OPERAND_TYPE_SCOPE_ID:
    return true;
  default:
    return false;
  }
}

spv_result_t onHeader(void *User, spv_endianness_t, uint32_t Magic,
                      uint32_t Version, uint32_t Generator, uint32_t Bound,
                      uint32_t Schema) {
  auto *S = static_cast<DecodeState *>(User);
  S->HeaderSeen = true;
  S->Out->Version = Version;
  S->Out->Generator = Generator;
  S->Out->Bound = Bound;
  if (Bound > MaxIdBound + 1) {
    S->Error = "word 3: id bound " + std::to_string(Bound) +
               " exceeds the limit " + std::to_string(MaxIdBound + 1);
    return SPV_ERROR_INVALID_BINARY;
  }
  if (Schema != 0) {
    S->Error = "word 4: reserved schema word is " + std::to_string(Schema) +
               ", expected 0";
    return SPV_ERROR_INVALID_BINARY;
  }
  return SPV_SUCCESS;
}

spv_result_t onInstruction(void *User, const spv_parsed_instruction_t *P) {
  auto *S = static_cast<DecodeState *>(User);
  DecodedBinary &Out = *S->Out;
  // Checked while decoding, before a huge module is held in memory twice.
  if (Out.Insts.size() >= limits::MaxInstructions) {
    S->Error = "word " + std::to_string(Out.NextWord) +
               ": module has more than " +
               std::to_string(limits::MaxInstructions) +
               " instructions, the limit";
    return SPV_ERROR_INVALID_BINARY;
  }
  Instruction I;
  I.Opcode = static_cast<spv::Op>(P->opcode);
  I.WordOffset = Out.NextWord;
  Out.NextWord += P->num_words;
  I.ExtInstSet = P->ext_inst_type;
  I.ResultType = TypeId(P->type_id);
  I.Result = ValueId(P->result_id);
  for (uint16_t K = 0; K < P->num_operands; ++K) {
    const spv_parsed_operand_t &Op = P->operands[K];
    if (Op.type == SPV_OPERAND_TYPE_TYPE_ID &&
        K == 0 && P->type_id)
      continue;
    if (Op.type == SPV_OPERAND_TYPE_RESULT_ID)
      continue;
    bool IsId = isIdOperand(Op.type);
    for (uint16_t W = 0; W < Op.num_words; ++W) {
      I.Operands.push_back(P->words[Op.offset + W]);
      I.OperandIsId.push_back(IsId);
    }
  }
  if (P->result_id >= Out.Bound && Out.Bound) {
    S->Error = "word " + std::to_string(I.WordOffset) + ": " +
               opName(I.Opcode) + " result id " +
               std::to_string(P->result_id) + " is not below the id bound " +
               std::to_string(Out.Bound);
    return SPV_ERROR_INVALID_ID;
  }
  for (size_t K = 0; K < I.Operands.size(); ++K) {
    if (I.OperandIsId[K] && I.Operands[K] >= Out.Bound) {
      S->Error = "word " + std::to_string(I.WordOffset) + ": " +
                 opName(I.Opcode) + " uses id " +
                 std::to_string(I.Operands[K]) +
                 " which is not below the id bound " +
                 std::to_string(Out.Bound);
      return SPV_ERROR_INVALID_ID;
    }
    if (I.OperandIsId[K] && I.Operands[K] == 0) {
      S->Error = "word " + std::to_string(I.WordOffset) + ": " +
                 opName(I.Opcode) + " uses id 0";
      return SPV_ERROR_INVALID_ID;
    }
  }
  if (P->type_id >= Out.Bound) {
    S->Error = "word " + std::to_string(I.WordOffset) + ": " +
               opName(I.Opcode) + " result type id " +
               std::to_string(P->type_id) + " is not below the id bound";
    return SPV_ERROR_INVALID_ID;
  }
  Out.Insts.push_back(std::move(I));
  return SPV_SUCCESS;
}

/// SPIRV-Tools messages are sentences ("Invalid opcode: 9999."); ours are
/// lower case without the final period.
std::string tidy(std::string Msg) {
  while (!Msg.empty() && (Msg.back() == '.' || Msg.back() == '\n'))
    Msg.pop_back();
  if (!Msg.empty() && std::isupper(static_cast<unsigned char>(Msg[0])) &&
      !(Msg.size() > 1 && std::isupper(static_cast<unsigned char>(Msg[1]))))
    Msg[0] = char(std::tolower(static_cast<unsigned char>(Msg[0])));
  return Msg;
}

spv_const_context grammarContext() {
  // The widest grammar: the validator, not the decoder, checks that an
  // instruction is allowed in the target environment.
  static spv_context Ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  return Ctx;
}

} // namespace

Expected<DecodedBinary> decodeWords(ArrayRef<uint32_t> Words) {
  if (Words.empty())
    return makeError("empty module");
  if (Words.size() < 5)
    return makeError("word " + Twine(Words.size()) +
                     ": truncated header: expected 5 words, got " +
                     Twine(Words.size()));
  // Words in the module's byte order; the magic number tells which.
  bool Swapped = Words[0] != spv::MagicNumber &&
                 llvm::byteswap(Words[0]) == spv::MagicNumber;
  auto HostWord = [&](size_t K) {
    return Swapped ? llvm::byteswap(Words[K]) : Words[K];
  };
  // SPIRV-Tools rejects a bad version word with no better message than
  // "internal error: unhandled header parse failure", so check it here.
  uint32_t Version = HostWord(1);
  if (Words[0] == spv::MagicNumber || Swapped) {
    if ((Version & 0xff0000ffu) || Version < 0x00010000u ||
        Version > spv::Version)
      return makeError("word 1: unsupported: SPIR-V version word " +
                       formatv("{0:x8}", Version) + " (expected 1.0 to " +
                       Twine(spv::Version >> 16) + "." +
                       Twine((spv::Version >> 8) & 0xff) + ")");
  }
  DecodedBinary Out;
  Out.NextWord = 5;
  DecodeState S{&Out, {}};
  spv_diagnostic Diag = nullptr;
  spv_result_t R =
      spvBinaryParse(grammarContext(), &S, Words.data(), Words.size(),
                     onHeader, onInstruction, &Diag);
  if (R != SPV_SUCCESS) {
    std::string Msg = S.Error;
    if (Msg.empty() && Diag) {
      // SPIRV-Tools puts the ordinal of the failing instruction in
      // position.index, not its word offset. Every instruction before the
      // failing one reached onInstruction, so NextWord is where it starts;
      // before the header callback, the problem is in the header.
      uint32_t Word = S.HeaderSeen ? Out.NextWord : 0;
      Msg = tidy(Diag->error);
      // Name the instruction when its opcode is known and the message does
      // not already ("invalid instruction word count: 0").
      if (S.HeaderSeen && Word < Words.size()) {
        const char *Name =
            opcodeName(static_cast<spv::Op>(HostWord(Word) & 0xffff));
        if (Name && Msg.find(Name) == std::string::npos)
          Msg = std::string(Name) + ": " + Msg;
      }
      Msg = "word " + std::to_string(Word) + ": " + Msg;
    } else if (Msg.empty()) {
      Msg = "malformed module";
    }
    spvDiagnosticDestroy(Diag);
    return makeError(Msg);
  }
  spvDiagnosticDestroy(Diag);
  return Out;
}

} // namespace spirv2llvm

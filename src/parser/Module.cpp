//===- Module.cpp - Queries on a decoded SPIR-V module --------------------===//
#include "parser/Module.h"

namespace spirv2llvm {

std::string Instruction::stringOperand(size_t I) const {
  std::string S;
  for (size_t W = I; W < Operands.size(); ++W) {
    for (int B = 0; B < 4; ++B) {
      char C = char((Operands[W] >> (8 * B)) & 0xff);
      if (C == 0)
        return S;
      S.push_back(C);
    }
  }
  return S;
}

bool Module::hasDecoration(uint32_t Id, spv::Decoration D) const {
  auto It = Decorations.find(Id);
  if (It == Decorations.end())
    return false;
  for (const Decoration &Dec : It->second)
    if (Dec.Kind == D && Dec.Member < 0)
      return true;
  return false;
}

std::optional<uint32_t> Module::decorationValue(uint32_t Id, spv::Decoration D,
                                                int32_t Member) const {
  auto It = Decorations.find(Id);
  if (It == Decorations.end())
    return std::nullopt;
  for (const Decoration &Dec : It->second)
    if (Dec.Kind == D && Dec.Member == Member && !Dec.Literals.empty())
      return Dec.Literals[0];
  return std::nullopt;
}

std::string Module::friendlyName(uint32_t Id) const {
  if (FriendlyNames.empty() && FriendlyNameSource) {
    FriendlyNames = FriendlyNameSource();
    if (FriendlyNames.empty())
      FriendlyNames.emplace_back(); // computed: do not ask again
  }
  if (Id < FriendlyNames.size() && !FriendlyNames[Id].empty())
    return "%" + FriendlyNames[Id];
  return "%" + std::to_string(Id);
}

std::string Module::plainName(uint32_t Id) const {
  if (FriendlyNames.empty() && !HasNumericName && !Names.count(Id))
    return std::to_string(Id);
  std::string Name = friendlyName(Id);
  return Name.substr(1);
}

const EntryPoint *Module::findEntryPoint(const std::string &Name) const {
  for (const EntryPoint &E : EntryPoints)
    if (E.Name == Name)
      return &E;
  return nullptr;
}

} // namespace spirv2llvm

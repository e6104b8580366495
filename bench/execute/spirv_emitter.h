#pragma once
// Just enough of a SPIR-V writer for the generated stages (passthrough.h): ids, deduplicated
// types and constants, and the module's sections in the order the specification requires.

#include <cstdint>
#include <map>
#include <spirv/unified1/spirv.hpp>
#include <vector>

namespace kiln::execute {

class Emitter {
 public:
  std::uint32_t id() { return next_id_++; }

  std::uint32_t type(spv::Op op, std::vector<std::uint32_t> operands = {}) {
    auto key = std::make_pair(std::uint32_t(op), operands);
    if (auto found = types_.find(key); found != types_.end()) return found->second;
    const std::uint32_t result = id();
    operands.insert(operands.begin(), result);
    emit(globals_, op, operands);
    types_.emplace(std::move(key), result);
    return result;
  }
  std::uint32_t scalar(char kind) {
    return kind == 'f' ? type(spv::OpTypeFloat, {32})
                       : type(spv::OpTypeInt, {32, kind == 'i' ? 1u : 0u});
  }
  std::uint32_t vector(char kind, std::uint32_t count) {
    const std::uint32_t s = scalar(kind);
    return count == 1 ? s : type(spv::OpTypeVector, {s, count});
  }
  std::uint32_t constant(char kind, std::uint32_t bits) {
    const std::uint32_t result_type = scalar(kind);
    auto key = std::make_pair(result_type, std::vector<std::uint32_t>{bits});
    if (auto found = constants_.find(key); found != constants_.end()) return found->second;
    const std::uint32_t result = id();
    emit(globals_, spv::OpConstant, {result_type, result, bits});
    constants_.emplace(key, result);
    return result;
  }
  std::uint32_t variable(std::uint32_t pointee, spv::StorageClass storage) {
    const std::uint32_t pointer = type(spv::OpTypePointer, {std::uint32_t(storage), pointee});
    const std::uint32_t result = id();
    emit(globals_, spv::OpVariable, {pointer, result, std::uint32_t(storage)});
    interface_.push_back(result);
    return result;
  }
  void decorate(std::uint32_t target, spv::Decoration decoration,
                std::vector<std::uint32_t> values = {}) {
    values.insert(values.begin(), {target, std::uint32_t(decoration)});
    emit(annotations_, spv::OpDecorate, values);
  }
  void member_decorate(std::uint32_t structure, std::uint32_t member, spv::Decoration decoration,
                       std::vector<std::uint32_t> values = {}) {
    values.insert(values.begin(), {structure, member, std::uint32_t(decoration)});
    emit(annotations_, spv::OpMemberDecorate, values);
  }
  // A type that must stay distinct from equal-looking ones (a decorated block).
  std::uint32_t unique_type(spv::Op op, std::vector<std::uint32_t> operands) {
    const std::uint32_t result = id();
    operands.insert(operands.begin(), result);
    emit(globals_, op, operands);
    return result;
  }
  // A global variable outside the entry point's interface (a descriptor).
  std::uint32_t resource(std::uint32_t pointee, spv::StorageClass storage) {
    const std::uint32_t pointer = type(spv::OpTypePointer, {std::uint32_t(storage), pointee});
    const std::uint32_t result = id();
    emit(globals_, spv::OpVariable, {pointer, result, std::uint32_t(storage)});
    return result;
  }
  void execution_mode(spv::ExecutionMode mode, std::vector<std::uint32_t> literals = {}) {
    literals.insert(literals.begin(), std::uint32_t(mode));
    modes_.push_back(std::move(literals));
  }
  void capability(spv::Capability c) { capabilities_.push_back(c); }
  // The result of `op` in the function body: result type, result, operands.
  std::uint32_t value(spv::Op op, std::uint32_t result_type, std::vector<std::uint32_t> operands) {
    const std::uint32_t result = id();
    operands.insert(operands.begin(), {result_type, result});
    emit(body_, op, operands);
    return result;
  }
  void body(spv::Op op, const std::vector<std::uint32_t>& operands) { emit(body_, op, operands); }

  std::vector<std::uint32_t> finish(spv::ExecutionModel model, std::uint32_t main_id,
                                    std::uint32_t void_function) {
    std::vector<std::uint32_t> words = {spv::MagicNumber, 0x00010000, 0, 0, 0};
    emit(words, spv::OpCapability, {std::uint32_t(spv::CapabilityShader)});
    for (spv::Capability c : capabilities_) emit(words, spv::OpCapability, {std::uint32_t(c)});
    emit(words, spv::OpMemoryModel,
         {std::uint32_t(spv::AddressingModelLogical), std::uint32_t(spv::MemoryModelGLSL450)});
    std::vector<std::uint32_t> entry = {std::uint32_t(model), main_id, 0x6e69616d /* "main" */, 0};
    entry.insert(entry.end(), interface_.begin(), interface_.end());
    emit(words, spv::OpEntryPoint, entry);
    for (std::vector<std::uint32_t>& mode : modes_) {
      mode.insert(mode.begin(), main_id);
      emit(words, spv::OpExecutionMode, mode);
    }
    words.insert(words.end(), annotations_.begin(), annotations_.end());
    words.insert(words.end(), globals_.begin(), globals_.end());
    emit(words, spv::OpFunction,
         {type(spv::OpTypeVoid), main_id, std::uint32_t(spv::FunctionControlMaskNone),
          void_function});
    emit(words, spv::OpLabel, {id()});
    words.insert(words.end(), body_.begin(), body_.end());
    emit(words, spv::OpReturn, {});
    emit(words, spv::OpFunctionEnd, {});
    words[3] = next_id_;
    return words;
  }

 private:
  static void emit(std::vector<std::uint32_t>& out, spv::Op op,
                   const std::vector<std::uint32_t>& operands) {
    out.push_back(std::uint32_t(operands.size() + 1) << 16 | std::uint32_t(op));
    out.insert(out.end(), operands.begin(), operands.end());
  }
  std::uint32_t next_id_ = 1;
  std::map<std::pair<std::uint32_t, std::vector<std::uint32_t>>, std::uint32_t> types_, constants_;
  std::vector<std::uint32_t> annotations_, globals_, body_, interface_;
  std::vector<spv::Capability> capabilities_;
  std::vector<std::vector<std::uint32_t>> modes_;
};

} // namespace kiln::execute

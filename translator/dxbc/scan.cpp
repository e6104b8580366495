#include "translator/dxbc/scan.h"

#include "translator/dxbc/reader.h"
#include "translator/dxbc/signature.h"

#include <string>

namespace kiln::dxbc {

namespace {

// The model's names (reflection.h); dxbc:: has its own ResourceBinding (the converter's
// declared registers) and ResourceDimension (the token's field, KILN_DXBC_RESOURCE_DIMENSIONS in
// program.h).
using Descriptor = kiln::ResourceBinding;
using Dimension = kiln::ResourceDimension;
using DataType = kiln::ResourceDataType;

// What the reflection reports for a typed declaration: the dimension and return-type tables'
// reflected columns (program.h), indexed by the token field's value.
constexpr Dimension kDimensionOfToken[] = {
#define KILN_DXBC_DIMENSION_REFLECTED(name, value, fxc, reflected) Dimension::reflected,
    KILN_DXBC_RESOURCE_DIMENSIONS(KILN_DXBC_DIMENSION_REFLECTED)
#undef KILN_DXBC_DIMENSION_REFLECTED
};
constexpr DataType kDataTypeOfToken[] = {
#define KILN_DXBC_RETURN_TYPE_REFLECTED(name, value, fxc, reflected) DataType::reflected,
    KILN_DXBC_RETURN_TYPES(KILN_DXBC_RETURN_TYPE_REFLECTED)
#undef KILN_DXBC_RETURN_TYPE_REFLECTED
};
// None for a value past the table.
template <typename Reflected, std::size_t N>
Reflected reflected(const Reflected (&of_token)[N], std::uint32_t value) {
  return value < N ? of_token[value] : Reflected::None;
}

bool is_uav_read(Opcode op) {
  switch (op) {
  case Opcode::LdUavTyped:
  case Opcode::LdUavTypedS:
  case Opcode::LdRaw:
  case Opcode::LdRawS:
  case Opcode::LdStructured:
  case Opcode::LdStructuredS:
    return true;
  default:
    return has_flag(op, opflag::Atomic);
  }
}

Status read_signature(const SignatureChunk& chunk, ScanScratch& scratch,
                      std::vector<kiln::SignatureElement>& out) {
  scratch.names.take_from(out);
  out.clear();
  if (!chunk.present()) return Status::ok();
  if (Status st = parse_signature(chunk, scratch.signature); !st) return st;
  out.reserve(scratch.signature.size());
  for (const dxbc::SignatureElement& in : scratch.signature) {
    kiln::SignatureElement& e = out.emplace_back();
    scratch.names.assign(e.semantic, in.semantic_name);
    e.semantic_index = in.semantic_index;
    e.system_value = in.system_value;
    e.component_type = in.component_type <= std::uint32_t(ComponentType::Float)
                           ? ComponentType(in.component_type)
                           : ComponentType::Unknown;
    e.register_index = in.register_index;
    e.mask = in.mask;
    e.used_mask = in.read_write_mask;
    e.stream = in.stream;
  }
  return Status::ok();
}

} // namespace

Status scan_program(const Container& container, const Program& program, SourceReflection& out,
                    ScanScratch& scratch) {
  out.stage = stage_of(program.type);
  out.descriptors.clear();
  out.renamed_ranges = false;
  // Each UAV's range id (SM5.1) or register (SM5.0), in the order declared: instructions name
  // UAVs by it.
  auto& uav_ids = scratch.uav_ids;
  uav_ids.clear();
  for (const Instruction& inst : program.instructions) {
    if (inst.declaration == kNoOperand) continue;
    Descriptor d;
    const ResourceDeclaration* row = resource_declaration(inst.opcode);
    if (inst.opcode == Opcode::DclConstantBuffer) {
      d.register_class = Descriptor::Class::Cbv;
      d.dimension = Dimension::Buffer;
    } else if (!row || row->register_class == ResourceClass::Tgsm) {
      continue; // not a descriptor
    } else {
      d.register_class = row->register_class == ResourceClass::Srv   ? Descriptor::Class::Srv
                         : row->register_class == ResourceClass::Uav ? Descriptor::Class::Uav
                                                                     : Descriptor::Class::Sampler;
    }
    const Declaration& decl = program.declarations[inst.declaration];
    if (inst.operand_count < 1) return Status::error("a resource declaration without operand");
    const Operand& op = program.operands_of(inst)[0];
    if (op.index_dimension < 1)
      return Status::error("a resource declaration without a register (dword " +
                           std::to_string(inst.token_offset) + ")");
    const std::uint32_t id = op.index[0];
    if (program.is_sm51() && op.index_dimension >= 3) {
      d.space = decl.space;
      d.register_index = op.index[1];
      d.array_size = op.index[2] == 0xffffffffu ? 0 : op.index[2] - op.index[1] + 1;
      out.renamed_ranges |= id != d.register_index || d.space != 0;
    } else {
      d.register_index = id;
    }
    const ResourceLayout layout = row ? row->layout : ResourceLayout::Typed;
    if (layout == ResourceLayout::Sampler && decl.value == 1)
      d.flags |= Descriptor::ComparisonSampler;
    if (row && layout == ResourceLayout::Typed) {
      d.dimension = reflected(kDimensionOfToken, std::uint32_t(decl.dimension));
      // Component 0's return type: the others repeat it in practice.
      d.data_type = reflected(kDataTypeOfToken, decl.return_type[0]);
    }
    if (layout == ResourceLayout::Raw || layout == ResourceLayout::Structured) {
      d.dimension = Dimension::Buffer;
      d.data_type = DataType::UInt;
      d.flags |=
          layout == ResourceLayout::Raw ? Descriptor::RawBuffer : Descriptor::StructuredBuffer;
      if (layout == ResourceLayout::Structured) d.structure_stride = decl.value2;
    }
    if (d.register_class == Descriptor::Class::Uav)
      uav_ids.emplace_back(id, out.descriptors.size());
    out.descriptors.push_back(d);
  }

  // Uses: UAV reads and counters.
  for (const Instruction& inst : program.instructions) {
    if (inst.declaration != kNoOperand) continue;
    const bool counter =
        inst.opcode == Opcode::ImmAtomicAlloc || inst.opcode == Opcode::ImmAtomicConsume;
    const bool read = is_uav_read(inst.opcode);
    if (!counter && !read) continue;
    for (const Operand& op : program.operands_of(inst)) {
      if (op.type != OperandType::Uav || op.index_dimension < 1) continue;
      for (const auto& [id, index] : uav_ids) {
        if (id != op.index[0]) continue;
        if (read) out.descriptors[index].flags |= Descriptor::UavRead;
        if (counter) out.descriptors[index].flags |= Descriptor::UavCounter;
      }
    }
  }

  if (Status st = read_signature(container.input, scratch, out.inputs); !st) return st;
  if (Status st = read_signature(container.output, scratch, out.outputs); !st) return st;
  return read_signature(container.patch_constant, scratch, out.patch_constants);
}

Status scan_dxbc(std::span<const std::uint8_t> bytecode, SourceReflection& out) {
  Container container;
  if (Status st = parse_container(bytecode, container, {.verify_checksum = false}); !st) return st;
  return scan_dxbc(container, out);
}

Status scan_dxbc(const Container& container, SourceReflection& out) {
  if (!container.has_program())
    return Status::error("DXBC container without a shader program (no SHDR/SHEX chunk)");
  Program program;
  if (Status st = decode_program(container.program, program); !st) return st;
  ScanScratch scratch;
  return scan_program(container, program, out, scratch);
}

} // namespace kiln::dxbc

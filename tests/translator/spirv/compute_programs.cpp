#include "tests/translator/spirv/compute_programs.h"

#include "translator/spirv/module_builder.h"

#include <cmath>

namespace kiln::test {

namespace {

using spirv::Id;
using spirv::ModuleBuilder;

constexpr ComputeProgram kPrograms[] = {ComputeProgram::Arithmetic, ComputeProgram::Loop,
                                        ComputeProgram::SharedMemory, ComputeProgram::Reverse,
                                        ComputeProgram::AtomicAdd};

// The parts every program shares: types, the two buffers, gl_GlobalInvocationID, main().
struct Skeleton {
  ModuleBuilder b;
  Id void_type, uint_type, uint_ptr, in_buffer, out_buffer, global_id, local_id, main;
  Id zero;
  Id extra_interface = 0; // a Workgroup variable the entry point must list (SPIR-V 1.4+)

  explicit Skeleton(SpirvTarget target) {
    b.reset(target);
    b.require_capability(spv::CapabilityShader);
    b.set_memory_model(spv::AddressingModelLogical, spv::MemoryModelGLSL450);
    void_type = b.type_void();
    uint_type = b.type_int(32, false);
    const Id runtime_array = b.type_runtime_array(uint_type);
    b.decorate(runtime_array, spv::DecorationArrayStride, {4});
    const Id block = b.type_struct(std::span<const Id>(&runtime_array, 1));
    b.decorate(block, spv::DecorationBlock);
    b.decorate_member(block, 0, spv::DecorationOffset, {0});
    b.add_name(block, "Buffer");
    b.add_member_name(block, 0, "data");
    const Id block_ptr = b.type_pointer(spv::StorageClassStorageBuffer, block);
    uint_ptr = b.type_pointer(spv::StorageClassStorageBuffer, uint_type);
    in_buffer = b.global_variable(block_ptr, spv::StorageClassStorageBuffer);
    out_buffer = b.global_variable(block_ptr, spv::StorageClassStorageBuffer);
    b.decorate(in_buffer, spv::DecorationDescriptorSet, {0});
    b.decorate(in_buffer, spv::DecorationBinding, {0});
    b.decorate(in_buffer, spv::DecorationNonWritable);
    b.decorate(out_buffer, spv::DecorationDescriptorSet, {0});
    b.decorate(out_buffer, spv::DecorationBinding, {1});
    b.add_name(in_buffer, "in");
    b.add_name(out_buffer, "out");
    const Id uvec3 = b.type_vector(uint_type, 3);
    const Id input_ptr = b.type_pointer(spv::StorageClassInput, uvec3);
    global_id = b.global_variable(input_ptr, spv::StorageClassInput);
    local_id = b.global_variable(input_ptr, spv::StorageClassInput);
    b.decorate(global_id, spv::DecorationBuiltIn, {spv::BuiltInGlobalInvocationId});
    b.decorate(local_id, spv::DecorationBuiltIn, {spv::BuiltInLocalInvocationId});
    zero = b.constant_u32(0);
    const Id fn_type = b.type_function(void_type, {});
    main = b.begin_function(void_type, spv::FunctionControlMaskNone, fn_type);
    b.add_name(main, "main");
    b.label();
  }

  Id load_x_of(Id vector_var) {
    const Id input_uint_ptr = b.type_pointer(spv::StorageClassInput, uint_type);
    const Id ptr = b.op(spv::OpAccessChain, input_uint_ptr, {vector_var, zero});
    return b.op(spv::OpLoad, uint_type, {ptr});
  }
  Id element(Id buffer, Id index) {
    return b.op(spv::OpAccessChain, uint_ptr, {buffer, zero, index});
  }

  std::vector<std::uint32_t> finish() {
    b.op_void(spv::OpReturn, {});
    b.end_function();
    // SPIR-V 1.4+ entry points list every global they use; 1.3 only Input/Output.
    const Id interface_all[] = {global_id, local_id, in_buffer, out_buffer, extra_interface};
    std::size_t count = 2;
    if (b.interface_lists_all_globals()) count = extra_interface != 0 ? 5 : 4;
    b.add_entry_point(spv::ExecutionModelGLCompute, main, "main",
                      std::span<const Id>(interface_all, count));
    b.add_execution_mode(main, spv::ExecutionModeLocalSize, {kLocalSize, 1, 1});
    std::vector<std::uint32_t> words;
    b.finish(words);
    return words;
  }
};

void build_arithmetic(Skeleton& s) {
  ModuleBuilder& b = s.b;
  const Id gid = s.load_x_of(s.global_id);
  const Id x = b.op(spv::OpLoad, s.uint_type, {s.element(s.in_buffer, gid)});
  const Id times3 = b.op(spv::OpIMul, s.uint_type, {x, b.constant_u32(3)});
  const Id plus7 = b.op(spv::OpIAdd, s.uint_type, {times3, b.constant_u32(7)});
  const Id shifted = b.op(spv::OpShiftRightLogical, s.uint_type, {x, b.constant_u32(2)});
  const Id mixed = b.op(spv::OpBitwiseXor, s.uint_type, {plus7, shifted});
  const Id float_type = b.type_float(32);
  const Id xf = b.op(spv::OpConvertUToF, float_type, {x});
  const Id squared = b.op(spv::OpFMul, float_type, {xf, xf});
  const Id root = b.ext_inst(float_type, b.glsl_std_450(), 31 /* Sqrt */, {squared});
  const Id back = b.op(spv::OpConvertFToU, s.uint_type, {root});
  const Id result = b.op(spv::OpIAdd, s.uint_type, {mixed, back});
  b.op_void(spv::OpStore, {s.element(s.out_buffer, gid), result});
}

void build_loop(Skeleton& s) {
  ModuleBuilder& b = s.b;
  const Id function_uint_ptr = b.type_pointer(spv::StorageClassFunction, s.uint_type);
  const Id sum_var = b.local_variable(function_uint_ptr, s.zero);
  const Id k_var = b.local_variable(function_uint_ptr, s.zero);
  const Id gid = s.load_x_of(s.global_id);
  const Id x = b.op(spv::OpLoad, s.uint_type, {s.element(s.in_buffer, gid)});
  const Id limit = b.op(spv::OpUMod, s.uint_type, {x, b.constant_u32(17)});
  const Id header = b.allocate_id(), check = b.allocate_id(), body = b.allocate_id(),
           cont = b.allocate_id(), merge = b.allocate_id();
  b.op_void(spv::OpBranch, {header});
  b.label(header);
  b.op_void(spv::OpLoopMerge, {merge, cont, spv::LoopControlMaskNone});
  b.op_void(spv::OpBranch, {check});
  b.label(check);
  const Id k = b.op(spv::OpLoad, s.uint_type, {k_var});
  const Id keep_going = b.op(spv::OpULessThanEqual, b.type_bool(), {k, limit});
  b.op_void(spv::OpBranchConditional, {keep_going, body, merge});
  b.label(body);
  const Id square = b.op(spv::OpIMul, s.uint_type, {k, k});
  const Id sum = b.op(spv::OpLoad, s.uint_type, {sum_var});
  b.op_void(spv::OpStore, {sum_var, b.op(spv::OpIAdd, s.uint_type, {sum, square})});
  b.op_void(spv::OpBranch, {cont});
  b.label(cont);
  b.op_void(spv::OpStore, {k_var, b.op(spv::OpIAdd, s.uint_type, {k, b.constant_u32(1)})});
  b.op_void(spv::OpBranch, {header});
  b.label(merge);
  const Id total = b.op(spv::OpLoad, s.uint_type, {sum_var});
  b.op_void(spv::OpStore, {s.element(s.out_buffer, gid), total});
}

void build_shared_memory(Skeleton& s) {
  ModuleBuilder& b = s.b;
  const Id shared_array = b.type_array(s.uint_type, b.constant_u32(kLocalSize));
  const Id shared_ptr = b.type_pointer(spv::StorageClassWorkgroup, shared_array);
  const Id shared_uint_ptr = b.type_pointer(spv::StorageClassWorkgroup, s.uint_type);
  const Id shared = b.global_variable(shared_ptr, spv::StorageClassWorkgroup);
  const Id gid = s.load_x_of(s.global_id);
  const Id lid = s.load_x_of(s.local_id);
  const Id x = b.op(spv::OpLoad, s.uint_type, {s.element(s.in_buffer, gid)});
  b.op_void(spv::OpStore, {b.op(spv::OpAccessChain, shared_uint_ptr, {shared, lid}), x});
  const Id workgroup = b.constant_u32(spv::ScopeWorkgroup);
  const Id semantics = b.constant_u32(spv::MemorySemanticsWorkgroupMemoryMask |
                                      spv::MemorySemanticsAcquireReleaseMask);
  b.op_void(spv::OpControlBarrier, {workgroup, workgroup, semantics});
  const Id mirrored = b.op(spv::OpISub, s.uint_type, {b.constant_u32(kLocalSize - 1), lid});
  const Id next =
      b.op(spv::OpUMod, s.uint_type,
           {b.op(spv::OpIAdd, s.uint_type, {lid, b.constant_u32(1)}), b.constant_u32(kLocalSize)});
  const Id a = b.op(spv::OpLoad, s.uint_type,
                    {b.op(spv::OpAccessChain, shared_uint_ptr, {shared, mirrored})});
  const Id c =
      b.op(spv::OpLoad, s.uint_type, {b.op(spv::OpAccessChain, shared_uint_ptr, {shared, next})});
  b.op_void(spv::OpStore, {s.element(s.out_buffer, gid), b.op(spv::OpIAdd, s.uint_type, {a, c})});
  // SPIR-V 1.4+ entry points must list the workgroup variable too.
  if (b.interface_lists_all_globals()) s.extra_interface = shared;
}

void build_reverse(Skeleton& s) {
  ModuleBuilder& b = s.b;
  const Id gid = s.load_x_of(s.global_id);
  const Id count = b.op(spv::OpArrayLength, s.uint_type, {s.in_buffer, 0});
  const Id last = b.op(spv::OpISub, s.uint_type, {count, b.constant_u32(1)});
  const Id source = b.op(spv::OpISub, s.uint_type, {last, gid});
  const Id x = b.op(spv::OpLoad, s.uint_type, {s.element(s.in_buffer, source)});
  b.op_void(spv::OpStore, {s.element(s.out_buffer, gid), x});
}

void build_atomic_add(Skeleton& s) {
  ModuleBuilder& b = s.b;
  const Id gid = s.load_x_of(s.global_id);
  const Id x = b.op(spv::OpLoad, s.uint_type, {s.element(s.in_buffer, gid)});
  const Id device = b.constant_u32(spv::ScopeDevice);
  const Id relaxed = b.constant_u32(spv::MemorySemanticsMaskNone);
  b.op(spv::OpAtomicIAdd, s.uint_type, {s.element(s.out_buffer, s.zero), device, relaxed, x});
  b.op(spv::OpAtomicIAdd, s.uint_type,
       {s.element(s.out_buffer, b.constant_u32(1)), device, relaxed, b.constant_u32(1)});
}

} // namespace

std::span<const ComputeProgram> all_compute_programs() {
  return kPrograms;
}

std::string_view compute_program_name(ComputeProgram program) {
  switch (program) {
  case ComputeProgram::Arithmetic:
    return "Arithmetic";
  case ComputeProgram::Loop:
    return "Loop";
  case ComputeProgram::SharedMemory:
    return "SharedMemory";
  case ComputeProgram::Reverse:
    return "Reverse";
  case ComputeProgram::AtomicAdd:
    return "AtomicAdd";
  }
  return "?";
}

std::vector<std::uint32_t> build_compute_program(ComputeProgram program, SpirvTarget target) {
  Skeleton s(target);
  switch (program) {
  case ComputeProgram::Arithmetic:
    build_arithmetic(s);
    break;
  case ComputeProgram::Loop:
    build_loop(s);
    break;
  case ComputeProgram::SharedMemory:
    build_shared_memory(s);
    break;
  case ComputeProgram::Reverse:
    build_reverse(s);
    break;
  case ComputeProgram::AtomicAdd:
    build_atomic_add(s);
    break;
  }
  return s.finish();
}

std::vector<std::uint32_t> expected_output(ComputeProgram program,
                                           std::span<const std::uint32_t> in) {
  std::vector<std::uint32_t> out(in.size(), 0);
  const std::size_t n = in.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t x = in[i];
    switch (program) {
    case ComputeProgram::Arithmetic: {
      const float xf = static_cast<float>(x);
      out[i] = ((x * 3 + 7) ^ (x >> 2)) + static_cast<std::uint32_t>(std::sqrt(xf * xf));
      break;
    }
    case ComputeProgram::Loop: {
      std::uint32_t sum = 0;
      for (std::uint32_t k = 0; k <= x % 17; ++k) sum += k * k;
      out[i] = sum;
      break;
    }
    case ComputeProgram::SharedMemory: {
      const std::size_t group = i / kLocalSize * kLocalSize, l = i % kLocalSize;
      out[i] = in[group + (kLocalSize - 1 - l)] + in[group + (l + 1) % kLocalSize];
      break;
    }
    case ComputeProgram::Reverse:
      out[i] = in[n - 1 - i];
      break;
    case ComputeProgram::AtomicAdd:
      out[0] += x;
      out[1] += 1;
      break;
    }
  }
  return out;
}

} // namespace kiln::test

// SPIR-V backend: render state as shader code (docs/abi.md, "Parameters"). The layer's
// parameters (ShaderInterface::parameters) become code around the translated shader: the alpha
// test and fog before the pixel shader returns, clip distances, point size and the fog
// coordinate before the last pre-rasterization stage returns (or emits, in a geometry shader),
// point-sprite coordinates and flat COLOR inputs in the pixel shader's inputs. Every parameter
// value comes from parameter(): an OpConstant for an immediate (or absent) parameter, an
// OpSpecConstant with the layer's SpecId otherwise. Immediate values are also folded here where
// they decide what code exists at all (an ALWAYS alpha test emits nothing).
#include "translator/spirv/lower_state.h"

#include <bit>
#include <cstring>
#include <spirv/unified1/GLSL.std.450.h>
#include <strings.h>

namespace kiln::spirv {

namespace {

bool semantic_is(std::string_view name, const char* want) {
  return name.size() == std::strlen(want) && strncasecmp(name.data(), want, name.size()) == 0;
}

} // namespace

// ---- Parameter values -----------------------------------------------------------------------

const ShaderParameter* Lowering::State::parameter_of(ParameterName name) const {
  return options.interface ? options.interface->parameter(name) : nullptr;
}

bool Lowering::State::parameter_known(ParameterName name,
                                      std::array<std::uint32_t, 4>& bits) const {
  const ShaderParameter* p = parameter_of(name);
  if (p && p->type == ShaderParameter::Type::SpecializationConstant) return false;
  bits = p ? p->value : parameter_default(name);
  return true;
}

Id Lowering::State::parameter(ParameterName name, unsigned component) {
  const Id scalar = parameter_data_type(name) == ParameterDataType::U32
                        ? basic(ir::ScalarType::U32, 1)
                        : basic(ir::ScalarType::F32, 1);
  const ParameterValue v = parameter_value(options.interface, name, component);
  if (v.specialization) {
    const std::uint32_t fallback = parameter_default(name)[component];
    return mb.spec_constant_with_id(scalar, std::span<const std::uint32_t>(&fallback, 1), v.bits);
  }
  return mb.constant(scalar, std::span<const std::uint32_t>(&v.bits, 1));
}

Id Lowering::State::parameter_vec4(ParameterName name) {
  const Id parts[4] = {parameter(name, 0), parameter(name, 1), parameter(name, 2),
                       parameter(name, 3)};
  const Id v4 = basic(ir::ScalarType::F32, 4);
  const ShaderParameter* p = parameter_of(name);
  if (p && p->type == ShaderParameter::Type::SpecializationConstant)
    return mb.spec_constant_composite(v4, parts);
  return mb.constant_composite(v4, parts);
}

bool Lowering::State::check_parameters() {
  if (!options.interface) return true;
  for (const ShaderParameter& p : options.interface->parameters) {
    if (p.data_type != parameter_data_type(p.name))
      return fail(Where::beside_input(), "render-state parameter " +
                                             std::to_string(unsigned(p.name)) +
                                             ": data type does not match the parameter");
    // A decoration or a declared image type cannot depend on a specialization constant.
    if (p.type == ShaderParameter::Type::SpecializationConstant &&
        (p.name == ParameterName::FLAT_INTERPOLATION ||
         p.name == ParameterName::D3D9_TEXTURE_TYPES ||
         p.name == ParameterName::D3D9_PROJECTED_TEXTURES))
      return fail(Where::beside_input(), "render-state parameter " +
                                             std::to_string(unsigned(p.name)) +
                                             " can only be immediate");
  }
  return true;
}

// ---- Declarations ---------------------------------------------------------------------------

bool Lowering::State::render_state_semantic(ir::SsaDef def, std::string_view name,
                                            std::uint32_t index) {
  const std::uint32_t decl_index = decl_of[def.id()] - 1;
  DeclInfo& d = decls[decl_index];
  const bool input = d.kind == DeclInfo::Kind::Input;
  if (d.is_builtin) return true;
  if (!input && semantic_is(name, "Fog") && index == 0) render_io.fog_out = decl_index;
  if (!input && semantic_is(name, "PSize") && index == 0) render_io.psize_out = decl_index;
  if (!input && semantic_is(name, "Color") && index == 1) render_io.color1_out = decl_index;
  if (!input || stage != ShaderStage::Pixel) return true;
  if (semantic_is(name, "Fog") && index == 0) render_io.fog_in = decl_index;
  std::array<std::uint32_t, 4> bits{};
  if (semantic_is(name, "Color") && parameter_known(ParameterName::FLAT_INTERPOLATION, bits) &&
      bits[0] != 0)
    mb.decorate(d.var, spv::DecorationFlat);
  if (semantic_is(name, "TexCoord")) {
    if (parameter_known(ParameterName::POINT_SPRITE, bits) && bits[0] == 0) return true;
    // One to four floats (an input array is not a coordinate).
    const ir::Type t = d.ir_type;
    if (!t.is_basic() || t.scalar_type() != ir::ScalarType::F32 ||
        d.var_type != basic(ir::ScalarType::F32, t.vector_size()))
      return true;
    const unsigned components = t.vector_size();
    // Point sprites: the shader reads a Private copy, filled at the top of the entry function
    // with the point coordinate or the interpolated value (render_state_prologue).
    const Id copy = mb.global_variable(mb.type_pointer(spv::StorageClassPrivate, d.var_type),
                                       spv::StorageClassPrivate);
    add_interface(copy, spv::StorageClassPrivate);
    render_io.sprite_inputs.push_back({d.var, copy, components});
    d.var = copy;
    d.storage = spv::StorageClassPrivate;
    ids[def.id()] = copy;
  }
  return true;
}

bool Lowering::State::render_state_prologue() {
  if (stage != ShaderStage::Pixel || render_io.sprite_inputs.empty()) return true;
  const Id f32 = basic(ir::ScalarType::F32, 1), v2 = basic(ir::ScalarType::F32, 2);
  if (!render_io.point_coord) {
    render_io.point_coord =
        mb.global_variable(mb.type_pointer(spv::StorageClassInput, v2), spv::StorageClassInput);
    mb.decorate(render_io.point_coord, spv::DecorationBuiltIn, {spv::BuiltInPointCoord});
    add_interface(render_io.point_coord, spv::StorageClassInput);
  }
  const Id coord = mb.op(spv::OpLoad, v2, {render_io.point_coord});
  // A sprite's texture coordinate is (u, v, 0, 0), (0, 0) at its top left: what D3D9 gives a
  // pixel shader's texture coordinates (and vkd3d and DXVK put there). An input of n < 4
  // floats (DXBC) reads the first n of them, counted from its own first component.
  const Id zero = mb.constant_f32(0.0f);
  const Id parts[4] = {mb.op(spv::OpCompositeExtract, f32, {coord, 0}),
                       mb.op(spv::OpCompositeExtract, f32, {coord, 1}), zero, zero};
  std::array<std::uint32_t, 4> bits{};
  const bool known = parameter_known(ParameterName::POINT_SPRITE, bits);
  Id enabled = 0;
  if (!known)
    enabled = mb.op(spv::OpINotEqual, mb.type_bool(),
                    {parameter(ParameterName::POINT_SPRITE), const_u32(0)});
  for (const RenderStateIo::SpriteInput& in : render_io.sprite_inputs) {
    const Id type = basic(ir::ScalarType::F32, in.components);
    Id value = in.components == 1   ? parts[0]
               : in.components == 2 ? coord
                                    : mb.op(spv::OpCompositeConstruct, type,
                                            std::span<const Id>(parts, in.components));
    if (!known) {
      const Id interpolated = mb.op(spv::OpLoad, type, {in.input});
      Id condition = enabled;
      if (in.components > 1) {
        const Id bools = mb.type_vector(mb.type_bool(), in.components);
        const Id each[4] = {enabled, enabled, enabled, enabled};
        condition =
            mb.op(spv::OpCompositeConstruct, bools, std::span<const Id>(each, in.components));
      }
      value = mb.op(spv::OpSelect, type, {condition, value, interpolated});
    }
    mb.op_void(spv::OpStore, {in.copy, value});
  }
  return true;
}

// ---- Helpers for the epilogue ---------------------------------------------------------------

namespace {
constexpr std::uint32_t kNone = ~0u;
}

std::uint32_t Lowering::State::find_output(bool builtin, std::uint32_t what) const {
  for (std::uint32_t i = 0; i < decls.size(); ++i) {
    const DeclInfo& d = decls[i];
    if (d.kind != DeclInfo::Kind::Output || d.is_builtin != builtin || !d.var) continue;
    if (builtin ? d.builtin == what : (d.location == what && d.component == 0)) return i;
  }
  return kNone;
}

Id Lowering::State::load_vec4(std::uint32_t decl_index) {
  const DeclInfo& d = decls[decl_index];
  return mb.op(spv::OpLoad, basic(ir::ScalarType::F32, 4), {d.var});
}

bool Lowering::State::is_vec4_f32(std::uint32_t decl_index) {
  return decl_index != kNone && decls[decl_index].var_type == basic(ir::ScalarType::F32, 4);
}

// ---- Pixel shader: fog, alpha test -----------------------------------------------------------

bool Lowering::State::pixel_epilogue() {
  std::array<std::uint32_t, 4> bits{}; // left as is where a parameter is not known
  const bool fog_known = parameter_known(ParameterName::FOG_FRAGMENT_MODE, bits);
  const std::uint32_t fog_mode = bits[0];
  const bool fog = (!fog_known || fog_mode != KILN_FOG_NONE) && render_io.fog_in != kNone;
  const bool func_known = parameter_known(ParameterName::ALPHA_TEST_FUNC, bits);
  const std::uint32_t func = bits[0];
  const bool alpha_test = !func_known || (func >= KILN_COMPARE_NEVER && func < KILN_COMPARE_ALWAYS);
  if (!fog && !alpha_test) return true; // nothing to emit: not even a type
  const std::uint32_t target0 = find_output(false, 0);
  if (!is_vec4_f32(target0)) return true; // no float colour output: nothing applies
  const Id f32 = basic(ir::ScalarType::F32, 1), v3 = basic(ir::ScalarType::F32, 3),
           v4 = basic(ir::ScalarType::F32, 4), u32 = basic(ir::ScalarType::U32, 1),
           boolean = mb.type_bool();

  // Fog: colour = mix(fog colour, colour, factor) in rgb; alpha is left alone.
  if (fog) {
    const Id colour = load_vec4(target0);
    const Id c = mb.op(spv::OpCompositeExtract, f32, {load_vec4(render_io.fog_in), 0});
    // Each factor as D3D9 defines it: linear (end - c) / (end - start), exp e^-(density c),
    // exp2 e^-(density c)^2, computed as exp2 with log2(e) folded into the scale.
    constexpr double kLog2E = 1.4426950408889634, kSqrtLog2E = 1.2011224087864498;
    // The same operations whether the parameters are immediate (constants the driver folds)
    // or specialization constants (folded once specialized): kiln folding an immediate scale
    // itself, in double precision, gave results one unit in the last place away from the
    // driver's for the same state (docs/execution.md, "D3D9 shaders").
    const auto linear = [&] {
      // 1 / (end - start) with the difference in single precision, the way vkd3d's runner
      // computes the scale it passes (FOG_SCALE).
      const Id scale =
          mb.op(spv::OpFDiv, f32,
                {mb.constant_f32(1.0f),
                 mb.op(spv::OpFSub, f32,
                       {parameter(ParameterName::FOG_END), parameter(ParameterName::FOG_START)})});
      const Id distance = mb.op(spv::OpFSub, f32, {parameter(ParameterName::FOG_END), c});
      return mb.op(spv::OpFMul, f32, {distance, scale});
    };
    const auto exponential = [&](bool squared) {
      const double factor = squared ? kSqrtLog2E : kLog2E;
      const Id scale =
          mb.op(spv::OpFMul, f32,
                {parameter(ParameterName::FOG_DENSITY), mb.constant_f32(float(factor))});
      Id x = mb.op(spv::OpFMul, f32, {c, scale});
      if (squared) x = mb.op(spv::OpFMul, f32, {x, x});
      x = mb.op(spv::OpFNegate, f32, {x});
      return mb.op(spv::OpExtInst, f32, {glsl, GLSLstd450Exp2, x});
    };
    Id factor;
    if (fog_known) {
      factor = fog_mode == KILN_FOG_LINEAR ? linear()
               : fog_mode == KILN_FOG_EXP  ? exponential(false)
               : fog_mode == KILN_FOG_EXP2 ? exponential(true)
                                           : mb.constant_f32(1.0f);
    } else {
      const Id mode = parameter(ParameterName::FOG_FRAGMENT_MODE);
      const auto is = [&](std::uint32_t m) {
        return mb.op(spv::OpIEqual, boolean, {mode, const_u32(m)});
      };
      factor = mb.constant_f32(1.0f); // NONE (and unknown modes): the colour unchanged
      factor = mb.op(spv::OpSelect, f32, {is(KILN_FOG_EXP2), exponential(true), factor});
      factor = mb.op(spv::OpSelect, f32, {is(KILN_FOG_EXP), exponential(false), factor});
      factor = mb.op(spv::OpSelect, f32, {is(KILN_FOG_LINEAR), linear(), factor});
    }
    factor = mb.op(spv::OpExtInst, f32,
                   {glsl, GLSLstd450FClamp, factor, mb.constant_f32(0.0f), mb.constant_f32(1.0f)});
    const Id fog_colour = parameter_vec4(ParameterName::FOG_COLOUR);
    const Id rgb = mb.op(spv::OpVectorShuffle, v3, {colour, colour, 0, 1, 2});
    const Id fog_rgb = mb.op(spv::OpVectorShuffle, v3, {fog_colour, fog_colour, 0, 1, 2});
    const Id factor3 = mb.op(spv::OpCompositeConstruct, v3, {factor, factor, factor});
    // fog + (colour - fog) factor, as one fused multiply-add: vkd3d's form of the blend
    // (its `mad`), so the two round alike.
    const Id difference = mb.op(spv::OpFSub, v3, {rgb, fog_rgb});
    const Id mixed = mb.op(spv::OpExtInst, v3, {glsl, GLSLstd450Fma, difference, factor3, fog_rgb});
    const Id result = mb.op(spv::OpVectorShuffle, v4, {mixed, colour, 0, 1, 2, 6});
    mb.op_void(spv::OpStore, {decls[target0].var, result});
  }

  // Alpha test: render target 0's alpha against the reference; a failing pixel is demoted.
  if (!alpha_test) return true;
  Id fails = 0; // null: always fails
  if (!func_known || func != KILN_COMPARE_NEVER) {
    const Id alpha = mb.op(spv::OpCompositeExtract, f32, {load_vec4(target0), 3});
    const Id ref = parameter(ParameterName::ALPHA_TEST_REF);
    const Id less = mb.op(spv::OpFOrdLessThan, boolean, {alpha, ref});
    const Id equal = mb.op(spv::OpFOrdEqual, boolean, {alpha, ref});
    const Id greater = mb.op(spv::OpFOrdGreaterThan, boolean, {alpha, ref});
    Id passes;
    if (func_known) {
      switch (func) {
      case KILN_COMPARE_LESS:
        passes = less;
        break;
      case KILN_COMPARE_EQUAL:
        passes = equal;
        break;
      case KILN_COMPARE_LESS_EQUAL:
        passes = mb.op(spv::OpLogicalOr, boolean, {less, equal});
        break;
      case KILN_COMPARE_GREATER:
        passes = greater;
        break;
      case KILN_COMPARE_NOT_EQUAL:
        passes = mb.op(spv::OpLogicalOr, boolean, {less, greater});
        break;
      default:
        passes = mb.op(spv::OpLogicalOr, boolean, {greater, equal});
        break;
      }
    } else {
      // D3DCMP values minus one are a mask: 1 less, 2 equal, 4 greater (NEVER 0, ALWAYS 7).
      const Id mask =
          mb.op(spv::OpISub, u32, {parameter(ParameterName::ALPHA_TEST_FUNC), const_u32(1)});
      const auto allows = [&](std::uint32_t bit, Id outcome) {
        const Id set = mb.op(spv::OpINotEqual, boolean,
                             {mb.op(spv::OpBitwiseAnd, u32, {mask, const_u32(bit)}), const_u32(0)});
        return mb.op(spv::OpLogicalAnd, boolean, {set, outcome});
      };
      passes = mb.op(spv::OpLogicalOr, boolean,
                     {mb.op(spv::OpLogicalOr, boolean, {allows(1, less), allows(2, equal)}),
                      allows(4, greater)});
    }
    fails = mb.op(spv::OpLogicalNot, boolean, {passes});
  }
  if (!fails) {
    emit_demote();
    return true;
  }
  const Id demote = mb.allocate_id(), merge = mb.allocate_id();
  mb.op_void(spv::OpSelectionMerge, {merge, spv::SelectionControlMaskNone});
  mb.op_void(spv::OpBranchConditional, {fails, demote, merge});
  mb.label(demote);
  emit_demote();
  mb.op_void(spv::OpBranch, {merge});
  mb.label(merge);
  return true;
}

// ---- Last pre-rasterization stage: fog coordinate, point size, clip planes -------------------

bool Lowering::State::vertex_epilogue(ir::SsaDef at_op) {
  if (!parameter_of(ParameterName::FOG_SOURCE) && !parameter_of(ParameterName::POINT_SIZE) &&
      !parameter_of(ParameterName::POINT_SIZE_MIN) &&
      !parameter_of(ParameterName::POINT_SIZE_MAX) && !parameter_of(ParameterName::CLIP_PLANE_MASK))
    return true; // nothing to emit: not even a type
  const Id f32 = basic(ir::ScalarType::F32, 1), v4 = basic(ir::ScalarType::F32, 4),
           u32 = basic(ir::ScalarType::U32, 1), boolean = mb.type_bool();
  const std::uint32_t position = find_output(true, spv::BuiltInPosition);
  if (!is_vec4_f32(position)) return true; // no position: nothing to derive
  std::array<std::uint32_t, 4> bits{};
  Id pos = 0;
  const auto position_value = [&] {
    if (!pos) pos = load_vec4(position);
    return pos;
  };

  // Fog coordinate (x of the FOG varying): the shader's oFog, its specular (COLOR1) alpha
  // when it writes no oFog, or the position's z or w.
  if (parameter_of(ParameterName::FOG_SOURCE) && is_vec4_f32(render_io.fog_out)) {
    const DeclInfo& fog = decls[render_io.fog_out];
    const bool known = parameter_known(ParameterName::FOG_SOURCE, bits);
    const std::uint32_t source = bits[0];
    const auto from_output = [&] {
      if (fog.written)
        return mb.op(spv::OpCompositeExtract, f32, {load_vec4(render_io.fog_out), 0});
      if (is_vec4_f32(render_io.color1_out))
        return mb.op(spv::OpCompositeExtract, f32, {load_vec4(render_io.color1_out), 3});
      return mb.constant_f32(0.0f);
    };
    const auto component = [&](std::uint32_t c) {
      return mb.op(spv::OpCompositeExtract, f32, {position_value(), c});
    };
    Id coordinate;
    if (known) {
      // The shader's own oFog is stored again as (x, 0, 0, 0), as the specialized form stores
      // it: the two forms of one state must write the same varying.
      coordinate = source == KILN_FOG_SOURCE_Z   ? component(2)
                   : source == KILN_FOG_SOURCE_W ? component(3)
                                                 : from_output();
    } else {
      const Id s = parameter(ParameterName::FOG_SOURCE);
      coordinate = from_output();
      coordinate = mb.op(spv::OpSelect, f32,
                         {mb.op(spv::OpIEqual, boolean, {s, const_u32(KILN_FOG_SOURCE_W)}),
                          component(3), coordinate});
      coordinate = mb.op(spv::OpSelect, f32,
                         {mb.op(spv::OpIEqual, boolean, {s, const_u32(KILN_FOG_SOURCE_Z)}),
                          component(2), coordinate});
    }
    if (coordinate) {
      const Id zero = mb.constant_f32(0.0f);
      mb.op_void(spv::OpStore,
                 {fog.var, mb.op(spv::OpCompositeConstruct, v4, {coordinate, zero, zero, zero})});
    }
  }

  // Point size: the shader's psize, else POINT_SIZE, clamped to [POINT_SIZE_MIN, _MAX].
  if (stage == ShaderStage::Vertex &&
      (parameter_of(ParameterName::POINT_SIZE) || parameter_of(ParameterName::POINT_SIZE_MIN) ||
       parameter_of(ParameterName::POINT_SIZE_MAX))) {
    Id size = parameter(ParameterName::POINT_SIZE);
    if (is_vec4_f32(render_io.psize_out) && decls[render_io.psize_out].written)
      size = mb.op(spv::OpCompositeExtract, f32, {load_vec4(render_io.psize_out), 0});
    // max with the minimum, then min with the maximum: FClamp is undefined for min > max,
    // where this ends on the maximum, as vkd3d's clamp does.
    size = mb.op(spv::OpExtInst, f32,
                 {glsl, GLSLstd450FMax, size, parameter(ParameterName::POINT_SIZE_MIN)});
    size = mb.op(spv::OpExtInst, f32,
                 {glsl, GLSLstd450FMin, size, parameter(ParameterName::POINT_SIZE_MAX)});
    if (!render_io.point_size) {
      render_io.point_size = mb.global_variable(mb.type_pointer(spv::StorageClassOutput, f32),
                                                spv::StorageClassOutput);
      mb.decorate(render_io.point_size, spv::DecorationBuiltIn, {spv::BuiltInPointSize});
      add_interface(render_io.point_size, spv::StorageClassOutput);
    }
    mb.op_void(spv::OpStore, {render_io.point_size, size});
  }

  // User clip planes: dot(plane, clip-space position) per enabled plane (D3D9 gives planes in
  // clip space when a vertex shader runs). Immediate: one distance per enabled plane;
  // specialization constant: all eight, 0 (never clipped) for disabled ones.
  if (parameter_of(ParameterName::CLIP_PLANE_MASK)) {
    const bool known = parameter_known(ParameterName::CLIP_PLANE_MASK, bits);
    const std::uint32_t mask = known ? bits[0] & 0xffu : 0xffu;
    const unsigned count = unsigned(std::popcount(mask));
    if (count) {
      if (find_output(true, spv::BuiltInClipDistance) != kNone)
        return fail(at(at_op), "user clip planes with a shader that writes SV_ClipDistance");
      mb.require_capability(spv::CapabilityClipDistance);
      if (!render_io.clip_distance) {
        const Id array = mb.type_array(f32, const_u32(count));
        render_io.clip_distance = mb.global_variable(
            mb.type_pointer(spv::StorageClassOutput, array), spv::StorageClassOutput);
        mb.decorate(render_io.clip_distance, spv::DecorationBuiltIn, {spv::BuiltInClipDistance});
        add_interface(render_io.clip_distance, spv::StorageClassOutput);
      }
      const Id pointer = mb.type_pointer(spv::StorageClassOutput, f32);
      const Id enabled = known ? 0 : parameter(ParameterName::CLIP_PLANE_MASK);
      unsigned slot = 0;
      for (unsigned i = 0; i < 8; ++i) {
        if (!(mask & (1u << i))) continue;
        const auto name = ParameterName(unsigned(ParameterName::CLIP_PLANE_0) + i);
        Id distance = mb.op(spv::OpDot, f32, {parameter_vec4(name), position_value()});
        if (!known) {
          const Id bit = mb.op(spv::OpBitwiseAnd, u32, {enabled, const_u32(1u << i)});
          distance = mb.op(spv::OpSelect, f32,
                           {mb.op(spv::OpINotEqual, boolean, {bit, const_u32(0)}), distance,
                            mb.constant_f32(0.0f)});
        }
        const Id element =
            mb.op(spv::OpAccessChain, pointer, {render_io.clip_distance, const_u32(slot++)});
        mb.op_void(spv::OpStore, {element, distance});
      }
    }
  }
  return true;
}

bool Lowering::State::render_state_before_return(ir::SsaDef at_op) {
  if (!options.interface || id_for(current_function) != entry_function) return true;
  if (block_construct != ir::Construct::None)
    return fail(at(at_op), "render state: a return in a construct header block");
  switch (stage) {
  case ShaderStage::Pixel:
    return pixel_epilogue();
  case ShaderStage::Vertex:
  case ShaderStage::Domain:
    return vertex_epilogue(at_op);
  default:
    return true;
  }
}

bool Lowering::State::render_state_before_emit(ir::SsaDef at_op) {
  if (!options.interface || stage != ShaderStage::Geometry) return true;
  return vertex_epilogue(at_op);
}

} // namespace kiln::spirv

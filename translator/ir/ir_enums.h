#pragma once
// The IR's literal enums (docs/ir.md), each declared once as an X-macro list from which
// the enum, its printable names and its parser derive. Bit masks are marked so the printer
// writes them as `A|B` and the parser accepts that form.

#include "translator/common/shader_stage.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace kiln::ir {

using ShaderStage = kiln::ShaderStage;

// Scalar types (5 bits in the serialized form).
#define KILN_IR_SCALAR_TYPES(X)                                                                    \
  X(Unknown, "unknown")                                                                            \
  X(Bool, "bool")                                                                                  \
  X(I8, "i8")                                                                                      \
  X(I16, "i16")                                                                                    \
  X(I32, "i32")                                                                                    \
  X(I64, "i64")                                                                                    \
  X(U8, "u8")                                                                                      \
  X(U16, "u16")                                                                                    \
  X(U32, "u32")                                                                                    \
  X(U64, "u64")                                                                                    \
  X(F16, "f16")                                                                                    \
  X(F32, "f32")                                                                                    \
  X(F64, "f64")                                                                                    \
  X(MinF16, "min16f")                                                                              \
  X(MinF10, "min10f")                                                                              \
  X(MinI16, "min16i")                                                                              \
  X(MinI12, "min12i")                                                                              \
  X(MinU16, "min16u")

enum class ScalarType : std::uint8_t {
#define KILN_X(name, text) name,
  KILN_IR_SCALAR_TYPES(KILN_X)
#undef KILN_X
      Count,
};
static_assert(std::size_t(ScalarType::Count) <= 32, "5 bits in a Type and in the binary form");

// Enum lists: X(Name, value).
#define KILN_IR_PRIMITIVE_TYPES(X)                                                                 \
  X(Point, 0) X(Line, 1) X(Triangle, 2) X(LineAdj, 3) X(TriangleAdj, 4) X(Quad, 5) X(Patch, 6)
#define KILN_IR_TESS_WINDING_ORDERS(X) X(Cw, 0) X(Ccw, 1)
#define KILN_IR_TESS_PARTITIONINGS(X)                                                              \
  X(Integer, 0) X(Pow2, 1) X(FractionalOdd, 2) X(FractionalEven, 3)
#define KILN_IR_ROUND_MODES(X) X(Zero, 0) X(NearestEven, 1) X(NegativeInf, 2) X(PositiveInf, 3)
#define KILN_IR_DENORM_MODES(X) X(Flush, 0) X(Preserve, 1)
#define KILN_IR_INTERPOLATION_MODES(X) X(Flat, 1) X(Centroid, 2) X(Sample, 4) X(NoPerspective, 8)
#define KILN_IR_BUILTINS(X)                                                                        \
  X(Position, 0)                                                                                   \
  X(ClipDistance, 1)                                                                               \
  X(CullDistance, 2)                                                                               \
  X(VertexId, 3)                                                                                   \
  X(InstanceId, 4)                                                                                 \
  X(PrimitiveId, 5)                                                                                \
  X(Layer, 6)                                                                                      \
  X(ViewportIndex, 7)                                                                              \
  X(GsVertexCountIn, 8)                                                                            \
  X(GsInstanceId, 9)                                                                               \
  X(TessControlPointCountIn, 10)                                                                   \
  X(TessControlPointId, 11)                                                                        \
  X(TessCoord, 12)                                                                                 \
  X(TessFactorInner, 13)                                                                           \
  X(TessFactorOuter, 14)                                                                           \
  X(SampleCount, 15)                                                                               \
  X(SampleId, 16)                                                                                  \
  X(SamplePosition, 17)                                                                            \
  X(SampleMask, 18)                                                                                \
  X(IsFrontFace, 19)                                                                               \
  X(Depth, 20)                                                                                     \
  X(StencilRef, 21)                                                                                \
  X(GlobalThreadId, 22)                                                                            \
  X(LocalThreadId, 23)                                                                             \
  X(LocalThreadIndex, 24)                                                                          \
  X(WorkgroupId, 25)                                                                               \
  X(IsFullyCovered, 26)                                                                            \
  X(PointSize, 27)
#define KILN_IR_SHADER_STAGE_MASK(X)                                                               \
  X(Vertex, 1) X(Hull, 2) X(Domain, 4) X(Geometry, 8) X(Pixel, 16) X(Compute, 32)
#define KILN_IR_RESOURCE_KINDS(X)                                                                  \
  X(TypedBuffer, 0)                                                                                \
  X(RawBuffer, 1)                                                                                  \
  X(Structured, 2)                                                                                 \
  X(Image1D, 3)                                                                                    \
  X(Image1DArray, 4)                                                                               \
  X(Image2D, 5)                                                                                    \
  X(Image2DArray, 6)                                                                               \
  X(Image2DMS, 7)                                                                                  \
  X(Image2DMSArray, 8)                                                                             \
  X(Image3D, 9)                                                                                    \
  X(ImageCube, 10)                                                                                 \
  X(ImageCubeArray, 11)
#define KILN_IR_UAV_FLAGS(X)                                                                       \
  X(Coherent, 1) X(ReadOnly, 2) X(WriteOnly, 4) X(RasterizerOrdered, 8) X(FixedFormat, 16)
#define KILN_IR_ATOMIC_OPS(X)                                                                      \
  X(Load, 0)                                                                                       \
  X(Store, 1)                                                                                      \
  X(Exchange, 2)                                                                                   \
  X(CompareExchange, 3)                                                                            \
  X(Add, 4)                                                                                        \
  X(Sub, 5)                                                                                        \
  X(SMin, 6)                                                                                       \
  X(SMax, 7)                                                                                       \
  X(UMin, 8)                                                                                       \
  X(UMax, 9)                                                                                       \
  X(And, 10)                                                                                       \
  X(Or, 11)                                                                                        \
  X(Xor, 12)                                                                                       \
  X(Inc, 13)                                                                                       \
  X(Dec, 14)
#define KILN_IR_DERIVATIVE_MODES(X) X(Default, 0) X(Coarse, 1) X(Fine, 2)
#define KILN_IR_MEMORY_TYPE_MASK(X) X(Lds, 1) X(UavBuffer, 2) X(UavImage, 4)
#define KILN_IR_ROV_SCOPES(X) X(Sample, 0) X(Pixel, 1)
#define KILN_IR_SCOPES(X) X(Thread, 0) X(Quad, 1) X(Subgroup, 2) X(Workgroup, 3) X(Global, 4)
#define KILN_IR_CONSTRUCTS(X) X(None, 0) X(StructuredSelection, 1) X(StructuredLoop, 2)
// ClassInstances: on a DclCbv, the class-linkage selection buffer (reflection marks it).
#define KILN_IR_OP_FLAGS(X)                                                                        \
  X(Precise, 1)                                                                                    \
  X(NonUniform, 2) X(SparseFeedback, 4) X(NoNan, 8) X(NoInf, 16) X(NoSz, 32) X(ClassInstances, 64)
// Op flags take 8 bits (OpRecord::flags, bits 10-17 of the binary form's opcode token).
#define KILN_X(name, value) | value
static_assert((0 KILN_IR_OP_FLAGS(KILN_X)) < 256, "KILN_IR_OP_FLAGS: more than 8 bits");
#undef KILN_X

// Every literal enum: X(Type, LIST, is_mask, shape letter used in the opcode table).
// ShaderStage is kiln::ShaderStage; its list is adapted below.
#define KILN_IR_STAGE_VALUES(X)                                                                    \
  X(Vertex, 0) X(Hull, 1) X(Domain, 2) X(Geometry, 3) X(Pixel, 4) X(Compute, 5)
#define KILN_IR_ENUMS(X)                                                                           \
  X(PrimitiveType, KILN_IR_PRIMITIVE_TYPES, false, 'P')                                            \
  X(TessWindingOrder, KILN_IR_TESS_WINDING_ORDERS, false, 'W')                                     \
  X(TessPartitioning, KILN_IR_TESS_PARTITIONINGS, false, 'T')                                      \
  X(RoundMode, KILN_IR_ROUND_MODES, false, 'R')                                                    \
  X(DenormMode, KILN_IR_DENORM_MODES, false, 'N')                                                  \
  X(InterpolationModes, KILN_IR_INTERPOLATION_MODES, true, 'I')                                    \
  X(BuiltIn, KILN_IR_BUILTINS, false, 'B')                                                         \
  X(ShaderStageMask, KILN_IR_SHADER_STAGE_MASK, true, 'M')                                         \
  X(ResourceKind, KILN_IR_RESOURCE_KINDS, false, 'K')                                              \
  X(UavFlags, KILN_IR_UAV_FLAGS, true, 'F')                                                        \
  X(AtomicOp, KILN_IR_ATOMIC_OPS, false, 'A')                                                      \
  X(DerivativeMode, KILN_IR_DERIVATIVE_MODES, false, 'V')                                          \
  X(MemoryTypeMask, KILN_IR_MEMORY_TYPE_MASK, true, 'Y')                                           \
  X(RovScope, KILN_IR_ROV_SCOPES, false, 'O')                                                      \
  X(Scope, KILN_IR_SCOPES, false, 'S')                                                             \
  X(Construct, KILN_IR_CONSTRUCTS, false, 'C')                                                     \
  X(OpFlags, KILN_IR_OP_FLAGS, true, '\0')                                                         \
  X(ShaderStage, KILN_IR_STAGE_VALUES, false, 'G')

#define KILN_IR_ENUM_ITEM(name, value) name = value,
#define KILN_IR_DECLARE_ENUM(Type, LIST, is_mask, letter)                                          \
  enum class Type : std::uint32_t { LIST(KILN_IR_ENUM_ITEM) };
#define KILN_IR_DECLARE_NON_STAGE(Type, LIST, is_mask, letter)                                     \
  KILN_IR_ENUM_SKIP_##Type(KILN_IR_DECLARE_ENUM(Type, LIST, is_mask, letter))
// ShaderStage is the kiln enum; every other list declares its own enum class.
#define KILN_IR_ENUM_SKIP_ShaderStage(decl)
#define KILN_IR_ENUM_SKIP_PrimitiveType(decl) decl
#define KILN_IR_ENUM_SKIP_TessWindingOrder(decl) decl
#define KILN_IR_ENUM_SKIP_TessPartitioning(decl) decl
#define KILN_IR_ENUM_SKIP_RoundMode(decl) decl
#define KILN_IR_ENUM_SKIP_DenormMode(decl) decl
#define KILN_IR_ENUM_SKIP_InterpolationModes(decl) decl
#define KILN_IR_ENUM_SKIP_BuiltIn(decl) decl
#define KILN_IR_ENUM_SKIP_ShaderStageMask(decl) decl
#define KILN_IR_ENUM_SKIP_ResourceKind(decl) decl
#define KILN_IR_ENUM_SKIP_UavFlags(decl) decl
#define KILN_IR_ENUM_SKIP_AtomicOp(decl) decl
#define KILN_IR_ENUM_SKIP_DerivativeMode(decl) decl
#define KILN_IR_ENUM_SKIP_MemoryTypeMask(decl) decl
#define KILN_IR_ENUM_SKIP_RovScope(decl) decl
#define KILN_IR_ENUM_SKIP_Scope(decl) decl
#define KILN_IR_ENUM_SKIP_Construct(decl) decl
#define KILN_IR_ENUM_SKIP_OpFlags(decl) decl
KILN_IR_ENUMS(KILN_IR_DECLARE_NON_STAGE)
#undef KILN_IR_DECLARE_NON_STAGE

static_assert(static_cast<int>(ShaderStage::Compute) == 5, "KILN_IR_STAGE_VALUES mirrors kiln");

// Bit operations for the mask enums.
#define KILN_IR_MASK_OPS(Type)                                                                     \
  constexpr Type operator|(Type a, Type b) {                                                       \
    return Type(std::uint32_t(a) | std::uint32_t(b));                                              \
  }                                                                                                \
  constexpr Type operator&(Type a, Type b) {                                                       \
    return Type(std::uint32_t(a) & std::uint32_t(b));                                              \
  }                                                                                                \
  constexpr bool has(Type set, Type bit) {                                                         \
    return (std::uint32_t(set) & std::uint32_t(bit)) != 0;                                         \
  }
KILN_IR_MASK_OPS(InterpolationModes)
KILN_IR_MASK_OPS(ShaderStageMask)
KILN_IR_MASK_OPS(UavFlags)
KILN_IR_MASK_OPS(MemoryTypeMask)
KILN_IR_MASK_OPS(OpFlags)
#undef KILN_IR_MASK_OPS

// Printable names of one enum, derived from its list.
struct EnumEntry {
  std::string_view name;
  std::uint32_t value;
};
struct EnumTable {
  std::string_view type_name;
  std::span<const EnumEntry> entries;
  bool is_mask;
  char letter; // the opcode table's operand-shape letter for literals of this enum
};

#define KILN_IR_ENUM_TABLE_DECL(Type, LIST, is_mask, letter) extern const EnumTable k##Type##Table;
KILN_IR_ENUMS(KILN_IR_ENUM_TABLE_DECL)
#undef KILN_IR_ENUM_TABLE_DECL

// Every enum table, in KILN_IR_ENUMS order.
std::span<const EnumTable* const> enum_tables();
// The table whose shape letter is `letter`, or null.
const EnumTable* enum_table_for_letter(char letter);

std::string_view scalar_type_name(ScalarType type);
bool parse_scalar_type(std::string_view text, ScalarType& out);

// Name of a plain enum value; empty when out of range.
std::string_view enum_value_name(const EnumTable& table, std::uint32_t value);
// True when every bit (mask) or the value (plain enum) is known.
bool enum_value_valid(const EnumTable& table, std::uint64_t value);

} // namespace kiln::ir

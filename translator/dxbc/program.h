#pragma once
// The decoded form of a SM4.0-5.1 tokenized program: flat arrays of small POD records that the
// IR converter walks in order. Decoding fills a caller-owned Program whose arrays keep their
// capacity between shaders, so a warm worker decodes without touching the heap.

#include "translator/common/shader_stage.h"
#include "translator/common/status.h"
#include "translator/dxbc/opcodes.h"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <span>
#include <string_view>

namespace kiln::dxbc {

// Operand types. Columns: X(Name, number, fxc register prefix)
#define KILN_DXBC_OPERAND_TYPES(X)                                                                 \
  X(Temp, 0, "r")                                                                                  \
  X(Input, 1, "v")                                                                                 \
  X(Output, 2, "o")                                                                                \
  X(IndexableTemp, 3, "x")                                                                         \
  X(Immediate32, 4, "l")                                                                           \
  X(Immediate64, 5, "d")                                                                           \
  X(Sampler, 6, "s")                                                                               \
  X(Resource, 7, "t")                                                                              \
  X(ConstantBuffer, 8, "cb")                                                                       \
  X(ImmediateConstantBuffer, 9, "icb")                                                             \
  X(Label, 10, "l")                                                                                \
  X(InputPrimitiveId, 11, "vPrim")                                                                 \
  X(OutputDepth, 12, "oDepth")                                                                     \
  X(Null, 13, "null")                                                                              \
  X(Rasterizer, 14, "rasterizer")                                                                  \
  X(OutputCoverageMask, 15, "oMask")                                                               \
  X(Stream, 16, "m")                                                                               \
  X(FunctionBody, 17, "fb")                                                                        \
  X(FunctionTable, 18, "ft")                                                                       \
  X(Interface, 19, "fp")                                                                           \
  X(FunctionInput, 20, "fi")                                                                       \
  X(FunctionOutput, 21, "fo")                                                                      \
  X(OutputControlPointId, 22, "vOutputControlPointID")                                             \
  X(InputForkInstanceId, 23, "vForkInstanceID")                                                    \
  X(InputJoinInstanceId, 24, "vJoinInstanceID")                                                    \
  X(InputControlPoint, 25, "vicp")                                                                 \
  X(OutputControlPoint, 26, "vocp")                                                                \
  X(InputPatchConstant, 27, "vpc")                                                                 \
  X(InputDomainPoint, 28, "vDomain")                                                               \
  X(ThisPointer, 29, "this")                                                                       \
  X(Uav, 30, "u")                                                                                  \
  X(ThreadGroupSharedMemory, 31, "g")                                                              \
  X(InputThreadId, 32, "vThreadID")                                                                \
  X(InputThreadGroupId, 33, "vThreadGroupID")                                                      \
  X(InputThreadIdInGroup, 34, "vThreadIDInGroup")                                                  \
  X(InputCoverageMask, 35, "vCoverage")                                                            \
  X(InputThreadIdInGroupFlattened, 36, "vThreadIDInGroupFlattened")                                \
  X(InputGsInstanceId, 37, "vGSInstanceID")                                                        \
  X(OutputDepthGreaterEqual, 38, "oDepthGE")                                                       \
  X(OutputDepthLessEqual, 39, "oDepthLE")                                                          \
  X(CycleCounter, 40, "vCycleCounter")                                                             \
  X(OutputStencilRef, 41, "oStencilRef")                                                           \
  X(InputInnerCoverage, 42, "vInnerCoverage")

enum class OperandType : std::uint8_t {
#define KILN_DXBC_OT_ENUM(name, number, prefix) name = number,
  KILN_DXBC_OPERAND_TYPES(KILN_DXBC_OT_ENUM)
#undef KILN_DXBC_OT_ENUM
};
// Whether a table's number column counts 0, 1, 2, ... row by row.
constexpr bool numbered_in_order(std::initializer_list<std::uint32_t> numbers) {
  std::uint32_t row = 0;
  for (std::uint32_t number : numbers)
    if (number != row++) return false;
  return true;
}

// The rows are numbered 0..N-1 in order: the reader's range check relies on it.
constexpr std::uint32_t kOperandTypeCount = 0
#define KILN_DXBC_OT_COUNT(name, number, prefix) +1
    KILN_DXBC_OPERAND_TYPES(KILN_DXBC_OT_COUNT);
#undef KILN_DXBC_OT_COUNT
#define KILN_DXBC_OT_NUMBER(name, number, prefix) number,
static_assert(numbered_in_order({KILN_DXBC_OPERAND_TYPES(KILN_DXBC_OT_NUMBER)}),
              "KILN_DXBC_OPERAND_TYPES rows out of order");
#undef KILN_DXBC_OT_NUMBER

enum class ProgramType : std::uint8_t { Pixel = 0, Vertex, Geometry, Hull, Domain, Compute };

// The pipeline stage a program type runs at.
constexpr ShaderStage stage_of(ProgramType type) {
  switch (type) {
  case ProgramType::Pixel:
    return ShaderStage::Pixel;
  case ProgramType::Vertex:
    return ShaderStage::Vertex;
  case ProgramType::Geometry:
    return ShaderStage::Geometry;
  case ProgramType::Hull:
    return ShaderStage::Hull;
  case ProgramType::Domain:
    return ShaderStage::Domain;
  case ProgramType::Compute:
    break;
  }
  return ShaderStage::Compute;
}

enum class SelectionMode : std::uint8_t { Mask = 0, Swizzle = 1, Select1 = 2 };

enum class IndexRepresentation : std::uint8_t {
  Immediate32 = 0,
  Immediate64 = 1,
  Relative = 2,
  Immediate32PlusRelative = 3,
  Immediate64PlusRelative = 4,
};

enum class OperandModifier : std::uint8_t { None = 0, Neg = 1, Abs = 2, AbsNeg = 3 };

enum class MinPrecision : std::uint8_t {
  Default = 0,
  Float16 = 1,
  Float2_8 = 2,
  Reserved = 3,
  SInt16 = 4,
  UInt16 = 5,
  Any16 = 0xf0,
};

// The resource-dimension field of the tokens (D3D10_SB_RESOURCE_DIMENSION: bits 11..15 of
// dcl_resource and dcl_uav_typed, bits 6..10 of the resource-dim extended token).
// Columns: X(Name, token value, fxc spelling, reflected)
//   reflected: the kiln::ResourceDimension (common/reflection.h) the bytecode's reflection
//     (scan.cpp) reports for a typed declaration of this dimension. Raw and structured buffers
//     have declarations of their own, which the scan reports as Buffer; as the dimension of a
//     typed declaration they, like Unknown, name no descriptor dimension.
#define KILN_DXBC_RESOURCE_DIMENSIONS(X)                                                           \
  X(Unknown, 0, "unknown", None)                                                                   \
  X(Buffer, 1, "buffer", Buffer)                                                                   \
  X(Texture1D, 2, "texture1d", Texture1D)                                                          \
  X(Texture2D, 3, "texture2d", Texture2D)                                                          \
  X(Texture2DMS, 4, "texture2dms", Texture2DMS)                                                    \
  X(Texture3D, 5, "texture3d", Texture3D)                                                          \
  X(TextureCube, 6, "texturecube", TextureCube)                                                    \
  X(Texture1DArray, 7, "texture1darray", Texture1DArray)                                           \
  X(Texture2DArray, 8, "texture2darray", Texture2DArray)                                           \
  X(Texture2DMSArray, 9, "texture2dmsarray", Texture2DMSArray)                                     \
  X(TextureCubeArray, 10, "texturecubearray", TextureCubeArray)                                    \
  X(RawBuffer, 11, "raw_buffer", None)                                                             \
  X(StructuredBuffer, 12, "structured_buffer", None)

enum class ResourceDimension : std::uint8_t {
#define KILN_DXBC_DIMENSION_ENUM(name, value, fxc, reflected) name = value,
  KILN_DXBC_RESOURCE_DIMENSIONS(KILN_DXBC_DIMENSION_ENUM)
#undef KILN_DXBC_DIMENSION_ENUM
};
// The rows are numbered 0..N-1 in order: the tables derived from the columns are indexed by
// the token's value.
#define KILN_DXBC_DIMENSION_VALUE(name, value, fxc, reflected) value,
static_assert(numbered_in_order({KILN_DXBC_RESOURCE_DIMENSIONS(KILN_DXBC_DIMENSION_VALUE)}),
              "KILN_DXBC_RESOURCE_DIMENSIONS rows out of order");
#undef KILN_DXBC_DIMENSION_VALUE

// The return-type field of the tokens (D3D10_SB_RESOURCE_RETURN_TYPE: 4 bits per component of
// the return-type token of dcl_resource and dcl_uav_typed, and of the resource-return-type
// extended token).
// Columns: X(Name, token value, fxc spelling, reflected)
//   reflected: the kiln::ResourceDataType (common/reflection.h) the bytecode's reflection
//     (scan.cpp) reports for a typed declaration whose first component has this type.
#define KILN_DXBC_RETURN_TYPES(X)                                                                  \
  X(None, 0, "unknown", None)                                                                      \
  X(Unorm, 1, "unorm", Unorm)                                                                      \
  X(Snorm, 2, "snorm", Snorm)                                                                      \
  X(SInt, 3, "sint", SInt)                                                                         \
  X(UInt, 4, "uint", UInt)                                                                         \
  X(Float, 5, "float", Float)                                                                      \
  X(Mixed, 6, "mixed", Mixed)                                                                      \
  X(Double, 7, "double", Double)                                                                   \
  X(Continued, 8, "continued", None)                                                               \
  X(Unused, 9, "unused", None)

enum class ReturnType : std::uint8_t {
#define KILN_DXBC_RETURN_TYPE_ENUM(name, value, fxc, reflected) name = value,
  KILN_DXBC_RETURN_TYPES(KILN_DXBC_RETURN_TYPE_ENUM)
#undef KILN_DXBC_RETURN_TYPE_ENUM
};
// Numbered 0..N-1 in order, as the resource dimensions above.
#define KILN_DXBC_RETURN_TYPE_VALUE(name, value, fxc, reflected) value,
static_assert(numbered_in_order({KILN_DXBC_RETURN_TYPES(KILN_DXBC_RETURN_TYPE_VALUE)}),
              "KILN_DXBC_RETURN_TYPES rows out of order");
#undef KILN_DXBC_RETURN_TYPE_VALUE

enum class InterpolationMode : std::uint8_t {
  Undefined = 0,
  Constant,
  Linear,
  LinearCentroid,
  LinearNoPerspective,
  LinearNoPerspectiveCentroid,
  LinearSample,
  LinearNoPerspectiveSample,
};

constexpr std::uint32_t kNoOperand = 0xffffffffu;

// One operand. Relative index operands live in Program::relative and are named by position.
struct Operand {
  OperandType type;
  std::uint8_t component_count; // 0, 1 or 4
  SelectionMode selection;
  std::uint8_t mask;            // write mask (bit 0 = x) when selection == Mask
  std::uint8_t swizzle;         // 2 bits per component; Select1 is stored replicated
  std::uint8_t index_dimension; // 0..3
  IndexRepresentation index_representation[3];
  OperandModifier modifier;
  MinPrecision min_precision;
  bool non_uniform;
  bool extended;
  std::uint32_t index[3];    // immediate part of each index (low 32 bits for 64-bit ones)
  std::uint32_t relative[3]; // Program::relative position, or kNoOperand
  std::uint32_t value[4];    // immediate32 values, or two doubles as 4 dwords (lo, hi, lo, hi)

  std::uint32_t component(unsigned i) const { return (swizzle >> (2 * i)) & 3u; }
  bool has_relative(unsigned i) const { return relative[i] != kNoOperand; }
};

// Instruction-token facts that several opcodes share (names follow the D3D documentation).
namespace control {
constexpr std::uint32_t kSaturate = 1u << 13;
constexpr std::uint32_t kTestNonZero = 1u << 18;
constexpr std::uint32_t kPreciseShift = 19; // 4-bit per-component precise mask
constexpr std::uint32_t kSyncThreadsInGroup = 1u << 11;
constexpr std::uint32_t kSyncGroupSharedMemory = 1u << 12;
constexpr std::uint32_t kSyncUavGroup = 1u << 13;
constexpr std::uint32_t kSyncUavGlobal = 1u << 14;
} // namespace control

struct Instruction {
  Opcode opcode;
  std::uint8_t operand_count;
  std::uint8_t flags;          // InstructionFlag bits
  std::uint32_t token_offset;  // dword offset of the opcode token in the program chunk
  std::uint32_t controls;      // the raw opcode token (opcode-specific bits 11..23)
  std::uint32_t first_operand; // position in Program::operands
  std::uint32_t declaration;   // position in Program::declarations, or kNoOperand
  // Extended opcode tokens.
  std::int8_t texel_offset[3];          // aoffimmi u, v, w (sign-extended 4-bit values)
  ResourceDimension resource_dimension; // from a resource-dim extended token
  std::uint8_t resource_return[4];      // ReturnType per component, from a return-type token
  std::uint32_t structure_stride;       // from a resource-dim extended token

  bool saturate() const { return (controls & control::kSaturate) != 0; }
  bool test_nonzero() const { return (controls & control::kTestNonZero) != 0; }
  std::uint32_t precise_mask() const { return (controls >> control::kPreciseShift) & 0xfu; }
  // resinfo: 0 float, 1 rcpFloat, 2 uint; sampleinfo/samplepos: bit 0 = uint
  std::uint32_t return_type_control() const { return (controls >> 11) & 3u; }
  // Where an error about this instruction points: its token in the program chunk, its mnemonic.
  operator Where() const { return {token_offset, opcode_info(opcode).mnemonic}; }
};

namespace instruction_flag {
constexpr std::uint8_t kTexelOffset = 1 << 0;
constexpr std::uint8_t kResourceDimension = 1 << 1;
constexpr std::uint8_t kResourceReturnType = 1 << 2;
constexpr std::uint8_t kTrailingTokens = 1 << 3; // the length field covered unused dwords
} // namespace instruction_flag

// Declaration payloads; which fields mean something depends on the opcode (see each field).
struct Declaration {
  ResourceDimension dimension;     // dcl_resource, dcl_uav_typed
  std::uint8_t sample_count;       // dcl_resource texture2dms(arrays)
  InterpolationMode interpolation; // dcl_input_ps*
  std::uint8_t return_type[4];     // dcl_resource, dcl_uav_typed (ReturnType)
  std::uint32_t system_value;      // *_sgv / *_siv: D3D10_SB_NAME
  // dcl_temps count, dcl_maxout, dcl_gsinstances, *_instance_count, control point counts,
  // dcl_indexrange count, dcl_tgsm_raw byte count, dcl_tgsm_structured element count,
  // dcl_constantbuffer size (vectors), dcl_indexableTemp size, dcl_function_body index,
  // dcl_function_table / dcl_interface index, the enum of topology / primitive / domain /
  // partitioning / output primitive / sampler mode, dcl_globalFlags flags.
  std::uint32_t value;
  // Structure stride (resource/uav/tgsm structured), dcl_indexableTemp register,
  // dcl_interface array size, dcl_constantbuffer access (1 = dynamicIndexed),
  // dcl_hs_max_tessfactor float bits.
  std::uint32_t value2;
  std::uint32_t value3;    // dcl_indexableTemp component count, dcl_interface table count
  std::uint32_t space;     // SM5.1 register space
  std::uint32_t uav_flags; // 1 globally coherent, 2 rasterizer ordered, 4 has counter
  std::uint32_t thread_group[3];
  std::uint32_t function_count;         // dcl_interface: entries each function table must have
  std::uint32_t list_first, list_count; // Program::lists: function table bodies / interface tables
};

namespace uav_flag {
constexpr std::uint32_t kGloballyCoherent = 1;
constexpr std::uint32_t kRasterizerOrdered = 2;
constexpr std::uint32_t kHasCounter = 4;
} // namespace uav_flag

// customdata classes.
enum class CustomDataClass : std::uint32_t {
  Comment = 0,
  DebugInfo = 1,
  Opaque = 2,
  ImmediateConstantBuffer = 3,
  ShaderMessage = 4,
  ClipPlaneConstantMappings = 5,
};

// A growable array of trivially copyable records that keeps its storage across clear().
template <typename T>
class PodArray {
 public:
  std::uint32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  T& operator[](std::uint32_t i) { return data_[i]; }
  const T& operator[](std::uint32_t i) const { return data_[i]; }
  const T* begin() const { return data_.get(); }
  const T* end() const { return data_.get() + size_; }
  std::span<const T> span() const { return {data_.get(), size_}; }
  void clear() { size_ = 0; }
  // Makes room for `count` more records so that push_unchecked() cannot overflow.
  void reserve_more(std::uint32_t count) {
    if (std::uint64_t(size_) + count > capacity_) grow(std::uint64_t(size_) + count);
  }
  T& push_unchecked() { return data_[size_++]; }
  T& push() {
    reserve_more(1);
    return data_[size_++];
  }
  void pop() { --size_; }
  std::size_t capacity_bytes() const { return std::size_t(capacity_) * sizeof(T); }

 private:
  void grow(std::uint64_t needed) {
    std::uint64_t cap = capacity_ ? capacity_ : 16;
    while (cap < needed) cap *= 2;
    std::unique_ptr<T[]> bigger(new T[cap]);
    if (size_) std::memcpy(static_cast<void*>(bigger.get()), data_.get(), sizeof(T) * size_);
    data_ = std::move(bigger);
    capacity_ = std::uint32_t(cap);
  }
  std::unique_ptr<T[]> data_;
  std::uint32_t size_ = 0;
  std::uint32_t capacity_ = 0;
};

struct Program {
  ProgramType type = ProgramType::Pixel;
  std::uint8_t major = 0, minor = 0;
  // The program's dword tokens (pointing into the caller's container bytes; may be unaligned,
  // read them through token()).
  const std::uint8_t* token_bytes = nullptr;
  std::uint32_t token_count = 0;

  PodArray<Instruction> instructions; // declarations, instructions and customdata, in order
  PodArray<Operand> operands;
  PodArray<Operand> relative; // index operands of relative addressing
  PodArray<Declaration> declarations;
  PodArray<std::uint32_t> lists; // function table / interface lists
  // The immediate constant buffer (customdata class 3): dword position and count in tokens.
  std::uint32_t icb_first = 0, icb_count = 0;
  std::uint32_t temp_count = 0;

  std::uint32_t token(std::uint32_t i) const {
    std::uint32_t v;
    std::memcpy(&v, token_bytes + std::size_t(i) * 4, 4);
    return v;
  }
  std::span<const Operand> operands_of(const Instruction& inst) const {
    return {operands.data() + inst.first_operand, inst.operand_count};
  }
  bool is_sm51() const { return major == 5 && minor >= 1; }
  void clear() {
    instructions.clear();
    operands.clear();
    relative.clear();
    declarations.clear();
    lists.clear();
    icb_first = icb_count = temp_count = 0;
    token_bytes = nullptr;
    token_count = 0;
  }
};

} // namespace kiln::dxbc

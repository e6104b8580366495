#include "cache/cache_format.h"
#include "tests/cache/cache_test_support.h"

#include <gtest/gtest.h>
#include <memory>

namespace kiln::cache {
namespace {

Reflection sample_reflection() {
  Reflection reflection;
  reflection.stage = ShaderStage::Compute;
  reflection.resources.push_back({ResourceBinding::Class::Uav, 2, 7, 0, 7, 1, 9, 0, 0, 0});
  reflection.resources.push_back({ResourceBinding::Class::Sampler, 0, 1, 4, 0, 0, 3, 0, 0, 0});
  reflection.resources.push_back(
      {ResourceBinding::Class::Cbv, 0, 2, 1, ~0u, 0, 0, ResourceBinding::PushConstant, 16, 64});
  reflection.resources[0].dimension = ResourceDimension::Texture2DMSArray;
  reflection.resources[0].data_type = ResourceDataType::Snorm;
  reflection.resources[0].flags = ResourceBinding::UavRead | ResourceBinding::UavCounter;
  reflection.resources[0].structure_stride = 28;
  reflection.inputs.push_back({"TEXCOORD", 3, 1, 0x3, ~0u});
  reflection.outputs.push_back({"SV_Position", 0, 0, 0xf, 0});
  SignatureElement& in = reflection.inputs[0];
  in.system_value = 7;
  in.component_type = ComponentType::SInt;
  in.register_index = 5;
  in.mask = 0x7;
  in.used_mask = 0x3;
  in.stream = 2;
  return reflection;
}

TEST(CacheFormat, ReflectionRoundTrips) {
  const Reflection original = sample_reflection();
  std::vector<std::uint8_t> bytes;
  serialize_reflection(original, bytes);
  Reflection decoded;
  ASSERT_TRUE(deserialize_reflection(bytes, decoded));
  EXPECT_EQ(decoded.stage, ShaderStage::Compute);
  ASSERT_EQ(decoded.resources.size(), 3u);
  EXPECT_EQ(decoded.resources[0].register_class, ResourceBinding::Class::Uav);
  EXPECT_EQ(decoded.resources[0].space, 2u);
  EXPECT_EQ(decoded.resources[0].register_index, 7u);
  EXPECT_EQ(decoded.resources[0].array_size, 0u);
  EXPECT_EQ(decoded.resources[0].binding, 9u);
  EXPECT_EQ(decoded.resources[1].array_size, 4u);
  EXPECT_EQ(decoded.resources[2].flags, std::uint32_t(ResourceBinding::PushConstant));
  EXPECT_EQ(decoded.resources[2].offset, 16u);
  EXPECT_EQ(decoded.resources[2].size, 64u);
  ASSERT_EQ(decoded.inputs.size(), 1u);
  EXPECT_EQ(decoded.inputs[0].semantic, "TEXCOORD");
  EXPECT_EQ(decoded.inputs[0].semantic_index, 3u);
  EXPECT_EQ(decoded.resources[0].dimension, ResourceDimension::Texture2DMSArray);
  EXPECT_EQ(decoded.resources[0].data_type, ResourceDataType::Snorm);
  EXPECT_EQ(decoded.resources[0].flags, ResourceBinding::UavRead | ResourceBinding::UavCounter);
  EXPECT_EQ(decoded.resources[0].structure_stride, 28u);
  EXPECT_EQ(decoded.inputs[0].system_value, 7u);
  EXPECT_EQ(decoded.inputs[0].component_type, ComponentType::SInt);
  EXPECT_EQ(decoded.inputs[0].register_index, 5u);
  EXPECT_EQ(decoded.inputs[0].mask, 0x7u);
  EXPECT_EQ(decoded.inputs[0].used_mask, 0x3u);
  EXPECT_EQ(decoded.inputs[0].stream, 2u);
  ASSERT_EQ(decoded.outputs.size(), 1u);
  EXPECT_EQ(decoded.outputs[0].builtin, 0u);
}

TEST(CacheFormat, ReflectionRejectsEveryTruncationAndAWrongVersion) {
  std::vector<std::uint8_t> bytes;
  serialize_reflection(sample_reflection(), bytes);
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    Reflection decoded;
    EXPECT_FALSE(deserialize_reflection(std::span(bytes).first(size), decoded)) << size;
  }
  bytes[0] ^= 0x40; // format version
  Reflection decoded;
  EXPECT_FALSE(deserialize_reflection(bytes, decoded));
}

TEST(CacheFormat, OptionsRoundTripAndUnknownBitsAreRejected) {
  for (SpirvTarget target : kAllSpirvTargets)
    for (bool names : {false, true}) {
      TranslateOptions options{target, names, nullptr}, decoded;
      ASSERT_TRUE(decode_options(encode_options(options), decoded));
      EXPECT_EQ(decoded.target, target);
      EXPECT_EQ(decoded.debug_names, names);
    }
  TranslateOptions decoded;
  TranslateOptions with_interface;
  with_interface.interface = std::make_shared<ShaderInterface>();
  EXPECT_EQ(encode_options(with_interface) & kOptionsInterfaceBit, kOptionsInterfaceBit);
  EXPECT_EQ(encode_options(decoded) & kOptionsInterfaceBit, 0u);
  EXPECT_FALSE(decode_options(1u << 20, decoded));
  EXPECT_FALSE(decode_options(0x7f, decoded));
}

TEST(CacheFormat, RecordRoundTripsAndEveryBitFlipIsDetected) {
  const std::vector<std::uint8_t> source = test::make_source(1, 301);
  TranslateResult result;
  ASSERT_TRUE(test::fake_translate(4, source, {}, result));
  result.reflection = sample_reflection();
  const TranslationKey key = translation_key(source, {}, 4);
  std::vector<std::uint8_t> record;
  encode_record(key, 4, source, {}, result, record);
  EXPECT_EQ(record.size() % 8, 0u);

  RecordView view;
  const Status decoded = decode_record(record, view);
  ASSERT_TRUE(decoded) << decoded.message();
  EXPECT_EQ(view.header.key(), key);
  EXPECT_EQ(view.header.codegen_version, 4u);
  EXPECT_TRUE(std::equal(view.source.begin(), view.source.end(), source.begin(), source.end()));
  EXPECT_EQ(view.spirv.size(), result.spirv.size() * 4);

  // Every single-bit flip outside the zero padding must make the record fail its checks.
  const std::size_t payload_end = kRecordHeaderSize + view.header.source_size +
                                  view.header.spirv_size + view.header.reflection_size;
  const std::size_t trailer_start = record.size() - kRecordTrailerSize;
  std::size_t detected = 0, flips = 0;
  for (std::size_t byte = 0; byte < record.size(); ++byte) {
    if (byte >= payload_end && byte < trailer_start) continue; // padding is not covered
    for (int bit = 0; bit < 8; bit += 3) {
      std::vector<std::uint8_t> damaged = record;
      damaged[byte] ^= std::uint8_t(1u << bit);
      ++flips;
      detected += !decode_record(damaged, view);
    }
  }
  EXPECT_EQ(detected, flips);
}

// A record made under an interface stores its encoding: decoding the record gives back the
// options it was translated with, interface included, and the reflection stays intact.
TEST(CacheFormat, RecordKeepsTheInterfaceItWasTranslatedUnder) {
  const std::vector<std::uint8_t> source = test::make_source(2, 120);
  auto interface = std::make_shared<ShaderInterface>();
  BindingRange range;
  range.register_class = DescriptorClass::Uav;
  range.set = 3;
  range.binding = 17;
  interface->bindings.push_back(range);
  interface->push_constant_buffers.push_back({0, 0, 0, 0, 32});
  TranslateOptions options;
  options.interface = interface;
  TranslateResult result;
  ASSERT_TRUE(test::fake_translate(4, source, options, result));
  result.reflection = sample_reflection();
  std::vector<std::uint8_t> record;
  encode_record(translation_key(source, options, 4), 4, source, options, result, record);
  RecordView view;
  const Status read = decode_record(record, view);
  ASSERT_TRUE(read) << read.message();
  TranslateOptions decoded;
  ASSERT_TRUE(decode_record_options(view, decoded));
  ASSERT_TRUE(decoded.interface);
  std::vector<std::uint8_t> a, b;
  interface->encode(a);
  decoded.interface->encode(b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(translation_key(source, decoded, 4), translation_key(source, options, 4));
  Reflection reflection;
  EXPECT_TRUE(deserialize_reflection(view.reflection, reflection));
  EXPECT_EQ(reflection.resources.size(), 3u);
}

TEST(CacheFormat, ScanSkipsGarbageBetweenRecordsAndReportsATornTail) {
  std::vector<std::uint8_t> file(kFileHeaderSize);
  const FileHeader header = make_file_header(1, 2);
  std::memcpy(file.data(), &header, sizeof header);
  std::vector<std::uint8_t> record;
  std::vector<std::uint64_t> offsets;
  for (int i = 0; i < 3; ++i) {
    const std::vector<std::uint8_t> source = test::make_source(i, 100 + i);
    TranslateResult result;
    ASSERT_TRUE(test::fake_translate(1, source, {}, result));
    encode_record(translation_key(source, {}, 1), 1, source, {}, result, record);
    if (i == 1) { // a torn record: the first half of one, then garbage
      file.insert(file.end(), record.begin(), record.begin() + record.size() / 2);
      const std::vector<std::uint8_t> garbage = test::make_source(99, 37);
      file.insert(file.end(), garbage.begin(), garbage.end());
    }
    offsets.push_back(file.size());
    file.insert(file.end(), record.begin(), record.end());
  }
  const std::size_t torn_tail_at = file.size();
  file.insert(file.end(), record.begin(), record.begin() + 70);

  std::vector<std::uint64_t> found;
  const ScanResult scan = scan_records(file, kFileHeaderSize, true,
                                       [&](const ScannedRecord& r) { found.push_back(r.offset); });
  EXPECT_EQ(found, offsets);
  EXPECT_EQ(scan.corrupt_spans, 2u);
  EXPECT_EQ(scan.valid_end, torn_tail_at);
  EXPECT_EQ(scan.end, file.size());
}

} // namespace
} // namespace kiln::cache

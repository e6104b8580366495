#include "plugin/abi/interface_json.h"

#include "kiln/kiln.h"
#include "plugin/abi/abi_interface.h"

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace kiln::abi {

namespace {

using nlohmann::json;

// Reading one JSON object into a C struct: each accessor checks the type of one member and
// records the first error (with its path) in the reading's one Status; unknown members are errors
// too (typos must not silently become defaults).
class ObjectReader {
 public:
  ObjectReader(const json& object, std::string path, Status& first_error)
      : object_(object), path_(std::move(path)), first_error_(first_error) {
    if (!object_.is_object()) fail(path_, "is not an object");
  }

  void known(const char* key) { seen_.push_back(key); } // read elsewhere

  bool has(const char* key) const { return object_.is_object() && object_.contains(key); }

  // A uint32 member; `fallback` when absent (required members pass `required`).
  std::uint32_t u32(const char* key, std::uint32_t fallback, bool required = false) {
    seen_.push_back(key);
    if (!has(key)) {
      if (required) fail(path_ + "." + key, "is missing");
      return fallback;
    }
    const json& v = object_.at(key);
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > 0xffffffffull) {
      fail(path_ + "." + key, "is not an integer in [0, 2^32)");
      return fallback;
    }
    return v.get<std::uint32_t>();
  }

  bool boolean(const char* key) {
    seen_.push_back(key);
    if (!has(key)) return false;
    if (!object_.at(key).is_boolean()) fail(path_ + "." + key, "is not true or false");
    return object_.at(key).is_boolean() && object_.at(key).get<bool>();
  }

  // A string member naming one of `names` (their index in the list is the value).
  std::uint32_t name(const char* key, std::initializer_list<const char*> names,
                     std::uint32_t fallback, bool required = false) {
    seen_.push_back(key);
    if (!has(key)) {
      if (required) fail(path_ + "." + key, "is missing");
      return fallback;
    }
    const json& v = object_.at(key);
    std::string choices;
    std::uint32_t i = 0;
    for (const char* n : names) {
      if (v.is_string() && v.get<std::string>() == n) return i;
      choices += (i ? i + 1 == names.size() ? " or " : ", " : "") + std::string(n);
      ++i;
    }
    fail(path_ + "." + key,
         (v.is_string() ? "'" + v.get<std::string>() + "'" : v.dump()) + " is not " + choices);
    return fallback;
  }

  // "stages": ["vertex", "pixel"] -> a KILN_STAGE_BIT mask; absent: 0 (every stage).
  std::uint32_t stages() {
    seen_.push_back("stages");
    if (!has("stages")) return 0;
    const json& v = object_.at("stages");
    if (!v.is_array()) {
      fail(path_ + ".stages", "is not a list of stage names");
      return 0;
    }
    static constexpr std::pair<const char*, kiln_shader_stage> kStages[] = {
        {"vertex", KILN_STAGE_VERTEX}, {"hull", KILN_STAGE_HULL},
        {"domain", KILN_STAGE_DOMAIN}, {"geometry", KILN_STAGE_GEOMETRY},
        {"pixel", KILN_STAGE_PIXEL},   {"compute", KILN_STAGE_COMPUTE}};
    std::uint32_t mask = 0;
    for (const json& s : v) {
      bool found = false;
      for (const auto& [word, stage] : kStages) {
        if (s.is_string() && s.get<std::string>() == word) {
          mask |= KILN_STAGE_BIT(stage);
          found = true;
        }
      }
      if (!found)
        fail(path_ + ".stages", s.dump() + " is not vertex, hull, domain, geometry, pixel or "
                                           "compute");
    }
    return mask;
  }

  // Call last: any member not read is an error.
  void finish() {
    if (!object_.is_object()) return;
    for (const auto& [key, value] : object_.items()) {
      bool known = false;
      for (const std::string& s : seen_) known = known || s == key;
      if (!known) fail(path_ + "." + key, "is not a member of this object");
    }
  }

  void fail(const std::string& where, const std::string& what) {
    if (first_error_) first_error_ = Status::error("interface JSON: " + where + " " + what);
  }

 private:
  const json& object_;
  std::string path_;
  Status& first_error_;
  std::vector<std::string> seen_;
};

// "flavour": "buffer" | "image" | "any" (default) -> KILN_BINDING_BUFFER / _IMAGE bits.
std::uint32_t flavour(ObjectReader& r) {
  const std::uint32_t f = r.name("flavour", {"any", "buffer", "image"}, 0);
  return f == 1 ? KILN_BINDING_BUFFER : f == 2 ? KILN_BINDING_IMAGE : 0;
}

// Calls `read(object, path)` for each element of the list `key` (absent: none).
template <typename F>
void for_each(const json& root, const char* key, Status& first_error, F&& read) {
  if (!root.contains(key)) return;
  const json& list = root.at(key);
  if (!list.is_array()) {
    if (first_error)
      first_error = Status::error("interface JSON: " + std::string(key) + " is not a list");
    return;
  }
  for (std::size_t i = 0; i < list.size() && first_error; ++i)
    read(list[i], std::string(key) + "[" + std::to_string(i) + "]");
}

} // namespace

Status interface_from_json(std::string_view text, ShaderInterface& out) {
  json root;
  try {
    root = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    return Status::error(std::string("interface JSON: ") + e.what());
  }
  Status first_error;
  std::vector<kiln_binding_range> bindings;
  std::vector<kiln_push_constant_buffer> pushes;
  std::vector<kiln_uav_counter_binding> counters;
  std::vector<kiln_combined_sampler> combined;
  {
    // The top level: an object of the lists below and nothing else.
    ObjectReader top(root, "interface", first_error);
    for (const char* list : {"bindings", "push_constant_buffers", "uav_counters",
                             "combined_samplers", "class_linkage"})
      top.known(list);
    top.finish();
  }
  for_each(root, "bindings", first_error, [&](const json& o, const std::string& path) {
    ObjectReader r(o, path, first_error);
    kiln_binding_range b{};
    b.register_class = kiln_descriptor_class(
        r.name("class", {"cbv", "srv", "uav", "sampler"}, 0, /*required=*/true));
    b.space = r.u32("space", 0);
    b.first_register = r.u32("first_register", 0);
    if (r.has("register_count") && o.at("register_count") == "unbounded") {
      b.register_count = KILN_REGISTERS_UNBOUNDED;
      r.name("register_count", {"unbounded"}, 0);
    } else {
      b.register_count = r.u32("register_count", 1);
    }
    b.stages = r.stages();
    b.flags = flavour(r) | (r.boolean("array") ? KILN_BINDING_ARRAY : 0);
    b.buffer_form = kiln_buffer_form(r.name("buffer_form", {"storage_buffer", "texel_buffer"}, 0));
    b.set = r.u32("set", 0);
    b.binding = r.u32("binding", 0, /*required=*/true);
    r.finish();
    bindings.push_back(b);
  });
  for_each(root, "push_constant_buffers", first_error, [&](const json& o, const std::string& path) {
    ObjectReader r(o, path, first_error);
    kiln_push_constant_buffer p{};
    p.space = r.u32("space", 0);
    p.register_index = r.u32("register", 0, true);
    p.stages = r.stages();
    p.offset = r.u32("offset", 0);
    p.size = r.u32("size", 0, true);
    r.finish();
    pushes.push_back(p);
  });
  for_each(root, "uav_counters", first_error, [&](const json& o, const std::string& path) {
    ObjectReader r(o, path, first_error);
    kiln_uav_counter_binding c{};
    c.space = r.u32("space", 0);
    c.register_index = r.u32("register", 0, true);
    c.stages = r.stages();
    c.form = kiln_counter_form(r.name("form", {"storage_buffer", "storage_texel_buffer"}, 0));
    c.set = r.u32("set", 0);
    c.binding = r.u32("binding", 0, true);
    c.offset = r.u32("offset", 0);
    r.finish();
    counters.push_back(c);
  });
  for_each(root, "combined_samplers", first_error, [&](const json& o, const std::string& path) {
    ObjectReader r(o, path, first_error);
    kiln_combined_sampler c{};
    c.resource_space = r.u32("resource_space", 0);
    c.resource_index = r.u32("resource", 0, true);
    c.sampler_space = r.u32("sampler_space", 0);
    c.sampler_index = r.u32("sampler", KILN_NO_SAMPLER);
    c.stages = r.stages();
    c.flags = flavour(r);
    c.set = r.u32("set", 0);
    c.binding = r.u32("binding", 0, true);
    r.finish();
    combined.push_back(c);
  });
  // "class_linkage": {"space", "register", "fixed_instances": [{"function_table", "this"}]}.
  std::vector<kiln_class_instance> instances;
  kiln_class_linkage_info linkage{};
  linkage.type = KILN_STRUCTURE_TYPE_CLASS_LINKAGE_INFO;
  if (root.is_object() && root.contains("class_linkage")) {
    const json& o = root.at("class_linkage");
    ObjectReader r(o, "class_linkage", first_error);
    linkage.selection_space = r.u32("space", KILN_CLASS_LINKAGE_DEFAULT_SPACE);
    linkage.selection_register = r.u32("register", KILN_CLASS_LINKAGE_DEFAULT_REGISTER);
    r.known("fixed_instances");
    r.finish();
    if (first_error && o.is_object())
      for_each(o, "fixed_instances", first_error, [&](const json& item, const std::string& path) {
        ObjectReader ir(item, "class_linkage." + path, first_error);
        kiln_class_instance c{};
        c.function_table = ir.u32("function_table", 0, true);
        ir.known("this");
        ir.finish();
        if (item.is_object() && item.contains("this")) {
          const json& t = item.at("this");
          bool good = t.is_array() && t.size() == 4;
          for (std::size_t i = 0; good && i < 4; ++i) {
            good = t[i].is_number_unsigned() && t[i].get<std::uint64_t>() <= 0xffffffffull;
            if (good) c.this_data[i] = t[i].get<std::uint32_t>();
          }
          if (!good) ir.fail("class_linkage." + path + ".this", "is not a list of 4 integers");
        }
        instances.push_back(c);
      });
    linkage.fixed_instance_count = std::uint32_t(instances.size());
    linkage.fixed_instances = instances.data();
  }
  if (!first_error) return first_error;

  kiln_interface_info info{};
  if (root.contains("class_linkage")) info.next = &linkage;
  info.type = KILN_STRUCTURE_TYPE_INTERFACE_INFO;
  info.binding_count = std::uint32_t(bindings.size());
  info.bindings = bindings.data();
  info.push_constant_buffer_count = std::uint32_t(pushes.size());
  info.push_constant_buffers = pushes.data();
  info.uav_counter_count = std::uint32_t(counters.size());
  info.uav_counters = counters.data();
  info.combined_sampler_count = std::uint32_t(combined.size());
  info.combined_samplers = combined.data();
  return interface_from_c(info, out);
}

} // namespace kiln::abi

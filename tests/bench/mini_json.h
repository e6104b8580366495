#pragma once
// A minimal JSON reader for the bench tests: enough to parse `kiln bench --json` output back
// and look fields up. Throws nothing; a parse error leaves ok() false.

#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::test {

struct JsonValue {
  enum class Type { Null, Bool, Number, String, Array, Object } type = Type::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> array;
  std::map<std::string, JsonValue> object;

  bool has(const std::string& key) const { return object.count(key) != 0; }
  const JsonValue& operator[](const std::string& key) const {
    static const JsonValue kNull;
    auto it = object.find(key);
    return it == object.end() ? kNull : it->second;
  }
};

class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : text_(text) {}
  bool parse(JsonValue& out) {
    ok_ = true;
    value(out);
    space();
    return ok_ && at_ == text_.size();
  }

 private:
  void space() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\t' || text_[at_] == '\r'))
      ++at_;
  }
  bool literal(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return ok_ = false;
    at_ += word.size();
    return true;
  }
  void string(std::string& out) {
    if (!literal("\"")) return;
    while (ok_ && at_ < text_.size() && text_[at_] != '"') {
      char c = text_[at_++];
      if (c == '\\' && at_ < text_.size()) {
        const char e = text_[at_++];
        if (e == 'n')
          c = '\n';
        else if (e == 't')
          c = '\t';
        else if (e == 'u') {
          c = char(std::strtol(std::string(text_.substr(at_, 4)).c_str(), nullptr, 16));
          at_ += 4;
        } else
          c = e;
      }
      out += c;
    }
    literal("\"");
  }
  void value(JsonValue& out) {
    space();
    if (at_ >= text_.size()) {
      ok_ = false;
      return;
    }
    const char c = text_[at_];
    if (c == '{') {
      out.type = JsonValue::Type::Object;
      ++at_;
      space();
      if (at_ < text_.size() && text_[at_] == '}') {
        ++at_;
        return;
      }
      while (ok_) {
        space();
        std::string key;
        string(key);
        space();
        literal(":");
        value(out.object[key]);
        space();
        if (at_ < text_.size() && text_[at_] == ',') {
          ++at_;
          continue;
        }
        literal("}");
        return;
      }
    } else if (c == '[') {
      out.type = JsonValue::Type::Array;
      ++at_;
      space();
      if (at_ < text_.size() && text_[at_] == ']') {
        ++at_;
        return;
      }
      while (ok_) {
        out.array.emplace_back();
        value(out.array.back());
        space();
        if (at_ < text_.size() && text_[at_] == ',') {
          ++at_;
          continue;
        }
        literal("]");
        return;
      }
    } else if (c == '"') {
      out.type = JsonValue::Type::String;
      string(out.string);
    } else if (c == 't' || c == 'f') {
      out.type = JsonValue::Type::Bool;
      out.boolean = c == 't';
      literal(c == 't' ? "true" : "false");
    } else if (c == 'n') {
      literal("null");
    } else {
      out.type = JsonValue::Type::Number;
      const std::string rest(text_.substr(at_, 40));
      char* end = nullptr;
      out.number = std::strtod(rest.c_str(), &end);
      if (end == rest.c_str()) ok_ = false;
      at_ += std::size_t(end - rest.c_str());
    }
  }

  std::string_view text_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

} // namespace kiln::test

// Bounded JSON parsing (parse_json of pipesim/json.h): the one way text becomes a Json. nlohmann's
// parser is iterative; this SAX handler builds the document itself so that, while it reads, it
// can refuse nesting deeper than kMaxJsonDepth and a key seen twice in one object, naming where
// with a JSON pointer. Text longer than kMaxInputBytes is refused before any of it is read.
#include <functional>
#include <memory>
#include <algorithm>
#include <utility>
#include <vector>

#include "pipesim/json.h"
#include "pipesim/rules.h"

namespace pipesim {
namespace {

// The keys of one large object, by their index in it: an open-addressing table of (hash, index)
// that holds no copies of the keys and compares two keys only when their hashes are equal, so a
// 16 MB object of 1.6 million keys is checked in one pass (nlohmann's own ordered map would
// compare every key with every other one).
class KeyIndex {
 public:
  /// Adds the key at `index` of `object`; false if an equal key is there already.
  bool insert(const Json::object_t& object, std::size_t index) {
    if (4 * (count_ + 1) > 3 * slots_.size()) grow();
    const std::size_t h = std::hash<std::string>{}(key(object, index));
    for (std::size_t s = h & (slots_.size() - 1);; s = (s + 1) & (slots_.size() - 1)) {
      Slot& slot = slots_[s];
      if (slot.index == kEmpty) {
        slot = Slot{h, index};
        ++count_;
        return true;
      }
      if (slot.hash == h && key(object, slot.index) == key(object, index)) return false;
    }
  }

 private:
  static constexpr std::size_t kEmpty = static_cast<std::size_t>(-1);
  struct Slot {
    std::size_t hash = 0;
    std::size_t index = kEmpty;
  };
  static const std::string& key(const Json::object_t& object, std::size_t i) {
    return (object.begin() + static_cast<std::ptrdiff_t>(i))->first;
  }
  void grow() {  // doubles the table; the stored hashes place every entry again
    std::vector<Slot> old(std::max<std::size_t>(64, 2 * slots_.size()));
    old.swap(slots_);
    for (const Slot& slot : old) {
      if (slot.index == kEmpty) continue;
      std::size_t s = slot.hash & (slots_.size() - 1);
      while (slots_[s].index != kEmpty) s = (s + 1) & (slots_.size() - 1);
      slots_[s] = slot;
    }
  }

  std::vector<Slot> slots_;
  std::size_t count_ = 0;
};

// Objects up to this many keys look for a repeated key by comparing; larger ones keep a KeyIndex.
constexpr std::size_t kLinearKeys = 16;

class DocumentBuilder {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  explicit DocumentBuilder(Json& root) : root_(root) {}

  bool null() { return add(Json(nullptr)) != nullptr; }
  bool boolean(bool v) { return add(Json(v)) != nullptr; }
  bool number_integer(number_integer_t v) { return add(Json(v)) != nullptr; }
  bool number_unsigned(number_unsigned_t v) { return add(Json(v)) != nullptr; }
  bool number_float(number_float_t v, const string_t& /*text*/) { return add(Json(v)) != nullptr; }
  // The lexer clears its token buffer before the next token, so the text can be moved out.
  bool string(string_t& v) { return add(Json(std::move(v))) != nullptr; }
  bool binary(binary_t& /*unused*/) { return false; }  // JSON text has no binary values
  bool start_object(std::size_t /*unknown size*/) { return open(Json::object()); }
  bool start_array(std::size_t /*unknown size*/) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(string_t& k) {
    Json::object_t& object = stack_.back().value->get_ref<Json::object_t&>();
    Level& level = stack_.back();
    bool repeated = false;
    if (object.size() < kLinearKeys) {
      for (const auto& entry : object) repeated = repeated || entry.first == k;
    } else if (!level.keys) {
      level.keys = std::make_unique<KeyIndex>();
      for (std::size_t i = 0; i < object.size(); ++i) level.keys->insert(object, i);
    }
    if (!repeated) {
      // Checked above or by the index below, so the ordered map's linear lookup is not needed.
      object.emplace_back(std::move(k), Json());
      if (!level.keys || level.keys->insert(object, object.size() - 1)) return true;
      k = object.back().first;
      object.pop_back();
    }
    bool whole = false;
    const std::string object_path = pointer(false, &whole);
    error = make_error(Rule::JsonDuplicateKey, whole ? json_pointer_child(object_path, k) : object_path,
                       {{"key", summary(k)}});
    return false;
  }

  bool parse_error(std::size_t /*byte*/, const std::string& token, const nlohmann::detail::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 13: ..." without the tag;
    // the token it quotes (what the lexer last read, up to the whole input) as a summary.
    std::string what = e.what();
    const auto tag_end = what.find("] ");
    if (tag_end != std::string::npos) what.erase(0, tag_end + 2);
    const std::string quoted = "'" + token + "'";
    const auto at = what.find(quoted);
    if (at != std::string::npos) what.replace(at, quoted.size(), "'" + summary(token) + "'");
    error = make_error(Rule::JsonInvalid, "", {{"detail", what}});
    return false;
  }

  std::optional<Error> error;

 private:
  struct Level {
    Json* value;                  // an array or object being filled
    std::unique_ptr<KeyIndex> keys;  // an object's keys, once it has more than kLinearKeys
  };

  // Places `v` where the document is being filled. Pointers into a parent stay valid: a parent
  // only grows after its open child is closed.
  Json* add(Json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Json& parent = *stack_.back().value;
    if (parent.is_array()) {
      auto& array = parent.get_ref<Json::array_t&>();
      array.push_back(std::move(v));
      return &array.back();
    }
    auto& object = parent.get_ref<Json::object_t&>();
    object.back().second = std::move(v);  // key() added the entry
    return &object.back().second;
  }

  bool open(Json&& container) {
    if (stack_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
      error = make_error(Rule::JsonTooDeep, pointer(true), {{"limit", kMaxJsonDepth}});
      return false;
    }
    Json* placed = add(std::move(container));
    stack_.push_back(Level{placed, nullptr});
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  // The JSON pointer of the innermost open array or object, or with `child` of the value being
  // added to it: an array's next element, an object's last key. Ends at the deepest ancestor
  // that fits in kMaxPathBytes.
  std::string pointer(bool child, bool* whole = nullptr) const {
    std::string p;
    if (whole != nullptr) *whole = false;
    const std::size_t levels = child ? stack_.size() : stack_.size() - 1;
    for (std::size_t i = 0; i < levels; ++i) {
      const Json& v = *stack_[i].value;
      const bool top = i + 1 == stack_.size();
      const std::string next =
          v.is_array() ? json_pointer_child(p, std::to_string(top ? v.size() : v.size() - 1))
                       : json_pointer_child(p, v.get_ref<const Json::object_t&>().back().first);
      if (next.size() == p.size()) return p;  // did not fit
      p = next;
    }
    if (whole != nullptr) *whole = true;
    return p;
  }

  Json& root_;
  std::vector<Level> stack_;
};

}  // namespace

Result<Json> parse_json(const std::string& text) {
  if (static_cast<std::int64_t>(text.size()) > kMaxInputBytes)
    return make_error(Rule::InputTooLarge, "", {{"limit", kMaxInputBytes}});
  Json root;
  DocumentBuilder builder(root);
  if (Json::sax_parse(text, &builder)) return root;
  PIPESIM_CHECK(builder.error.has_value(), "the JSON parser stopped without saying why");
  return *builder.error;
}

std::optional<Json> parse_json_number(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789-+.eE") != std::string::npos)
    return std::nullopt;
  auto json = parse_json(text);
  if (!json.ok() || !json.value().is_number()) return std::nullopt;
  return std::move(json).value();
}

std::string json_pointer_child(const std::string& parent, const std::string& key) {
  std::string p = parent;
  p += '/';
  for (const char c : key) {
    if (p.size() > static_cast<std::size_t>(kMaxPathBytes)) return parent;
    if (c == '~') p += "~0";
    else if (c == '/') p += "~1";
    else p += c;
  }
  return p.size() > static_cast<std::size_t>(kMaxPathBytes) ? parent : p;
}

}  // namespace pipesim

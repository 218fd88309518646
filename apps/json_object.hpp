// Building large JSON objects in linear time. nlohmann::ordered_json keeps an object's keys in a vector and
// looks every insertion up linearly (operator[], emplace), so an object of N keys built key by key costs N^2:
// a trace whose processor ids name 65,536 nodes took half a minute in `replay --json`. Keys that are known to
// be distinct (they come from a std::map) are appended directly.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>

namespace rr::app {

class LinearObject {
 public:
  // key must differ from every key appended before.
  void append(std::string key, nlohmann::ordered_json value) {
    // The ordered map's vector base: a plain append, without the duplicate search of its own emplace.
    static_cast<nlohmann::ordered_json::object_t::Container&>(object_).emplace_back(std::move(key), std::move(value));
  }
  nlohmann::ordered_json take() { return nlohmann::ordered_json(std::move(object_)); }

 private:
  nlohmann::ordered_json::object_t object_;
};

}  // namespace rr::app

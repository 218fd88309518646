// Expected<T>: a value or an InputError, returned by library calls that read input (libraries do not exit).
#pragma once

#include <utility>
#include <variant>

#include "diagnostics.hpp"

namespace rr::core {

template <typename T>
class Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}               // NOLINT: implicit by design
  Expected(InputError error) : state_(std::move(error)) {}      // NOLINT
  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const InputError& error() const { return std::get<InputError>(state_); }

 private:
  std::variant<T, InputError> state_;
};

}  // namespace rr::core

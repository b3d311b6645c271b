/*
 * ada-url's Punycode coder as two C functions, for src/bench/ada.rs (the
 * cargo feature `ada`): a peer in `punycheck bench`, not an implementation
 * under check.
 *
 * The functions are ada::idna::utf32_to_punycode and
 * ada::idna::punycode_to_utf32, compiled by the ada-url crate (4.0.0) from
 * the ada.cpp it bundles, into the static library it links. That crate
 * exports no include path to its dependents, so the two prototypes below
 * are declared here as in its ada.h (section include/ada/idna/punycode.h):
 *
 *   bool punycode_to_utf32(std::string_view input, std::u32string& out);
 *   bool utf32_to_punycode(std::u32string_view input, std::string& out);
 *
 * Their mangled names carry the parameter types, so a changed signature
 * fails the link rather than the call; Cargo.toml pins the crate's version.
 *
 * ada is timed at its best: each thread keeps one output string per
 * direction, cleared before each call, so after the first call ada
 * allocates nothing; the caller copies the answer out (into the one
 * allocation the clean-room code makes too). Every symbol defined here
 * starts with `punycheck_ada_`; no exception crosses into Rust.
 */

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ada::idna {
bool punycode_to_utf32(std::string_view input, std::u32string &out);
bool utf32_to_punycode(std::u32string_view input, std::string &out);
}  // namespace ada::idna

static_assert(sizeof(char32_t) == sizeof(std::uint32_t),
              "code points are passed as they are");

extern "C" {

/*
 * Encodes `length` code points. On success returns 1 and points `*out` at
 * `*out_length` bytes of Punycode, valid until this thread's next call;
 * returns 0 when ada refuses, -1 when it threw (out of memory).
 */
int punycheck_ada_encode(const std::uint32_t *code_points, std::size_t length,
                         const char **out, std::size_t *out_length) noexcept {
  static thread_local std::string result;
  try {
    result.clear();
    std::u32string_view input(
        reinterpret_cast<const char32_t *>(code_points), length);
    if (!ada::idna::utf32_to_punycode(input, result)) {
      return 0;
    }
    *out = result.data();
    *out_length = result.size();
    return 1;
  } catch (...) {
    return -1;
  }
}

/*
 * Decodes `length` bytes of Punycode. On success returns 1 and points
 * `*out` at `*out_length` code points, valid until this thread's next call;
 * returns 0 when ada refuses, -1 when it threw (out of memory).
 */
int punycheck_ada_decode(const char *punycode, std::size_t length,
                         const std::uint32_t **out,
                         std::size_t *out_length) noexcept {
  static thread_local std::u32string result;
  try {
    result.clear();
    if (!ada::idna::punycode_to_utf32(std::string_view(punycode, length),
                                      result)) {
      return 0;
    }
    *out = reinterpret_cast<const std::uint32_t *>(result.data());
    *out_length = result.size();
    return 1;
  } catch (...) {
    return -1;
  }
}

}  // extern "C"

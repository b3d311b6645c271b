/*
 * Prefixed access to libidn2's Punycode coder, for src/engines/builtin/libidn2.rs.
 *
 * libidn2 exports its Punycode functions only as compatibility symbols,
 * `_idn2_punycode_encode@IDN2_0.0.0` and `_idn2_punycode_decode@IDN2_0.0.0`
 * (a single `@`: not the default version). The static linker does not bind a
 * plain reference to such a symbol, so Rust cannot declare them directly; the
 * `.symver` directives below bind this file's references to that version.
 *
 * The prototypes are those of lib/punycode.h and lib/puny_encode.c /
 * lib/puny_decode.c in libidn2 2.3.x (the header is not installed):
 *
 *   int _idn2_punycode_encode (size_t input_length, const uint32_t input[],
 *                              size_t *output_length, char output[]);
 *   int _idn2_punycode_decode (size_t input_length, const char input[],
 *                              size_t *output_length, uint32_t output[]);
 *
 * returning IDN2_OK, IDN2_PUNYCODE_BAD_INPUT, IDN2_PUNYCODE_BIG_OUTPUT or
 * IDN2_PUNYCODE_OVERFLOW from <idn2.h>. Every global symbol defined here
 * starts with `punycheck_` (checked by a test with nm).
 */

#include <stddef.h>
#include <stdint.h>

#include <idn2.h>

extern int _idn2_punycode_encode (size_t input_length,
                                  const uint32_t input[],
                                  size_t *output_length, char output[]);
extern int _idn2_punycode_decode (size_t input_length, const char input[],
                                  size_t *output_length, uint32_t output[]);

__asm__ (".symver _idn2_punycode_encode, _idn2_punycode_encode@IDN2_0.0.0");
__asm__ (".symver _idn2_punycode_decode, _idn2_punycode_decode@IDN2_0.0.0");

/* The status values src/engines/builtin/libidn2.rs hard-codes. */
_Static_assert (IDN2_OK == 0, "IDN2_OK");
_Static_assert (IDN2_PUNYCODE_BAD_INPUT == -202, "IDN2_PUNYCODE_BAD_INPUT");
_Static_assert (IDN2_PUNYCODE_BIG_OUTPUT == -203, "IDN2_PUNYCODE_BIG_OUTPUT");
_Static_assert (IDN2_PUNYCODE_OVERFLOW == -204, "IDN2_PUNYCODE_OVERFLOW");
_Static_assert (sizeof (size_t) == sizeof (void *), "size_t is usize");

int
punycheck_idn2_punycode_encode (size_t input_length, const uint32_t *input,
                                size_t *output_length, char *output)
{
  return _idn2_punycode_encode (input_length, input, output_length, output);
}

int
punycheck_idn2_punycode_decode (size_t input_length, const char *input,
                                size_t *output_length, uint32_t *output)
{
  return _idn2_punycode_decode (input_length, input, output_length, output);
}

/* The version of the libidn2 actually loaded (idn2_check_version (NULL)). */
const char *
punycheck_idn2_version (void)
{
  return idn2_check_version (NULL);
}

/*
 * IDNA2008 lookup of one label (RFC 5891 section 5, without UTS #46
 * processing), for the label codec's `libidn2` built-in
 * (src/engines/builtin/label.rs): idn2_lookup_u8 validates a U-label or an
 * A-label and answers the A-label; idn2_to_unicode_8z8z decodes an A-label.
 * Each returns IDN2_OK and a string libidn2 allocated in *output (freed
 * with punycheck_idn2_free), or an IDN2_* error.
 */
int
punycheck_idn2_lookup (const char *label, char **output)
{
  return idn2_lookup_u8 ((const uint8_t *) label, (uint8_t **) output,
                         IDN2_NO_TR46);
}

int
punycheck_idn2_to_unicode (const char *label, char **output)
{
  return idn2_to_unicode_8z8z (label, output, IDN2_NO_TR46);
}

void
punycheck_idn2_free (void *pointer)
{
  idn2_free (pointer);
}

/* The symbolic name of an IDN2_* status, "IDN2_UNASSIGNED". */
const char *
punycheck_idn2_error_name (int status)
{
  return idn2_strerror_name (status);
}

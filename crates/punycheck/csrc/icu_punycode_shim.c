/*
 * Prefixed access to ICU's Punycode coder, for src/engines/builtin/icu.rs,
 * and to its UTS #46 on one label, for src/engines/builtin/label.rs.
 *
 * ICU exports u_strToPunycode and u_strFromPunycode from libicuuc under
 * versioned names (u_strToPunycode_72 for ICU 72), but declares them only in
 * its internal header icu4c/source/common/punycode.h, which is not installed.
 * Including unicode/utypes.h (and so unicode/urename.h) makes ICU's own
 * headers rename the prototypes below to the installed version's names, so
 * no version suffix is written anywhere in punycheck.
 *
 * The prototypes are copied from punycode.h (ICU 72):
 *
 *   U_CFUNC int32_t u_strToPunycode(const UChar *src, int32_t srcLength,
 *       UChar *dest, int32_t destCapacity, const UBool *caseFlags,
 *       UErrorCode *pErrorCode);
 *   U_CFUNC int32_t u_strFromPunycode(const UChar *src, int32_t srcLength,
 *       UChar *dest, int32_t destCapacity, UBool *caseFlags,
 *       UErrorCode *pErrorCode);
 *
 * The wrappers pass the error code as a plain int (UErrorCode is a C enum)
 * and start from U_ZERO_ERROR. Every global symbol defined here starts with
 * `punycheck_` (checked by a test with nm).
 */

#include <stdint.h>

#include <unicode/utypes.h>
#include <unicode/urename.h>
#include <unicode/uchar.h>
#include <unicode/uidna.h>

#if UCONFIG_NO_IDNA
#error "this ICU is built without IDNA (UCONFIG_NO_IDNA), so without Punycode"
#endif

U_CFUNC int32_t u_strToPunycode (const UChar *src, int32_t srcLength,
                                 UChar *dest, int32_t destCapacity,
                                 const UBool *caseFlags,
                                 UErrorCode *pErrorCode);
U_CFUNC int32_t u_strFromPunycode (const UChar *src, int32_t srcLength,
                                   UChar *dest, int32_t destCapacity,
                                   UBool *caseFlags, UErrorCode *pErrorCode);

/* The layouts and error codes src/engines/builtin/icu.rs relies on. */
_Static_assert (sizeof (UChar) == 2, "UChar is u16");
_Static_assert (sizeof (UBool) == 1, "UBool is i8");
_Static_assert (U_ZERO_ERROR == 0, "U_ZERO_ERROR");
_Static_assert (U_ILLEGAL_ARGUMENT_ERROR == 1, "U_ILLEGAL_ARGUMENT_ERROR");
_Static_assert (U_INTERNAL_PROGRAM_ERROR == 5, "U_INTERNAL_PROGRAM_ERROR");
_Static_assert (U_INDEX_OUTOFBOUNDS_ERROR == 8, "U_INDEX_OUTOFBOUNDS_ERROR");
_Static_assert (U_INVALID_CHAR_FOUND == 10, "U_INVALID_CHAR_FOUND");
_Static_assert (U_ILLEGAL_CHAR_FOUND == 12, "U_ILLEGAL_CHAR_FOUND");
_Static_assert (U_BUFFER_OVERFLOW_ERROR == 15, "U_BUFFER_OVERFLOW_ERROR");
_Static_assert (U_INPUT_TOO_LONG_ERROR == 31, "U_INPUT_TOO_LONG_ERROR");

int32_t
punycheck_icu_to_punycode (const UChar *src, int32_t src_length,
                           UChar *dest, int32_t dest_capacity,
                           const UBool *case_flags, int *error_code)
{
  UErrorCode status = U_ZERO_ERROR;
  int32_t length = u_strToPunycode (src, src_length, dest, dest_capacity,
                                    case_flags, &status);
  *error_code = (int) status;
  return length;
}

int32_t
punycheck_icu_from_punycode (const UChar *src, int32_t src_length,
                             UChar *dest, int32_t dest_capacity,
                             UBool *case_flags, int *error_code)
{
  UErrorCode status = U_ZERO_ERROR;
  int32_t length = u_strFromPunycode (src, src_length, dest, dest_capacity,
                                      case_flags, &status);
  *error_code = (int) status;
  return length;
}

/* ICU's name for an error code ("U_INVALID_CHAR_FOUND", ...). */
const char *
punycheck_icu_error_name (int error_code)
{
  return u_errorName ((UErrorCode) error_code);
}

/* The ICU version actually loaded, as "major.minor...". */
void
punycheck_icu_version (char *buffer, int32_t capacity)
{
  UVersionInfo info;
  char text[U_MAX_VERSION_STRING_LENGTH];
  int32_t i;
  u_getVersion (info);
  u_versionToString (info, text);
  for (i = 0; i + 1 < capacity && text[i] != '\0'; ++i)
    buffer[i] = text[i];
  if (capacity > 0)
    buffer[i] = '\0';
}

/*
 * ICU's UTS #46 on one label (unicode/uidna.h, a public API), for the label
 * codec's `icu` built-in (src/engines/builtin/label/icu.rs), or on a whole
 * domain name when name (uidna_nameToASCII_UTF8, uidna_nameToUnicodeUTF8),
 * for the domain codec's: ToASCII when to_ascii, else ToUnicode, of the
 * UTF-8 label or name (label, length), with
 * Nontransitional Processing both ways, CheckBidi and CheckJoiners, and
 * UseSTD3ASCIIRules when std3. Writes at most capacity bytes to dest and
 * returns the answer's length (which may exceed capacity: the caller asks
 * again with room); *errors gets ICU's UIDNA_ERROR_* bits, *status the
 * UErrorCode (a failure of the call itself, not of the label).
 */
int32_t
punycheck_icu_label (int name, int to_ascii, int std3, const char *label,
                     int32_t length, char *dest, int32_t capacity,
                     uint32_t *errors, int *status)
{
  UErrorCode error = U_ZERO_ERROR;
  uint32_t options = UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ
    | UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE
    | (std3 ? UIDNA_USE_STD3_RULES : 0);
  UIDNA *idna = uidna_openUTS46 (options, &error);
  if (U_FAILURE (error))
    {
      *status = (int) error;
      return 0;
    }
  UIDNAInfo info = UIDNA_INFO_INITIALIZER;
  int32_t n;
  if (name)
    n = to_ascii
      ? uidna_nameToASCII_UTF8 (idna, label, length, dest, capacity, &info,
                                &error)
      : uidna_nameToUnicodeUTF8 (idna, label, length, dest, capacity, &info,
                                 &error);
  else
    n = to_ascii
      ? uidna_labelToASCII_UTF8 (idna, label, length, dest, capacity, &info,
                                 &error)
      : uidna_labelToUnicodeUTF8 (idna, label, length, dest, capacity, &info,
                                  &error);
  uidna_close (idna);
  *errors = info.errors;
  *status = (int) error;
  return n;
}

/* The version of ICU's Unicode data, as "15.0". */
void
punycheck_icu_unicode_version (char *dest)
{
  UVersionInfo version;
  u_getUnicodeVersion (version);
  u_versionToString (version, dest);
}

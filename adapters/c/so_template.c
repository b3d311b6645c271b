/*
 * A template for checking a C (or C-callable) Punycode through punycheck's
 * so: engine: the two functions of RFC 3492 Appendix C, to fill in with
 * calls to your own code. Built and loaded as it stands, it refuses
 * everything, and `punycheck check` says so (exit 2, "refused the probe").
 *
 * Build and check (lengths are Appendix C's punycode_uint, 32 bits; for
 * size_t lengths change `length` below and add :lengths=size_t):
 *
 *   cc -shared -fPIC -O2 -o libmypuny.so so_template.c your_code.c
 *   punycheck check --impl so:./libmypuny.so
 *
 * Fuzz it (see README, Fuzzing): build a second copy with
 *
 *   clang -shared -fPIC -O1 -g -fsanitize=fuzzer-no-link,address \
 *       -o libmypuny-fuzz.so so_template.c your_code.c
 *
 * The rules punycheck checks, from Appendix C:
 *
 * - Return 0 (punycode_success), 1 (punycode_bad_input: invalid Punycode),
 *   2 (punycode_big_output: the output does not fit in *output_length
 *   elements) or 3 (punycode_overflow: a value beyond 32 bits).
 * - On entry *output_length is the room in `output` (and in `case_flags`
 *   when decoding). Never touch an element past it: punycheck places every
 *   array right before a page that faults. On success set it to the number
 *   of elements written; write nothing past that number.
 * - case_flags may be a null pointer. When encoding, a flag asks for the
 *   uppercase form of a basic letter, or of the last digit of a non-basic
 *   code point's delta (Appendix A); when decoding, write one flag per code
 *   point. If you do not support flags, ignore them and declare
 *   --no-annotations.
 * - Declare what you do not do instead of failing it: --decode-only (then
 *   punycode_encode may be left out), --encode-only, --domain unicode,
 *   --errors failure-only, --max-encode N, --max-decode N.
 */

#include <stddef.h>

typedef unsigned int punycode_uint; /* 32 bits */
typedef punycode_uint length;       /* or size_t, with :lengths=size_t */

enum {
    punycode_success = 0,
    punycode_bad_input = 1,
    punycode_big_output = 2,
    punycode_overflow = 3
};

int punycode_encode(length input_length, const punycode_uint input[],
                    const unsigned char case_flags[], length *output_length,
                    char output[])
{
    /* Call your encoder here: encode input[0 .. input_length - 1] into
       output[0 .. *output_length - 1], then set *output_length. */
    (void)input_length;
    (void)input;
    (void)case_flags;
    (void)output_length;
    (void)output;
    return punycode_bad_input;
}

int punycode_decode(length input_length, const char input[],
                    length *output_length, punycode_uint output[],
                    unsigned char case_flags[])
{
    /* Call your decoder here: decode input[0 .. input_length - 1] into
       output[0 .. *output_length - 1] (and case_flags, when not null), then
       set *output_length. */
    (void)input_length;
    (void)input;
    (void)output_length;
    (void)output;
    (void)case_flags;
    return punycode_bad_input;
}

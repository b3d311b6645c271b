/*
 * An independent Punycode (RFC 3492) behind the interface of the RFC's
 * Appendix C, for the so: engine's tests: written for punycheck from the
 * algorithm of sections 6.1 to 6.4 and the interface of Appendix C (its
 * signatures, status codes and case-flag rules), not copied from it.
 *
 * Built as it is, it answers exactly as the C reference. Each -D switch
 * plants one defect:
 *
 *   -DPLANT_OFF_BY_ONE  the decoder's capacity check is off by one: when the
 *                       output already fills the caller's room it inserts
 *                       one more code point, writing one element past the
 *                       end (the CVE-2022-3602 class)
 *   -DPLANT_HANG        decoding input that contains "hang" never returns
 *   -DPLANT_ABORT       decoding input that contains "abort" calls abort()
 *   -DPLANT_BAD_STATUS  decoding input that contains "status" returns 42
 *   -DPLANT_BAD_LENGTH  decoding input that contains "length" succeeds with
 *                       *output_length past the room it was given
 *   -DPLANT_STDOUT      every call prints a line on standard output
 *   -DPLANT_LOAD_ABORT  loading the library calls abort() (a constructor)
 *   -DNO_ENCODE         no punycode_encode symbol
 *   -DNO_DECODE         no punycode_decode symbol
 *
 * and two change the interface:
 *
 *   -DPREFIX=my_        the symbols are my_punycode_encode, my_punycode_decode
 *   -DLENGTH_T=size_t   lengths are size_t (as GNU libidn 1.x), not
 *                       unsigned int (Appendix C's punycode_uint)
 *
 * Build: cc -shared -fPIC -O2 [-D...] -o libplanted.so tests/impls/planted.c
 */

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PREFIX
#define PREFIX
#endif
#ifndef LENGTH_T
#define LENGTH_T unsigned int
#endif

#define JOIN2(a, b) a##b
#define JOIN(a, b) JOIN2(a, b)
#define ENCODE JOIN(PREFIX, punycode_encode)
#define DECODE JOIN(PREFIX, punycode_decode)

typedef unsigned int code_point; /* 32 bits wherever this is built */
typedef LENGTH_T length;

enum { SUCCESS = 0, BAD_INPUT = 1, BIG_OUTPUT = 2, OVERFLOW = 3 };

/* Section 5's parameter values for Punycode. */
enum {
    BASE = 36, TMIN = 1, TMAX = 26, SKEW = 38, DAMP = 700,
    INITIAL_BIAS = 72, INITIAL_N = 0x80, DELIMITER = '-'
};
#define MAXINT ((code_point)0xFFFFFFFF)

/* Section 6.1. */
static code_point adapt(code_point delta, code_point points, int first)
{
    code_point k = 0;
    delta = first ? delta / DAMP : delta / 2;
    delta += delta / points;
    while (delta > ((BASE - TMIN) * TMAX) / 2) {
        delta /= BASE - TMIN;
        k += BASE;
    }
    return k + (BASE - TMIN + 1) * delta / (delta + SKEW);
}

/* The threshold t of section 6 for position k. */
static code_point threshold(code_point k, code_point bias)
{
    if (k <= bias) return TMIN;
    if (k >= bias + TMAX) return TMAX;
    return k - bias;
}

/* The digit for d (0..35); uppercase when flagged (Appendix A: only the
   last digit of a delta carries the flag). Like the reference, a flagged
   numeral is shifted down by 32 too, which the RFC leaves undefined. */
static char digit_char(code_point d, int flag)
{
    int c = d < 26 ? 'a' + (int)d : '0' + (int)(d - 26);
    return (char)(flag ? c - 32 : c);
}

/* The value of a digit, or BASE for anything that is not one. */
static code_point digit_value(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0' + 26;
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a';
    return BASE;
}

/* A basic code point in the case its flag asks for (letters only). */
static char cased(code_point c, unsigned char flag)
{
    if (c >= 'a' && c <= 'z' && flag) return (char)(c - 32);
    if (c >= 'A' && c <= 'Z' && !flag) return (char)(c + 32);
    return (char)c;
}

#ifdef PLANT_LOAD_ABORT
__attribute__((constructor)) static void on_load(void)
{
    abort();
}
#endif

static void noise(const char *what)
{
#ifdef PLANT_STDOUT
    printf("planted: %s called\n", what);
    fflush(stdout);
#else
    (void)what;
#endif
}

#ifndef NO_ENCODE
int ENCODE(length input_length, const code_point input[],
           const unsigned char case_flags[], length *output_length,
           char output[])
{
    length room = *output_length, out = 0, j, handled, basics;
    code_point n = INITIAL_N, delta = 0, bias = INITIAL_BIAS;

    noise("encode");
    for (j = 0; j < input_length; j++) {
        if (input[j] >= 0x80) continue;
        if (out >= room) return BIG_OUTPUT;
        output[out++] = case_flags ? cased(input[j], case_flags[j])
                                   : (char)input[j];
    }
    handled = basics = out;
    if (basics > 0) {
        if (out >= room) return BIG_OUTPUT;
        output[out++] = DELIMITER;
    }
    while (handled < input_length) {
        code_point m = MAXINT;
        for (j = 0; j < input_length; j++)
            if (input[j] >= n && input[j] < m) m = input[j];
        /* Section 6.4: (m - n) * (h + 1) must not overflow delta. */
        if (m - n > (MAXINT - delta) / (code_point)(handled + 1))
            return OVERFLOW;
        delta += (m - n) * (code_point)(handled + 1);
        n = m;
        for (j = 0; j < input_length; j++) {
            if (input[j] < n && ++delta == 0) return OVERFLOW;
            if (input[j] == n) {
                code_point q = delta, k, t;
                for (k = BASE;; k += BASE) {
                    t = threshold(k, bias);
                    if (q < t) break;
                    if (out >= room) return BIG_OUTPUT;
                    output[out++] = digit_char(t + (q - t) % (BASE - t), 0);
                    q = (q - t) / (BASE - t);
                }
                if (out >= room) return BIG_OUTPUT;
                output[out++] = digit_char(q, case_flags && case_flags[j]);
                bias = adapt(delta, (code_point)(handled + 1),
                             handled == basics);
                delta = 0;
                handled++;
            }
        }
        delta++;
        n++;
    }
    *output_length = out;
    return SUCCESS;
}
#endif

#ifndef NO_DECODE
/* Whether the input holds `word` (for the planted defects' triggers). */
static int holds(const char *input, length n, const char *word)
{
    length w = strlen(word), j;
    for (j = 0; j + w <= n; j++)
        if (memcmp(input + j, word, w) == 0) return 1;
    return 0;
}

int DECODE(length input_length, const char input[], length *output_length,
           code_point output[], unsigned char case_flags[])
{
    length room = *output_length, out = 0, basics = 0, in, j;
    code_point n = INITIAL_N, i = 0, bias = INITIAL_BIAS;

    noise("decode");
#ifdef PLANT_HANG
    if (holds(input, input_length, "hang")) {
        volatile int spin = 1;
        while (spin) {
        }
    }
#endif
#ifdef PLANT_ABORT
    if (holds(input, input_length, "abort")) abort();
#endif
#ifdef PLANT_BAD_STATUS
    if (holds(input, input_length, "status")) return 42;
#endif
#ifdef PLANT_BAD_LENGTH
    if (holds(input, input_length, "length")) {
        *output_length = room + 1000;
        return SUCCESS;
    }
#endif
    (void)holds;
    /* The basic code points are those before the last delimiter. */
    for (j = 0; j < input_length; j++)
        if (input[j] == DELIMITER) basics = j;
    if (basics > room) return BIG_OUTPUT;
    for (j = 0; j < basics; j++) {
        unsigned char c = (unsigned char)input[j];
        if (c >= 0x80) return BAD_INPUT;
        if (case_flags) case_flags[out] = c >= 'A' && c <= 'Z';
        output[out++] = c;
    }
    for (in = basics > 0 ? basics + 1 : 0; in < input_length; out++) {
        code_point old_i = i, w = 1, k, digit, t;
        for (k = BASE;; k += BASE) {
            if (in >= input_length) return BAD_INPUT;
            digit = digit_value((unsigned char)input[in++]);
            if (digit >= BASE) return BAD_INPUT;
            if (digit > (MAXINT - i) / w) return OVERFLOW;
            i += digit * w;
            t = threshold(k, bias);
            if (digit < t) break;
            if (w > MAXINT / (BASE - t)) return OVERFLOW;
            w *= BASE - t;
        }
        bias = adapt(i - old_i, (code_point)(out + 1), old_i == 0);
        if (i / (code_point)(out + 1) > MAXINT - n) return OVERFLOW;
        n += i / (code_point)(out + 1);
        i %= (code_point)(out + 1);
#ifdef PLANT_OFF_BY_ONE
        if (out > room) return BIG_OUTPUT;
#else
        if (out >= room) return BIG_OUTPUT;
#endif
        if (case_flags) {
            unsigned char last = (unsigned char)input[in - 1];
            memmove(case_flags + i + 1, case_flags + i, out - i);
            case_flags[i] = last >= 'A' && last <= 'Z';
        }
        memmove(output + i + 1, output + i, (out - i) * sizeof *output);
        output[i++] = n;
    }
    *output_length = out;
    return SUCCESS;
}
#endif

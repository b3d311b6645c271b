/* punycheck adapter for GNU Libidn 1.x's Punycode (punycode.h):
 *   int punycode_encode(size_t, const punycode_uint[], const unsigned char case_flags[],
 *                       size_t *output_length, char output[]);
 *   int punycode_decode(size_t, const char[], size_t *output_length,
 *                       punycode_uint output[], unsigned char case_flags[]);
 * the RFC 3492 Appendix C API with Appendix A case flags (punycode_uint is uint32_t).
 * Checked with Debian bookworm's libidn12 / libidn-dev 1.41-1.
 *
 * Install: apt-get install libidn-dev pkg-config
 * Build:   cc -O2 -o adapters/build/libidn adapters/c/libidn.c $(pkg-config --cflags --libs libidn)
 *          (adapters/install.sh does this)
 *
 * Supports encode and decode, with case flags (u+ = flag clear, U+ = flag set).
 * Like the RFC's own wrapper, a case_flags array is always passed, so u+0041
 * is encoded as "a" (flags force ASCII letters to their case).
 *
 * Modes: `libidn -e` / `libidn -d` follow the RFC 3492 Appendix C wrapper
 * convention; with no argument, the pipe protocol ("encode TOKENS" /
 * "decode TEXT" lines in, "ok RESULT" / "error MESSAGE" lines out, flushed).
 * Escaped forms (any byte can cross): -ex / -dx and the pipe verbs "encodex" /
 * "decodex" carry the encoded text as lowercase hexadecimal of its bytes, which
 * are passed to and from the library as they are.
 * Status codes map to "invalid input", "arithmetic overflow", and "input or
 * output is too large" (never expected: buffers are sized from the input).
 * Any other return value aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <punycode.h>

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) abort();
  return p;
}

static const char *message(int rc) {
  switch (rc) {
  case PUNYCODE_BAD_INPUT: return "invalid input";
  case PUNYCODE_OVERFLOW: return "arithmetic overflow";
  case PUNYCODE_BIG_OUTPUT: return "input or output is too large";
  default: abort(); /* not a documented status */
  }
}

/* Parses tokens; returns NULL on success or an adapter-side message. */
static const char *parse(const char *s, punycode_uint **cps, unsigned char **flags, size_t *n) {
  size_t cap = strlen(s) / 2 + 1;
  *cps = xmalloc(cap * sizeof **cps);
  *flags = xmalloc(cap);
  *n = 0;
  while (*s) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (!*s) break;
    if ((s[0] != 'u' && s[0] != 'U') || s[1] != '+') abort(); /* protocol error */
    char *end;
    unsigned long long v = strtoull(s + 2, &end, 16);
    if (end == s + 2) abort();
    if (v > 0xFFFFFFFFull) return "failed: adapter: code point above 32 bits";
    (*flags)[*n] = s[0] == 'U';
    (*cps)[(*n)++] = (punycode_uint) v;
    s = end;
  }
  return NULL;
}

/* Encodes; returns malloc'd text (its length in *len when len is not NULL),
   or NULL with *err set. */
static char *encode(const char *tokens, const char **err, size_t *len) {
  punycode_uint *cps;
  unsigned char *flags;
  size_t n;
  char *out = NULL;
  *err = parse(tokens, &cps, &flags, &n);
  if (!*err) {
    size_t outlen = n * 64 + 16; /* a 32-bit delta never needs more than 64 digits */
    out = xmalloc(outlen + 1);
    int rc = punycode_encode(n, cps, flags, &outlen, out);
    if (rc != PUNYCODE_SUCCESS) {
      *err = message(rc);
      free(out);
      out = NULL;
    } else {
      out[outlen] = 0;
      if (len) *len = outlen;
    }
  }
  free(cps);
  free(flags);
  return out;
}

/* Decodes; returns malloc'd "u+XXXX u+XXXX" (sep between tokens), or NULL with *err. */
static char *decode(const char *text, size_t len, char sep, const char **err) {
  size_t outlen = len + 1;
  punycode_uint *cps = xmalloc(outlen * sizeof *cps);
  unsigned char *flags = xmalloc(outlen);
  char *res = NULL;
  int rc = punycode_decode(len, text, &outlen, cps, flags);
  if (rc != PUNYCODE_SUCCESS) {
    *err = message(rc);
  } else {
    res = xmalloc(outlen * 12 + 1);
    char *p = res;
    for (size_t j = 0; j < outlen; j++)
      p += sprintf(p, "%s%s+%04lX", j ? (sep == ' ' ? " " : "") : "", flags[j] ? "U" : "u",
                   (unsigned long) cps[j]);
    *p = 0;
    if (sep == '\n') { /* one token a line */
      char *q = xmalloc(outlen * 12 + 1), *o = q;
      for (size_t j = 0; j < outlen; j++)
        o += sprintf(o, "%s+%04lX\n", flags[j] ? "U" : "u", (unsigned long) cps[j]);
      *o = 0;
      free(res);
      res = q;
    }
  }
  free(cps);
  free(flags);
  return res;
}

/* The escaped forms: len bytes as malloc'd lowercase hexadecimal (s freed),
   and hexadecimal turned into its bytes in place (returns how many). */
static char *tohex(char *s, size_t len) {
  char *h = xmalloc(2 * len + 1);
  for (size_t j = 0; j < len; j++) sprintf(h + 2 * j, "%02x", (unsigned char) s[j]);
  h[2 * len] = 0;
  free(s);
  return h;
}

static size_t unhex(char *s, size_t len) {
  if (len % 2) abort(); /* protocol error */
  for (size_t j = 0; j < len / 2; j++) {
    unsigned v;
    if (sscanf(s + 2 * j, "%2x", &v) != 1) abort();
    s[j] = (char) v;
  }
  return len / 2;
}

int main(int argc, char **argv) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  const char *err = NULL;
  int x = argc == 2 && (strcmp(argv[1], "-ex") == 0 || strcmp(argv[1], "-dx") == 0);
  if (argc == 2 && (strcmp(argv[1], "-e") == 0 || strcmp(argv[1], "-ex") == 0)) {
    /* read everything */
    size_t n = 0, c = 4096;
    char *buf = xmalloc(c);
    size_t r;
    while ((r = fread(buf + n, 1, c - n - 1, stdin)) > 0) {
      n += r;
      if (c - n < 2) buf = realloc(buf, c *= 2);
    }
    buf[n] = 0;
    size_t outlen;
    char *out = encode(buf, &err, &outlen);
    if (!out) { fprintf(stderr, "%s\n", err); return 1; }
    printf("%s\n", x ? tohex(out, outlen) : out);
    return 0;
  }
  if (argc == 2 && (strcmp(argv[1], "-d") == 0 || strcmp(argv[1], "-dx") == 0)) {
    len = getline(&line, &cap, stdin);
    if (len < 0) len = 0;
    if (len > 0 && line[len - 1] == '\n') len--;
    if (x) len = (ssize_t) unhex(line, (size_t) len);
    char *out = decode(line ? line : "", (size_t) len, '\n', &err);
    if (!out) { fprintf(stderr, "%s\n", err); return 1; }
    fputs(out, stdout);
    return 0;
  }
  if (argc != 1) {
    fprintf(stderr, "usage: libidn [-e|-d|-ex|-dx]\n");
    return 2;
  }
  while ((len = getline(&line, &cap, stdin)) >= 0) {
    if (len > 0 && line[len - 1] == '\n') line[--len] = 0;
    char *sp = memchr(line, ' ', (size_t) len);
    size_t vlen = sp ? (size_t) (sp - line) : (size_t) len;
    char *rest = sp ? sp + 1 : line + len;
    char *out;
    size_t outlen;
    if (vlen == 6 && memcmp(line, "encode", 6) == 0)
      out = encode(rest, &err, NULL);
    else if (vlen == 7 && memcmp(line, "encodex", 7) == 0)
      out = (out = encode(rest, &err, &outlen)) ? tohex(out, outlen) : NULL;
    else if (vlen == 6 && memcmp(line, "decode", 6) == 0)
      out = decode(rest, (size_t) (line + len - rest), ' ', &err);
    else if (vlen == 7 && memcmp(line, "decodex", 7) == 0)
      out = decode(rest, unhex(rest, (size_t) (line + len - rest)), ' ', &err);
    else
      abort(); /* protocol error */
    if (out)
      printf(*out ? "ok %s\n" : "ok\n", out);
    else
      printf("error %s\n", err);
    fflush(stdout);
    free(out);
  }
  return 0;
}

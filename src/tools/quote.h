/* quote.h -- string literals and hex bytes in the command's output.
 *
 * Owns: how bytes from a trace become text: C string literals (dump's text
 * form), JSON string literals (RFC 8259 escaping, {"hex":...} when the bytes
 * are not UTF-8), and runs of bytes as lowercase hex.  May use: out.h (it
 * prints through the output buffer).  Must never use: the trace reader, the
 * generated tables, stdio.
 */
#ifndef W15_TOOLS_QUOTE_H
#define W15_TOOLS_QUOTE_H

#include <stddef.h>
#include <stdint.h>

/* Text: a C string literal, quoted; \n \t \r \" \\ escaped, other bytes
 * outside 0x20..0x7e as \xNN. */
void w15t_put_cstring(const char *s, size_t n);
/* JSON: a string literal if `s` is valid UTF-8 (escaping as RFC 8259
 * requires), otherwise {"hex":"..."} with every byte in hex. */
void w15t_put_jstring(const char *s, size_t n);
/* JSON string literal of a NUL-terminated string (same rule). */
void w15t_put_jstr(const char *s);
/* The n bytes at p as 2n lowercase hex digits, each byte preceded by `sep`
 * when sep is not 0 (" 0a 1b"), nothing else. */
void w15t_put_hexbytes(const uint8_t *p, size_t n, char sep);

#endif

/* number.h -- floating-point numbers as the shortest text that reads back.
 *
 * Owns: the spelling of float and double values in every tool output (dump's
 * text and JSON): shortest round-trip decimal, infinities, NaN payloads, -0.
 * May use: libc (snprintf, strtof, strtod).  Must never use: the output
 * buffer (it fills the caller's array; the caller prints), the trace reader.
 */
#ifndef W15_TOOLS_NUMBER_H
#define W15_TOOLS_NUMBER_H

/* Shortest decimal text that strtof/strtod read back to the same bits
 * (tries %.1g .. %.9g / %.17g).  Infinities are "inf" / "-inf", NaNs "nan"
 * or "-nan", with the payload as "nan(0x...)" when it is not the default
 * quiet NaN; -0.0 is "-0".  `buf` needs 40 bytes.  Returns buf. */
char *w15t_fmt_float(char *buf, float f);
char *w15t_fmt_double(char *buf, double d);

#endif

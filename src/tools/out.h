/* out.h -- the command's standard output.
 *
 * Owns: one 64 KiB buffer in front of file descriptor 1, written with
 * write(2); the closed-pipe rule (EPIPE stops all later output quietly, as
 * `wip15 dump | head` needs; any other write error is reported once, by
 * w15t_out_finish); the "wip15: <cmd>: ..." line on stderr.  May use: libc
 * only.  Must never use: stdio on stdout (main.c flushes stdio separately,
 * and the commands that print through this buffer never mix the two), the
 * trace reader or anything that knows what a trace is.
 *
 * Everything here is single-threaded.
 */
#ifndef W15_TOOLS_OUT_H
#define W15_TOOLS_OUT_H

#include <stddef.h>
#include <stdint.h>

/* Append bytes to the stdout buffer (written with write(2) when full).
 * After a write error every later call does nothing. */
void w15t_write(const void *p, size_t n);
void w15t_puts(const char *s);
void w15t_putc(char c);
void w15t_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Decimal / 0x-prefixed lowercase hex numbers, without printf. */
void w15t_put_u64(uint64_t v);
void w15t_put_i64(int64_t v);
void w15t_put_hex(uint64_t v);
/* Nonzero once output can no longer be written (reader closed the pipe, or a
 * write error): the caller should stop producing output. */
int w15t_out_stopped(void);
/* Flush.  Returns 0 when everything was written or the reader closed the
 * pipe (EPIPE: a normal, quiet end, as with `wip15 dump | head`), 1 after
 * any other write error (a message is printed on stderr). */
int w15t_out_finish(void);

/* One line "wip15: <cmd>: ..." on stderr. */
void w15t_err(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

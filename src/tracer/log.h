/* log.h -- the tracer's messages.  Owns w15_msg and w15_info: one line on
 * stderr per message, "wip15: " in front, written with one write(2) so
 * lines of several threads never mix, errno kept; and the quiet switch
 * (WIP15_QUIET) that silences w15_info.  May use libc only.  Must never use
 * another module of src/tracer: every module logs, so log uses none. */
#ifndef W15_LOG_H
#define W15_LOG_H

/* Print "wip15: <fmt>\n" on stderr with one write(2); keeps errno. */
void w15_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same unless w15_log_quiet (set from WIP15_QUIET by config.c). */
void w15_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int w15_log_quiet;

#endif

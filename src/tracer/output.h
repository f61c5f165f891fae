/* output.h -- the output thread.  Owns the trace's w15_writer_t and the
 * one thread that writes: it takes chunks from the queue, submits the
 * pending declarations then the chunk (the writer compresses its blobs),
 * feeds the chunk's timing records to timing, flushes whenever the queue
 * runs empty, bumps the flush epoch every ~100 ms and has idle threads'
 * buffers collected; it stops recording at WIP15_MAX_SIZE or when the
 * writer fails.  And the crash path: a fatal-signal handler appends
 * everything pending raw (async-signal-safe).  May use queue, decl, thread,
 * timing, state, config and log.  Must never use record or runtime: to the
 * output a chunk is bytes and records. */
#ifndef W15_OUTPUT_H
#define W15_OUTPUT_H

#include <stddef.h>

#include "thread.h"

/* The writer on `fd` (the trace file at `path`, which it owns).  0, or -1
 * after printing why (the file is removed). */
int w15_output_open(int fd, const char *path);
/* Start the output thread (it takes the application's signals on no
 * account).  0, or -1 after printing why. */
int w15_output_run(void);
/* Stop the output thread and close the writer, writing everything queued;
 * `say_written`: the last line ("trace written to", or INCOMPLETE and why)
 * is this process's to print (no launcher's root reports it). */
void w15_output_stop(int say_written);
/* Forked child: forget the parent's file, thread and queue (no writes). */
void w15_output_forget(void);

/* Crash (async-signal-safe).  Stop recording; then, when this process has
 * the file and gets it from the output thread: write the pending
 * declarations, the chunk being written, the queue and every thread's
 * buffer but `self`'s, and feed their timing records.  Returns 1 when the
 * caller may append `self`'s bytes with w15_output_crash_append, else 0. */
int w15_output_crash_begin(w15_thread_t *self);
void w15_output_crash_append(const void *p, size_t n);
/* After the last append, when the process is about to die: close the
 * trace's stream (its LZ4 frame's end mark), so it reads as complete. */
void w15_output_crash_end(void);

#endif

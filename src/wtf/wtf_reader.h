/* wtf_reader.h -- .wtf-trace files (format 10) to and from the model.
 *
 * Owns: reading and validating the binary format (docs/WTF.md
 * "Validation"; the first problem is reported as "FILE: byte N: expected
 * ..., found ..."; no length from the file is trusted before it is checked
 * against the bytes present) and writing a model back as a .wtf-trace
 * (w15_wtf_write, in wtf_write.c).  May use: wtf_model.h, wtf_format.h,
 * json-c (the file header part is JSON).  Must never use: wtf_json.h (the
 * .wtf-json side reads into the same model on its own; code that takes
 * either format dispatches above both, w15_wtf_read_any in
 * wtf_analysis.h), the in-process emitter.
 */
#ifndef W15_WTF_READER_H
#define W15_WTF_READER_H

#include <stddef.h>
#include <stdint.h>

#include "wtf_model.h"

/* Read options. */
#define W15_WTF_READ_LENIENT 1 /* accept a truncated last chunk (warns in err) */

/* Read and validate a .wtf-trace file.  On success returns W15_WTF_E_OK and
 * *out (free with w15_wtf_file_free); otherwise an error code, *out NULL,
 * and a message in err.  With W15_WTF_READ_LENIENT a file cut inside its
 * last chunk is read up to there and err holds a warning (else ""). */
w15_wtf_err_t w15_wtf_read(const char *path, int flags, w15_wtf_file_t **out, char *err, size_t errlen);

/* Same on bytes in memory; `name` is used in messages. */
w15_wtf_err_t w15_wtf_read_mem(const uint8_t *data, size_t n, const char *name, int flags, w15_wtf_file_t **out,
                               char *err, size_t errlen);

/* Write `f` as a .wtf-trace (format 10; one event chunk holding every event
 * in order).  Returns 0, or -1 with err filled. */
int w15_wtf_write(const w15_wtf_file_t *f, const char *path, char *err, size_t errlen);

#endif

/* wtf_json.h -- .wtf-json files (docs/WTF.md ".wtf-json") to and from the
 * model.
 *
 * Owns: the JSON array format: reading with json-c (tolerating a missing
 * final ']' and trailing commas; built-ins used without a definition get
 * their standard signatures) and writing.  May use: wtf_model.h, json-c.
 * Must never use: wtf_reader.h (the binary side reads into the same model
 * on its own; code that takes either format dispatches above both,
 * w15_wtf_read_any in wtf_analysis.h), the in-process emitter.
 */
#ifndef W15_WTF_JSON_H
#define W15_WTF_JSON_H

#include "wtf_model.h"

#include <stdio.h>

/* Read a .wtf-json file into the common model.  Same contract as
 * w15_wtf_read.  Built-in events used without a definition are defined
 * implicitly with their standard signatures. */
w15_wtf_err_t w15_wtf_json_read(const char *path, w15_wtf_file_t **out, char *err, size_t errlen);
/* Same on text in memory (need not be NUL-terminated). */
w15_wtf_err_t w15_wtf_json_read_mem(const char *text, size_t n, const char *name, w15_wtf_file_t **out, char *err,
                                    size_t errlen);

/* Write `f` as a .wtf-json array to fp: a header object, then one object per
 * event in file order, wtf.event#define events written as
 * "wtf.event.define" objects.  Returns 0, or -1 on a write error. */
int w15_wtf_json_write(const w15_wtf_file_t *f, FILE *fp);

#endif

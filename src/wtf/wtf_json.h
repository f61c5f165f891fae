/* wtf_json.h -- the .wtf-json array format (docs/WTF.md ".wtf-json"):
 * reading with json-c (tolerating a missing final ']' and trailing commas)
 * and writing. */
#ifndef W15_WTF_JSON_H
#define W15_WTF_JSON_H

#include "wtf_reader.h"

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

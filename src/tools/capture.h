/* capture.h -- what `wip15 frames` and `wip15 export` do first: read a
 * timing capture (every generation of a rotated one, docs/WTF.md "Reading a
 * rotated capture") and build its timeline.
 *
 * Owns: loading a capture for a command and the wording of its warnings
 * and notes on stderr.  May use: libwip15wtftools (wtf_analysis.h), stdio
 * on stderr.  Must never use: stdout (the commands print the results), the
 * WIP15 trace reader.
 */
#ifndef W15_TOOLS_CAPTURE_H
#define W15_TOOLS_CAPTURE_H

#include "wtf_analysis.h"

/* Read `path` (only that file with `single`), print the reader's warnings
 * and the notes about generations left unread on stderr as
 * "wip15: CMD: ...", and build the timeline of the whole capture.  Returns
 * 0 (the caller frees `tl` then `cap`), or 1 after printing why (nothing to
 * free). */
int w15_tool_load_capture(const char *cmd, const char *path, int single, w15_wtf_capture_t *cap,
                          w15_timeline_t *tl);

#endif

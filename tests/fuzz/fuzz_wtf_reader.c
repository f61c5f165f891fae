/* fuzz_wtf_reader.c -- libFuzzer target: the .wtf-trace reader (and the
 * .wtf-json reader when the input starts with '[' or '{'), then the timeline
 * and statistics over whatever was accepted.  Must never crash. */
#include "wtf_analysis.h"
#include "wtf_json.h"
#include "wtf_reader.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    char err[512];
    w15_wtf_file_t *f = NULL;
    if (n && (data[0] == '[' || data[0] == '{'))
        w15_wtf_json_read_mem((const char *)data, n, "fuzz", &f, err, sizeof err);
    else
        w15_wtf_read_mem(data, n, "fuzz", W15_WTF_READ_LENIENT, &f, err, sizeof err);
    if (f) {
        w15_timeline_t tl;
        if (w15_timeline_build(f, &tl) == 0) {
            w15_frame_stats_t st;
            if (w15_frame_stats(&tl, 0, &st) == 0)
                w15_frame_stats_free(&st);
            w15_timeline_free(&tl);
        }
        w15_wtf_file_free(f);
    }
    return 0;
}

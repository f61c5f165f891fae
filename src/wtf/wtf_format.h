/* wtf_format.h -- constants of the WTF binary format 10 (docs/WTF.md), the
 * wire ids wip15 assigns to the built-in events and the names of wip15's
 * own events.
 *
 * Owns: the numbers and names both sides of src/wtf must agree on.  May
 * use: nothing (constants only).  Shared by the in-process emitter and the
 * offline reader, writer and analysis, which otherwise never include each
 * other. */
#ifndef W15_WTF_FORMAT_H
#define W15_WTF_FORMAT_H

#include <stdint.h>

#define W15_WTF_MAGIC 0xDEADBEEFu
#define W15_WTF_FORMAT_VERSION 10u
/* Value of the "WTF version" header word we write; the real loader accepts
 * any value below its own (1436947200000 truncated to 32 bits is larger). */
#define W15_WTF_WRITER_VERSION 1u

#define W15_WTF_CHUNK_FILE_HEADER 1u
#define W15_WTF_CHUNK_EVENT_DATA 2u

#define W15_WTF_PART_FILE_HEADER 0x10000u
#define W15_WTF_PART_BINARY_EVENTS 0x20002u
#define W15_WTF_PART_STRING_TABLE 0x30000u
#define W15_WTF_PART_BINARY_RESOURCE 0x40000u
#define W15_WTF_PART_STRING_RESOURCE 0x40001u

#define W15_WTF_STR_NULL 0xFFFFFFFFu
#define W15_WTF_STR_EMPTY 0xFFFFFFFEu

/* Event flags (wtf.data.EventFlag). */
#define W15_WTF_FLAG_HIGH_FREQUENCY 2u
#define W15_WTF_FLAG_SYSTEM_TIME 4u
#define W15_WTF_FLAG_INTERNAL 8u
#define W15_WTF_FLAG_APPEND_SCOPE_DATA 16u
#define W15_WTF_FLAG_BUILTIN 32u
#define W15_WTF_FLAG_APPEND_FLOW_DATA 64u

#define W15_WTF_CLASS_INSTANCE 0u
#define W15_WTF_CLASS_SCOPE 1u

/* Wire ids wip15 writes for the built-ins; GL call events start at
 * W15_WTF_WIRE_FIRST_CALL.  (Only wtf.event#define = 1 is fixed by the
 * format; readers must use the definitions in the file.) */
enum {
    W15_WTF_WIRE_DEFINE = 1,
    W15_WTF_WIRE_ZONE_CREATE = 2,
    W15_WTF_WIRE_ZONE_SET = 3,
    W15_WTF_WIRE_SCOPE_ENTER = 4,
    W15_WTF_WIRE_SCOPE_LEAVE = 5,
    W15_WTF_WIRE_TIMESTAMP = 6,
    W15_WTF_WIRE_FRAME_START = 7,
    W15_WTF_WIRE_FRAME_END = 8,
    W15_WTF_WIRE_MARK = 9,
    W15_WTF_WIRE_FIRST_CALL = 16
};

/* The scope event of a frame's GPU time in a "native_gpu" zone (argument
 * "uint32 frame"; docs/WTF.md "GPU time"): written by the emitter
 * (w15_wtf_gpu_frame_event), recognised by the analysis. */
#define W15_WTF_GPU_FRAME_EVENT "wip15.gpuFrame"

/* Bytes of the chunk header (6 words) and of one part-table entry. */
#define W15_WTF_CHUNK_HEADER_BYTES 24u
#define W15_WTF_PART_ENTRY_BYTES 12u

#endif

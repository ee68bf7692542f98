/* eg_json_read.h: the core's JSON reader (eg_json_read.c), and the arena a
 * tree that is read, used and dropped at once (a graph definition) lives in. */
#ifndef EG_JSON_READ_H
#define EG_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "cJSON.h"

/* Blocks that a tree's items and texts are cut from, freed together by
 * eg_arena_free. A tree in an arena is read only: never handed to
 * cJSON_Delete or to a cJSON call that frees or moves an item. */
typedef struct eg_arena {
    struct eg_arena_block *blocks;
    char *at;
    size_t left;   /* bytes left at `at` */
    size_t grow;   /* the next block's size */
} eg_arena;

void eg_arena_free(eg_arena *a);

/* Read the JSON value at the start of json[0..len) (after whitespace and a
 * UTF-8 byte order mark), as cJSON_ParseWithLengthOpts reads it, into items
 * allocated from `arena`, or one by one with eg_malloc when it is NULL (then
 * cJSON_Delete frees the tree). *end: where the value ends. NULL: not JSON,
 * or out of memory (eg_alloc_failed() tells).
 * With raw_len, a string may also stand as a raw segment where a value may:
 * the byte 0xFF (which UTF-8, and so JSON text, never holds; a control byte
 * would not do: the reader, as cJSON, skips any byte up to ' ' as space), the
 * string's length in bytes as four bytes, least significant first, then its
 * bytes as they are. A NUL among them ends the string, as an escaped \u0000
 * does. *raw_len: a bound over the length of all len bytes as JSON text
 * (each segment as a JSON string, every byte of it escaped to six), which
 * costs no pass over the segments' bytes; len itself when there are none. */
cJSON *eg_json_read(const char *json, size_t len, const char **end, eg_arena *arena, size_t *raw_len);

/* eg_parse_keep_duplicates (eg_json.c) into `arena`: for a tree dropped at once. */
cJSON *eg_parse_in_arena(const char *json, size_t len, bool *nomem, eg_arena *arena);

#endif /* EG_JSON_READ_H */

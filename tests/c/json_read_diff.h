/* json_read_diff.h: eg_json_read (the core's JSON reader) against cJSON's
 * parser, which it replaced, on one text: shared by tests/c/test_json_read.c
 * and the fuzz target tests/fuzz/fuzz_json.c. */
#ifndef JSON_READ_DIFF_H
#define JSON_READ_DIFF_H

#include "eg_internal.h"
#include "eg_json_read.h"

#include <stdbool.h>
#include <string.h>

/* Whether text has a \u escape whose next four characters are not all hex:
 * the one difference on purpose (ours refuses it, cJSON read U+0000). */
static bool bad_hex_escape(const char *text, size_t len) {
    for (size_t i = 0; i + 1 < len; i++) {
        if (text[i] != '\\') continue;
        if (text[i + 1] == 'u')
            for (size_t k = i + 2; k < i + 6; k++)
                if (k >= len || !text[k] || !strchr("0123456789abcdefABCDEF", text[k])) return true;
        i++;
    }
    return false;
}

/* Whether the two print the same (both NULL: out of memory, not a difference). */
static bool printed_differ(const cJSON *a, const cJSON *b) {
    char *x = cJSON_PrintUnformatted(a), *y = cJSON_PrintUnformatted(b);
    bool differ = !x || !y || strcmp(x, y) != 0;
    cJSON_free(x);
    cJSON_free(y);
    return differ;
}

/* How both readers (on the heap and in an arena) differ from cJSON on
 * text[0..len), or NULL when they read the same tree, ending at the same
 * byte, or all refuse it. */
static const char *json_read_diff(const char *text, size_t len) {
    eg_init_json();
    const char *end_c = NULL, *end_h = NULL, *end_a = NULL, *diff = NULL;
    cJSON *theirs = cJSON_ParseWithLengthOpts(text, len, &end_c, false);
    cJSON *heap = eg_json_read(text, len, &end_h, NULL, NULL);
    eg_arena arena = { 0 };
    cJSON *in_arena = eg_json_read(text, len, &end_a, &arena, NULL);
    if (!heap != !in_arena) diff = "heap and arena disagree on whether it is JSON";
    else if (!heap && theirs && bad_hex_escape(text, len)) diff = NULL;
    else if (!theirs != !heap) diff = heap ? "read what cJSON refuses" : "refused what cJSON reads";
    else if (heap && (printed_differ(theirs, heap) || printed_differ(theirs, in_arena))) diff = "another tree than cJSON's";
    else if (heap && (end_h != end_c || end_a != end_c)) diff = "ended elsewhere than cJSON";
    cJSON_Delete(theirs);
    cJSON_Delete(heap);
    eg_arena_free(&arena);
    return diff;
}

#endif /* JSON_READ_DIFF_H */

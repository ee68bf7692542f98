/* fuzz_json.c: the core's JSON reader (eg_json_read) against cJSON's parser,
 * which it replaced: on any input both read the same tree (printed the same,
 * ending at the same byte), on the heap and in an arena, or both refuse. The
 * one difference on purpose: a \u escape whose four characters are not all
 * hex is an error for ours (cJSON read U+0000). */
#include "eg_internal.h"
#include "eg_json_read.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool bad_hex_escape(const char *s, size_t len) {
    for (size_t i = 0; i + 1 < len; i++) {
        if (s[i] != '\\') continue;
        if (s[i + 1] == 'u')
            for (size_t k = i + 2; k < i + 6; k++)
                if (k >= len || !s[k] || !strchr("0123456789abcdefABCDEF", s[k])) return true;
        i++;
    }
    return false;
}

static void same(const cJSON *a, const cJSON *b) {
    char *x = cJSON_PrintUnformatted(a), *y = cJSON_PrintUnformatted(b);
    if (!x || !y || strcmp(x, y) != 0) abort();
    cJSON_free(x);
    cJSON_free(y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    eg_init_json();
    const char *end_c = NULL, *end_h = NULL, *end_a = NULL;
    cJSON *theirs = cJSON_ParseWithLengthOpts(text, size, &end_c, false);
    cJSON *heap = eg_json_read(text, size, &end_h, NULL);
    eg_arena arena = { 0 };
    cJSON *in_arena = eg_json_read(text, size, &end_a, &arena);
    if (!heap != !in_arena) abort();
    if (!heap && theirs && bad_hex_escape(text, size)) theirs = (cJSON_Delete(theirs), NULL);
    if (!theirs != !heap) abort();
    if (heap) {
        same(theirs, heap);
        same(theirs, in_arena);
        if (end_h != end_c || end_a != end_c) abort();
    }
    cJSON_Delete(theirs);
    cJSON_Delete(heap);
    eg_arena_free(&arena);
    return 0;
}

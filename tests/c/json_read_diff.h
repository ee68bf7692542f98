/* json_read_diff.h: eg_json_read (the core's JSON reader) against cJSON's
 * parser, which it replaced, on one text; and its raw segments against the
 * JSON strings they stand for: shared by tests/c/test_json_read.c and the
 * fuzz target tests/fuzz/fuzz_json.c. */
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

/* `item` as JSON text (eg_buf_json's), but each string value a raw segment
 * (eg_json_read.h): 0xFF, its length in four bytes, least significant first, its bytes. */
static bool put_with_segments(eg_buf *b, const cJSON *item) {
    if (cJSON_IsString(item)) {
        size_t n = strlen(item->valuestring);
        const unsigned char head[5] = { 0xFF, (unsigned char)n, (unsigned char)(n >> 8), (unsigned char)(n >> 16), (unsigned char)(n >> 24) };
        return eg_buf_put(b, (const char *)head, 5) && eg_buf_put(b, item->valuestring, n);
    }
    if (!cJSON_IsArray(item) && !cJSON_IsObject(item)) return eg_buf_json(b, item);
    bool object = cJSON_IsObject(item);
    if (!eg_buf_put(b, object ? "{" : "[", 1)) return false;
    for (const cJSON *c = item->child; c; c = c->next) {
        if (c != item->child && !eg_buf_put(b, ",", 1)) return false;
        if (object && !(eg_buf_string(b, c->string) && eg_buf_put(b, ":", 1))) return false;
        if (!put_with_segments(b, c)) return false;
    }
    return eg_buf_put(b, object ? "}" : "]", 1);
}

/* How the reader with raw_len differs, on text[0..len), from the plain one:
 * on JSON text it must read the same tree and tell len as its JSON length;
 * with every string as a raw segment, the tree its printed text reads as,
 * and a bound no less than that text's length.
 * NULL when all agree. */
static const char *raw_read_diff(const char *text, size_t len) {
    eg_init_json();
    size_t json_len = 0;
    const char *diff = NULL;
    cJSON *plain = eg_json_read(text, len, NULL, NULL, NULL), *raw = eg_json_read(text, len, NULL, NULL, &json_len);
    if (!plain) diff = raw && !memchr(text, 0xFF, len) ? "the raw reader read what is not JSON" : NULL;
    else if (!raw || printed_differ(plain, raw) || json_len != len) diff = "the raw reader read JSON text otherwise";
    eg_buf segmented = { 0 }, printed = { 0 };
    if (plain && !diff && put_with_segments(&segmented, plain) && eg_buf_json(&printed, plain)) {
        /* (Against the printed text read back: printing makes -0 0, as JSON.stringify does.) */
        size_t bound = 0;
        cJSON *back = eg_json_read(segmented.data, segmented.len, NULL, NULL, &bound), *want = eg_json_read(printed.data, printed.len, NULL, NULL, NULL);
        if (!back || !want || printed_differ(want, back)) diff = "segments read back as another tree";
        else if (bound < printed.len) diff = "the bound on the length as JSON is below the printed length";
        cJSON_Delete(back);
        cJSON_Delete(want);
    }
    eg_buf_free(&segmented);
    eg_buf_free(&printed);
    cJSON_Delete(plain);
    cJSON_Delete(raw);
    return diff;
}

#endif /* JSON_READ_DIFF_H */

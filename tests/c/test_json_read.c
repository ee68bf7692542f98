/* test_json_read.c: eg_json_read (the core's JSON reader) reads what cJSON's
 * parser reads into the same trees, rejects what it rejects, on the heap
 * and in an arena; its one difference (a \u escape with a character that is
 * not hex) is an error, not U+0000. */
#include "check.h"
#include "eg_internal.h"
#include "eg_json_read.h"
#include "json_read_diff.h"

#include <stdlib.h>
#include <string.h>

/* Both readers on text[0..len): the same tree (printed), or both refuse. */
static void same_as_cjson(const char *text, size_t len) {
    const char *diff = json_read_diff(text, len);
    CHECK_STR(diff ? diff : "same", "same");
    diff = raw_read_diff(text, len);   /* and its raw segments read as the strings they stand for */
    CHECK_STR(diff ? diff : "same", "same");
}

#define SAME(lit) same_as_cjson(lit, sizeof lit - 1)

TEST(json_read_matches_cjson) {
    SAME("{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"e\"}}");
    SAME("  \t\n[ 1 , 2 ,3 ]  ");
    SAME("\xEF\xBB\xBF{\"bom\":1}");
    SAME("\xEF\xBB\xBF" "1");                        /* a BOM is skipped only before more than one byte */
    SAME("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"");
    SAME("\"\\u00e9\\u20ac\\ud83d\\ude00 caf\xC3\xA9\"");
    SAME("\"\\ud83d\"");                              /* a lone high surrogate */
    SAME("\"\\ude00\"");                              /* a lone low one */
    SAME("\"\\ud83d\\u0041\"");
    SAME("\"\\u0000 after\"");
    SAME("\"\\x\"");
    SAME("\"unterminated");
    SAME("\"ends in a backslash\\");
    SAME("\"raw\x01" "control\"");
    SAME("{\"a\":1,\"a\":2}");
    SAME("[1,]");
    SAME("{,}");
    SAME("{\"a\" 1}");
    SAME("{\"a\":}");
    SAME("[-0, 0.5, -1.5e3, 1E+2, 01, 1.2.3]");
    SAME("[1.2.3]");
    SAME("[2147483648, -2147483649, 1e400, -1e400, 123456789012345678901234567890]");
    SAME("[-, +1]");
    SAME("-");
    SAME("+1");
    SAME("nul");
    SAME("tru");
    SAME("truex");
    SAME("[] trailing");
    SAME("");
    SAME("   ");
    SAME("{\"\":\"\"}");
    SAME("{\"k\":[{\"x\":[[],{}]},\"\\\"q\\\"\"]}");
}

TEST(json_read_nesting_limit_matches_cjson) {
    for (size_t depth = 998; depth <= 1002; depth++) {
        char *text = malloc(2 * depth + 1);
        CHECK(text);
        if (!text) return;
        for (size_t i = 0; i < depth; i++) { text[i] = '['; text[2 * depth - 1 - i] = ']'; }
        same_as_cjson(text, 2 * depth);
        for (size_t i = 0; i < depth; i++) { text[i] = '{'; }
        same_as_cjson(text, depth);                   /* unclosed */
        free(text);
    }
}

/* Random edits of valid texts: every one read alike. */
TEST(json_read_matches_cjson_on_mutations) {
    static const char *const seeds[] = {
        "{\"nodes\":{\"a\":{\"jumpTarget\":true,\"join\":false}},\"edges\":{\"a\":\"__end__\"},\"n\":[1,-2.5e3,null]}",
        "[\"esc\\n\\\"\\u00e9\\ud83d\\ude00\",{\"k\":{\"l\":[true,false]}},123456789,0.1]",
    };
    static const char alphabet[] = "{}[]\",:0123456789-+.eE \\ntrfals/\x01\xC3";
    unsigned seed = 12345;
    char text[256];
    for (int round = 0; round < 20000; round++) {
        const char *from = seeds[round % 2];
        size_t len = strlen(from);
        memcpy(text, from, len);
        for (int edits = 1 + round % 3; edits > 0; edits--) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % len;
            seed = seed * 1103515245u + 12345u;
            char c = alphabet[(seed >> 8) % (sizeof alphabet - 1)];
            seed = seed * 1103515245u + 12345u;
            switch ((seed >> 8) % 3) {
            case 0: text[at] = c; break;                                        /* replace */
            case 1: if (len > 1) { memmove(text + at, text + at + 1, len - at - 1); len--; } break;   /* delete */
            default: if (len < sizeof text - 1) { memmove(text + at + 1, text + at, len - at); text[at] = c; len++; }   /* insert */
            }
        }
        same_as_cjson(text, len);
    }
}

/* A definition's tree in an arena: read, then freed in one call (ASan checks no item leaks or is freed twice). */
TEST(json_read_arena_frees_everything) {
    eg_arena arena = { 0 };
    static const char text[] = "{\"a\":[\"x\",\"y\",{\"b\":\"\\u00e9\"}],\"c\":1}";
    for (int i = 0; i < 3000; i++) {   /* more than one block */
        cJSON *tree = eg_json_read(text, sizeof text - 1, NULL, &arena, NULL);
        CHECK(tree && cJSON_IsObject(tree));
    }
    CHECK(arena.blocks != NULL);
    eg_arena_free(&arena);
    CHECK(arena.blocks == NULL && arena.left == 0);
    eg_arena_free(&arena);   /* again: nothing to free */
}

/* A long string with an escape at every offset of an 8-byte word, of every
 * kind (and a surrogate pair, UTF-8 above 0x80): read as cJSON reads it,
 * through the scratch's growth (the unescaped text passes 256 bytes), and
 * printed back by eg_buf_string as cJSON prints it, into a buffer that
 * starts too small for the escapes. */
TEST(long_escaped_strings_read_and_print_like_cjson) {
    static const char *const escapes[] = { "\\\"", "\\\\", "\\n", "\\t", "\\u0001", "\\u001f", "\\/", "\\ud83d\\ude00", "\\u00e9", "\xC3\xA9" };
    char text[4096];
    for (size_t e = 0; e < sizeof escapes / sizeof *escapes; e++) {
        for (size_t gap = 0; gap < 9; gap++) {
            size_t len = 0;
            text[len++] = '"';
            for (int k = 0; k < 60; k++) {
                for (size_t i = 0; i < gap + (size_t)k % 3; i++) text[len++] = (char)('a' + (k + (int)i) % 26);
                size_t n = strlen(escapes[(e + (size_t)k % 2 * 3) % (sizeof escapes / sizeof *escapes)]);
                memcpy(text + len, escapes[(e + (size_t)k % 2 * 3) % (sizeof escapes / sizeof *escapes)], n);
                len += n;
            }
            text[len++] = '"';
            same_as_cjson(text, len);
            cJSON *s = eg_json_read(text, len, NULL, NULL, NULL);
            CHECK(cJSON_IsString(s));
            if (!cJSON_IsString(s)) continue;
            char *want = cJSON_PrintUnformatted(s);
            eg_buf b = { 0 };
            CHECK(eg_buf_put(&b, "x", 1) && eg_buf_string(&b, s->valuestring));
            CHECK(want && b.data && b.len == strlen(want) + 1 && strcmp(b.data + 1, want) == 0);
            CHECK(b.data && b.data[b.len] == '\0');
            eg_buf_free(&b);
            cJSON_free(want);
            cJSON_Delete(s);
        }
    }
}

/* A string longer than the scratch's first size (64 KB), escapes all through:
 * the scratch grows while it is read. */
TEST(escaped_string_past_the_first_scratch_reads_like_cjson) {
    size_t n = 200000;
    char *text = malloc(n + 3);
    CHECK(text);
    if (!text) return;
    text[0] = '"';
    size_t len = 1;
    for (size_t k = 0; len + 16 < n; k++) {
        memcpy(text + len, "ab\\n\\\"", 6);   /* ab\n\" in the text: two escapes */
        len += 6;
        if (k % 7 == 0) { memcpy(text + len, "\\u00e9", 6); len += 6; }
    }
    text[len++] = '"';
    same_as_cjson(text, len);
    cJSON *s = eg_json_read(text, len, NULL, NULL, NULL);
    CHECK(cJSON_IsString(s) && strlen(s->valuestring) > 100000 && memcmp(s->valuestring, "ab\n\"\xC3\xA9" "ab\n\"", 10) == 0);
    cJSON_Delete(s);
    free(text);
}

/* Memory that runs out while a string's escapes grow the buffer: false, and
 * the buffer holds what it held before the string. */
static int grows_left;
static void *counted_realloc(void *p, size_t n) { return grows_left-- > 0 ? realloc(p, n) : NULL; }

TEST(buf_string_out_of_memory_leaves_the_buffer_as_it_was) {
    char s[600];
    for (size_t i = 0; i < sizeof s - 1; i++) s[i] = i % 2 ? '"' : 'q';   /* every other byte doubles */
    s[sizeof s - 1] = '\0';
    for (int allowed = 0; allowed < 4; allowed++) {
        eg_buf b = { 0 };
        CHECK(eg_buf_put(&b, "[1,", 3));
        size_t cap = b.cap;
        eg_allocator a = { malloc, counted_realloc, free };
        grows_left = allowed;
        eg_set_allocator(&a);
        bool ok = eg_buf_string(&b, s);
        eg_set_allocator(NULL);
        if (ok) CHECK(b.len == 3 + 2 + 599 + 299);   /* 299 quotes, each a backslash more */
        else CHECK(b.len == 3 && strcmp(b.data, "[1,") == 0);
        CHECK(ok == (allowed >= 1 && b.cap > cap));
        eg_buf_free(&b);
    }
}

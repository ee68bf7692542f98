/* eg_json_read.c: the core's JSON reader. It builds the same cJSON trees as
 * cJSON_ParseWithLengthOpts, from the same texts (its 1000-level nesting
 * limit, whitespace, numbers through strtod), but faster where a step spends
 * its time: a string without escapes is found in one pass and copied at
 * once (cJSON walks every string twice, a byte at a time), and a tree read
 * to be dropped at once (a graph definition: 1,000 nodes are ~11,000 items
 * and keys) can live in an arena, one allocation per block instead of two
 * per item and a walk to free them. One difference: an escape \u with a
 * character that is not hex is an error here (cJSON read it as U+0000).
 * eg_json_read with raw_len also reads raw segments (a string's bytes as they are,
 * with their length before them: the JS layer's long strings, which cost
 * JSON.stringify a few ns a character to escape and this reader to unescape). */
#include "eg_internal.h"
#include "eg_json_read.h"

#include <stdlib.h>
#include <string.h>

#define NESTING_LIMIT 1000   /* cJSON's CJSON_NESTING_LIMIT */
#define FIRST_BLOCK 16384
#define LARGEST_BLOCK (256 * 1024)

struct eg_arena_block { struct eg_arena_block *next; double align; };
#define BLOCK_HEADER ((sizeof(struct eg_arena_block) + 7) & ~(size_t)7)

void eg_arena_free(eg_arena *a) {
    for (struct eg_arena_block *b = a->blocks, *next; b; b = next) { next = b->next; eg_free(b); }
    memset(a, 0, sizeof *a);
}

static void *arena_take(eg_arena *a, size_t n) {
    n = (n + 7) & ~(size_t)7;
    if (n > a->left) {
        size_t size = a->grow ? a->grow : FIRST_BLOCK;
        if (size < n) size = n;
        struct eg_arena_block *b = eg_malloc(BLOCK_HEADER + size);
        if (!b) return NULL;
        b->next = a->blocks;
        a->blocks = b;
        a->at = (char *)b + BLOCK_HEADER;
        a->left = size;
        a->grow = size * 2 > LARGEST_BLOCK ? LARGEST_BLOCK : size * 2;
    }
    void *p = a->at;
    a->at += n;
    a->left -= n;
    return p;
}

/* The few helpers every item and string passes through, inlined: under -Oz each was
 * a call, and a 1,000-node definition's ~20,000 skips and takes were a fifth of its read. */
#define HOT static inline __attribute__((always_inline))

typedef struct reader {
    const unsigned char *p, *end;
    eg_arena *arena;   /* NULL: each item and text its own eg_malloc */
    int depth;
    unsigned char *scratch;   /* where a string with escapes is unescaped (heap, freed with the reader) */
    size_t scratch_cap;
    size_t *raw;       /* not NULL: raw segments may stand for strings */
    size_t bytes;      /* the raw segments' bytes read */
    size_t segments;   /* how many */
} reader;

HOT void *take(reader *r, size_t n) { return r->arena ? arena_take(r->arena, n) : eg_malloc(n); }

HOT cJSON *new_item(reader *r) {
    cJSON *c = take(r, sizeof *c);
    if (c) memset(c, 0, sizeof *c);
    return c;
}

/* A subtree that failed halfway: the heap's is freed; an arena's goes with the arena. */
static void drop(reader *r, cJSON *items) { if (!r->arena && items) cJSON_Delete(items); }

HOT void skip_space(reader *r) {
    while (r->p < r->end && *r->p <= 32) r->p++;   /* as cJSON: any byte up to ' ' */
}

static int hex4(const unsigned char *s) {
    int v = 0;
    for (int i = 0; i < 4; i++) {
        int c = s[i], d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* The \u escape at s (before `end`, the closing quote) as UTF-8 at *out; the
 * escape's length (12 for a surrogate pair), 0 if it is not a valid one. */
static size_t utf16_escape(const unsigned char *s, const unsigned char *end, unsigned char **out) {
    if (end - s < 6) return 0;
    long cp = hex4(s + 2);
    size_t used = 6;
    if (cp < 0 || (cp >= 0xDC00 && cp <= 0xDFFF)) return 0;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (end - s < 12 || s[6] != '\\' || s[7] != 'u') return 0;
        long low = hex4(s + 8);
        if (low < 0xDC00 || low > 0xDFFF) return 0;
        cp = 0x10000 + (((cp & 0x3FF) << 10) | (low & 0x3FF));
        used = 12;
    }
    unsigned char *o = *out;
    if (cp < 0x80) *o++ = (unsigned char)cp;
    else if (cp < 0x800) { *o++ = (unsigned char)(0xC0 | (cp >> 6)); *o++ = (unsigned char)(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) { *o++ = (unsigned char)(0xE0 | (cp >> 12)); *o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F)); *o++ = (unsigned char)(0x80 | (cp & 0x3F)); }
    else { *o++ = (unsigned char)(0xF0 | (cp >> 18)); *o++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3F)); *o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F)); *o++ = (unsigned char)(0x80 | (cp & 0x3F)); }
    *out = o;
    return used;
}

/* Which of the 8 bytes of v (as loaded) are '"' or '\\': the high bit of each,
 * by the "has a zero byte" test on each XOR. Exact for the first one (a
 * borrow can only mark bytes after it). */
HOT uint64_t quotes8(uint64_t v) {
    const uint64_t ones = 0x0101010101010101ULL;
    uint64_t q = v ^ (ones * '"'), e = v ^ (ones * '\\');
    return (((q - ones) & ~q) | ((e - ones) & ~e)) & (ones * 0x80);
}

/* Room in the scratch for `more` bytes after `used`. */
static bool scratch_room(reader *r, size_t used, size_t more) {
    if (used + more <= r->scratch_cap) return true;
    size_t cap = r->scratch_cap ? r->scratch_cap : 256;
    while (cap < used + more) cap *= 2;
    unsigned char *p = eg_realloc(r->scratch, cap);
    if (!p) return false;
    r->scratch = p;
    r->scratch_cap = cap;
    return true;
}

/* Past a run of bytes that are neither '"' nor '\\', from q. */
static const unsigned char *plain_run(const unsigned char *q, const unsigned char *end) {
    for (; q + 8 <= end; q += 8) {
        uint64_t v, found;
        memcpy(&v, q, 8);
        if (!(found = quotes8(v))) continue;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        return q + ((unsigned)__builtin_ctzll(found) >> 3);   /* the lowest marked byte is the first */
#else
        break;
#endif
    }
    while (q < end && *q != '"' && *q != '\\') q++;
    return q;
}

/* n bytes at `from` as a new NUL-terminated text; the reader goes on at `next`. */
static char *copy_out(reader *r, const unsigned char *from, size_t n, const unsigned char *next) {
    char *out = take(r, n + 1);
    if (!out) return NULL;
    memcpy(out, from, n);
    out[n] = '\0';
    r->p = next;
    return out;
}

/* The string at r->p (its opening quote) as a new NUL-terminated text. One
 * pass: a string without escapes is found and copied at once; one with
 * escapes is unescaped into the reader's scratch as it is read (a state's
 * JSON kept as a string has one every few bytes), then copied at its length. */
static char *read_string(reader *r) {
    const unsigned char *s = r->p + 1, *q = plain_run(s, r->end), *from = s;
    if (q >= r->end) return NULL;   /* no closing quote */
    size_t used = (size_t)(q - s);
    if (*q != '"') {
        /* Room for what is left of the text (up to 64 KB) at once: no growth, one copy per string, for the common sizes. */
        size_t left = (size_t)(r->end - s), first = left < 65536 ? left : 65536;
        if (!scratch_room(r, 0, (used + 4 > first ? used + 4 : first))) return NULL;
        memcpy(r->scratch, s, used);
        while (*q == '\\') {
            unsigned char *o = r->scratch + used;
            size_t step = 2;
            if (q + 1 >= r->end) return NULL;   /* a backslash as the last byte */
            switch (q[1]) {
            case 'b': *o++ = '\b'; break;
            case 'f': *o++ = '\f'; break;
            case 'n': *o++ = '\n'; break;
            case 'r': *o++ = '\r'; break;
            case 't': *o++ = '\t'; break;
            case '"': case '\\': case '/': *o++ = q[1]; break;
            case 'u': step = utf16_escape(q, r->end, &o); break;
            default: step = 0;
            }
            if (!step) return NULL;
            used = (size_t)(o - r->scratch);
            const unsigned char *run = q + step;
            q = plain_run(run, r->end);
            if (q >= r->end) return NULL;
            /* The run, and an escape's 4 bytes after it. */
            if (!scratch_room(r, used, (size_t)(q - run) + 4)) return NULL;
            memcpy(r->scratch + used, run, (size_t)(q - run));
            used += (size_t)(q - run);
        }
        from = r->scratch;
    }
    return copy_out(r, from, used, q + 1);
}

/* A raw segment at r->p (eg_json_read with raw_len): the byte 0xFF, the string's length
 * as four bytes, least significant first, then its bytes, copied as they are. */
static char *read_raw(reader *r) {
    if (!r->raw || r->end - r->p < 5) return NULL;
    const unsigned char *s = r->p + 5;
    uint32_t n;
    memcpy(&n, r->p + 1, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    n = __builtin_bswap32(n);
#endif
    if (n > (size_t)(r->end - s)) return NULL;
    r->bytes += n;
    r->segments++;
    return copy_out(r, s, n, s + n);
}

/* cJSON's number: the longest run of number characters, read by strtod (eg_number.c's in the .wasm). */
static bool read_number(reader *r, cJSON *item) {
    const unsigned char *q = r->p;
    while (q < r->end && ((*q >= '0' && *q <= '9') || *q == '+' || *q == '-' || *q == 'e' || *q == 'E' || *q == '.')) q++;
    size_t n = (size_t)(q - r->p);
    char small[64], *text = n < sizeof small ? small : eg_malloc(n + 1);
    if (!text) return false;
    memcpy(text, r->p, n);
    text[n] = '\0';
    char *after = text;
    double d = strtod(text, &after);
    size_t used = (size_t)(after - text);
    if (text != small) eg_free(text);
    if (!used) return false;
    /* valuedouble alone: nothing in the core reads a number's valueint (eg_reduce_messages.c's tag is an
     * object's), so neither this reader nor a reducer's write keeps cJSON's clamped copy of it. */
    item->valuedouble = d;
    item->type = cJSON_Number;
    r->p += used;
    return true;
}

static bool read_value(reader *r, cJSON *item);

/* An array's elements or an object's members, after its opening bracket, up to `close`. */
static bool read_items(reader *r, cJSON *item, unsigned char close) {
    if (r->depth >= NESTING_LIMIT) return false;
    r->depth++;
    r->p++;
    skip_space(r);
    cJSON *head = NULL, *last = NULL;
    if (r->p < r->end && *r->p == close) goto done;
    for (;;) {
        cJSON *c = new_item(r);
        if (!c) goto fail;
        if (!head) head = c;
        else { last->next = c; c->prev = last; }
        last = c;
        skip_space(r);
        if (close == '}') {
            if (r->p >= r->end || *r->p != '"' || !(c->string = read_string(r))) goto fail;
            skip_space(r);
            if (r->p >= r->end || *r->p != ':') goto fail;
            r->p++;
            skip_space(r);
        }
        if (!read_value(r, c)) goto fail;
        skip_space(r);
        if (r->p >= r->end || *r->p != ',') break;
        r->p++;
    }
    if (r->p >= r->end || *r->p != close) goto fail;
done:
    r->depth--;
    if (head) head->prev = last;
    item->child = head;
    item->type = close == '}' ? cJSON_Object : cJSON_Array;
    r->p++;
    return true;
fail:
    drop(r, head);
    return false;
}

static bool literal(reader *r, const char *word, size_t n) {
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0) return false;
    r->p += n;
    return true;
}

static bool read_value(reader *r, cJSON *item) {
    if (r->p >= r->end) return false;
    if (*r->p == 0xFF) { item->type = cJSON_String; return (item->valuestring = read_raw(r)) != NULL; }   /* (not a case: the switch's table would reach 0xFF) */
    switch (*r->p) {
    case 'n': item->type = cJSON_NULL; return literal(r, "null", 4);
    case 'f': item->type = cJSON_False; return literal(r, "false", 5);
    case 't': item->type = cJSON_True; item->valueint = 1; return literal(r, "true", 4);
    case '"': item->type = cJSON_String; return (item->valuestring = read_string(r)) != NULL;
    case '[': return read_items(r, item, ']');
    case '{': return read_items(r, item, '}');
    default: return (*r->p == '-' || (*r->p >= '0' && *r->p <= '9')) && read_number(r, item);
    }
}

cJSON *eg_json_read(const char *json, size_t len, const char **end, eg_arena *arena, size_t *raw_len) {
    if (!json || !len) return NULL;
    reader r = { (const unsigned char *)json, (const unsigned char *)json + len, arena, 0, NULL, 0, raw_len, 0, 0 };
    if (len > 4 && memcmp(json, "\xEF\xBB\xBF", 3) == 0) r.p += 3;
    skip_space(&r);
    cJSON *item = new_item(&r);
    if (!item) return NULL;
    bool ok = read_value(&r, item);
    eg_free(r.scratch);
    if (!ok) {
        item->type = cJSON_Invalid;   /* what it holds was freed already, or is the arena's */
        drop(&r, item);
        return NULL;
    }
    if (end) *end = (const char *)r.p;
    /* As JSON, each segment's 5-byte head is 2 quotes, and an escape makes a byte at most 6. */
    if (raw_len) *raw_len = len + 5 * r.bytes - 3 * r.segments;
    return item;
}

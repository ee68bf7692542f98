/* eg_buf.c: a growable text buffer and a JSON writer over cJSON trees.
 *
 * Why not cJSON_Print: it formats every number with sprintf("%1.15g") and
 * checks it with sscanf, and builds a fresh buffer per call. Steps print
 * small patches many times a second; integers (the common case) are written
 * by hand here and buffers are reused. Output is the same JSON. */
#include "eg_internal.h"

#include <math.h>
#include <string.h>

bool eg_buf_reserve(eg_buf *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) {
        if (cap > ((size_t)-1) / 2) return false;
        cap *= 2;
    }
    char *p = eg_realloc(b->data, cap);
    if (!p) return false;
    b->data = p;
    b->cap = cap;
    return true;
}

bool eg_buf_put(eg_buf *b, const char *s, size_t n) {
    /* Room is the common case: no call for it (a checkpoint is some thirty puts). */
    if (b->len + n + 1 > b->cap && !eg_buf_reserve(b, n)) return false;
    /* Most puts are a few bytes of punctuation or a number: copied here, not by a call. */
    char *d = b->data + b->len;
    if (n <= 16) for (size_t i = 0; i < n; i++) d[i] = s[i];
    else memcpy(d, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return true;
}

bool eg_buf_int(eg_buf *b, long long v) {
    char tmp[24];
    size_t i = sizeof tmp;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do { tmp[--i] = (char)('0' + u % 10); u /= 10; } while (u);
    if (v < 0) tmp[--i] = '-';
    return eg_buf_put(b, tmp + i, sizeof tmp - i);
}

static bool put_number(eg_buf *b, double d) {
    if (isnan(d) || isinf(d)) return eg_buf_put(b, "null", 4);
    if (d == floor(d) && fabs(d) < 1e15) return eg_buf_int(b, (long long)d);
    /* Shortest of 15 or 17 significant digits that reads back exactly. */
    char tmp[32];
    size_t n = eg_number_format(tmp, sizeof tmp, d, 15);
    if (n >= sizeof tmp || eg_number_parse(tmp, NULL) != d) n = eg_number_format(tmp, sizeof tmp, d, 17);
    if (n >= sizeof tmp) return false;
    return eg_buf_put(b, tmp, n);
}

/* Which of the 8 bytes of v (as loaded from memory) need escaping (below
 * 0x20, '"' or '\\'): the high bit of each, by the "has a byte less than /
 * equal to" tests on a 64-bit word. Exact for whether any byte does, and for
 * the first one (a borrow can only mark bytes after it). A snapshot of a large
 * state is mostly long strings with nothing to escape. */
static uint64_t specials8(uint64_t v) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t q = v ^ (ones * '"'), e = v ^ (ones * '\\');
    return (((v - ones * 0x20) & ~v) | ((q - ones) & ~q) | ((e - ones) & ~e)) & highs;
}

/* The index of the first byte that needs escaping in a word whose specials8 is
 * not 0. Little-endian (WebAssembly, x86, ARM): the lowest marked byte is the
 * first in memory; elsewhere, the bytes are looked at in turn. */
static unsigned first_special(const char *p, uint64_t found) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    (void)p;
    return (unsigned)__builtin_ctzll(found) >> 3;
#else
    (void)found;
    unsigned k = 0;
    while ((unsigned char)p[k] >= 0x20 && p[k] != '"' && p[k] != '\\') k++;
    return k;
#endif
}

/* One pass, a word at a time: a word with nothing to escape is copied whole;
 * in one with an escape, the bytes before the first are kept (the whole word
 * was stored: the rest is written over), then that byte is escaped and the
 * next word starts after it. A state's JSON text kept in a string has a quote
 * every few bytes. Room for the plain case is made first; each escape (up to
 * 6 bytes for 1) makes sure of its own. */
bool eg_buf_string(eg_buf *b, const char *s) {
    static const char hex[] = "0123456789abcdef";
    size_t n = strlen(s), start = b->len;
    if (!eg_buf_reserve(b, n + 2)) return false;
    char *o = b->data + b->len;
    *o++ = '"';
    for (size_t i = 0; i < n; i++) {
        if (i + 8 <= n) {
            uint64_t v, found;
            memcpy(&v, s + i, 8);
            memcpy(o, &v, 8);   /* fits: at least the 8 bytes still to come have room */
            if (!(found = specials8(v))) { o += 8; i += 7; continue; }
            unsigned k = first_special(s + i, found);
            o += k;
            i += k;
        }
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') { *o++ = (char)c; continue; }
        /* The escape, the rest of s and the closing quote. */
        size_t at = (size_t)(o - b->data);
        if (at + 6 + (n - i - 1) + 2 > b->cap) {
            b->len = at;
            if (!eg_buf_reserve(b, 6 + (n - i - 1) + 1)) { b->len = start; b->data[start] = '\0'; return false; }
            o = b->data + at;
        }
        *o++ = '\\';
        switch (c) {
        case '"': case '\\': *o++ = (char)c; break;
        case '\b': *o++ = 'b'; break;
        case '\f': *o++ = 'f'; break;
        case '\n': *o++ = 'n'; break;
        case '\r': *o++ = 'r'; break;
        case '\t': *o++ = 't'; break;
        default: *o++ = 'u'; *o++ = '0'; *o++ = '0'; *o++ = hex[c >> 4]; *o++ = hex[c & 15];
        }
    }
    *o++ = '"';
    b->len = (size_t)(o - b->data);
    b->data[b->len] = '\0';
    return true;
}

bool eg_buf_json(eg_buf *b, const cJSON *item) {
    if (!item) return eg_buf_put(b, "null", 4);
    switch (item->type & 0xFF) {
    case cJSON_NULL: return eg_buf_put(b, "null", 4);
    case cJSON_False: return eg_buf_put(b, "false", 5);
    case cJSON_True: return eg_buf_put(b, "true", 4);
    case cJSON_Number: return put_number(b, item->valuedouble);
    case cJSON_String: return eg_buf_string(b, item->valuestring ? item->valuestring : "");
    case cJSON_Raw: return item->valuestring ? eg_buf_put(b, item->valuestring, strlen(item->valuestring)) : eg_buf_put(b, "null", 4);
    case cJSON_Array: case cJSON_Object: {
        bool object = (item->type & 0xFF) == cJSON_Object;
        if (!eg_buf_put(b, object ? "{" : "[", 1)) return false;
        for (const cJSON *c = item->child; c; c = c->next) {
            if (c != item->child && !eg_buf_put(b, ",", 1)) return false;
            if (object && !(eg_buf_string(b, c->string ? c->string : "") && eg_buf_put(b, ":", 1))) return false;
            if (!eg_buf_json(b, c)) return false;
        }
        return eg_buf_put(b, object ? "}" : "]", 1);
    }
    default: return eg_buf_put(b, "null", 4);
    }
}

void eg_buf_free(eg_buf *b) {
    eg_free(b->data);
    memset(b, 0, sizeof *b);
}

eg_code eg_buf_hand_out(const eg_buf *b, bool ok, const char **json, size_t *len, eg_error *err) {
    if (!ok) return eg_nomem(err);
    if (json) *json = b->data;
    if (len) *len = b->len;
    return EG_OK;
}

eg_code eg_buf_print(eg_buf *b, const cJSON *value, const char **json, size_t *len, eg_error *err) {
    b->len = 0;
    return eg_buf_hand_out(b, eg_buf_json(b, value), json, len, err);
}

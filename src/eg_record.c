/* eg_record.c: a thread's record of a run, printed whole by the core (the
 * format is js/records.js's, format 2): the checkpoint without its state
 * (for a delta, only its fields from "status" on) and the state patch since
 * the last record, or the whole state; sealed, its head and the checksum
 * over the bytes just printed (when the host knows the record's id). A
 * threaded step then costs the host one call and one decode: nothing is
 * parsed, printed again or hashed in JS.
 *
 * The patch since the last record is the ops next() handed out meanwhile:
 * once a thread records the run, next() keeps a copy of them here. */
#include "eg_run_internal.h"

#include <string.h>

void eg_run_record_patches(eg_run *run) {
    if (run) run->recording = true;
}

bool eg_run_keep_for_record_(eg_run *run) {
    eg_buf *keep = &run->record_patch, *ops = &run->patch.text;
    if (!run->recording || ops->len == 0) return true;
    if (!eg_buf_reserve(keep, ops->len + 1)) return false;
    return (keep->len == 0 || eg_buf_lit(keep, ",")) && eg_buf_put(keep, ops->data, ops->len);
}

/* Format 2's checksum (records.js `digest`): four lanes of xxHash32's round
 * over the little-endian 32-bit words of the text, 16 bytes a turn, the
 * bytes short of 16 one at a time, then the length; 16 hex digits. `seed`
 * is the hash of the record's "thread/id", which the host works out. */
#define P1 0x9e3779b1u
#define P2 0x85ebca77u
#define P3 0xc2b2ae3du

#define ROTL(x, r) (((x) << (r)) | ((x) >> (32 - (r))))
#define ROUND(lane, word) ((lane) = ROTL((lane) + (word) * P2, 13) * P1)

static uint32_t avalanche(uint32_t h) {
    h = (h ^ (h >> 15)) * P2;
    h = (h ^ (h >> 13)) * P3;
    return h ^ (h >> 16);
}

/* A little-endian 32-bit word, on any machine (one load on a little-endian
 * one, WebAssembly included: a megabyte snapshot is hashed a word at a time). */
static uint32_t word_at(const unsigned char *q) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t w;
    memcpy(&w, q, sizeof w);
    return w;
#else
    return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
#endif
}

static void digest(uint32_t seed, const unsigned char *p, size_t n, char out[16]) {
    uint32_t a = seed + P1 + P2, b = seed + P2, c = seed, d = seed - P1;
    size_t whole = n & ~(size_t)15;
    for (size_t i = 0; i < whole; i += 16) {
        ROUND(a, word_at(p + i)); ROUND(b, word_at(p + i + 4)); ROUND(c, word_at(p + i + 8)); ROUND(d, word_at(p + i + 12));
    }
    for (size_t i = whole; i < n; i++) ROUND(a, (uint32_t)p[i] + 1);
    uint32_t len = (uint32_t)n;
    uint32_t high = ROTL(a, 1) + ROTL(b, 7) + ROTL(c, 12) + ROTL(d, 18) + len;
    uint32_t low = (ROTL(a, 18) ^ ROTL(c, 1)) + (ROTL(b, 12) ^ ROTL(d, 7)) + len * P3;
    char hex[17]; /* eg_hex64 ends with a NUL, which must not land in out's 17th byte */
    eg_hex64((uint64_t)avalanche(high) << 32 | avalanche(low), hex);
    memcpy(out, hex, 16);
}

#define CHECKSUM_DIGITS 16

/* A whole number the host passed as a double, printed (none: not in 0 .. 2^53). */
static bool put_whole(eg_buf *b, double v) {
    return v >= 0 && v <= 9007199254740992.0 ? eg_buf_int(b, (long long)v) : eg_buf_lit(b, "null");
}

eg_code eg_run_record(eg_run *run, int flags, uint32_t seed, double parent, double time, int depth,
                      const char **json, size_t *len, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    bool snapshot = flags & EG_RECORD_SNAPSHOT, sealed = flags & EG_RECORD_SEALED;
    eg_buf *b = &run->out;
    b->len = 0;
    bool ok = true;
    if (sealed) {
        /* The checksum's digits go first, once the rest is printed. */
        ok = eg_buf_put(b, "0000000000000000", CHECKSUM_DIGITS) && eg_buf_lit(b, "{\"v\":2,\"p\":")
             && put_whole(b, parent) && eg_buf_lit(b, ",\"t\":") && put_whole(b, time)
             && eg_buf_lit(b, ",\"d\":") && eg_buf_int(b, depth) && eg_buf_lit(b, ",");
    }
    ok = ok && eg_buf_lit(b, "\"m\":") && eg_run_write_meta_(run, b, !snapshot && (flags & EG_RECORD_DELTA)) && eg_buf_lit(b, "}");
    if (snapshot) ok = ok && eg_buf_lit(b, ",\"s\":") && eg_buf_json(b, run->state);
    else ok = ok && eg_buf_lit(b, ",\"x\":[") && eg_buf_put(b, run->record_patch.data ? run->record_patch.data : "", run->record_patch.len) && eg_buf_lit(b, "]");
    ok = ok && eg_buf_lit(b, "}");
    if (ok && sealed) digest(seed, (const unsigned char *)b->data + CHECKSUM_DIGITS, b->len - CHECKSUM_DIGITS, b->data);
    if (ok) run->record_patch.len = 0;
    return eg_buf_hand_out(b, ok, json, len, err);
}

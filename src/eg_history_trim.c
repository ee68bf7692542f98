/* eg_history_trim.c: what a chat history sends within its token budget:
 * the system prompt, the last user message, a pending tool-call group, and
 * the newest whole units that fit, walking back from the end (the cost is the
 * length of what is kept, not of the history). */
#include "eg_history_internal.h"

/* Decide what the trimmed history holds. keep_from: the first index of the
 * kept suffix; skipped units inside it are marked in `drop` by the caller's
 * walk. Returns the tokens used. */
typedef struct trim_plan {
    size_t keep_from;        /* messages at or after this index may be kept */
    bool user_before;        /* the last user message lies before keep_from */
    int tokens;
    bool over;
} trim_plan;

/* Message k is sent unless its unit is incomplete: an orphan tool message, or
 * calls left unanswered by a later message. The open unit at the end is not
 * incomplete but pending, and is sent with the results it has so far. */
static bool sendable(const eg_history *h, size_t k) {
    const hmsg *it = &h->items[k];
    if (h->open_unit >= 0 && (long)it->unit == h->open_unit) return (long)k == h->open_unit || it->complete;
    return it->complete && h->items[it->unit].complete;
}

static trim_plan plan(const eg_history *h) {
    trim_plan p = { h->n, false, PRIMING + h->system_tokens, false };
    int user_tokens = h->last_user >= 0 ? h->items[h->last_user].tokens : 0;
    p.tokens += user_tokens;
    long i = (long)h->n - 1;
    /* A trailing tool-call group still waiting for results (the run paused for
     * approval, or its tools are running) is protected like the last user
     * message: the results about to be added answer it, and a provider rejects
     * results whose assistant message was dropped. */
    if (h->open_unit >= 0) {
        for (long k = h->open_unit; k <= i; k++) if (sendable(h, (size_t)k)) p.tokens += h->items[k].tokens;
        p.keep_from = (size_t)h->open_unit;
        i = h->open_unit - 1;
    }
    long budget = (long)h->max_tokens - p.tokens;
    p.over = budget < 0;
    while (i >= 0) {
        const hmsg *last = &h->items[i];
        long start = (long)last->unit;
        if (start > i) start = i; /* defensive: a unit never starts after its member */
        if (i == h->last_user) { p.keep_from = (size_t)i; i--; continue; }
        if (!h->items[start].complete || !last->complete) { p.keep_from = (size_t)start; i = start - 1; continue; } /* never sent */
        long cost = 0;
        for (long k = start; k <= i; k++) cost += h->items[k].tokens;
        if (cost > budget) break;
        budget -= cost;
        p.tokens += (int)cost;
        p.keep_from = (size_t)start;
        i = start - 1;
    }
    p.user_before = h->last_user >= 0 && (size_t)h->last_user < p.keep_from;
    return p;
}

eg_code eg_history_trim(eg_history *h, const char **json, size_t *out_len, eg_error *err) {
    eg_clear(err);
    if (!h) return eg_disposed(err, "chat history");
    trim_plan p = plan(h);
    eg_buf *b = &h->out;
    b->len = 0;
    size_t sent = 0;
    bool ok = eg_buf_lit(b, "{\"messages\":[") && (!h->system || eg_buf_json(b, h->system));
    bool first = !h->system;
    if (ok && p.user_before) { ok = (first || eg_buf_lit(b, ",")) && eg_buf_json(b, h->items[h->last_user].msg); first = false; sent++; }
    for (size_t k = p.keep_from; ok && k < h->n; k++) {
        if ((long)k != h->last_user && !sendable(h, k)) continue;
        ok = (first || eg_buf_lit(b, ",")) && eg_buf_json(b, h->items[k].msg);
        first = false;
        sent++;
    }
    ok = ok && eg_buf_lit(b, "],\"tokens\":") && eg_buf_int(b, p.tokens)
            && eg_buf_lit(b, ",\"dropped\":") && eg_buf_int(b, (long long)(h->n - sent))
            && eg_buf_cstr(b, p.over ? ",\"overBudget\":true}" : ",\"overBudget\":false}");
    return eg_buf_hand_out(b, ok, json, out_len, err);
}

int eg_history_remaining(eg_history *h) {
    if (!h) return 0;
    trim_plan p = plan(h);
    return p.tokens >= h->max_tokens ? 0 : h->max_tokens - p.tokens;
}

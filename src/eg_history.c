/* eg_history.c: a chat history with a token budget (IChatHistoryManager).
 *
 * Messages are grouped into units as they arrive: an assistant message with
 * tool_calls and the tool messages answering it form one unit, kept or
 * dropped together; a tool message answering nothing (an orphan) and a call
 * never fully answered are never sent. Trimming keeps the system prompt, the
 * last user message, and the newest units that fit, walking back from the
 * end: the cost is the length of what is kept, not of the history. */
#include "eg_history_internal.h"

#include <stdio.h>
#include <string.h>


static void init(eg_history *h, int max_tokens) {
    memset(h, 0, sizeof *h);
    h->max_tokens = max_tokens;
    h->last_user = h->open_unit = -1;
}

eg_code eg_history_new(const char *options, size_t len, eg_history **out, eg_error *err) {
    eg_clear(err);
    int max = 8192;
    if (options && len) {
        cJSON *o;
        eg_code rc = eg_parse_value(options, len, EG_E_INVALID_OPTIONS, "the history options", &o, err);
        if (rc) return rc;
        const cJSON *m = eg_get(o, "maxContextTokens");
        bool bad = m && (!cJSON_IsNumber(m) || m->valuedouble < 1 || m->valuedouble > 1e9);
        if (!bad && m) max = (int)m->valuedouble;
        cJSON_Delete(o);
        if (bad) return eg_fail(err, EG_E_INVALID_OPTIONS, "maxContextTokens must be a number from 1 to 1000000000");
    }
    eg_history *h = eg_malloc(sizeof *h);
    if (!h) return eg_nomem(err);
    init(h, max);
    eg_init_json();
    *out = h;
    return EG_OK;
}

static void drop_all(eg_history *h) {
    for (size_t i = 0; i < h->n; i++) cJSON_Delete(h->items[i].msg);
    h->n = 0;
    h->last_user = h->open_unit = -1;
}

void eg_history_free(eg_history *h) {
    if (!h) return;
    drop_all(h);
    eg_free(h->items);
    cJSON_Delete(h->system);
    eg_buf_free(&h->out);
    eg_free(h);
}

static bool is_role(const cJSON *m, const char *role) {
    const cJSON *r = eg_get(m, "role");
    return cJSON_IsString(r) && strcmp(r->valuestring, role) == 0;
}

static bool has_text(const cJSON *content) {
    if (cJSON_IsString(content)) {
        for (const char *p = content->valuestring; *p; p++) if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') return true;
        return false;
    }
    return cJSON_IsArray(content) && content->child != NULL;
}

static eg_code check_message(const cJSON *m, eg_error *err) {
    if (!cJSON_IsObject(m)) return eg_fail(err, EG_E_MESSAGE, "a message must be an object with role and content");
    const cJSON *role = eg_get(m, "role"), *calls = eg_get(m, "tool_calls");
    if (!cJSON_IsString(role) || (strcmp(role->valuestring, "user") && strcmp(role->valuestring, "assistant") && strcmp(role->valuestring, "tool")))
        return eg_fail(err, EG_E_MESSAGE, "message role must be 'user', 'assistant' or 'tool' (the system prompt goes through addSystemPrompt)");
    bool with_calls = strcmp(role->valuestring, "assistant") == 0 && cJSON_IsArray(calls) && calls->child;
    if (!with_calls && !has_text(eg_get(m, "content")))
        return eg_fail(err, EG_E_MESSAGE, "a %s message needs non-empty content", role->valuestring);
    if (strcmp(role->valuestring, "tool") == 0 && !cJSON_IsString(eg_get(m, "tool_call_id")))
        return eg_fail(err, EG_E_MESSAGE, "a tool message needs tool_call_id");
    const cJSON *id = eg_get(m, "id");
    if (id && !cJSON_IsString(id)) return eg_fail(err, EG_E_MESSAGE, "a message id must be a string");
    return EG_OK;
}

/* Give the message an id if it has none; returns the id (borrowed). */
static const char *ensure_id(eg_history *h, cJSON *m) {
    const cJSON *id = eg_get(m, "id");
    if (cJSON_IsString(id)) return id->valuestring;
    char buf[32];
    eg_snprintf(buf, sizeof buf, "msg-%zu", (size_t)++h->next_id);   /* (eg_snprintf has no %lu: size_t is as wide here) */
    if (!eg_set(m, "id", cJSON_CreateString(buf))) return NULL;
    return eg_get(m, "id")->valuestring;
}

static bool calls_include(const cJSON *assistant, const char *call_id) {
    const cJSON *calls = eg_get(assistant, "tool_calls");
    for (const cJSON *c = cJSON_IsArray(calls) ? calls->child : NULL; c; c = c->next) {
        const cJSON *id = eg_get(c, "id");
        if (cJSON_IsString(id) && strcmp(id->valuestring, call_id) == 0) return true;
    }
    return false;
}

/* Place message i (already stored) in its unit. */
static void link_unit(eg_history *h, size_t i) {
    hmsg *it = &h->items[i];
    it->unit = i;
    it->complete = true;
    it->is_user = is_role(it->msg, "user");
    if (it->is_user) h->last_user = (long)i;
    const cJSON *calls = eg_get(it->msg, "tool_calls");
    if (is_role(it->msg, "tool")) {
        const char *call_id = eg_get(it->msg, "tool_call_id")->valuestring;
        hmsg *open = h->open_unit >= 0 ? &h->items[h->open_unit] : NULL;
        bool answers = open && open->missing > 0 && calls_include(open->msg, call_id);
        /* A second answer to one call is an orphan too. */
        for (size_t k = (size_t)h->open_unit + 1; answers && k < i; k++) {
            const cJSON *other = eg_get(h->items[k].msg, "tool_call_id");
            if (cJSON_IsString(other) && strcmp(other->valuestring, call_id) == 0) answers = false;
        }
        if (answers) {
            it->unit = (size_t)h->open_unit;
            if (--open->missing == 0) open->complete = true;
        } else {
            it->complete = false;
        }
        return;
    }
    /* Anything but a tool message closes the open call: unanswered calls stay incomplete. */
    h->open_unit = -1;
    if (is_role(it->msg, "assistant") && cJSON_IsArray(calls) && calls->child) {
        it->missing = cJSON_GetArraySize(calls);
        it->complete = false;
        h->open_unit = (long)i;
    }
}

static void relink(eg_history *h) {
    h->last_user = h->open_unit = -1;
    for (size_t i = 0; i < h->n; i++) { h->items[i].missing = 0; link_unit(h, i); }
}

/* Take ownership of m and append it. */
static eg_code append(eg_history *h, cJSON *m, int tokens, eg_error *err) {
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        hmsg *items = eg_realloc(h->items, cap * sizeof *items);
        if (!items) { cJSON_Delete(m); return eg_nomem(err); }
        h->items = items;
        h->cap = cap;
    }
    const char *id = ensure_id(h, m);
    if (!id) { cJSON_Delete(m); return eg_nomem(err); }
    hmsg *it = &h->items[h->n];
    memset(it, 0, sizeof *it);
    it->msg = m;
    it->id = id;
    it->tokens = tokens >= 0 ? tokens : eg_estimate_message(m);
    link_unit(h, h->n++);
    return EG_OK;
}

eg_code eg_history_add(eg_history *h, const char *message, size_t len, int tokens, const char **id, eg_error *err) {
    eg_clear(err);
    if (!h) return eg_disposed(err, "chat history");
    cJSON *m;
    eg_code rc = eg_parse_value(message, len, EG_E_MESSAGE, "the message", &m, err);
    if (rc) return rc;
    if ((rc = check_message(m, err))) { cJSON_Delete(m); return rc; }
    if ((rc = append(h, m, tokens, err))) return rc;
    if (id) *id = h->items[h->n - 1].id;
    return EG_OK;
}

eg_code eg_history_set_system(eg_history *h, const char *text, size_t len, int tokens, eg_error *err) {
    eg_clear(err);
    if (!h) return eg_disposed(err, "chat history");
    if (len == 0) { cJSON_Delete(h->system); h->system = NULL; h->system_tokens = 0; return EG_OK; }
    char *copy = eg_strndup(text, len);
    cJSON *m = copy ? cJSON_CreateObject() : NULL;
    bool ok = m && cJSON_AddStringToObject(m, "role", "system") && cJSON_AddStringToObject(m, "content", copy);
    /* Replaced in place: the prompt keeps its id. */
    const cJSON *old_id = h->system ? eg_get(h->system, "id") : NULL;
    ok = ok && (old_id ? eg_set(m, "id", cJSON_Duplicate(old_id, true)) : ensure_id(h, m) != NULL);
    eg_free(copy);
    if (!ok) { cJSON_Delete(m); return eg_nomem(err); }
    cJSON_Delete(h->system);
    h->system = m;
    h->system_tokens = tokens >= 0 ? tokens : eg_estimate_message(m);
    return EG_OK;
}

/* An id is not NUL-terminated; quote at most 63 bytes of it. */
static void quote_id(char out[64], const char *id, size_t len) {
    eg_snprintf(out, 64, "%.*s", (int)(len < 63 ? len : 63), id);
}

static eg_code no_such_id(eg_error *err, const char *id, size_t len) {
    char q[64];
    quote_id(q, id, len);
    return eg_fail(err, EG_E_NOT_FOUND, "no message has id '%s'", q);
}

static long find(const eg_history *h, const char *id, size_t len) {
    for (size_t i = 0; i < h->n; i++)
        if (strncmp(h->items[i].id, id, len) == 0 && h->items[i].id[len] == '\0') return (long)i;
    return -1;
}

static bool is_system_id(const eg_history *h, const char *id, size_t len) {
    const cJSON *sid = h->system ? eg_get(h->system, "id") : NULL;
    return sid && strncmp(sid->valuestring, id, len) == 0 && sid->valuestring[len] == '\0';
}

eg_code eg_history_edit(eg_history *h, const char *id, size_t id_len, const char *content, size_t len, int tokens, eg_error *err) {
    eg_clear(err);
    if (!h) return eg_disposed(err, "chat history");
    cJSON *c;
    eg_code rc = eg_parse_value(content, len, EG_E_MESSAGE, "the new content", &c, err);
    if (rc) return rc;
    if (!has_text(c)) { cJSON_Delete(c); return eg_fail(err, EG_E_MESSAGE, "the new content is empty"); }
    if (is_system_id(h, id, id_len)) {
        if (!cJSON_IsString(c)) { cJSON_Delete(c); return eg_fail(err, EG_E_MESSAGE, "the system prompt is text"); }
        rc = eg_history_set_system(h, c->valuestring, strlen(c->valuestring), tokens, err);
        cJSON_Delete(c);
        return rc;
    }
    long i = find(h, id, id_len);
    if (i < 0) { cJSON_Delete(c); return no_such_id(err, id, id_len); }
    hmsg *it = &h->items[i];
    if (!eg_set(it->msg, "content", c)) return eg_nomem(err);
    it->id = eg_get(it->msg, "id")->valuestring;
    it->tokens = tokens >= 0 ? tokens : eg_estimate_message(it->msg);
    return EG_OK;
}

eg_code eg_history_delete_range(eg_history *h, const char *start_id, size_t start_len, const char *end_id, size_t end_len, eg_error *err) {
    eg_clear(err);
    if (!h) return eg_disposed(err, "chat history");
    long a = find(h, start_id, start_len), b = find(h, end_id, end_len);
    if (a < 0) return no_such_id(err, start_id, start_len);
    if (b < 0) return no_such_id(err, end_id, end_len);
    if (a > b) {
        char s[64], e[64];
        quote_id(s, start_id, start_len);
        quote_id(e, end_id, end_len);
        return eg_fail(err, EG_E_NOT_FOUND, "message '%s' comes after '%s': the range is reversed", s, e);
    }
    for (long i = a; i <= b; i++) cJSON_Delete(h->items[i].msg);
    memmove(&h->items[a], &h->items[b + 1], (h->n - (size_t)b - 1) * sizeof *h->items);
    h->n -= (size_t)(b - a + 1);
    relink(h);
    return EG_OK;
}

void eg_history_clear(eg_history *h) { if (h) drop_all(h); }

/* Fill `into` (empty, with h's budget, ids and system prompt) from `list`. */
static eg_code import_into(eg_history *into, cJSON *list, const cJSON *counts, eg_error *err) {
    eg_code rc = EG_OK;
    const cJSON *count = counts ? counts->child : NULL;
    while (list->child && !rc) {
        cJSON *m = cJSON_DetachItemViaPointer(list, list->child);
        /* A count out of range is estimated instead (and never cast: that is undefined). */
        int t = cJSON_IsNumber(count) && count->valuedouble >= 0 && count->valuedouble <= 1e9 ? (int)count->valuedouble : -1;
        count = count ? count->next : NULL;
        if (is_role(m, "system")) {
            const cJSON *c = eg_get(m, "content");
            const char *text = cJSON_IsString(c) ? c->valuestring : "";
            rc = eg_history_set_system(into, text, strlen(text), t, err);
            const cJSON *id = eg_get(m, "id");
            if (!rc && cJSON_IsString(id) && into->system) rc = eg_set(into->system, "id", cJSON_Duplicate(id, true)) ? EG_OK : eg_nomem(err);
            cJSON_Delete(m);
        } else {
            rc = append(into, m, t, err);
        }
    }
    return rc;
}

eg_code eg_history_import(eg_history *h, const char *messages, size_t len, const char *tokens, size_t tokens_len, eg_error *err) {
    eg_clear(err);
    if (!h) return eg_disposed(err, "chat history");
    cJSON *list, *counts = NULL;
    eg_code rc = eg_parse_value(messages, len, EG_E_MESSAGE, "the history", &list, err);
    if (rc) return rc;
    if (tokens && tokens_len) rc = eg_parse_value(tokens, tokens_len, EG_E_INVALID_INPUT, "the token counts", &counts, err);
    if (!rc && !cJSON_IsArray(list)) rc = eg_fail(err, EG_E_MESSAGE, "importHistory takes a list of messages");
    else if (!rc && counts && (!cJSON_IsArray(counts) || cJSON_GetArraySize(counts) != cJSON_GetArraySize(list)))
        rc = eg_fail(err, EG_E_INVALID_INPUT, "token counts must be a list as long as the messages");
    /* Validate everything first, then build the new history beside the old
     * one: a bad message or a failed allocation leaves h as it was. */
    int index = 0;
    for (const cJSON *m = !rc ? list->child : NULL; m && !rc; m = m->next, index++)
        if (!is_role(m, "system") && (rc = check_message(m, err))) {
            char why[200];
            eg_snprintf(why, sizeof why, "%s", err ? err->message : "");
            eg_fail(err, rc, "message %d: %s", index, why);
        }
    eg_history next;
    init(&next, h->max_tokens);
    next.next_id = h->next_id;
    next.system_tokens = h->system_tokens;
    if (!rc && h->system && !(next.system = cJSON_Duplicate(h->system, true))) rc = eg_nomem(err);
    if (!rc) rc = import_into(&next, list, counts, err);
    cJSON_Delete(list);
    cJSON_Delete(counts);
    if (rc) {
        drop_all(&next);
        eg_free(next.items);
        cJSON_Delete(next.system);
        return rc;
    }
    drop_all(h);
    eg_free(h->items);
    cJSON_Delete(h->system);
    next.out = h->out;
    *h = next;
    return EG_OK;
}

eg_code eg_history_get(eg_history *h, const char *id, size_t id_len, const char **json, size_t *out_len, eg_error *err) {
    eg_clear(err);
    if (!h) return eg_disposed(err, "chat history");
    const cJSON *m = is_system_id(h, id, id_len) ? h->system : NULL;
    long i = m ? -1 : find(h, id, id_len);
    if (!m && i >= 0) m = h->items[i].msg;
    if (!m) return no_such_id(err, id, id_len);
    return eg_buf_print(&h->out, m, json, out_len, err);
}

eg_code eg_history_export(eg_history *h, const char **json, size_t *out_len, eg_error *err) {
    eg_clear(err);
    if (!h) return eg_disposed(err, "chat history");
    eg_buf *b = &h->out;
    b->len = 0;
    bool ok = eg_buf_lit(b, "[") && (!h->system || eg_buf_json(b, h->system));
    for (size_t i = 0; ok && i < h->n; i++) ok = ((i == 0 && !h->system) || eg_buf_lit(b, ",")) && eg_buf_json(b, h->items[i].msg);
    return eg_buf_hand_out(b, ok && eg_buf_lit(b, "]"), json, out_len, err);
}

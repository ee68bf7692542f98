/* eg_tokens.c: the default token estimate (no tokenizer table needed).
 *
 * Text: ASCII costs a token per 4 bytes (English averages about that with
 * OpenAI's encodings); every other code point costs one token, and one outside
 * the Basic Multilingual Plane (most emoji) two, since BPE splits those into
 * byte pieces. A message adds OpenAI's chat framing: 3 tokens per message, 1
 * for a name, 3 per tool call around its name and arguments. An image part
 * costs 85 tokens at detail "low" and 765 otherwise (a 1024x1024 image at high
 * detail: 85 + 4 tiles x 170); the size is not known without fetching it.
 * For exact counts, load an encoding (js/tokenizer.js) and pass counts in. */
#include "eg_internal.h"

#include <string.h>

int eg_estimate_text(const char *s) {
    size_t ascii = 0;
    int other = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x80) ascii++;
        else if ((*p & 0xC0) == 0xC0) other += (*p & 0xF8) == 0xF0 ? 2 : 1; /* a lead byte */
    }
    return (int)((ascii + 3) / 4) + other;
}

static int content_tokens(const cJSON *content) {
    if (cJSON_IsString(content)) return eg_estimate_text(content->valuestring);
    int n = 0;
    for (const cJSON *part = cJSON_IsArray(content) ? content->child : NULL; part; part = part->next) {
        const cJSON *type = eg_get(part, "type");
        if (cJSON_IsString(type) && strcmp(type->valuestring, "image_url") == 0) {
            const cJSON *detail = eg_get(eg_get(part, "image_url"), "detail");
            n += cJSON_IsString(detail) && strcmp(detail->valuestring, "low") == 0 ? 85 : 765;
        } else {
            const cJSON *text = eg_get(part, "text");
            if (cJSON_IsString(text)) n += eg_estimate_text(text->valuestring);
        }
    }
    return n;
}

int eg_estimate_message(const cJSON *m) {
    int n = 3 + content_tokens(eg_get(m, "content"));
    const cJSON *name = eg_get(m, "name"), *call_id = eg_get(m, "tool_call_id"), *calls = eg_get(m, "tool_calls");
    if (cJSON_IsString(name)) n += 1 + eg_estimate_text(name->valuestring);
    if (cJSON_IsString(call_id)) n += eg_estimate_text(call_id->valuestring);
    for (const cJSON *c = cJSON_IsArray(calls) ? calls->child : NULL; c; c = c->next) {
        const cJSON *fn = eg_get(c, "function");
        const cJSON *fname = eg_get(fn, "name"), *args = eg_get(fn, "arguments");
        n += 3 + (cJSON_IsString(fname) ? eg_estimate_text(fname->valuestring) : 0)
               + (cJSON_IsString(args) ? eg_estimate_text(args->valuestring) : 0);
    }
    return n;
}

eg_code eg_history_estimate(const char *message, size_t len, int *tokens, eg_error *err) {
    eg_clear(err);
    cJSON *m;
    eg_code rc = eg_parse_object(message, len, EG_E_MESSAGE, "the message", &m, err);
    if (rc) return rc;
    *tokens = eg_estimate_message(m);
    cJSON_Delete(m);
    return EG_OK;
}

/* test_history.c: the chat history manager and its trimming rules. */
#include "check.h"
#include "edgegraph.h"
#include "cJSON.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A string literal and its length. */
#define S(x) x, strlen(x)

static eg_history *history(int max) {
    char opts[64];
    snprintf(opts, sizeof opts, "{\"maxContextTokens\":%d}", max);
    eg_history *h = NULL;
    eg_history_new(opts, strlen(opts), &h, NULL);
    return h;
}

/* The history's export, borrowed; NULL when the call failed. */
static const char *exported(eg_history *h) {
    const char *json = NULL;
    return eg_history_export(h, &json, NULL, NULL) == EG_OK ? json : NULL;
}

/* The estimate for a message, or -1 when the call failed. */
static int estimate(const char *message, size_t len) {
    int tokens = -1;
    return eg_history_estimate(message, len, &tokens, NULL) == EG_OK ? tokens : -1;
}

static int add(eg_history *h, const char *json, int tokens) {
    eg_error e;
    return eg_history_add(h, json, strlen(json), tokens, NULL, &e);
}

/* The trimmed messages' contents (or ids when content is null), joined by '|'. */
static char *trimmed(eg_history *h, bool *over, int *tokens) {
    size_t len = 0;
    const char *t = NULL;
    CHECK(eg_history_trim(h, &t, &len, NULL) == EG_OK);
    cJSON *j = cJSON_ParseWithLength(t, len);
    static char out[2048];
    out[0] = '\0';
    for (const cJSON *m = cJSON_GetObjectItem(j, "messages")->child; m; m = m->next) {
        const cJSON *c = cJSON_GetObjectItem(m, "content");
        strcat(out, out[0] ? "|" : "");
        strcat(out, cJSON_IsString(c) ? c->valuestring : cJSON_GetObjectItem(m, "id")->valuestring);
    }
    if (over) *over = cJSON_IsTrue(cJSON_GetObjectItem(j, "overBudget"));
    if (tokens) *tokens = (int)cJSON_GetObjectItem(j, "tokens")->valuedouble;
    cJSON_Delete(j);
    return out;
}

TEST(history_validates_and_assigns_ids) {
    eg_history *h = history(1000);
    eg_error e;
    const char *id = NULL;
    CHECK(eg_history_add(h, S("{\"role\":\"user\",\"content\":\"hi\"}"), -1, &id, &e) == EG_OK);
    CHECK_STR(id, "msg-1");
    CHECK(eg_history_add(h, S("{\"role\":\"user\",\"content\":\"x\",\"id\":\"mine\"}"), -1, &id, &e) == EG_OK);
    CHECK_STR(id, "mine");
    CHECK(add(h, "{\"role\":\"user\",\"content\":\"   \"}", -1) == EG_E_MESSAGE);
    CHECK(add(h, "{\"role\":\"robot\",\"content\":\"x\"}", -1) == EG_E_MESSAGE);
    CHECK(add(h, "{\"role\":\"system\",\"content\":\"x\"}", -1) == EG_E_MESSAGE);
    CHECK(add(h, "{\"role\":\"tool\",\"content\":\"x\"}", -1) == EG_E_MESSAGE); /* no tool_call_id */
    CHECK(add(h, "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}", -1) == EG_OK);
    CHECK(add(h, "[1]", -1) == EG_E_MESSAGE);
    eg_history_free(h);
}

TEST(history_system_prompt_replaced_in_place_always_first) {
    eg_history *h = history(1000);
    eg_error e;
    add(h, "{\"role\":\"user\",\"content\":\"u1\"}", -1);
    CHECK(eg_history_set_system(h, S("be brief"), -1, &e) == EG_OK);
    cJSON *x = cJSON_Parse(exported(h));
    const char *id = cJSON_GetObjectItem(cJSON_GetArrayItem(x, 0), "id")->valuestring;
    char first_id[32];
    snprintf(first_id, sizeof first_id, "%s", id);
    cJSON_Delete(x);
    CHECK(eg_history_set_system(h, S("be kind"), -1, &e) == EG_OK);
    x = cJSON_Parse(exported(h));
    CHECK(cJSON_GetArraySize(x) == 2);
    CHECK_STR(cJSON_GetObjectItem(cJSON_GetArrayItem(x, 0), "content")->valuestring, "be kind");
    CHECK_STR(cJSON_GetObjectItem(cJSON_GetArrayItem(x, 0), "id")->valuestring, first_id);
    cJSON_Delete(x);
    CHECK_STR(trimmed(h, NULL, NULL), "be kind|u1");
    eg_history_clear(h);
    CHECK_STR(trimmed(h, NULL, NULL), "be kind");
    CHECK(eg_history_set_system(h, S(""), -1, &e) == EG_OK);
    CHECK_STR(exported(h), "[]");
    eg_history_free(h);
}

TEST(history_trim_keeps_system_last_user_and_newest) {
    eg_history *h = history(3 + 10 + 10 + 5 + 5);  /* priming + system + last user + room for two 5s */
    eg_error e;
    eg_history_set_system(h, S("sys"), 10, &e);
    add(h, "{\"role\":\"user\",\"content\":\"old question\"}", 5);
    add(h, "{\"role\":\"assistant\",\"content\":\"a1\"}", 5);
    add(h, "{\"role\":\"user\",\"content\":\"last question\"}", 10);
    add(h, "{\"role\":\"assistant\",\"content\":\"a2\"}", 5);
    add(h, "{\"role\":\"assistant\",\"content\":\"a3\"}", 5);
    bool over;
    int tokens;
    CHECK_STR(trimmed(h, &over, &tokens), "sys|last question|a2|a3");
    CHECK(!over && tokens == 33);
    CHECK(eg_history_remaining(h) == 0);
    /* The last user message stays even when it is older than what fits. */
    add(h, "{\"role\":\"assistant\",\"content\":\"a4\"}", 5);
    CHECK_STR(trimmed(h, &over, &tokens), "sys|last question|a3|a4");
    eg_history_free(h);
}

TEST(history_tool_calls_and_results_go_together) {
    const char *call = "{\"role\":\"assistant\",\"content\":null,\"id\":\"call\",\"tool_calls\":["
                       "{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"a\",\"arguments\":\"{}\"}},"
                       "{\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"b\",\"arguments\":\"{}\"}}]}";
    eg_history *h = history(3 + 4 + 10 + 10 + 4);
    add(h, "{\"role\":\"user\",\"content\":\"q\"}", 4);
    add(h, call, 10);
    add(h, "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"r1\"}", 10);
    add(h, "{\"role\":\"tool\",\"tool_call_id\":\"c2\",\"content\":\"r2\"}", 10);
    add(h, "{\"role\":\"assistant\",\"content\":\"answer\"}", 4);
    /* The group costs 30, only 20 fit: all of it goes, never a part. */
    CHECK_STR(trimmed(h, NULL, NULL), "q|answer");
    eg_history_free(h);
    h = history(1000);
    add(h, "{\"role\":\"user\",\"content\":\"q\"}", 4);
    add(h, call, 10);
    add(h, "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"r1\"}", 10);
    add(h, "{\"role\":\"tool\",\"tool_call_id\":\"c2\",\"content\":\"r2\"}", 10);
    CHECK_STR(trimmed(h, NULL, NULL), "q|call|r1|r2");
    /* An orphan result (no call asked for it) and a repeated answer are never sent. */
    add(h, "{\"role\":\"tool\",\"tool_call_id\":\"c2\",\"content\":\"again\"}", 1);
    add(h, "{\"role\":\"tool\",\"tool_call_id\":\"zz\",\"content\":\"orphan\"}", 1);
    CHECK_STR(trimmed(h, NULL, NULL), "q|call|r1|r2");
    /* A call at the end still waiting for its results (paused for approval) is
     * pending, not broken: sent whole, so the results added next answer it. */
    add(h, "{\"role\":\"assistant\",\"content\":null,\"id\":\"open\",\"tool_calls\":[{\"id\":\"c9\",\"type\":\"function\",\"function\":{\"name\":\"x\",\"arguments\":\"{}\"}}]}", 5);
    CHECK_STR(trimmed(h, NULL, NULL), "q|call|r1|r2|open");
    add(h, "{\"role\":\"tool\",\"tool_call_id\":\"c9\",\"content\":\"r9\"}", 5);
    CHECK_STR(trimmed(h, NULL, NULL), "q|call|r1|r2|open|r9");
    /* Deleting the call makes its results orphans. */
    eg_error e;
    CHECK(eg_history_delete_range(h, S("call"), S("call"), &e) == EG_OK);
    CHECK_STR(trimmed(h, NULL, NULL), "q|open|r9");
    eg_history_free(h);
}

/* The approval flow: user, then an assistant asking for two tools, one answered
 * so far. The pending group is kept whole with the results it has, even when
 * it does not fit (a flag, as for the last user message); once another message
 * closes it, calls left unanswered are never sent. */
TEST(history_pending_tool_calls_are_kept_whole) {
    const char *call = "{\"role\":\"assistant\",\"content\":null,\"id\":\"ask\",\"tool_calls\":["
                       "{\"id\":\"m1\",\"type\":\"function\",\"function\":{\"name\":\"send_email\",\"arguments\":\"{}\"}},"
                       "{\"id\":\"m2\",\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"{}\"}}]}";
    eg_history *h = history(1000);
    add(h, "{\"role\":\"user\",\"content\":\"old\"}", 4);
    add(h, "{\"role\":\"assistant\",\"content\":\"hi\"}", 4);
    add(h, "{\"role\":\"user\",\"content\":\"mail bob\"}", 4);
    add(h, call, 10);
    CHECK_STR(trimmed(h, NULL, NULL), "old|hi|mail bob|ask");
    add(h, "{\"role\":\"tool\",\"tool_call_id\":\"m2\",\"content\":\"found\"}", 4);
    CHECK_STR(trimmed(h, NULL, NULL), "old|hi|mail bob|ask|found");
    eg_history_free(h);

    /* Far over budget: the system prompt, the last user message and the pending group stay. */
    h = history(20);
    add(h, "{\"role\":\"user\",\"content\":\"old\"}", 4);
    add(h, "{\"role\":\"user\",\"content\":\"mail bob\"}", 4);
    add(h, call, 50);
    bool over = false;
    int tokens = 0;
    CHECK_STR(trimmed(h, &over, &tokens), "mail bob|ask");
    CHECK(over);
    CHECK(tokens >= 54);
    CHECK(eg_history_remaining(h) == 0);
    /* A later message closes the group: its unanswered calls are never sent. */
    add(h, "{\"role\":\"user\",\"content\":\"never mind\"}", 4);
    CHECK_STR(trimmed(h, &over, NULL), "old|mail bob|never mind");
    CHECK(!over);
    eg_history_free(h);
}

TEST(history_over_budget_is_a_flag_not_an_error) {
    eg_history *h = history(10);
    eg_error e;
    eg_history_set_system(h, S("a long system prompt"), 50, &e);
    add(h, "{\"role\":\"assistant\",\"content\":\"a\"}", 1);
    add(h, "{\"role\":\"user\",\"content\":\"u\"}", 20);
    bool over;
    CHECK_STR(trimmed(h, &over, NULL), "a long system prompt|u");
    CHECK(over);
    CHECK(eg_history_remaining(h) == 0);
    eg_history_free(h);
}

TEST(history_edit_recounts_delete_import_get) {
    eg_history *h = history(1000);
    eg_error e;
    add(h, "{\"role\":\"user\",\"content\":\"hello\",\"id\":\"u1\"}", -1);
    add(h, "{\"role\":\"assistant\",\"content\":\"hi\",\"id\":\"a1\",\"name\":\"bot\"}", -1);
    int before = eg_history_remaining(h);
    CHECK(eg_history_edit(h, S("a1"), S("\"a much longer answer than before, by far\""), -1, &e) == EG_OK);
    CHECK(eg_history_remaining(h) < before);
    CHECK(eg_history_edit(h, S("a1"), S("\"\""), -1, &e) == EG_E_MESSAGE);
    CHECK(eg_history_edit(h, S("nope"), S("\"x\""), -1, &e) == EG_E_NOT_FOUND && strstr(e.message, "'nope'"));
    size_t len;
    const char *m = NULL;
    CHECK(eg_history_get(h, S("a1"), &m, &len, &e) == EG_OK && e.code == EG_OK);
    CHECK(m && strlen(m) == len && strstr(m, "\"name\":\"bot\"") && strstr(m, "much longer"));
    CHECK(eg_history_get(h, S("zz"), &m, &len, &e) == EG_E_NOT_FOUND && strstr(e.message, "'zz'"));
    CHECK(eg_history_delete_range(h, S("a1"), S("u1"), &e) == EG_E_NOT_FOUND && strstr(e.message, "reversed"));
    CHECK(eg_history_delete_range(h, S("u1"), S("a1"), &e) == EG_OK);
    CHECK_STR(exported(h), "[]");
    const char *list = "[{\"role\":\"system\",\"content\":\"S\"},{\"role\":\"user\",\"content\":\"U\"},"
                       "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"see\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:,\",\"detail\":\"low\"}}]}]";
    CHECK(eg_history_import(h, list, strlen(list), S("[1,2,3]"), &e) == EG_OK);
    int tokens;
    CHECK_STR(trimmed(h, NULL, &tokens), "S|U|msg-3");
    CHECK(tokens == 3 + 1 + 2 + 3);
    CHECK(eg_history_import(h, S("[{\"role\":\"user\",\"content\":\"\"}]"), NULL, 0, &e) == EG_E_MESSAGE && strstr(e.message, "message 0"));
    CHECK_STR(trimmed(h, NULL, NULL), "S|U|msg-3"); /* a failed import changes nothing */
    eg_history_free(h);
}

TEST(history_estimate_is_documented_arithmetic) {
    CHECK(estimate(S("{\"role\":\"user\",\"content\":\"abcdefgh\"}")) == 3 + 2);
    CHECK(estimate(S("{\"role\":\"user\",\"content\":\"\xe4\xbd\xa0\xe5\xa5\xbd\"}")) == 3 + 2);            /* two CJK */
    CHECK(estimate(S("{\"role\":\"user\",\"content\":\"\xf0\x9f\x98\x80\"}")) == 3 + 2);                    /* one emoji */
    CHECK(estimate(S("{\"role\":\"user\",\"name\":\"ann\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}}]}")) == 3 + 1 + 1 + 765);
    eg_error e;
    int tokens = 7;
    CHECK(eg_history_estimate(S("not json"), &tokens, &e) == EG_E_MESSAGE && tokens == 7 && strstr(e.message, "not valid JSON"));
}

/* A NULL history or state manager (freed, or never created) is an error value,
 * never a crash: what the JS layer relies on after dispose(). */
TEST(null_history_and_state_manager_are_errors) {
    eg_error e;
    const char *id = NULL;
    size_t len = 0;
    CHECK(eg_history_add(NULL, S("{\"role\":\"user\",\"content\":\"x\"}"), -1, &id, &e) == EG_E_DISPOSED && strstr(e.message, "NULL"));
    CHECK(eg_history_set_system(NULL, S("sys"), -1, &e) == EG_E_DISPOSED);
    CHECK(eg_history_edit(NULL, S("m"), S("\"x\""), -1, &e) == EG_E_DISPOSED);
    CHECK(eg_history_delete_range(NULL, S("a"), S("b"), &e) == EG_E_DISPOSED);
    CHECK(eg_history_import(NULL, S("[]"), NULL, 0, &e) == EG_E_DISPOSED);
    const char *json = NULL;
    CHECK(eg_history_get(NULL, S("m"), &json, &len, &e) == EG_E_DISPOSED && json == NULL);
    CHECK(eg_history_export(NULL, &json, &len, &e) == EG_E_DISPOSED && json == NULL);
    CHECK(eg_history_trim(NULL, &json, &len, &e) == EG_E_DISPOSED && strstr(e.message, "chat history is NULL"));
    CHECK(eg_history_remaining(NULL) == 0);
    eg_history_clear(NULL);
    eg_history_free(NULL);
    CHECK(eg_sm_initialize(NULL, S("{}"), &json, &len, &e) == EG_E_DISPOSED && e.code == EG_E_DISPOSED);
    CHECK(eg_sm_update(NULL, S("{}"), "scratch", S("{}"), &json, &len, &e) == EG_E_DISPOSED);
    CHECK(eg_sm_visit(NULL, S("{}"), S("a"), &json, &len, &e) == EG_E_DISPOSED);
    CHECK(eg_sm_merge(NULL, S("{}"), S("[]"), &json, &len, &e) == EG_E_DISPOSED && strstr(e.message, "state manager is NULL"));
    eg_sm_free(NULL);
}

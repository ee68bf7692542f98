/* test_state.c: the state manager (seed 002) and its fixed defects. */
#include "check.h"
#include "edgegraph.h"
#include "cJSON.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static eg_sm *manager(const char *reducers) {
    eg_error e;
    eg_sm *sm = NULL;
    if (eg_sm_new(reducers, reducers ? strlen(reducers) : 0, &sm, &e)) fprintf(stderr, "  sm: %s\n", e.message);
    return sm;
}

/* Results are copied out, since the manager's buffer is reused. */
static char *copy(const char *s) { if (!s) return NULL; size_t n = strlen(s) + 1; char *d = malloc(n); memcpy(d, s, n); return d; }

/* The text a call lent out through `lent`, copied; NULL when it returned an
 * error (which must be the code it put in *e). */
static const char *lent;
static char *copied(eg_code rc, const eg_error *e) {
    CHECK(rc == e->code);
    return rc ? NULL : copy(lent);
}

static char *update(eg_sm *sm, const char *state, const char *part, const char *patch, eg_error *e) {
    return copied(eg_sm_update(sm, state, strlen(state), part, patch, strlen(patch), &lent, NULL, e), e);
}

static bool has(const char *state, const char *path_json, const char *want) {
    /* path_json: ["scratch","messages"] */
    cJSON *s = cJSON_Parse(state), *p = cJSON_Parse(path_json), *w = cJSON_Parse(want);
    const cJSON *v = s;
    for (const cJSON *k = p->child; k && v; k = k->next) v = cJSON_GetObjectItemCaseSensitive(v, k->valuestring);
    bool ok = v && cJSON_Compare(v, w, true);
    if (!ok) {
        char *got = v ? cJSON_PrintUnformatted(v) : NULL;
        fprintf(stderr, "  %s: want %s got %s\n", path_json, want, got ? got : "(missing)");
        free(got);
    }
    cJSON_Delete(s); cJSON_Delete(p); cJSON_Delete(w);
    return ok;
}

TEST(state_seed_example_concat) {
    eg_sm *sm = manager("{\"scratch.messages\":\"concat\"}");
    eg_error e;
    char *s0 = copied(eg_sm_initialize(sm, "{\"prompt\":\"Hello\"}", 18, &lent, NULL, &e), &e);
    CHECK(has(s0, "[\"input\"]", "{\"prompt\":\"Hello\"}"));
    CHECK(has(s0, "[\"iteration\"]", "0"));
    char *s1 = update(sm, s0, "scratch", "{\"messages\":[\"first\"]}", &e);
    char *s2 = update(sm, s1, "scratch", "{\"messages\":[\"second\"]}", &e);
    CHECK(has(s2, "[\"scratch\",\"messages\"]", "[\"first\",\"second\"]"));
    CHECK(has(s1, "[\"scratch\",\"messages\"]", "[\"first\"]")); /* the old state is untouched */
    char *s3 = copied(eg_sm_visit(sm, s2, strlen(s2), "plan", 4, &lent, NULL, &e), &e);
    char *s4 = copied(eg_sm_visit(sm, s3, strlen(s3), "act", 3, &lent, NULL, &e), &e);
    CHECK(has(s4, "[\"visitedNodes\"]", "[\"plan\",\"act\"]"));
    CHECK(has(s4, "[\"currentNodeId\"]", "\"act\""));
    CHECK(has(s4, "[\"iteration\"]", "2"));
    CHECK(update(sm, s4, "input", "{\"prompt\":\"x\"}", &e) == NULL && e.code == EG_E_READONLY);
    CHECK(update(sm, s4, "nowhere", "{}", &e) == NULL && e.code == EG_E_INVALID_INPUT);
    free(s0); free(s1); free(s2); free(s3); free(s4);
    eg_sm_free(sm);
}

TEST(state_artifacts_take_reducers_too) {
    eg_sm *sm = manager("{\"artifacts.files\":\"appendUnique\"}");
    eg_error e;
    char *s = update(sm, "{\"input\":{},\"artifacts\":{\"files\":[\"a\"],\"report\":\"v1\"}}", "artifacts", "{\"files\":[\"a\",\"b\"],\"report\":\"v2\"}", &e);
    CHECK(has(s, "[\"artifacts\",\"files\"]", "[\"a\",\"b\"]"));
    CHECK(has(s, "[\"artifacts\",\"report\"]", "\"v2\""));
    free(s);
    eg_sm_free(sm);
}

static char *merge(eg_sm *sm, const char *base, const char *branches, eg_error *e) {
    return copied(eg_sm_merge(sm, base, strlen(base), branches, strlen(branches), &lent, NULL, e), e);
}

TEST(state_merge_applies_each_branch_delta) {
    eg_sm *sm = manager("{\"scratch.results\":\"concat\",\"scratch.total\":\"sum\",\"scratch.meta\":\"merge\"}");
    eg_error e;
    const char *base = "{\"input\":{\"q\":1},\"scratch\":{\"results\":[\"x\"],\"total\":5,\"meta\":{\"a\":0,\"b\":0}},\"iteration\":3}";
    const char *branches = "["
        "{\"input\":{\"q\":1},\"currentNodeId\":\"b1\",\"scratch\":{\"results\":[\"x\",\"r1\"],\"total\":5,\"meta\":{\"a\":1,\"b\":0}}},"
        "{\"input\":{\"q\":1},\"currentNodeId\":\"b2\",\"scratch\":{\"results\":[\"x\",\"r2\"],\"total\":7,\"meta\":{\"a\":0,\"b\":2}}}]";
    char *s = merge(sm, base, branches, &e);
    CHECK(s != NULL);
    CHECK(has(s, "[\"scratch\",\"results\"]", "[\"x\",\"r1\",\"r2\"]")); /* the reference gets ['x','r1','x','r2'] */
    CHECK(has(s, "[\"scratch\",\"total\"]", "7"));                      /* 5 + (7-5); untouched not doubled */
    CHECK(has(s, "[\"scratch\",\"meta\"]", "{\"a\":1,\"b\":2}"));        /* b2's untouched a does not undo b1 */
    CHECK(has(s, "[\"iteration\"]", "3"));
    free(s);
    eg_sm_free(sm);
}

TEST(state_merge_conflicts_and_readonly_input) {
    eg_sm *sm = manager(NULL);
    eg_error e;
    const char *base = "{\"input\":{},\"scratch\":{}}";
    CHECK(merge(sm, base, "[{\"currentNodeId\":\"l\",\"input\":{},\"scratch\":{\"k\":1}},{\"currentNodeId\":\"r\",\"input\":{},\"scratch\":{\"k\":2}}]", &e) == NULL);
    CHECK(e.code == EG_E_CONFLICT && strstr(e.message, "'l' and 'r'") && strstr(e.message, "scratch.k"));
    char *same = merge(sm, base, "[{\"input\":{},\"scratch\":{\"k\":1}},{\"input\":{},\"scratch\":{\"k\":1}}]", &e);
    CHECK(same && has(same, "[\"scratch\",\"k\"]", "1"));
    free(same);
    CHECK(merge(sm, base, "[{\"currentNodeId\":\"bad\",\"input\":{\"x\":1},\"scratch\":{}}]", &e) == NULL && e.code == EG_E_READONLY && strstr(e.message, "'bad'"));
    CHECK(merge(sm, base, "{}", &e) == NULL && e.code == EG_E_INVALID_INPUT);
    eg_sm_free(sm);
}

TEST(state_merge_avg_is_exact) {
    eg_sm *sm = manager("{\"scratch.score\":\"avg\"}");
    eg_error e;
    /* base: mean 2 of 1 value; branch 1 adds 4 (mean 3 of 2), branch 2 adds 8 (mean 5 of 2) */
    const char *base = "{\"input\":{},\"scratch\":{\"score\":2,\"score__count\":1}}";
    const char *branches = "[{\"input\":{},\"scratch\":{\"score\":3,\"score__count\":2}},{\"input\":{},\"scratch\":{\"score\":5,\"score__count\":2}}]";
    char *s = merge(sm, base, branches, &e);
    CHECK(s && has(s, "[\"scratch\",\"score\"]", "4.666666666666667"));
    CHECK(s && has(s, "[\"scratch\",\"score__count\"]", "3"));
    free(s);
    eg_sm_free(sm);
}

TEST(state_bad_reducers_and_types) {
    eg_error e;
    eg_sm *bad = NULL;
    CHECK(eg_sm_new("{\"scratch.x\":\"median\"}", strlen("{\"scratch.x\":\"median\"}"), &bad, &e) == EG_E_DEFINITION && !bad && strstr(e.message, "scratch.x"));
    CHECK(eg_sm_new("{\"scratch..x\":\"sum\"}", strlen("{\"scratch..x\":\"sum\"}"), &bad, &e) == EG_E_DEFINITION && !bad);
    eg_sm *sm = manager("{\"scratch.n\":\"sum\"}");
    CHECK(update(sm, "{\"scratch\":{\"n\":1}}", "scratch", "{\"n\":\"two\"}", &e) == NULL && e.code == EG_E_REDUCER && strstr(e.message, "scratch.n"));
    CHECK(update(sm, "{\"scratch\":5}", "scratch", "{\"n\":1}", &e) == NULL && e.code == EG_E_INVALID_INPUT);
    CHECK(update(sm, "[]", "scratch", "{}", &e) == NULL && e.code == EG_E_INVALID_INPUT);
    eg_sm_free(sm);
    eg_sm_free(NULL);
}

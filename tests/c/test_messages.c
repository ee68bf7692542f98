/* test_messages.c: the messages reducer finds a message by its id whether the
 * message was put there by the reducer (tagged with its id's hash) or came
 * with the input or a restore (untagged), and two ids of the same tag stay
 * two messages. */
#include "check.h"
#include "eg_internal.h"

#include <stdlib.h>
#include <string.h>

static const char def[] = "{\"nodes\":{\"a\":{},\"b\":{},\"c\":{}},\"edges\":{\"a\":\"b\",\"b\":\"c\",\"c\":\"__end__\"},"
                          "\"entryPoint\":\"a\",\"state\":{\"reducers\":{\"m\":\"messages\"}}}";

/* "m4210" and "m828206" have the same tag (FNV-1a 32 | 1: 0x8ebfc49b). */
#define TWIN_A "m4210"
#define TWIN_B "m828206"

/* Submit `result` as the one pending task; the step's patch, printed. */
static char *step(eg_run *r, const char *result) {
    const char *t;
    size_t len;
    CHECK(eg_run_submit(r, 0, result, strlen(result), NULL) == EG_OK);
    CHECK(eg_run_next(r, &t, &len, NULL) == EG_OK);
    cJSON *o = cJSON_ParseWithLength(t, len);
    char *patch = cJSON_PrintUnformatted(cJSON_GetObjectItem(o, "patch"));
    cJSON_Delete(o);
    return patch;
}

static bool messages_are(eg_run *r, const char *want) {
    const char *t;
    size_t len;
    CHECK(eg_run_state(r, &t, &len, NULL) == EG_OK);
    cJSON *state = cJSON_ParseWithLength(t, len), *w = cJSON_Parse(want);
    bool same = cJSON_Compare(cJSON_GetObjectItem(state, "m"), w, true);
    if (!same) fprintf(stderr, "  want %s got %.*s\n", want, (int)len, t);
    cJSON_Delete(state);
    cJSON_Delete(w);
    return same;
}

static bool has_op(const char *patch, const char *op) {
    bool found = patch && strstr(patch, op);
    if (!found) fprintf(stderr, "  no %s in %s\n", op, patch ? patch : "(null)");
    return found;
}

/* The checksum a thread's record takes from the sum the run keeps as it
 * writes (each pushed message adds its terms, at its index) equals the one a
 * checkpoint adds up afresh. */
static bool sums_agree(eg_run *r) {
    const char *t;
    size_t len;
    char kept[17] = "", fresh[17] = "";
    eg_run_record_patches(r);
    if (eg_run_record(r, EG_RECORD_DELTA, 0, -1, 0, 0, &t, &len, NULL) != EG_OK) return false;
    const char *at = strstr(t, "\"checksum\":\"");
    if (at) memcpy(kept, at + 12, 16);
    if (eg_run_checkpoint(r, &t, &len, NULL) != EG_OK) return false;
    at = strstr(t, "\"checksum\":\"");
    if (at) memcpy(fresh, at + 12, 16);
    if (!*kept || strcmp(kept, fresh) != 0) fprintf(stderr, "  kept %s, fresh %s\n", kept, fresh);
    return *kept && strcmp(kept, fresh) == 0;
}

TEST(messages_found_by_id_tagged_untagged_and_twins) {
    eg_graph *g = NULL;
    CHECK(eg_graph_new(def, strlen(def), &g, NULL) == EG_OK);
    static const char input[] = "{\"m\":[{\"id\":\"in\"}]}";
    eg_run *r = NULL;
    CHECK(eg_run_new(g, input, strlen(input), NULL, 0, &r, NULL) == EG_OK);
    const char *t;
    size_t len;
    CHECK(eg_run_next(r, &t, &len, NULL) == EG_OK);
    CHECK(sums_agree(r));   /* from here on the run keeps its sum step by step */
    /* Two new twins pushed, the input's (untagged) message replaced. */
    char *p = step(r, "{\"m\":[{\"id\":\"" TWIN_A "\"},{\"id\":\"" TWIN_B "\"},{\"id\":\"in\",\"v\":1}]}");
    CHECK(has_op(p, "[\"push\",[\"m\"],[{\"id\":\"" TWIN_B "\"}]]"));
    CHECK(has_op(p, "[\"set\",[\"m\",0],{\"id\":\"in\",\"v\":1}]"));
    free(p);
    CHECK(messages_are(r, "[{\"id\":\"in\",\"v\":1},{\"id\":\"" TWIN_A "\"},{\"id\":\"" TWIN_B "\"}]"));
    CHECK(sums_agree(r));
    /* A restored run (no tags) and this one (tags) replace the same messages. */
    CHECK(eg_run_checkpoint(r, &t, &len, NULL) == EG_OK);
    eg_run *restored = NULL;
    CHECK(eg_run_restore(g, t, len, NULL, 0, &restored, NULL) == EG_OK);
    CHECK(eg_run_next(restored, &t, &len, NULL) == EG_OK);
    static const char update[] = "{\"m\":[{\"id\":\"" TWIN_B "\",\"v\":2},{\"id\":\"" TWIN_A "\",\"v\":3},{\"type\":\"remove\",\"id\":\"in\"}]}";
    static const char after[] = "[{\"id\":\"" TWIN_A "\",\"v\":3},{\"id\":\"" TWIN_B "\",\"v\":2}]";
    eg_run *runs[] = { r, restored };
    for (int i = 0; i < 2; i++) {
        p = step(runs[i], update);
        CHECK(has_op(p, "[\"set\",[\"m\",2],{\"id\":\"" TWIN_B "\",\"v\":2}]"));
        CHECK(has_op(p, "[\"set\",[\"m\",1],{\"id\":\"" TWIN_A "\",\"v\":3}]"));
        CHECK(has_op(p, "[\"del\",[\"m\",0]]"));
        free(p);
        CHECK(messages_are(runs[i], after));
        CHECK(sums_agree(runs[i]));
        /* The twin's replacement is found again (its tag was renewed with it). */
        p = step(runs[i], "{\"m\":[{\"id\":\"" TWIN_A "\",\"v\":4}]}");
        CHECK(has_op(p, "[\"set\",[\"m\",0],{\"id\":\"" TWIN_A "\",\"v\":4}]"));
        free(p);
        eg_run_free(runs[i]);
    }
    eg_graph_free(g);
}

/* eg_keys.c: the engine's key vocabulary (eg_keys.h) as predicates. */
#include "eg_keys.h"

#include <string.h>

static bool one_of(const char *key, const char *const *names, size_t n) {
    for (size_t i = 0; i < n; i++) if (strcmp(key, names[i]) == 0) return true;
    return false;
}

bool eg_is_control_key(const char *key) {
    static const char *const controls[] = { EG_KEY_NEXT_NODE_OVERRIDE, EG_KEY_SHOULD_END, EG_KEY_STATUS };
    return one_of(key, controls, sizeof controls / sizeof *controls);
}

bool eg_is_engine_key(const char *key, bool partitioned) {
    static const char *const engine[] = { EG_KEY_CURRENT_NODE, EG_KEY_NEXT_NODE, EG_KEY_STEP_COUNT, EG_KEY_ERROR };
    static const char *const visits[] = { EG_KEY_CURRENT_NODE_ID, EG_KEY_VISITED_NODES, EG_KEY_ITERATION };
    return one_of(key, engine, sizeof engine / sizeof *engine) || (partitioned && one_of(key, visits, sizeof visits / sizeof *visits));
}

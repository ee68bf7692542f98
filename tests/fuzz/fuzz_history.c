/* fuzz_history.c: chat histories from arbitrary bytes: import, add, edit,
 * delete, trim. */
#include "edgegraph.h"
#include <stdint.h>
#include <stddef.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    eg_error e;
    eg_history *h = NULL;
    eg_history_new("{\"maxContextTokens\":64}", 23, &h, &e);
    const char *text = (const char *)data;
    size_t len;
    const char *out;
    eg_history_import(h, text, size, NULL, 0, &e);
    eg_history_trim(h, &out, &len, &e);
    eg_history_add(h, text, size, -1, NULL, &e);
    eg_history_set_system(h, text, size > 64 ? 64 : size, -1, &e);
    eg_history_edit(h, "msg-1", 5, text, size, -1, &e);
    eg_history_trim(h, &out, &len, &e);
    eg_history_remaining(h);
    eg_history_delete_range(h, "msg-1", 5, "msg-2", 5, &e);
    eg_history_export(h, &out, &len, &e);
    int tokens;
    eg_history_estimate(text, size, &tokens, &e);
    eg_history_free(h);
    return 0;
}

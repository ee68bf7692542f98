/* fuzz_json.c: the core's JSON reader (eg_json_read) against cJSON's parser,
 * which it replaced: on any input both read the same tree (printed the same,
 * ending at the same byte), on the heap and in an arena, or both refuse
 * (tests/c/json_read_diff.h, with its one difference on purpose). */
#include "../c/json_read_diff.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (json_read_diff((const char *)data, size)) abort();
    return 0;
}

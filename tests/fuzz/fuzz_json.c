/* fuzz_json.c: the core's JSON reader (eg_json_read) against cJSON's parser,
 * which it replaced: on any input both read the same tree (printed the same,
 * ending at the same byte), on the heap and in an arena, or both refuse
 * (tests/c/json_read_diff.h, with its one difference on purpose); and the
 * reader with raw segments reads any text as the plain one, and the text
 * with its strings as raw segments as the same tree, telling its JSON length. */
#include "../c/json_read_diff.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (json_read_diff((const char *)data, size)) abort();
    if (raw_read_diff((const char *)data, size)) abort();
    return 0;
}

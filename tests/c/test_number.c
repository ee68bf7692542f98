/* test_number.c: eg_number.c's own text conversions agree with libc's, which
 * the native build and these tests have (the .wasm links neither). */
#include "check.h"
#include "eg_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* eg_snprintf and libc's vsnprintf give the same text and the same length, cut or not. */
#define SAME_AS_LIBC(cap, ...) do { \
    char ours_[64], libc_[64]; \
    memset(ours_, 'x', sizeof ours_); memset(libc_, 'x', sizeof libc_); \
    int a_ = eg_snprintf(ours_, (cap), __VA_ARGS__); \
    int b_ = snprintf(libc_, (cap), __VA_ARGS__); \
    CHECK(a_ == b_); \
    CHECK(memcmp(ours_, libc_, sizeof ours_) == 0); } while (0)

TEST(number_snprintf_matches_libc) {
    const char *name = "a-rather-long-node-name-that-goes-on-and-on-past-sixty-characters-for-sure";
    for (size_t cap = 0; cap <= 64; cap += 7) {
        SAME_AS_LIBC(cap, "'%.60s'", name);
        SAME_AS_LIBC(cap, "%d|%d|%d", 0, -2147483647 - 1, 2147483647);
        SAME_AS_LIBC(cap, "msg-%zu and %zu", (size_t)-1, (size_t)12345);
        SAME_AS_LIBC(cap, "%.*s|%.*s", 3, "abcdef", 0, "abc");
        SAME_AS_LIBC(cap, "%s'%s' 100%%", "", "x");
        SAME_AS_LIBC(cap, "branch %d", 7);
    }
    char buf[8];
    CHECK(eg_snprintf(buf, sizeof buf, "%s", (const char *)NULL) == 6);
    CHECK_STR(buf, "(null)");
}

TEST(number_format_and_parse_match_libc) {
    const double values[] = { 0.1, -0.5, 1e21, 1.5e-7, 5e-324, 1.7976931348623157e308, 123456789012345678.0,
                              0.30000000000000004, 1234567890123445.0, 763849186294976.5, 1e-5, 3.141592653589793 };
    const int digits[] = { 6, 15, 17 };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        for (size_t j = 0; j < 3; j++) {
            char ours[40], libc[40];
            size_t n = eg_number_format(ours, sizeof ours, values[i], digits[j]);
            snprintf(libc, sizeof libc, "%.*g", digits[j], values[i]);
            CHECK_STR(ours, libc);
            CHECK(n == strlen(libc));
        }
        char text[40], *end = NULL;
        snprintf(text, sizeof text, "%.17g", values[i]);
        CHECK(eg_number_parse(text, &end) == values[i]);
        CHECK(end == text + strlen(text));
    }
    char *end = NULL;
    const char *partial = "-12.5e+3x";
    CHECK(eg_number_parse(partial, &end) == -12500.0 && end == partial + 8);
    const char *integer = "123456789012345,";
    CHECK(eg_number_parse(integer, &end) == 123456789012345.0 && end == integer + 15);
    const char *dangling = "7e+";
    CHECK(eg_number_parse(dangling, &end) == 7.0 && end == dangling + 1);
    const char *none = "-.e5";
    CHECK(eg_number_parse(none, &end) == 0.0 && end == none);
}

/* eg_number_js writes what JavaScript's String(x) writes (the texts below are
 * node's), where %g differs: 0.00001, not 1e-05; 1000000000000000, not 1e+15. */
TEST(number_js_text_matches_javascript) {
    static const struct { double value; const char *text; } cases[] = {
        { 0.1, "0.1" }, { -0.5, "-0.5" }, { 0.1 + 0.2, "0.30000000000000004" }, { 1.0 / 3.0, "0.3333333333333333" },
        { 1e-4, "0.0001" }, { 1e-5, "0.00001" }, { 0.000001, "0.000001" }, { -0.0000012345, "-0.0000012345" },
        { 1e-7, "1e-7" }, { 1.5e-7, "1.5e-7" }, { -2.25e-9, "-2.25e-9" }, { 5e-324, "5e-324" },
        { 1e15, "1000000000000000" }, { 1e20, "100000000000000000000" }, { 123456789012345680000.0, "123456789012345680000" },
        { 1e21, "1e+21" }, { 1.7976931348623157e308, "1.7976931348623157e+308" },
        { 123.456, "123.456" }, { 12345678.9, "12345678.9" }, { 763849186294976.5, "763849186294976.5" },
        { 1234567890123445.0, "1234567890123445" }, { 9007199254740994.0, "9007199254740994" },
        { 100, "100" }, { 0.7999999999999999, "0.7999999999999999" }, { -0.0, "0" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[EG_NUMBER_JS_CAP];
        eg_number_js(text, cases[i].value);
        CHECK_STR(text, cases[i].text);
    }
}

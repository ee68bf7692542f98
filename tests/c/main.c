/* main.c: run every registered test (or those whose name contains argv[1]). */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TESTS 256
static struct { const char *name; test_fn fn; } tests[MAX_TESTS];
static int n_tests = 0, current_failures = 0;

void test_register(const char *name, test_fn fn) {
    if (n_tests < MAX_TESTS) { tests[n_tests].name = name; tests[n_tests].fn = fn; n_tests++; }
}

void test_failed(const char *file, int line, const char *what) {
    current_failures++;
    fprintf(stderr, "  %s:%d: %s\n", file, line, what);
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv) {
    qsort(tests, (size_t)n_tests, sizeof tests[0], by_name);
    int passed = 0, failed = 0;
    for (int i = 0; i < n_tests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1])) continue;
        current_failures = 0;
        tests[i].fn();
        if (current_failures) { failed++; printf("FAIL %s\n", tests[i].name); }
        else { passed++; printf("ok   %s\n", tests[i].name); }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

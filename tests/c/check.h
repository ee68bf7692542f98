/* check.h: a small test harness. Tests register themselves; main() runs them
 * and ends with the line "N passed, N failed". */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);
void test_failed(const char *file, int line, const char *what);

#define TEST(name) \
    static void name(void); \
    __attribute__((constructor)) static void register_##name(void) { test_register(#name, name); } \
    static void name(void)

#define CHECK(cond) do { if (!(cond)) test_failed(__FILE__, __LINE__, #cond); } while (0)
#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
    if (!a_ || !b_ || strcmp(a_, b_) != 0) { \
        char m_[512]; snprintf(m_, sizeof m_, "%s == %s (\"%.200s\" vs \"%.200s\")", #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
        test_failed(__FILE__, __LINE__, m_); } } while (0)

#endif

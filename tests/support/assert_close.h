/* assert_close.h - float comparison for cmocka (its assert_float_equal is float-only). */
#ifndef BENCHLAB_TESTS_ASSERT_CLOSE_H
#define BENCHLAB_TESTS_ASSERT_CLOSE_H
#include <math.h>
#include <stdio.h>

#define assert_close(actual, expected, tol)                                                        \
    do {                                                                                           \
        double a_ = (actual), e_ = (expected), t_ = (tol);                                         \
        if (!(fabs(a_ - e_) <= t_)) {                                                              \
            char m_[200];                                                                          \
            snprintf(m_, sizeof m_, "%.17g is not within %g of %.17g", a_, t_, e_);                \
            fail_msg("%s", m_);                                                                    \
        }                                                                                          \
    } while (0)
#endif

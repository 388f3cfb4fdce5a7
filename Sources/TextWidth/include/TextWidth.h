// libc's wcwidth, which is the rule ncurses uses to place each code point.
#ifndef ONBOARD_TEXT_WIDTH_H
#define ONBOARD_TEXT_WIDTH_H
#include <stdint.h>

// Columns a code point takes: 0, 1 or 2; -1 for a non-printable one.
int onboard_wcwidth(uint32_t scalar);
// Whether LC_CTYPE is UTF-8 (after setlocale).
int onboard_locale_is_utf8(void);
// setlocale(LC_ALL, ""), falling back to C.UTF-8 for the character type when the
// user's codeset is not UTF-8. Returns 2 when the user's own locale is UTF-8, 1 when
// only the fallback is (draw ASCII then: the terminal may not show UTF-8), 0 otherwise.
int onboard_setup_locale(void);
#endif

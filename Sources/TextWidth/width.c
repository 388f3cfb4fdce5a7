#define _XOPEN_SOURCE 700
#include "TextWidth.h"
#include <langinfo.h>
#include <locale.h>
#include <string.h>
#include <wchar.h>

int onboard_wcwidth(uint32_t scalar) {
    return wcwidth((wchar_t)scalar);
}

int onboard_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

int onboard_setup_locale(void) {
    setlocale(LC_ALL, "");
    if (onboard_locale_is_utf8()) return 2;
    // Only the character type: messages and numbers stay as the user set them.
    if (setlocale(LC_CTYPE, "C.UTF-8") && onboard_locale_is_utf8()) return 1;
    return 0;
}

// What Swift cannot import from ncurses directly: macros (A_*, getmaxyx, KEY_F,
// COLOR_PAIR), the wide-character API behind NCURSES_WIDECHAR, and signal plumbing.
#ifndef ONBOARD_CURSES_SHIM_H
#define ONBOARD_CURSES_SHIM_H

#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// Opens the terminal with newterm on the given streams. Returns NULL and fills
// `reason` when the terminal type is unknown or cannot address the cursor.
SCREEN *onboard_open_terminal(const char *term, int in_fd, int out_fd,
                              char *reason, int reason_len);
void onboard_close_terminal(SCREEN *screen);

void onboard_size(int *rows, int *cols);

// Style attributes, composed here because A_* are macros.
enum {
    ONBOARD_ATTR_BOLD = 1, ONBOARD_ATTR_UNDERLINE = 2, ONBOARD_ATTR_REVERSE = 4,
    ONBOARD_ATTR_DIM = 8
};
// Draws a run of wide characters at (y, x) with attribute flags and a colour pair.
void onboard_draw_run(int y, int x, const wchar_t *text, int length, int attr_flags, short pair);

// Reads one key without blocking. Returns 0 for none, 1 for a character in *value,
// 2 for a function key code in *value.
int onboard_read_key(int32_t *value);

// Key codes Swift needs to compare against.
int onboard_key_code(const char *name);

// The name ncurses gives a key code: "KEY_LEFT", "KEY_F(12)", or terminfo's extended
// names for modified keys ("kLFT5" is Ctrl-Left). NULL when it has none.
const char *onboard_key_name(int code);
const char *onboard_mouse_prefix(void);

// Signals: SIGTERM, SIGHUP, SIGINT, SIGCONT write their number to `fd`; crash signals
// restore the terminal before the process dies.
void onboard_install_signal_pipe(int fd);
void onboard_install_crash_restore(void);

// Stops the process as Ctrl-Z would, after leaving curses mode; returns once continued.
void onboard_suspend_self(void);

// Turns the terminal's bracketed paste on (1) or off (0), if it has it.
void onboard_bracketed_paste(int on);

// Reads back row `y` of the screen as ncurses holds it (for tests).
int onboard_read_row(int y, wchar_t *buffer, int length);

#endif

/* The ncurses floor: the least a C program needs to show what Onboard shows in the
 * client benchmark (OKLah's privacy screen, a next screen after Enter, a text field
 * echoing typed characters), with ncursesw and nothing else.
 *
 *     floor privacy    the privacy screen; Enter shows the next screen
 *     floor input      a "Server URL" field prefilled with mock://local
 */
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncursesw/curses.h>
#include <string.h>

static void frame(const char *title) {
    erase();
    int width = 64, height = 14;
    int top = (LINES - height) / 2, left = (COLS - width) / 2;
    WINDOW *box_window = derwin(stdscr, height, width, top, left);
    box(box_window, 0, 0);
    attron(A_BOLD);
    mvaddstr(top + 2, left + (width - (int)strlen(title)) / 2, title);
    attroff(A_BOLD);
    delwin(box_window);
}

static void privacy(void) {
    frame("Welcome to OKLah");
    int left = (COLS - 64) / 2 + 4, top = (LINES - 14) / 2;
    mvaddstr(top + 4, left, "1. Your privacy comes first");
    mvaddstr(top + 5, left, "2. No name, email, or phone needed");
    mvaddstr(top + 6, left, "3. Your data stays on your device");
    attron(A_REVERSE);
    mvaddstr(top + 10, (COLS - 9) / 2, "[ Start ]");
    attroff(A_REVERSE);
    mvaddstr(LINES - 1, 1, "Enter start - Ctrl-C quit");
}

static void mission(void) {
    frame("Our mission");
    int left = (COLS - 64) / 2 + 4, top = (LINES - 14) / 2;
    mvaddstr(top + 4, left, "Technology should serve your life, not consume it.");
    attron(A_REVERSE);
    mvaddstr(top + 10, (COLS - 12) / 2, "[ Continue ]");
    attroff(A_REVERSE);
}

int main(int argc, char **argv) {
    setlocale(LC_ALL, "");
    const char *mode = argc > 1 ? argv[1] : "privacy";
    initscr();
    raw();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    char value[256] = "mock://local";
    if (strcmp(mode, "input") == 0) {
        frame("Baby Basics");
        curs_set(1);
    } else {
        privacy();
    }
    for (;;) {
        if (strcmp(mode, "input") == 0) {
            int left = (COLS - 64) / 2 + 4, top = (LINES - 14) / 2;
            mvaddstr(top + 5, left, "Server URL");
            attron(A_UNDERLINE);
            mvprintw(top + 6, left, "%-56s", value);
            attroff(A_UNDERLINE);
            move(top + 6, left + (int)strlen(value));
        }
        refresh();
        int key = getch();
        if (key == 3 || (key == 'q' && strcmp(mode, "input") != 0)) break;
        if (strcmp(mode, "input") == 0) {
            size_t length = strlen(value);
            if (key >= 32 && key < 127 && length < sizeof value - 1) { value[length] = (char)key; value[length + 1] = 0; }
        } else if (key == '\r' || key == '\n' || key == KEY_ENTER) {
            mission();
        }
    }
    endwin();
    return 0;
}

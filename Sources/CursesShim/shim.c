#define _GNU_SOURCE 1
#include "CursesShim.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <term.h>
#include <unistd.h>
#include <stdlib.h>

static FILE *terminal_in = NULL;
static FILE *terminal_out = NULL;
static int terminal_out_fd = -1;
// Bracketed paste on and off (terminfo's BE / BD), when the terminal has them.
static char paste_on[32] = "";
static char paste_off[32] = "";

static void copy_capability(const char *name, char *into, size_t size) {
    const char *value = tigetstr((char *)name);
    if (value == NULL || value == (char *)-1 || strlen(value) >= size) { into[0] = 0; return; }
    strcpy(into, value);
}

// Written straight to the descriptor: safe from a signal handler, and past stdio buffers.
static void write_sequence(const char *sequence) {
    if (terminal_out_fd < 0 || sequence[0] == 0) return;
    ssize_t ignored = write(terminal_out_fd, sequence, strlen(sequence));
    (void)ignored;
}

void onboard_bracketed_paste(int on) {
    write_sequence(on ? paste_on : paste_off);
}

SCREEN *onboard_open_terminal(const char *term, int in_fd, int out_fd,
                              char *reason, int reason_len) {
    int status = 0;
    // setupterm checks the type before newterm, which would exit() on failure.
    if (setupterm((char *)term, out_fd, &status) != OK) {
        snprintf(reason, reason_len, "the terminal type '%s' is unknown to this system", term ? term : "");
        return NULL;
    }
    const char *cup = tigetstr("cup");
    if (cup == NULL || cup == (char *)-1) {
        snprintf(reason, reason_len, "the terminal type '%s' cannot move the cursor", term ? term : "");
        del_curterm(cur_term);
        return NULL;
    }
    del_curterm(cur_term);
    terminal_in = fdopen(dup(in_fd), "r");
    terminal_out = fdopen(dup(out_fd), "w");
    if (!terminal_in || !terminal_out) {
        snprintf(reason, reason_len, "the terminal could not be opened");
        return NULL;
    }
    SCREEN *screen = newterm((char *)term, terminal_out, terminal_in);
    if (screen == NULL) {
        snprintf(reason, reason_len, "ncurses could not start on terminal type '%s'", term ? term : "");
        return NULL;
    }
    set_term(screen);
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    // How long a lone ESC waits for the rest of a sequence. ESCDELAY from the
    // environment wins, as in every ncurses program; else 100 ms (vim's ttimeoutlen):
    // Home sent as ESC, a 30 ms gap over SSH, then "[1~" is still Home, and a lone
    // Esc still answers before a person notices (DECISIONS 20).
    if (getenv("ESCDELAY") == NULL) set_escdelay(100);
    if (has_colors()) {
        start_color();
        use_default_colors();
    }
    copy_capability("BE", paste_on, sizeof paste_on);
    copy_capability("BD", paste_off, sizeof paste_off);
    terminal_out_fd = fileno(terminal_out);
    onboard_bracketed_paste(1);
    return screen;
}

void onboard_close_terminal(SCREEN *screen) {
    if (screen == NULL) return;
    curs_set(1);
    endwin();
    fflush(terminal_out);
    onboard_bracketed_paste(0);
    terminal_out_fd = -1;
    delscreen(screen);
    if (terminal_in) { fclose(terminal_in); terminal_in = NULL; }
    if (terminal_out) { fclose(terminal_out); terminal_out = NULL; }
}

void onboard_size(int *rows, int *cols) {
    int y, x;
    getmaxyx(stdscr, y, x);
    *rows = y;
    *cols = x;
}

void onboard_draw_run(int y, int x, const wchar_t *text, int length, int attr_flags, short pair) {
    attr_t attrs = A_NORMAL;
    if (attr_flags & ONBOARD_ATTR_BOLD) attrs |= A_BOLD;
    if (attr_flags & ONBOARD_ATTR_UNDERLINE) attrs |= A_UNDERLINE;
    if (attr_flags & ONBOARD_ATTR_REVERSE) attrs |= A_REVERSE;
    if (attr_flags & ONBOARD_ATTR_DIM) attrs |= A_DIM;
    attr_set(attrs, pair, NULL);
    mvaddnwstr(y, x, text, length);
    attr_set(A_NORMAL, 0, NULL);
}

int onboard_read_key(int32_t *value) {
    wint_t ch = 0;
    int result = get_wch(&ch);
    if (result == ERR) return 0;
    *value = (int32_t)ch;
    return result == KEY_CODE_YES ? 2 : 1;
}

int onboard_key_code(const char *name) {
    if (!strcmp(name, "up")) return KEY_UP;
    if (!strcmp(name, "down")) return KEY_DOWN;
    if (!strcmp(name, "left")) return KEY_LEFT;
    if (!strcmp(name, "right")) return KEY_RIGHT;
    if (!strcmp(name, "backtab")) return KEY_BTAB;
    if (!strcmp(name, "backspace")) return KEY_BACKSPACE;
    if (!strcmp(name, "delete")) return KEY_DC;
    if (!strcmp(name, "enter")) return KEY_ENTER;
    if (!strcmp(name, "home")) return KEY_HOME;
    if (!strcmp(name, "end")) return KEY_END;
    if (!strcmp(name, "pageup")) return KEY_PPAGE;
    if (!strcmp(name, "pagedown")) return KEY_NPAGE;
    if (!strcmp(name, "resize")) return KEY_RESIZE;
    if (!strcmp(name, "f1")) return KEY_F(1);
    return -1;
}

const char *onboard_key_name(int code) {
    return keyname(code);
}

/* What the terminfo entry says a mouse report starts with (kmous), or NULL. */
const char *onboard_mouse_prefix(void) {
    char *value = tigetstr("kmous");
    return (value == NULL || value == (char *)-1) ? NULL : value;
}

static int signal_fd = -1;

static void forward_signal(int number) {
    unsigned char byte = (unsigned char)number;
    if (signal_fd >= 0) {
        ssize_t ignored = write(signal_fd, &byte, 1);
        (void)ignored;
    }
}

void onboard_install_signal_pipe(int fd) {
    signal_fd = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = forward_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGCONT, &action, NULL);
    signal(SIGPIPE, SIG_IGN);
    // A parent may have started us with signals blocked (the mask is inherited);
    // resizing and clean exits depend on receiving these.
    sigset_t wanted;
    sigemptyset(&wanted);
    int numbers[] = { SIGTERM, SIGHUP, SIGINT, SIGCONT, SIGWINCH, SIGTSTP };
    for (unsigned i = 0; i < sizeof numbers / sizeof numbers[0]; i++) sigaddset(&wanted, numbers[i]);
    pthread_sigmask(SIG_UNBLOCK, &wanted, NULL);
}

static void restore_and_die(int number) {
    // Best effort: endwin is not async-signal-safe, but a broken terminal is worse.
    endwin();
    onboard_bracketed_paste(0);
    signal(number, SIG_DFL);
    raise(number);
}

void onboard_install_crash_restore(void) {
    int signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        signal(signals[i], restore_and_die);
    }
}

void onboard_suspend_self(void) {
    endwin();
    if (terminal_out) fflush(terminal_out);
    onboard_bracketed_paste(0);
    // The whole process group, as the shell's own Ctrl-Z would: a wrapper (a subshell,
    // `swift run`) stops with us, so the shell sees the job stopped.
    kill(0, SIGSTOP);
    // Continued: the caller redraws.
    onboard_bracketed_paste(1);
}

int onboard_read_row(int y, wchar_t *buffer, int length) {
    return mvinnwstr(y, 0, buffer, length);
}

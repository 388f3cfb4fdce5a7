// Pseudo-terminals and process spawning for `onboard serve-ssh` and the embedded mock's helper: what Glibc's Swift
// module lacks (posix_openpt, grantpt, unlockpt, ptsname_r, POSIX_SPAWN_SETSID).
#ifndef ONBOARD_PTY_SHIM_H
#define ONBOARD_PTY_SHIM_H

#include <stdint.h>
#include <sys/types.h>

// Opens a new pseudo-terminal of the given size; fills the leader descriptor and the
// follower's path. Returns 0, or -1 with errno set.
int onboard_pty_open(int *leader, char *follower_path, int path_length, int rows, int cols);

// Sets the terminal size; the kernel tells the foreground process group (SIGWINCH).
int onboard_pty_resize(int leader, int rows, int cols);

// Starts `path` as the leader of a new session whose controlling terminal is the
// follower (standard input, output and error), with no signals blocked and every
// signal at its default action. Returns 0 and the pid, or an errno value.
int onboard_pty_spawn(const char *path, char *const argv[], char *const envp[],
                      const char *follower_path, int leader, pid_t *pid);

// Starts `path` with `socket` as its standard input (one end of a socket pair for the
// embedded mock, /dev/null for a browser's opener), standard output and error on
// /dev/null, no other descriptor, every signal at its default.
// Returns 0 and the pid, or an errno value.
int onboard_spawn_helper(const char *path, char *const argv[], char *const envp[], int socket, pid_t *pid);

// The session zygote (zygote.c): a demo server's warm `onboard`, which forks sessions.

// The server's side: sends a request (its bytes, and the follower as a descriptor) and
// reads the answer. Returns 0 with the session's pid and a descriptor its exit status
// will be written to (four bytes, then closed; -1 when none was free to take it), or an
// errno value.
int onboard_zygote_request(int socket, const char *request, size_t length, int follower, pid_t *pid, int *exits);

// The zygote's side: one request into `buffer`, its follower into `follower` (-1 when
// none came). Returns its length, 0 when the server has gone, or -1 with errno set
// (EMSGSIZE for a request larger than the buffer).
ssize_t onboard_zygote_receive(int socket, char *buffer, size_t capacity, int *follower);

// Answers a request: the session's pid and the read end of its exit pipe, or a negated
// errno value and -1.
int onboard_zygote_answer(int socket, int32_t answer, int exits);

// Blocks SIGCHLD and returns a signalfd that reads it, or -1.
int onboard_zygote_signals(void);

// Waits until a request comes (bit 1) or a session ended (bit 2); -1 on failure.
int onboard_zygote_wait(int socket, int signals);

// Reaps one ended session without waiting: its pid and wait status, 0 when none ended,
// -1 when there are no sessions.
pid_t onboard_zygote_reap(int *status);

// Forks a session on `follower`: returns 0 in the session (leader of a new session whose
// controlling terminal is the follower, on standard input, output and error, with no
// other descriptor, every signal at its default and none blocked), its pid in the
// zygote, or -1 with errno set.
pid_t onboard_zygote_fork(int follower);

// The threads this process runs now; a zygote forks only while it runs one.
int onboard_thread_count(void);

// What `ps` and /proc/PID/cmdline show for a forked session: one line of the program's
// name and `arguments` (`length` bytes, NUL-separated), over the zygote's own arguments
// and the strings of the environment it had. Only after the environment was replaced.
void onboard_show_command_line(const char *arguments, size_t length);

#endif

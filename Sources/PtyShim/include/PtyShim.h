// Pseudo-terminals and process spawning for `onboard serve-ssh` and the embedded mock's helper: what Glibc's Swift
// module lacks (posix_openpt, grantpt, unlockpt, ptsname_r, POSIX_SPAWN_SETSID).
#ifndef ONBOARD_PTY_SHIM_H
#define ONBOARD_PTY_SHIM_H

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

#endif

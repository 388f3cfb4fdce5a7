#define _GNU_SOURCE 1
#include "PtyShim.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int onboard_pty_open(int *leader, char *follower_path, int path_length, int rows, int cols) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -1;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, follower_path, (size_t)path_length) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    onboard_pty_resize(fd, rows, cols);
    *leader = fd;
    return 0;
}

int onboard_pty_resize(int leader, int rows, int cols) {
    struct winsize size = { .ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols };
    return ioctl(leader, TIOCSWINSZ, &size);
}

int onboard_pty_spawn(const char *path, char *const argv[], char *const envp[],
                      const char *follower_path, int leader, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    // The leader stays with the server; opened after setsid (no O_NOCTTY), the
    // follower becomes the new session's controlling terminal, so resizes and the
    // hangup when a client leaves reach the program.
    posix_spawn_file_actions_addclose(&actions, leader);
    posix_spawn_file_actions_addopen(&actions, 0, follower_path, O_RDWR, 0);
    posix_spawn_file_actions_adddup2(&actions, 0, 1);
    posix_spawn_file_actions_adddup2(&actions, 0, 2);
    // Nothing else of the server's goes along: not other visitors' terminals or
    // connections, whatever a descriptor's close-on-exec flag says.
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    // NIO ignores SIGPIPE and its threads block signals; the program gets defaults.
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    int result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return result;
}

int onboard_spawn_helper(const char *path, char *const argv[], char *const envp[], int socket, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    // The socket becomes standard input; output and error go nowhere, so nothing the
    // helper prints reaches the protocol or the person's terminal.
    posix_spawn_file_actions_adddup2(&actions, socket, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    // Nothing else of the client's (its terminal, its state files' locks) goes along.
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    // The client's process group stays its own: whoever ends the client's group (a demo
    // session's last resort) ends the helper too. The terminal's own signals are the
    // client's to handle; the helper ignores them and ends when its socket closes.
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    int result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return result;
}

#define _GNU_SOURCE 1
#include "PtyShim.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

// A demo server's warm `onboard` (the session zygote): the server sends a session's
// command line and its terminal's follower; the zygote forks the session from a process
// already past the runtime's first questions, answers with its pid and a pipe, and
// writes the session's exit status into that pipe once it has reaped it.

static ssize_t send_with_descriptor(int socket, const void *bytes, size_t length, int descriptor) {
    struct iovec part = { .iov_base = (void *)bytes, .iov_len = length };
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = { .msg_iov = &part, .msg_iovlen = 1 };
    if (descriptor >= 0) {
        message.msg_control = control.space;
        message.msg_controllen = sizeof control.space;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &descriptor, sizeof(int));
    }
    ssize_t sent;
    do { sent = sendmsg(socket, &message, MSG_NOSIGNAL); } while (sent < 0 && errno == EINTR);
    return sent;
}

static ssize_t receive_with_descriptor(int socket, void *bytes, size_t capacity, int *descriptor) {
    struct iovec part = { .iov_base = bytes, .iov_len = capacity };
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr message = { .msg_iov = &part, .msg_iovlen = 1, .msg_control = control.space,
                              .msg_controllen = sizeof control.space };
    ssize_t received;
    do { received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC); } while (received < 0 && errno == EINTR);
    *descriptor = -1;
    if (received < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS) memcpy(descriptor, CMSG_DATA(header), sizeof(int));
    }
    if (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
        if (*descriptor >= 0) close(*descriptor);
        *descriptor = -1;
    }
    // The bytes cut off: the message is refused. The descriptor cut off (none free to
    // take it): the message stands without one, and says so by -1.
    if (message.msg_flags & MSG_TRUNC) {
        errno = EMSGSIZE;
        return -1;
    }
    return received;
}

int onboard_zygote_request(int socket, const char *request, size_t length, int follower, pid_t *pid, int *exits) {
    if (send_with_descriptor(socket, request, length, follower) != (ssize_t)length) return errno ? errno : EPIPE;
    int32_t answer = 0;
    ssize_t received = receive_with_descriptor(socket, &answer, sizeof answer, exits);
    if (received != sizeof answer || answer == 0) {
        int failure = received < 0 ? errno : EPIPE;
        if (*exits >= 0) close(*exits);
        return failure;
    }
    if (answer < 0) {
        if (*exits >= 0) close(*exits);
        return -answer;
    }
    *pid = (pid_t)answer;
    return 0;
}

ssize_t onboard_zygote_receive(int socket, char *buffer, size_t capacity, int *follower) {
    return receive_with_descriptor(socket, buffer, capacity, follower);
}

int onboard_zygote_answer(int socket, int32_t answer, int exits) {
    return send_with_descriptor(socket, &answer, sizeof answer, exits) == sizeof answer ? 0 : -1;
}

int onboard_zygote_signals(void) {
    sigset_t child;
    sigemptyset(&child);
    sigaddset(&child, SIGCHLD);
    if (sigprocmask(SIG_BLOCK, &child, NULL) != 0) return -1;
    return signalfd(-1, &child, SFD_CLOEXEC | SFD_NONBLOCK);
}

int onboard_zygote_wait(int socket, int signals) {
    struct pollfd waiting[2] = { { .fd = socket, .events = POLLIN }, { .fd = signals, .events = POLLIN } };
    int ready;
    do { ready = poll(waiting, 2, -1); } while (ready < 0 && errno == EINTR);
    if (ready < 0) return -1;
    if (waiting[1].revents & POLLIN) {
        struct signalfd_siginfo information;
        while (read(signals, &information, sizeof information) == sizeof information) {}
    }
    return (waiting[0].revents ? 1 : 0) | (waiting[1].revents ? 2 : 0);
}

pid_t onboard_zygote_reap(int *status) {
    pid_t pid;
    do { pid = waitpid(-1, status, WNOHANG); } while (pid < 0 && errno == EINTR);
    return pid;
}

pid_t onboard_zygote_fork(int follower) {
    pid_t session = fork();
    if (session != 0) return session;
    // The session: its own session and process group, the follower its controlling
    // terminal and its standard input, output and error, every signal let through, and
    // no other descriptor of the zygote's (its socket, its pipes, its signalfd).
    setsid();
    ioctl(follower, TIOCSCTTY, 0);
    dup2(follower, 0);
    dup2(follower, 1);
    dup2(follower, 2);
    close_range(3, ~0U, 0);
    // Every signal at its default, as a spawned session's (the zygote ignores SIGPIPE);
    // glibc's own (32 up to SIGRTMIN) left to glibc, as posix_spawn leaves them.
    for (int number = 1; number < NSIG; number++) {
        if (number < 32 || number >= SIGRTMIN) signal(number, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    return 0;
}

int onboard_thread_count(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) return -1;
    int count = 0;
    for (struct dirent *entry; (entry = readdir(tasks));) {
        if (entry->d_name[0] != '.') count++;
    }
    closedir(tasks);
    return count;
}

void onboard_show_command_line(const char *arguments, size_t length) {
    // Where the kernel put the arguments and the environment: /proc/self/stat's fields
    // 48 (arg_start) and 51 (env_end), counted after the command's name in parentheses.
    char text[2048];
    FILE *stat = fopen("/proc/self/stat", "re");
    if (!stat) return;
    size_t count = fread(text, 1, sizeof text - 1, stat);
    fclose(stat);
    text[count] = 0;
    char *field = strrchr(text, ')');
    if (!field) return;
    unsigned long start = 0, end = 0;
    for (int number = 2; number <= 50; number++) {
        field = strchr(field + 1, ' ');
        if (!field) return;
        if (number + 1 == 48) start = strtoul(field + 1, NULL, 10);
        if (number + 1 == 51) end = strtoul(field + 1, NULL, 10);
    }
    // One line after the name, as setproctitle(3) writes it: a last byte of the arguments
    // that is not NUL tells the kernel to read the line on into the environment's space.
    // The name stays where it was (glibc's program_invocation_name points at it), and
    // nothing is written unless the layout is the kernel's usual one.
    char *name = program_invocation_name;
    size_t used = strlen(name);
    if ((unsigned long)name != start || start + used + 2 >= end) return;
    size_t room = end - start - used - 2;  // after the name and a space, before a last NUL
    size_t kept = length < room ? length : room;
    char *after = name + used;
    after[0] = ' ';
    for (size_t index = 0; index < kept; index++) after[1 + index] = arguments[index] ? arguments[index] : ' ';
    memset(after + 1 + kept, 0, end - ((unsigned long)after + 1 + kept));
}

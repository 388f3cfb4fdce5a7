import EmbeddedMock

#if canImport(Glibc)
import Glibc
#endif

// The embedded mock in a process of its own, started by `onboard` on its first call:
// the client then maps no database, and a quit's delivery costs it nothing (DECISIONS 53).
// It speaks only to the socket it was given as standard input and output.
// The terminal's signals (Ctrl-C, Ctrl-Z, a hangup) reach the client's whole process
// group; they are the client's to handle, and the client closing the socket ends this.
for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTSTP, SIGPIPE] { _ = Glibc.signal(signal, SIG_IGN) }
await MockHelperServer.run()

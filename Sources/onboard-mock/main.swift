import EmbeddedMock

// The embedded mock in a process of its own, started by `onboard` on its first call:
// the client then maps no database, and a quit's delivery costs it nothing (DECISIONS 53).
// It speaks only to the socket it was given as standard input and output.
await MockHelperServer.run()

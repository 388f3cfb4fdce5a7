import Testing

/// Every end-to-end suite, one test at a time. They drive real processes and wait in
/// blocking calls (tmux, waitpid, sleeps), which hold a thread of Swift's cooperative
/// pool — on a 2-core machine, two such tests at once would leave none for the
/// in-process async tests (and their servers), whose calls then time out.
@Suite(.serialized) struct EndToEnd {}

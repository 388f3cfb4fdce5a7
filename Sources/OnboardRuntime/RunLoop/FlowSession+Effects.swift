import FlowEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The reducer's effects, carried out: the one place a window calls, writes or forgets.
extension FlowSession {
    /// Carries out the effects in order; a file that cannot be written or removed comes
    /// back as an event, so the screen says so. Nothing is called or written as an
    /// identity the folder no longer holds: the window follows the folder instead.
    func perform(_ effects: [Effect]) {
        var failures: [String] = []
        for effect in effects {
            do {
                switch effect {
                case .call(let request):
                    guard folderIsAsExpected() else { followFolder(); return }
                    let operations = self.operations
                    let mailbox = self.mailbox
                    let folder = expectedIdentity
                    Task.detached {
                        let result = await operations.run(request, folder: folder)
                        mailbox.post(.callFinished(id: request.id, result: result))
                    }
                case .saveSession(let session):
                    guard folderIsAsExpected(orBecomes: session?.userID) else { followFolder(); return }
                    try store.save(session: session)
                    heldIdentity = session?.userID
                case .saveProgress(let progress):
                    guard folderIsAsExpected() else { followFolder(); return }
                    // Nothing in a window no one has used is anyone's work: what another
                    // window saved since this one read the file (a closing window's late
                    // save, landing before this one's deferred first save) is not written
                    // over, but followed at the next tick or key.
                    let unchangedOnDisk = FileStamp(store.progressPath) == progressSeen.stamp
                    if !usedHere, !unchangedOnDisk { break }
                    // Already what the file holds (a relaunch's first save): not written
                    // again, so a window that followed another does not make it follow back.
                    if progress == progressSeen.progress, unchangedOnDisk { break }
                    try store.save(progress: progress)
                    progressSeen = (FileStamp(store.progressPath), progress)
                case .track(let record):
                    // Queued before it is logged: a kill between the two never leaves an
                    // event on record that will not be delivered.
                    let event = store.analytics.event(for: record)
                    try delivery?.enqueue(event, service: serviceAddress, bearer: state.session?.accessToken)
                    try store.analytics.write(event)
                case .backfillAnalytics(let placeholder, let userID):
                    try store.analytics.backfill(placeholder: placeholder, userID: userID)
                    try delivery?.queue.backfill(placeholder: placeholder, userID: userID)
                case .forgetAnalytics:
                    try store.analytics.forget()
                    try delivery?.withdraw(
                        anonymousID: state.placeholderUserID, service: serviceAddress, bearer: state.session?.accessToken)
                case .forgetLocalData:
                    guard folderIsAsExpected() else { followFolder(); return }
                    do { try store.reset() } catch {
                        failures.append("The flow's state could not be removed (\(error)).")
                    }
                    // This window emptied the folder: it holds no one, by this window's doing.
                    heldIdentity = store.sessionFile.holder()
                    progressSeen = (FileStamp(store.progressPath), nil)
                case .quit:
                    ending = .quit
                case .reached(let reach):
                    // QA's bookkeeping: a folder that cannot take it costs the person nothing.
                    try? store.coverage.record(reach)
                }
            } catch {
                failures.append("Onboard could not save its state (\(error)). Your progress may not survive a restart.")
            }
        }
        for note in failures { dispatch(.storageFailed(note)) }
    }
}

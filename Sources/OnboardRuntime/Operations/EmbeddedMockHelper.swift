import Installation
import ServiceAPI
import ServiceClient

extension MockHelperTransport {
    /// The embedded mock over `path` as a state folder's client runs it: `onboard-mock`
    /// beside this executable, sealed with the folder's key when the file is the folder's
    /// own (a shared `--mock-db` is not), its clock the client's.
    public static func embeddedMock(
        path: String, stateDirectory: String, secrets: any SecretStore, clock: RuntimeClock,
        opened: @escaping @Sendable (MockHelperFrame.Opened) -> Void = { _ in }
    ) -> MockHelperTransport {
        let key =
            EmbeddedMockFile.isOwn(path, stateDirectory: stateDirectory)
            ? EmbeddedMockFile.sealingKey(stateDirectory: stateDirectory, secrets: secrets) : nil
        return MockHelperTransport(
            .init(
                executable: SiblingExecutable.path("onboard-mock"), database: path, sealingKey: { try key?() },
                clockOffset: { clock.offsetSeconds }, opened: opened))
    }
}

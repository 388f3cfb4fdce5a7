import Foundation
import OnboardService
import SQLiteStore

extension ColumnSealer {
    /// The sealer of a state folder's own embedded mock (`mock.sqlite` in the folder): a
    /// key derived from the folder's data key, so whoever can open the folder's progress
    /// can open its mock, and nobody else (DECISIONS 32).
    public static func forStateFolder(_ stateDirectory: String, secrets: any SecretStore) -> ColumnSealer {
        let personal = PersonalData(secrets: secrets, stateDirectory: stateDirectory)
        return ColumnSealer { try personal.derivedKey(for: "onboard embedded mock") }
    }

    /// A mock file is the folder's own unless `--mock-db` named another, shared one.
    public static func isOwnMock(_ path: String, stateDirectory: String) -> Bool {
        URL(fileURLWithPath: path).standardizedFileURL.path
            == URL(fileURLWithPath: stateDirectory + "/mock.sqlite").standardizedFileURL.path
    }
}

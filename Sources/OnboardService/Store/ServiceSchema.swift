/// The version of the schema both stores keep: SQLite's migration `vN`, and the
/// PostgreSQL migration that brings its database to the same tables. Raise it with a
/// migration in each; `SchemaParityTests` compare the tables, columns and indexes they make.
public enum ServiceSchema {
    public static let version = 16
}

import ArgumentParser
import OutpostServer

/// `--sqlite PATH | --postgres URL`, shared by every command that opens the server's store.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Use the SQLite database file at PATH (created if missing).", valueName: "path"))
    var sqlite: String?

    @Option(
        help: ArgumentHelp(
            "Use the PostgreSQL database at URL, e.g. postgres://outpost:secret@127.0.0.1:5432/outpost.",
            valueName: "url"))
    var postgres: String?

    func validate() throws {
        if sqlite != nil, postgres != nil {
            throw ValidationError("Give either --sqlite or --postgres, not both.")
        }
        if let sqlite, sqlite.isEmpty { throw ValidationError("--sqlite needs a file path.") }
    }

    /// The chosen store; with neither option, `./outpost-data/outpost.sqlite`.
    var location: ServerConfiguration.StoreLocation {
        if let postgres { return .postgres(url: postgres) }
        return .sqlite(path: sqlite ?? ServerConfiguration.defaultSQLitePath)
    }
}

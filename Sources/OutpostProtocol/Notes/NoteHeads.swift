import Foundation
import OutpostCore

/// The revisions of notes that no other revision replaces: what a door shows. A note edited on
/// two devices offline has two heads (both shown) until someone writes a revision replacing both.
public enum NoteHeads {
    /// The heads among `revisions`, ordered by the time they were written (then by id).
    public static func of(_ revisions: [NoteRevision]) -> [NoteRevision] {
        let replaced = Set(revisions.flatMap(\.replaces))
        return revisions.filter { !replaced.contains($0.id) }.sorted {
            $0.writtenAt != $1.writtenAt ? $0.writtenAt < $1.writtenAt : $0.id < $1.id
        }
    }
}

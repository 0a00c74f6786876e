import Foundation

/// A guest name as the guest list searches and sorts it, the same on both stores: case,
/// diacritics and width folded in Swift (SQLite's `lower()` folds ASCII only, so `Émile` was
/// never found, and `ORDER BY name` put "anna zed" after "Zoe Adams" and "Émile" last).
/// Kept in `guests.name_key` beside the name.
enum GuestNameKey {
    static func of(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
    }
}

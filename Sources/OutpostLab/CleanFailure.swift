/// A failure to report as one sentence (`outpost` prints it and exits with status 1).
package struct CleanFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

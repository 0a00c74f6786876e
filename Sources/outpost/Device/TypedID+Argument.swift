import ArgumentParser
import OutpostCore

/// Ids on the command line are parsed strictly: anything that is not an id is a usage error
/// naming the argument, never a made-up id.
extension TypedID: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(wire: argument)
    }
}

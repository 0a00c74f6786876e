import Foundation
import OutpostShell

/// Seed 003's first-time tooltip as a screen in front of the calendar: before a worker's first
/// Submit, what submitting means (the hours go to the employer, the day cannot be changed), with
/// Submit and Not now. Shown once per worker. Pure.
package struct SubmitExplanationScreen: ScreenModel {
    package var day: String
    package var copy: TrackingCopy

    package var identifier: String { UIIdentifier.trackSubmitExplanation }

    package func elements() -> [UIElement] {
        [
            UIElement(UIIdentifier.trackSubmitExplanation, copy.submitExplanation(day), ["date": day]),
            UIElement(UIIdentifier.trackSubmitExplanationContinue, copy.submitNow, ["date": day]),
            UIElement(UIIdentifier.trackSubmitExplanationCancel, copy.notNow),
        ]
    }
}

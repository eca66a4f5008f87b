#if canImport(Accessibility) && canImport(SwiftUI)
import Accessibility
import Foundation
import SwiftUI
#if canImport(UIKit)
import UIKit
#endif

/// The user's auto-play preferences as the platform states them, which the views hand to their
/// model (``ImageModel/userPreferencesDidChange(playsAnimatedImages:autoplaysVideo:)``): the
/// "Animated Images" accessibility setting for animated images, and "Auto-Play Video Previews"
/// for clips on iOS, iPadOS, tvOS and visionOS (elsewhere clips follow the animated-images
/// setting).
@MainActor
enum AutoplayPreferences {
    /// Whether animated images play (`AccessibilitySettings.animatedImagesEnabled`).
    static var playsAnimatedImages: Bool { AccessibilitySettings.animatedImagesEnabled }

    /// Whether clips play by themselves, given the animated-images setting.
    static func autoplaysVideo(playsAnimatedImages: Bool) -> Bool {
        #if canImport(UIKit) && !os(watchOS)
        UIAccessibility.isVideoAutoplayEnabled
        #else
        playsAnimatedImages
        #endif
    }

    /// The notifications posted when either setting changes.
    static var changeNotifications: [Notification.Name] {
        #if canImport(UIKit) && !os(watchOS)
        [AccessibilitySettings.animatedImagesEnabledDidChangeNotification, UIAccessibility.videoAutoplayStatusDidChangeNotification]
        #else
        [AccessibilitySettings.animatedImagesEnabledDidChangeNotification]
        #endif
    }

    /// Tells `model` both settings as they are now.
    static func report(to model: ImageModel, playsAnimatedImages: Bool = AutoplayPreferences.playsAnimatedImages) {
        model.userPreferencesDidChange(
            playsAnimatedImages: playsAnimatedImages,
            autoplaysVideo: autoplaysVideo(playsAnimatedImages: playsAnimatedImages))
    }
}

/// Hands a SwiftUI view's model the user's auto-play preferences: SwiftUI's
/// `accessibilityPlayAnimatedImages` (read from the environment by the view), and the video
/// auto-play setting with its change notification.
struct AutoplayPreferencesReader: ViewModifier {
    let playsAnimatedImages: Bool
    let model: ImageModel

    func body(content: Content) -> some View {
        #if canImport(UIKit) && !os(watchOS)
        content
            .onChange(of: playsAnimatedImages, initial: true) {
                AutoplayPreferences.report(to: model, playsAnimatedImages: playsAnimatedImages)
            }
            .onReceive(NotificationCenter.default.publisher(for: UIAccessibility.videoAutoplayStatusDidChangeNotification)) { _ in
                AutoplayPreferences.report(to: model, playsAnimatedImages: playsAnimatedImages)
            }
        #else
        content
            .onChange(of: playsAnimatedImages, initial: true) {
                AutoplayPreferences.report(to: model, playsAnimatedImages: playsAnimatedImages)
            }
        #endif
    }
}
#endif

import Foundation

/// The filter used to resample.
public enum ResamplingKernel: String, Sendable, Hashable, CaseIterable {
    /// Lanczos, a = 3: sharpest; the default.
    case lanczos3
    /// Mitchell–Netravali (B = C = 1/3): softer, no ringing.
    case mitchell
    /// Bilinear (triangle) filter.
    case bilinear
    /// Box filter (area average).
    case box

    /// Half-width of the kernel in source pixels at scale 1 (for ``box`` see `weight`).
    var radius: Double {
        switch self {
        case .lanczos3: 3
        case .mitchell: 2
        case .bilinear: 1
        case .box: 0.5
        }
    }

    /// The kernel's value at distance `t` (in kernel units) from the sample centre.
    /// The box is not evaluated here: its weights are exact area overlaps (see `WeightTable`).
    func value(at t: Double) -> Double {
        let x = abs(t)
        switch self {
        case .lanczos3:
            if x < 1e-12 { return 1 }
            guard x < 3 else { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        case .mitchell:
            // B = C = 1/3, the recommended pair.
            let b = 1.0 / 3, c = 1.0 / 3
            if x < 1 {
                return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6
            }
            guard x < 2 else { return 0 }
            return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6
        case .bilinear:
            return max(0, 1 - x)
        case .box:
            return x < 0.5 ? 1 : 0
        }
    }
}

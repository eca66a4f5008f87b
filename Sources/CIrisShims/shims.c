// Intentionally empty until codec shims land.

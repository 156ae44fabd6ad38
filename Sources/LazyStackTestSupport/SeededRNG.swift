/// A small, fast, seedable random number generator (SplitMix64), so every
/// random test and benchmark input can be reproduced from its seed.
public struct SeededRNG: RandomNumberGenerator, Sendable {
  public private(set) var state: UInt64

  /// Creates a generator from a seed. - Complexity: O(1).
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits. - Complexity: O(1).
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

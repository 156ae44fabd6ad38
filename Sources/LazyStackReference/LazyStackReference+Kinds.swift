import Foundation
import LazyStackCore

// SPEC K1–K3, the obvious way: a dictionary of kinds and one of own
// estimates by id, and every kind's estimate computed from the rows.

extension LazyStackReference {
  func kind(of id: ID) -> UInt8 { kindByID[id] ?? 0 }

  /// Kind `k`'s estimate: kind 0's is the layout's (X2); another kind's is
  /// the number given, or the mean of its measured rows under
  /// `.meanOfMeasured`, else kind 0's.
  func kindEstimate(_ k: UInt8) -> Int64 {
    guard k != 0 else { return estimate }
    if kindMean.contains(k) {
      let values = ids.indices.compactMap { kind(of: ids[$0]) == k ? measured[$0] : nil }
      if !values.isEmpty {
        let n = Int64(values.count)
        return (values.reduce(0, +) + n / 2) / n
      }
    }
    return kindGiven[k] ?? estimate
  }

  public func kind(at index: Int) -> UInt8 { kind(of: ids[index]) }

  /// Gives many rows their kinds at once, one stabilization (the core's
  /// `_setKinds`).
  public mutating func _setKinds(_ kinds: [ID: UInt8]) {
    let before = snapshotBefore()
    let present = Set(ids)
    for (id, k) in kinds where present.contains(id) {
      kindByID[id] = k == 0 ? nil : k
      if k != 0 { usedKinds.insert(k) }
    }
    stabilize(before: before, cause: .estimateChange)
  }

  public func currentEstimate(forKind k: UInt8) -> CGFloat { _FixedPoint.points(kindEstimate(k)) }

  public func estimatedExtent(forKind k: UInt8) -> CGFloat? {
    k == 0 ? _FixedPoint.points(givenEstimate) : kindGiven[k].map(_FixedPoint.points)
  }

  public func estimatePolicy(forKind k: UInt8) -> EstimatePolicy {
    k == 0 ? policy : (kindMean.contains(k) ? .meanOfMeasured : .fixed)
  }

  public func ownEstimatedExtent(for id: ID) -> CGFloat? {
    index(of: id) == nil ? nil : ownByID[id].map(_FixedPoint.points)
  }

  @discardableResult
  public mutating func setKind(_ k: UInt8, for id: ID) -> Bool {
    enter()
    defer { exit(.still) }
    guard index(of: id) != nil else { return false }
    guard kind(of: id) != k else { return true }
    let before = snapshotBefore()
    kindByID[id] = k == 0 ? nil : k
    if k != 0 { usedKinds.insert(k) }
    stabilize(before: before, cause: .estimateChange)
    return true
  }

  @discardableResult
  public mutating func setEstimatedExtent(_ e: CGFloat, forKind k: UInt8) throws(LazyStackError) -> ScrollCorrection {
    enter()
    defer { exit(.still) }
    guard k != 0 else { return try setEstimatedExtent(e) }
    guard let u = _FixedPoint.extentUnits(e) else { throw .invalidExtent(e, what: "estimated extent of kind \(k)") }
    let before = snapshotBefore()
    usedKinds.insert(k)
    kindGiven[k] = u
    return stabilize(before: before, cause: .estimateChange)
  }

  public mutating func setEstimatePolicy(_ p: EstimatePolicy, forKind k: UInt8) {
    enter()
    defer { exit(.still) }
    guard k != 0 else {
      estimatePolicy = p
      return
    }
    guard p != estimatePolicy(forKind: k) else { return }
    let before = snapshotBefore()
    usedKinds.insert(k)
    if p == .meanOfMeasured { kindMean.insert(k) } else { kindMean.remove(k) }
    stabilize(before: before, cause: .estimateChange)
  }

  @discardableResult
  public mutating func setEstimatedExtent(_ e: CGFloat?, for id: ID) -> Bool {
    enter()
    defer { exit(.still) }
    var u: Int64?
    if let e {
      guard let v = _FixedPoint.extentUnits(e) else { return false }
      u = v
    }
    guard index(of: id) != nil else { return false }
    guard ownByID[id] != u else { return true }
    let before = snapshotBefore()
    ownByID[id] = u
    stabilize(before: before, cause: .estimateChange)
    return true
  }
}

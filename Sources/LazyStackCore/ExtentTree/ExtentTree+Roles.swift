extension ExtentTree {
  /// The role (`_plainRole`, `_headerRole`, `_footerRole`) of the row at
  /// `location`.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func role(at location: _Location) -> UInt8 {
    _withBlock(handle: Int(_order[location.position])) { block in
      block.pointee.roles.isEmpty ? Self._plainRole : block.pointee.roles[location.slot]
    }
  }

  /// The role of row `index` (SPEC H1).
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package func role(at index: Int) -> UInt8 {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    guard _roleTotal != 0 else { return Self._plainRole }
    return role(at: _locate(index))
  }

  /// Gives the row at `location` a role; returns the previous one. Moves no
  /// row (roles are not extents).
  /// - Complexity: O(log(n/B)), plus O(B) for a block's first role.
  @inlinable
  @discardableResult
  package mutating func setRole(_ role: UInt8, at location: _Location) -> UInt8 {
    precondition(role <= Self._footerRole, "ExtentTree: invalid role \(role)")
    let old = self.role(at: location)
    guard old != role else { return old }
    let handle = Int(_order[location.position])
    let delta = Self._packedRoleCount(role) &- Self._packedRoleCount(old)
    _blocks[handle]._materializeRoles()
    _blocks[handle].roles[location.slot] = role
    _blocks[handle].roleCounts &+= delta
    if _blocks[handle].roleCounts == 0 { _blocks[handle].roles = [] }
    _roleAdd(delta, at: location.position)
    return old
  }

  /// The number of `role` rows (headers or footers).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func roleCount(_ role: UInt8) -> Int {
    Self._unpackRoleCount(_roleTotal, role)
  }

  /// The number of `role` rows among rows `0 ..< index`: a rank.
  /// - Precondition: `0 <= index <= count`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func roleRank(_ role: UInt8, before index: Int) -> Int {
    precondition(index >= 0 && index <= count, "Row index \(index) out of range 0...\(count)")
    guard index < count else { return roleCount(role) }
    guard roleCount(role) > 0 else { return 0 }
    let l = _locate(index)
    let before = _roleFenwick.prefix(l.position &+ _lead)
    return Self._unpackRoleCount(before, role) &+ _withBlock(handle: Int(_order[l.position])) { block in
      block.pointee.roles.isEmpty ? 0 : block.pointee.roles.withUnsafeBufferPointer { roles in
        var n = 0
        var slot = 0
        while slot &+ 8 <= l.slot {
          n &+= Self._roleMask(Self._eightRoles(roles, at: slot), role).nonzeroBitCount
          slot &+= 8
        }
        while slot < l.slot {
          if roles[slot] == role { n &+= 1 }
          slot &+= 1
        }
        return n
      }
    }
  }

  /// Eight roles at once, from `slot` on (`slot + 8 <= roles.count`).
  @inlinable @inline(__always)
  package static func _eightRoles(_ roles: UnsafeBufferPointer<UInt8>, at slot: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(roles.baseAddress.unsafelyUnwrapped + slot).loadUnaligned(as: UInt64.self))
  }

  /// One bit (bit 0 of its byte) for each of eight roles in `word` that is
  /// `role`: roles are 0, 1 or 2, so a header has bit 0 and not bit 1, a
  /// footer bit 1 and not bit 0.
  @inlinable @inline(__always)
  package static func _roleMask(_ word: UInt64, _ role: UInt8) -> UInt64 {
    let low: UInt64 = 0x0101_0101_0101_0101
    return role == _headerRole ? word & ~(word &>> 1) & low : (word &>> 1) & ~word & low
  }

  /// The row of the `rank`-th `role` row in row order (0-based): a select,
  /// one descent over the role's count (the same descent every search uses)
  /// and a scan of one block.
  /// - Precondition: `0 <= rank < roleCount(role)`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func roleRow(_ role: UInt8, rank: Int) -> Int {
    precondition(rank >= 0 && rank < roleCount(role), "Role rank \(rank) out of range 0..<\(roleCount(role))")
    var remaining = rank
    let position = _descendRoles { node in
      let n = Self._unpackRoleCount(node, role)
      guard n <= remaining else { return false }
      remaining &-= n
      return true
    }
    let rows = _fenwickPrefix(position).count
    return _withBlock(handle: Int(_order[position])) { block in
      block.pointee.roles.withUnsafeBufferPointer { roles in
        var slot = 0
        // Eight slots a step: skip whole words until the one that holds it.
        while slot &+ 8 <= roles.count {
          var mask = Self._roleMask(Self._eightRoles(roles, at: slot), role)
          let n = mask.nonzeroBitCount
          if n > remaining {
            for _ in 0 ..< remaining { mask &= mask &- 1 }
            return rows &+ slot &+ mask.trailingZeroBitCount >> 3
          }
          remaining &-= n
          slot &+= 8
        }
        while slot < roles.count {
          if roles[slot] == role {
            if remaining == 0 { return rows &+ slot }
            remaining &-= 1
          }
          slot &+= 1
        }
        preconditionFailure("ExtentTree: a block's role count disagrees with its roles")
      }
    }
  }

  /// The section holding row `index` (SPEC H2): it starts at a header, at
  /// the first row, or right after a footer, and ends before the next
  /// header, with its footer, or at the last row.
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func section(containing index: Int) -> Range<Int> {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    guard _roleTotal != 0 else { return 0 ..< count }
    var lower = 0
    var upper = count
    // One rank a role; the rows on either side are the selects of the
    // ranks next to it.
    let headers = roleCount(Self._headerRole)
    if headers > 0 {
      let rank = roleRank(Self._headerRole, before: index &+ 1)  // headers at or before `index`
      if rank > 0 { lower = roleRow(Self._headerRole, rank: rank &- 1) }
      if rank < headers { upper = roleRow(Self._headerRole, rank: rank) }
    }
    let footers = roleCount(Self._footerRole)
    if footers > 0 {
      let rank = roleRank(Self._footerRole, before: index)  // footers before `index`
      if rank > 0 { lower = Swift.max(lower, roleRow(Self._footerRole, rank: rank &- 1) &+ 1) }
      if rank < footers { upper = Swift.min(upper, roleRow(Self._footerRole, rank: rank) &+ 1) }
    }
    return lower ..< upper
  }

  /// The extents of the pinned rows a programmatic target of row `index`
  /// lands under (SPEC H6): its section's header (unless the row is the
  /// header), and with `footers` its section's footer (unless the row is
  /// the footer); 0 for each the section does not have.
  /// Not inlined: the cold path of every programmatic scroll, kept out of
  /// the callers (inlined there, it made them copy the layout).
  /// - Complexity: O(1) without headers, else O(log(n/B) + B).
  @inlinable @inline(never)
  package func _sectionInsets(of index: Int, footers: Bool) -> (lead: Int64, trail: Int64) {
    guard roleCount(Self._headerRole) > 0, role(at: index) != Self._headerRole else { return (0, 0) }
    let section = section(containing: index)
    guard role(at: section.lowerBound) == Self._headerRole else { return (0, 0) }
    let last = section.upperBound &- 1
    let trail = footers && last != index && role(at: last) == Self._footerRole ? extent(at: last) : 0
    return (extent(at: section.lowerBound), trail)
  }

  /// Every row with a role other than a plain row, by id, so a snapshot
  /// keeps them (SPEC H1). Blocks of plain rows are skipped.
  /// - Complexity: O(n/B + r) for r rows in blocks that hold a role.
  @inlinable
  package var rolesByID: [ID: UInt8] {
    var result: [ID: UInt8] = [:]
    guard _roleTotal != 0 else { return result }
    for handle in _order {
      _withBlock(handle: Int(handle)) { block in
        for (slot, role) in block.pointee.roles.enumerated() where role != Self._plainRole {
          result[block.pointee.ids[slot]] = role
        }
      }
    }
    return result
  }

  /// Gives every id of `roles` that is a row its role.
  /// - Complexity: O(r (log(n/B) + B)) for r roles.
  @inlinable
  package mutating func _restoreRoles(_ roles: [ID: UInt8]) {
    for (id, role) in roles {
      if let location = _locate(id: id) { setRole(role, at: location) }
    }
  }
}

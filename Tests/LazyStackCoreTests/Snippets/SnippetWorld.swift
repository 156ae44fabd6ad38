import Foundation
import LazyStackCore

// The names the documents' Swift blocks use without defining them
// (Scripts/snippets.sh): a small world of messages, posts, contacts and
// photos, and drawing calls that draw nothing. Everything is deterministic.

struct Message: Identifiable, Hashable {
  let id: Int
}

/// 5,000 messages, ids 0 ..< 5,000.
let messages = (0 ..< 5_000).map(Message.init)
/// A page of older messages (negative ids: new to every list).
let older = (1 ... 50).map { Message(id: -$0) }
let incoming = Message(id: 5_000)
let arrived = Message(id: 5_001)
let deleted = messages[2_000]
let message = messages[1_234]
let searchHit = 4_321
/// The messages after a reload: every seventh one gone.
let reloaded = messages.filter { $0.id % 7 != 3 }
/// A new order of ids for a difference: the list reversed in blocks of 100.
let newIDs = (0 ..< 50).reversed().flatMap { block in (block * 100 ..< block * 100 + 100).map { $0 } }

struct Post: Identifiable {
  let id: Int
  var isPhoto: Bool { id % 3 == 0 }
  var isAd: Bool { id % 17 == 5 }
}

/// Posts share the messages' ids (a feed in the same list).
let posts = (0 ..< 2_000).map(Post.init)
let postIDs = posts.map(\.id)

struct Photo {
  let id: Int
  let aspectRatio: CGFloat
}

let photo = Photo(id: 30, aspectRatio: 1.5)

/// A row's height from its id and the width it wraps at.
func height(of id: some Hashable, width: CGFloat = 390) -> CGFloat {
  let seed = String(describing: id).utf8.reduce(7) { ($0 &* 31 &+ Int($1)) & 0xFFFF }
  return (CGFloat(30 + seed % 150) * 390 / Swift.max(width, 1)).rounded()
}

func draw<T>(_ item: T, in frame: CGRect) {}
func draw(row: Int, in frame: CGRect) {}
func draw(row: Int, at frame: CGRect) {}
func draw(offset: CGPoint) {}
func draw(_ rows: Range<Int>) {}
func draw() {}
func place<ID>(_ id: ID, at frame: CGRect) {}
func applyOffset(_ offset: CGPoint) {}
func fadeOut<ID>(_ id: ID, from frame: CGRect) {}
func fadeIn<ID>(_ id: ID, at frame: CGRect) {}
func loadOlderMessages() {}
func loadNewerMessages() {}
func warmUp<ID>(_ id: ID) {}

/// Contacts by first letter ("contact-Maria" is under "M").
let contactsByLetter: [String: [String]] = [
  "A": ["Ada", "Alan", "Anna"], "B": ["Bea", "Boris"], "L": ["Lena", "Luca"],
  "M": ["Maria", "Marta", "Max", "Mia"], "N": ["Nils", "Noor"], "Z": ["Zoe"],
]

/// A photo library: a header per day, then the day's photos; an albums
/// section first that stays a list.
struct Library {
  let ids: [String]
  let dayHeaderIDs: [String]
  let pinnedAlbumsHeaderID = "albums"
}

let library: Library = {
  var ids = ["albums", "album-1", "album-2"]
  var days: [String] = []
  for day in 1 ... 30 {
    days.append("day-\(day)")
    ids.append("day-\(day)")
    ids += (0 ..< 40).map { "photo-\(day)-\($0)" }
  }
  return Library(ids: ids, dayHeaderIDs: days)
}()

/// Ids and day headers of a gallery of 1,000 rows.
let ids = Array(0 ..< 1_000)
let dayHeaderIDs = Array(stride(from: 0, to: 1_000, by: 50))

let tapLocation = CGPoint(x: 100, y: 300)
let size = CGSize(width: 390, height: 844)
let offset = CGPoint(x: 0, y: 1_500)
let newOffset: CGFloat = 2_400
let fingerOffset = CGPoint(x: 0, y: 2_000)
let now: TimeInterval = 0
let frameTime: TimeInterval = 1.0 / 60
let fingerY: Double = 300
let trackHeight: Double = 800
let viewportHeight: CGFloat = 844

/// Frame times 1/60 s apart, from 0 (a display link's).
nonisolated(unsafe) var frameClock: TimeInterval = 0
func nextFrameTime() -> TimeInterval {
  frameClock += 1.0 / 60
  return frameClock
}

/// The chat of the documents: the messages, 60 pt until measured, pinned to
/// the newest row, in a 390 × 844 viewport, the visible rows measured.
func chat() throws -> LazyStackLayout<Int> {
  var layout = try LazyStackLayout(ids: messages.map(\.id), estimatedExtent: 60, spacing: 4)
  layout.defaultScrollAnchor(.bottom)
  layout.viewportSize = size
  layout.measureVisibleRows { _, id in height(of: id) }
  return layout
}

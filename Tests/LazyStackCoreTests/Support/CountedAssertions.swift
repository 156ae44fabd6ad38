import XCTest

// No test may pass without asserting. The assertion functions the tests
// call are declared again here, in the test module, so they shadow
// XCTest's: each counts one evaluated assertion, then checks as XCTest's
// does and reports a failure through `XCTFail` (XCTest's own functions
// cannot be named past these: `XCTest.` names the class, not the module).
// `AssertingTestCase` fails a test that ends with none counted (a loop that
// skipped every case, a helper that found nothing to check).
//
// LazyStackViewTests compiles this same file (a link in its Support/).
// An assertion form used without an overload here goes straight to XCTest
// uncounted, so a test made only of such calls fails as "ran no assertion":
// add the overload.

/// The assertions evaluated since the current test started.
enum AssertionCount {
  nonisolated(unsafe) static var evaluated = 0
}

/// The base of every test case of this package: fails a test that
/// evaluated no assertion.
class AssertingTestCase: XCTestCase {
  override func setUp() {
    super.setUp()
    AssertionCount.evaluated = 0
  }

  override func tearDown() {
    if AssertionCount.evaluated == 0 {
      XCTFail("\(name) ran no assertion: it checks nothing")
    }
    super.tearDown()
  }
}

/// Evaluates an assertion's operands; a thrown error is a failure.
private func evaluate<T>(_ name: String, _ message: () -> String, file: StaticString, line: UInt,
                         _ body: () throws -> T) -> T? {
  AssertionCount.evaluated += 1
  do { return try body() } catch {
    XCTFail("\(name) threw error \"\(error)\"\(suffix(message))", file: file, line: line)
    return nil
  }
}

private func suffix(_ message: () -> String) -> String {
  let text = message()
  return text.isEmpty ? "" : " - \(text)"
}

func XCTAssertEqual<T: Equatable>(_ a: @autoclosure () throws -> T, _ b: @autoclosure () throws -> T,
                                  _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {
  guard let (x, y) = evaluate("XCTAssertEqual", message, file: file, line: line, { (try a(), try b()) }), x != y else { return }
  XCTFail("XCTAssertEqual failed: (\"\(x)\") is not equal to (\"\(y)\")\(suffix(message))", file: file, line: line)
}

func XCTAssertEqual<T: FloatingPoint>(_ a: @autoclosure () throws -> T, _ b: @autoclosure () throws -> T, accuracy: T,
                                      _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {
  guard let (x, y) = evaluate("XCTAssertEqual", message, file: file, line: line, { (try a(), try b()) }),
        x != y, !(abs(x - y) <= abs(accuracy)) else { return }
  XCTFail("XCTAssertEqual failed: (\"\(x)\") is not equal to (\"\(y)\") +/- (\"\(accuracy)\")\(suffix(message))",
          file: file, line: line)
}

func XCTAssertNotEqual<T: Equatable>(_ a: @autoclosure () throws -> T, _ b: @autoclosure () throws -> T,
                                     _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {
  guard let (x, y) = evaluate("XCTAssertNotEqual", message, file: file, line: line, { (try a(), try b()) }), x == y else { return }
  XCTFail("XCTAssertNotEqual failed: (\"\(x)\") is equal to (\"\(y)\")\(suffix(message))", file: file, line: line)
}

func XCTAssertTrue(_ value: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
                   file: StaticString = #filePath, line: UInt = #line) {
  guard evaluate("XCTAssertTrue", message, file: file, line: line, value) == false else { return }
  XCTFail("XCTAssertTrue failed\(suffix(message))", file: file, line: line)
}

func XCTAssertFalse(_ value: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
                    file: StaticString = #filePath, line: UInt = #line) {
  guard evaluate("XCTAssertFalse", message, file: file, line: line, value) == true else { return }
  XCTFail("XCTAssertFalse failed\(suffix(message))", file: file, line: line)
}

func XCTAssertNil(_ value: @autoclosure () throws -> Any?, _ message: @autoclosure () -> String = "",
                  file: StaticString = #filePath, line: UInt = #line) {
  guard let evaluated = evaluate("XCTAssertNil", message, file: file, line: line, value), let some = evaluated else { return }
  XCTFail("XCTAssertNil failed: \"\(some)\"\(suffix(message))", file: file, line: line)
}

func XCTAssertNotNil(_ value: @autoclosure () throws -> Any?, _ message: @autoclosure () -> String = "",
                     file: StaticString = #filePath, line: UInt = #line) {
  guard let evaluated = evaluate("XCTAssertNotNil", message, file: file, line: line, value), evaluated == nil else { return }
  XCTFail("XCTAssertNotNil failed\(suffix(message))", file: file, line: line)
}

/// The four orderings: `holds` is the relation, `words` how a failure says it.
private func order<T: Comparable>(_ name: String, _ words: String, _ a: () throws -> T, _ b: () throws -> T,
                                  _ holds: (T, T) -> Bool, _ message: () -> String, file: StaticString, line: UInt) {
  guard let (x, y) = evaluate(name, message, file: file, line: line, { (try a(), try b()) }), !holds(x, y) else { return }
  XCTFail("\(name) failed: (\"\(x)\") is not \(words) (\"\(y)\")\(suffix(message))", file: file, line: line)
}

func XCTAssertGreaterThan<T: Comparable>(_ a: @autoclosure () throws -> T, _ b: @autoclosure () throws -> T,
                                         _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {
  order("XCTAssertGreaterThan", "greater than", a, b, >, message, file: file, line: line)
}

func XCTAssertGreaterThanOrEqual<T: Comparable>(_ a: @autoclosure () throws -> T, _ b: @autoclosure () throws -> T,
                                                _ message: @autoclosure () -> String = "", file: StaticString = #filePath,
                                                line: UInt = #line) {
  order("XCTAssertGreaterThanOrEqual", "greater than or equal to", a, b, >=, message, file: file, line: line)
}

func XCTAssertLessThan<T: Comparable>(_ a: @autoclosure () throws -> T, _ b: @autoclosure () throws -> T,
                                      _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {
  order("XCTAssertLessThan", "less than", a, b, <, message, file: file, line: line)
}

func XCTAssertLessThanOrEqual<T: Comparable>(_ a: @autoclosure () throws -> T, _ b: @autoclosure () throws -> T,
                                             _ message: @autoclosure () -> String = "", file: StaticString = #filePath,
                                             line: UInt = #line) {
  order("XCTAssertLessThanOrEqual", "less than or equal to", a, b, <=, message, file: file, line: line)
}

/// Asserts that `expression` throws, and hands the error to
/// `errorHandler`, which must name the error it expects with an assertion
/// of its own (a negative test that passes on any error hides a wrong one).
func XCTAssertThrowsError<T>(_ expression: @autoclosure () throws -> T, _ message: @autoclosure () -> String = "",
                             file: StaticString = #filePath, line: UInt = #line, _ errorHandler: (_ error: any Error) -> Void) {
  AssertionCount.evaluated += 1
  do {
    _ = try expression()
    XCTFail("XCTAssertThrowsError failed: did not throw an error\(suffix(message))", file: file, line: line)
  } catch {
    let before = AssertionCount.evaluated
    errorHandler(error)
    if AssertionCount.evaluated == before {
      XCTFail("XCTAssertThrowsError: the handler checked nothing of \(error)\(suffix(message))", file: file, line: line)
    }
  }
}

/// Asserts that `expression` throws exactly `expected`.
func XCTAssertThrowsError<T, E: Error & Equatable>(_ expression: @autoclosure () throws -> T, _ expected: E,
                                                   _ message: @autoclosure () -> String = "",
                                                   file: StaticString = #filePath, line: UInt = #line) {
  AssertionCount.evaluated += 1
  do {
    _ = try expression()
    XCTFail("XCTAssertThrowsError failed: did not throw \(expected)\(suffix(message))", file: file, line: line)
  } catch let error as E {
    if error != expected {
      XCTFail("XCTAssertThrowsError failed: threw \(error), not \(expected)\(suffix(message))", file: file, line: line)
    }
  } catch {
    XCTFail("XCTAssertThrowsError failed: threw \(error) (\(type(of: error))), not \(expected)\(suffix(message))",
            file: file, line: line)
  }
}

/// Test results as JUnit XML, the report CI systems read: one `testsuite` a test file, one
/// `testcase` a case, a `failure` for each case that failed and an `error` for a file that
/// could not be read. No times: a run is a function of its files, and so is its report.
public enum JUnitReport {
  public static func xml(_ results: [TestFileResult]) -> String {
    let tests = results.map(\.tests).reduce(0, +)
    let failures = results.map(\.failures).reduce(0, +)
    let errors = results.map(\.errors).reduce(0, +)
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="morphhost test" tests="\#(tests)" failures="\#(failures)" errors="\#(errors)">"#,
    ]
    for file in results {
      let name = escape(file.path)
      lines.append(
        #"  <testsuite name="\#(name)" tests="\#(file.tests)" failures="\#(file.failures)" "#
          + #"errors="\#(file.errors)">"#)
      if let error = file.error {
        lines.append(#"    <testcase classname="\#(name)" name="(load)" file="\#(name)">"#)
        lines.append(
          #"      <error message="\#(escape(error.message))">\#(escape(error.description))</error>"#
        )
        lines.append("    </testcase>")
      }
      for c in file.cases {
        let open =
          #"    <testcase classname="\#(name)" name="\#(escape(c.name))" file="\#(name)" line="\#(c.line)""#
        if c.passed {
          lines.append(open + "/>")
          continue
        }
        lines.append(open + ">")
        let first = c.failures[0].message
        let all = c.failures.map(\.description).joined(separator: "\n")
        lines.append(#"      <failure message="\#(escape(first))">\#(escape(all))</failure>"#)
        lines.append("    </testcase>")
      }
      lines.append("  </testsuite>")
    }
    lines.append("</testsuites>")
    return lines.joined(separator: "\n")
  }

  /// Text as XML character data or an attribute value. Characters XML 1.0 cannot carry
  /// at all (most controls) become U+FFFD.
  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\n": out += "&#10;"
      case "\t": out += "&#9;"
      case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value):
        out += "\u{FFFD}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

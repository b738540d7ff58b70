import Foundation
import MorphCore
import MorphExport
import MorphHost
import MorphScript

/// `morphhost test`: runs `*.test.lua` files (`MorphHost/Testing`) and reports like a test
/// runner: a line a case, a total, and exit status 1 when anything failed.
enum TestCommand {
  static let usage = """
    Usage: morphhost test [PATH...] [--update] [--format text|junit] [-o FILE]

    Runs the cases of every *.test.lua file in the PATHs (folders are searched
    recursively, skipping hidden folders; files are taken as given; default:
    the current folder). Each case loads its plugin with its props, plays its
    input on the virtual clock and checks state values, accessibility, node
    geometry, settling and snapshots at the times it names (docs/testing.md).
    Input: \(InputScript.defaultText), as in every command. A case gives
    one as input = "0.5 tap" (a script), "\(InputScript.tapName)" (one tap at 0 s), or inputFile.

    Options:
      --update          record missing snapshot goldens and refresh those that differ
      --format F        text (default: one line a case) or junit (JUnit XML for CI)
      -o FILE           write the report to FILE instead of standard output
    \(ScriptLimits.optionsUsage(column: 20))

    A failing snapshot writes NAME.actual.png and NAME.diff.png beside its golden.
    A test reads and writes only inside its own folder: plugins, input files
    and goldens outside it, or links leading out, are refused.
    Exit status: 0 when every case passed, 1 when one failed, 2 on a usage error.
    """

  enum Format: String, CaseIterable {
    case text, junit
  }

  static func run(_ arguments: [String], output: some TextOutput) throws -> ExitStatus {
    var options = CommandLineOptions(arguments)
    let update = options.flag("--update")
    let format = try options.choice("--format", Format.self) ?? .text
    let file = try options.value("-o")
    let limits = try ScriptLimits(&options)
    var paths = try options.remaining()
    if paths.isEmpty { paths = ["."] }
    let files = try TestDiscovery.files(in: paths)
    guard !files.isEmpty else {
      throw UsageError("no *.test.lua files in \(paths.joined(separator: ", "))")
    }
    if let file {
      try OutputFile.checkReplaceable(file)
      try refuseOverwriting(file, inputs: files)
    }
    let runner = TestRunner(limits: limits, update: update)
    // The text report streams as files finish; JUnit is one document at the end.
    var results: [TestFileResult] = []
    var lines: [String] = []
    let textReport = format == .text
    let emit: (String) -> Void = { line in
      if textReport && file == nil { output.write(terminalSafe(line)) } else { lines.append(line) }
    }
    for path in files {
      let result = runner.run(file: path)
      results.append(result)
      if textReport { report(result, to: emit) }
    }
    if textReport {
      summary(results, to: emit)
    } else {
      lines = [JUnitReport.xml(results)]
    }
    if let file {
      // The files the cases read are known only now (plugins, imports, input, goldens).
      try refuseOverwriting(
        file, inputs: results.flatMap { $0.cases.flatMap(\.inputs) })
      try OutputFile.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: file)
    } else if !textReport {
      output.write(lines.joined(separator: "\n"))
    }
    return results.allSatisfy { $0.failed == 0 } ? .success : .failure
  }

  /// Refuses a report that would replace one of the run's own files (`-o t.test.lua`),
  /// compared as files (device and inode), so another spelling or a hard link is caught.
  static func refuseOverwriting(_ report: String, inputs: [String]) throws {
    var target = stat()
    guard stat(report, &target) == 0 else { return }
    for input in inputs {
      var info = stat()
      if stat(input, &info) == 0, info.st_dev == target.st_dev, info.st_ino == target.st_ino {
        throw UsageError(
          "-o \(report) is \(input), a file this run reads; refusing to write the report over it")
      }
    }
  }

  /// A file's header, then ✔ or ✘ and the name of each case; each failure on a line of
  /// its own below its case.
  static func report(_ result: TestFileResult, to emit: (String) -> Void) {
    emit(result.path)
    if let error = result.error {
      emit("  ✘ \(error.description)")
      return
    }
    for c in result.cases {
      emit("  \(c.passed ? "✔" : "✘") \(c.name)")
      for failure in c.failures { emit("      \(failure)") }
      for path in c.recorded { emit("      recorded \(path)") }
    }
  }

  /// `N passed, N failed`, with a hint when goldens are missing.
  static func summary(_ results: [TestFileResult], to emit: (String) -> Void) {
    let passed = results.reduce(0) { $0 + $1.passed }
    let failed = results.reduce(0) { $0 + $1.failed }
    let missing = results.reduce(0) { $0 + $1.cases.reduce(0) { $0 + $1.missingGoldens.count } }
    if missing > 0 {
      emit(
        "\(missing) snapshot\(missing == 1 ? "" : "s") without a golden: run with --update to record, then look at them"
      )
    }
    emit("\(passed) passed, \(failed) failed")
  }
}

@testable import MorphScript

/// A type check of plugin code against `morph.meta.lua`'s declarations, for
/// the machine LuaLS cannot be installed on: every `morph.…` function called
/// (through `local m = morph` too) and every method called with `:` must be
/// declared, and be passed a number of arguments its signature accepts.
/// Receivers are not inferred, so a method must fit some class that has it.
struct LuaCallCheck {
  /// Declared functions by full name (`morph.lerp`), and methods by name
  /// with the argument counts of each class that has one.
  let functions: [String: ClosedRange<Int>]
  let methods: [String: [ClosedRange<Int>]]

  /// Lua's string methods (`("%d"):format(n)`), any count.
  static let stringMethods: Set<String> = [
    "byte", "find", "format", "gmatch", "gsub", "len", "lower", "match", "rep", "reverse", "sub",
    "upper",
  ]

  init(_ declarations: [MetaFile.Declaration], extraFunctions: [String: ClosedRange<Int>]) {
    var functions = extraFunctions
    var methods: [String: [ClosedRange<Int>]] = [:]
    for declaration in declarations {
      if let colon = declaration.name.firstIndex(of: ":") {
        let name = String(declaration.name[declaration.name.index(after: colon)...])
        methods[name, default: []].append(declaration.arguments)
      } else {
        functions[declaration.name] = declaration.arguments
      }
    }
    self.functions = functions
    self.methods = methods
  }

  /// One line per call that fits no declaration (`file:line: …`), and how
  /// many calls were checked.
  func check(_ source: String, file: String) -> (problems: [String], calls: Int) {
    let tokens = LuaTokens(source).tokens
    var aliases: [String: String] = ["morph": "morph"]
    var problems: [String] = []
    var calls = 0
    var i = 0
    while i < tokens.count {
      let token = tokens[i]
      // `local m = morph` / `local test = morph.test`
      if token.text == "local", i + 3 < tokens.count, tokens[i + 2].text == "=",
        let (chain, next) = chain(tokens, from: i + 3, aliases),
        next >= tokens.count || !isCall(tokens[next])
      {
        aliases[tokens[i + 1].text] = chain
        i = next
        continue
      }
      if token.text == ":", i + 2 < tokens.count, tokens[i + 1].isName, isCall(tokens[i + 2]),
        i == 0 || tokens[i - 1].text != ":"
      {
        let name = tokens[i + 1].text
        let count = arguments(tokens, at: i + 2)
        calls += 1
        if let ranges = methods[name] {
          if !ranges.contains(where: { $0.contains(count) }) {
            problems.append(
              "\(file):\(token.line): :\(name) takes \(describe(ranges)), given \(count)")
          }
        } else if !Self.stringMethods.contains(name) {
          problems.append("\(file):\(token.line): no class declares a method :\(name)")
        }
        i += 2
        continue
      }
      if token.isName, i == 0 || ![".", ":"].contains(tokens[i - 1].text),
        let (name, next) = chain(tokens, from: i, aliases), name.hasPrefix("morph.")
      {
        if next < tokens.count, isCall(tokens[next]) {
          let count = arguments(tokens, at: next)
          calls += 1
          if let range = functions[name] {
            if !range.contains(count) {
              problems.append(
                "\(file):\(token.line): \(name) takes \(describe([range])), given \(count)"
              )
            }
          } else {
            problems.append("\(file):\(token.line): \(name) is not declared")
          }
        }
        i = next
        continue
      }
      i += 1
    }
    return (problems, calls)
  }

  /// `a.b.c` from `from`, with its first name resolved through `aliases`;
  /// nil unless the first name is an alias of `morph…`.
  private func chain(_ tokens: [LuaTokens.Token], from start: Int, _ aliases: [String: String])
    -> (String, Int)?
  {
    guard start < tokens.count, let base = aliases[tokens[start].text] else { return nil }
    var name = base
    var i = start + 1
    while i + 1 < tokens.count, tokens[i].text == ".", tokens[i + 1].isName {
      name += "." + tokens[i + 1].text
      i += 2
    }
    return (name, i)
  }

  private func isCall(_ token: LuaTokens.Token) -> Bool {
    token.text == "(" || token.text == "{" || token.isString
  }

  /// The number of arguments of the call opening at `open`: commas outside
  /// brackets and blocks (`function`, `if`, `do` … `end`).
  private func arguments(_ tokens: [LuaTokens.Token], at open: Int) -> Int {
    guard tokens[open].text == "(" else { return 1 }
    var depth = 1
    var count = 0
    for token in tokens[(open + 1)...] where !token.isString || depth == 1 {
      if depth == 1, count == 0, token.text != ")" { count = 1 }
      guard !token.isString else { continue }
      switch token.text {
      case "(", "{", "[", "function", "if", "do": depth += 1
      case ")", "}", "]", "end":
        depth -= 1
        if depth == 0 { return count }
      case "," where depth == 1: count += 1
      default: break
      }
    }
    return count
  }

  /// `1 argument`, `0 to 3 arguments`, `1 or 2 to 3 arguments`.
  private func describe(_ ranges: [ClosedRange<Int>]) -> String {
    let counts = ranges.map {
      $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound) to \($0.upperBound)"
    }
    return counts.joined(separator: " or ") + (ranges == [1...1] ? " argument" : " arguments")
  }
}

/// Lua's tokens, enough to find calls: names, punctuation, and strings and
/// numbers as single tokens; comments dropped.
struct LuaTokens {
  struct Token {
    let text: String
    let line: Int
    var isString = false
    var isName: Bool {
      !isString && text.first.map { $0.isLetter || $0 == "_" } == true
    }
  }

  private(set) var tokens: [Token] = []

  init(_ source: String) {
    let chars = Array(source)
    var i = 0
    var line = 1
    func longBracket(at start: Int) -> Int? {
      guard chars[start] == "[" else { return nil }
      var j = start + 1
      while j < chars.count, chars[j] == "=" { j += 1 }
      guard j < chars.count, chars[j] == "[" else { return nil }
      let close = "]" + String(repeating: "=", count: j - start - 1) + "]"
      var k = j + 1
      while k < chars.count {
        if chars[k] == "\n" { line += 1 }
        if String(chars[k..<min(k + close.count, chars.count)]) == close { return k + close.count }
        k += 1
      }
      return chars.count
    }
    while i < chars.count {
      let c = chars[i]
      if c == "\n" {
        line += 1
        i += 1
      } else if c.isWhitespace {
        i += 1
      } else if c == "-", i + 1 < chars.count, chars[i + 1] == "-" {
        if i + 2 < chars.count, let end = longBracket(at: i + 2) {
          i = end
        } else {
          while i < chars.count, chars[i] != "\n" { i += 1 }
        }
      } else if c == "\"" || c == "'" {
        var j = i + 1
        while j < chars.count, chars[j] != c, chars[j] != "\n" {
          j += chars[j] == "\\" ? 2 : 1
        }
        tokens.append(
          Token(text: String(chars[i..<min(j + 1, chars.count)]), line: line, isString: true))
        i = j + 1
      } else if c == "[", let end = longBracket(at: i) {
        tokens.append(Token(text: "[[…]]", line: line, isString: true))
        i = end
      } else if c.isLetter || c == "_" || c.isNumber {
        var j = i
        while j < chars.count,
          chars[j].isLetter || chars[j].isNumber || chars[j] == "_"
            || (c.isNumber && chars[j] == ".")
        {
          j += 1
        }
        tokens.append(Token(text: String(chars[i..<j]), line: line))
        i = j
      } else {
        tokens.append(Token(text: String(c), line: line))
        i += 1
      }
    }
  }
}

import MorphCore

/// A JSON value, as an `Encodable` value encodes into it.
enum JSONValue: Equatable {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  /// A number written to its last digit (`ExactNumber`).
  case exact(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// `value` encoded into a tree (never throws: no part of the tree encoder does).
  static func encoding(_ values: any Encodable...) -> JSONValue {
    let slot = JSONSlot()
    for value in values { try? value.encode(to: JSONTreeEncoder(slot: slot, codingPath: [])) }
    return slot.value
  }
}

/// Where one encoded value goes; containers fill it in place (a reference, so nested
/// containers can write into their parent's slot after the parent is done).
final class JSONSlot {
  var scalar: JSONValue?
  var array: [JSONSlot]?
  var object: [String: JSONSlot]?

  var value: JSONValue {
    if let array { return .array(array.map(\.value)) }
    if let object { return .object(object.mapValues(\.value)) }
    return scalar ?? .object([:])  // an Encodable that encoded nothing
  }

  /// The child written under `key` (a second container on one value merges into it).
  func child(_ key: String) -> JSONSlot {
    if object == nil { object = [:] }
    let slot = JSONSlot()
    object?[key] = slot
    return slot
  }

  func appended() -> JSONSlot {
    if array == nil { array = [] }
    let slot = JSONSlot()
    array?.append(slot)
    return slot
  }

  func put(_ value: some Encodable, codingPath: [any CodingKey]) throws {
    switch value {
    case let v as Double: scalar = .number(v)
    case let v as ExactNumber: scalar = .exact(v.value)
    case let v as Float: scalar = .number(Double(v))
    case let v as Int: scalar = .integer(v)
    case let v as any BinaryInteger: scalar = .integer(Int(truncatingIfNeeded: v))
    case let v as String: scalar = .string(v)
    case let v as Bool: scalar = .bool(v)
    default: try value.encode(to: JSONTreeEncoder(slot: self, codingPath: codingPath))
    }
  }
}

/// An `Encoder` that builds a `JSONValue` tree, for a writer that lays it out itself.
struct JSONTreeEncoder: Encoder {
  let slot: JSONSlot
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if slot.object == nil { slot.object = [:] }
    return KeyedEncodingContainer(Keyed(slot: slot, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if slot.array == nil { slot.array = [] }
    return Unkeyed(slot: slot, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    Single(slot: slot, codingPath: codingPath)
  }

  private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: JSONSlot
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { slot.child(key.stringValue).scalar = .null }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      try slot.child(key.stringValue).put(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      JSONTreeEncoder(slot: slot.child(key.stringValue), codingPath: codingPath + [key])
        .container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      JSONTreeEncoder(slot: slot.child(key.stringValue), codingPath: codingPath + [key])
        .unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
      JSONTreeEncoder(slot: slot.child("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
      JSONTreeEncoder(slot: slot.child(key.stringValue), codingPath: codingPath + [key])
    }
  }

  private struct Unkeyed: UnkeyedEncodingContainer {
    let slot: JSONSlot
    let codingPath: [any CodingKey]
    var count: Int { slot.array?.count ?? 0 }

    mutating func encodeNil() throws { slot.appended().scalar = .null }

    mutating func encode<T: Encodable>(_ value: T) throws {
      try slot.appended().put(value, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
      JSONTreeEncoder(slot: slot.appended(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      JSONTreeEncoder(slot: slot.appended(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
      JSONTreeEncoder(slot: slot.appended(), codingPath: codingPath)
    }
  }

  private struct Single: SingleValueEncodingContainer {
    let slot: JSONSlot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.scalar = .null }

    mutating func encode<T: Encodable>(_ value: T) throws {
      try slot.put(value, codingPath: codingPath)
    }
  }
}

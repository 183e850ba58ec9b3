import { MAX_FIELD_BYTES } from "../io/ByteCursor.ts"
import { MalformedData } from "../io/errors.ts"
import { decodeGodot3Utf8, decodeGodot4Utf8, godot3Refusal } from "../text/godotUtf8.ts"

// The engine's reader of text scenes and resources, byte by byte: VariantParser (core/variant_parser.cpp
// in 3.x, core/variant/variant_parser.cpp in 4.x) as ResourceLoaderText drives it
// (scene/resources/resource_format_text.cpp), written from their behaviour so the scanner reads what the
// engine reads:
// - between values, a key is every byte above 32 up to `=` (spaces and line breaks anywhere are skipped:
//   `scr ipt / source =` is `script/source`), a quoted part replaces what came before it
//   (`"script/source" =`), `;` starts a comment, and `[` starts a tag only before any key byte;
// - a tag is `[name field=value …]` in tokens; a value is tokens, so it may start on the next line;
// - strings keep their bytes and escapes (\b \t \n \f \r \uXXXX, 4.x also \UXXXXXX and UTF-16 pairs,
//   `\x` is x), then the engine turns every character into one byte (3.x keeps the low byte of an
//   escape, 4.x makes one above U+00FF a space), stops at a NUL and decodes UTF-8 (godotUtf8.ts); Godot 3
//   keeps the undecoded characters when that fails.
// Values become small trees (strings, identifiers, constructor calls, arrays, dictionaries, `key: value`
// pairs); numbers and colours are kept as placeholders only where a pair needs them, so a megabyte
// array of numbers costs nothing. What the engine would refuse to parse is MalformedData: the scanner
// fails closed rather than guess.

export type Grammar = 3 | 4

export interface Position {
  readonly line: number
  readonly column: number
}

export type VNode =
  | {
      readonly k: "str"
      readonly value: string
      /** The string's text as written between the quotes, for mapping positions inside it to the file. */
      readonly raw: string
      /** Position of the first byte after the opening quote. */
      readonly start: Position
      /** `&"…"` (a StringName) or plain. */
      readonly flavor: "" | "&"
    }
  | { readonly k: "scalar" }
  /** A number as written (ids, indexes); numbers of packed arrays are not kept. */
  | { readonly k: "num"; readonly text: string }
  | { readonly k: "ident"; readonly name: string }
  | { readonly k: "call"; readonly name: string; readonly args: ReadonlyArray<VNode>; readonly at: Position }
  | { readonly k: "array"; readonly items: ReadonlyArray<VNode> }
  | { readonly k: "dict"; readonly items: ReadonlyArray<VNode> }
  | { readonly k: "pair"; readonly key: VNode; readonly value: VNode }

export interface Tag {
  readonly name: string
  readonly fields: ReadonlyMap<string, VNode>
  readonly at: Position
}

export interface VariantTextHandler {
  tag(tag: Tag): void
  assign(key: string, value: VNode, at: Position): void
}

const SCALAR = { k: "scalar" } as const
/** Identifiers that are values by themselves; any other identifier is a constructor and needs its `(`. */
const SCALAR_IDENTIFIERS: ReadonlySet<string> = new Set(["true", "false", "null", "nil", "inf", "inf_neg", "nan"])
/**
 * Numbers (and colours) of a plain array are kept, in place, in its first items only: their positions count
 * where the array is a call's arguments (a connection's binds, a method track key's args); further ones are
 * dropped, so a long array of numbers costs no memory.
 */
export const POSITIONS_KEPT = 32
/** Largest value (its strings) kept at once. */
const MAX_VALUE_BYTES = 2 * MAX_FIELD_BYTES
/** The property holding a PackedScene's data (packed_scene.cpp `_bundled`). */
const BUNDLED = "_bundled"

type Token =
  | { readonly t: "punct"; readonly ch: string }
  | { readonly t: "str"; readonly node: Extract<VNode, { k: "str" }> }
  | { readonly t: "num"; readonly text: string }
  | { readonly t: "color" }
  | { readonly t: "ident"; readonly name: string; readonly at: Position }
  | { readonly t: "eof" }

/** A growable byte buffer. */
class Bytes {
  buf = new Uint8Array(64)
  length = 0
  push(b: number): void {
    if (this.length === this.buf.length) {
      const next = new Uint8Array(this.buf.length * 2)
      next.set(this.buf)
      this.buf = next
    }
    this.buf[this.length++] = b
  }
  view(): Uint8Array {
    return this.buf.subarray(0, this.length)
  }
}

interface StringLex {
  readonly kind: "str"
  readonly flavor: "" | "&"
  readonly start: Position
  readonly raw: Bytes
  readonly units: Bytes
  /** Characters written as escapes: index in `units` → code point. */
  readonly escapes: Array<readonly [number, number]>
  escape: null | { hex: number; need: number; value: number }
  /** A lead surrogate written as an escape, waiting for its trail (4.x). */
  lead: number
  tooLong: boolean
  /** Not kept (the value is read past, not used). */
  readonly discard: boolean
}

type Lexeme =
  | StringLex
  | { readonly kind: "comment" }
  | { readonly kind: "num"; state: "int" | "dec" | "exp"; expSign: boolean; expDigits: boolean; text: string | null }
  | { readonly kind: "ident"; name: string; readonly at: Position }
  | { readonly kind: "color" }
  | { readonly kind: "prefix" }
  /** A simple tag (`[any text]`, ConfigFile's sections): its bytes up to `]`. */
  | { readonly kind: "simpletag"; readonly bytes: Bytes; readonly at: Position }

type Frame =
  | { readonly kind: "array" | "dict"; readonly items: Array<VNode>; colon: boolean; readonly numbers: boolean; readonly bundle: boolean }
  | { readonly kind: "call"; readonly name: string; readonly at: Position; readonly items: Array<VNode>; colon: boolean; readonly numbers: boolean; readonly bundle: boolean }
  | { readonly kind: "typeargs"; readonly name: string; readonly at: Position }

type TagState = "name" | "fields" | "name-part" | "equals"

const isLetter = (b: number): boolean => (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b === 95
const isDigit = (b: number): boolean => b >= 48 && b <= 57
const hexValue = (b: number): number => (isDigit(b) ? b - 48 : b >= 97 && b <= 102 ? b - 87 : b >= 65 && b <= 70 ? b - 55 : -1)

/**
 * The string the engine makes of a string token's bytes and escapes, or null where Godot 3 keeps it half decoded: its
 * VariantParser holds each escape as the character it names, then decodes the low bytes of the whole as UTF-8,
 * ignoring a failure. Where the decoding's first pass refuses the bytes, the characters stay as they were (bytes as
 * Latin-1, escapes whole: `"Caf\u00e9"` is Café, an eighty-eighth hunt's generated scenes); where the decoding fails
 * part-way, String::parse_utf8 has written what it decoded over the start of the old characters (an eighty-seventh
 * red team's `\u04e0\u0481\u04a1` escapes, overlong letters before a bad byte, made the engine read a built-in
 * script's lines twice: code where the scanner read a string).
 */
const engineString = (lex: StringLex, grammar: Grammar): string | null => {
  const bytes = lex.units.view().slice()
  for (const [i, code] of lex.escapes) bytes[i] = grammar === 3 ? code & 0xff : code <= 0xff ? code : 0x20
  if (grammar === 4) return decodeGodot4Utf8(bytes)
  const decoded = decodeGodot3Utf8(bytes)
  if (decoded !== null) return decoded
  if (godot3Refusal(bytes) === "half") return null
  const chars = Array.from(lex.units.view())
  for (const [i, code] of lex.escapes) chars[i] = code
  let out = ""
  for (let i = 0; i < chars.length; i += 8192) out += String.fromCodePoint(...chars.slice(i, i + 8192).map((c) => (c > 0x10ffff ? 0xfffd : c)))
  return out
}

export class VariantTextParser {
  readonly #grammar: Grammar
  readonly #handler: VariantTextHandler
  #line = 1
  #column = 1
  #mode: "key" | "tag" | "value" = "key"
  #lex: Lexeme | null = null
  // key mode
  #what = ""
  #keyAt: Position | null = null
  // tags
  #tagState: TagState = "name"
  #tagName = ""
  #tagAt: Position = { line: 1, column: 1 }
  #tagFields = new Map<string, VNode>()
  #parsingTag = true
  #field = ""
  // values
  readonly #stack: Array<Frame> = []
  #awaiting: { readonly name: string; readonly at: Position } | null = null
  #context: "assign" | "field" = "assign"
  #valueBytes = 0

  readonly #simpleTags: boolean

  /**
   * `simpleTags`: tags are read as ConfigFile reads them (the engine's parse_tag_assign_eof with
   * p_simple_tag: every byte up to `]` is the name, `[section name]`), as for `.cfg`, `.remap`, `.import`
   * and project.godot; otherwise as resources' tags with fields (`[ext_resource path="…" id=1]`).
   */
  constructor(grammar: Grammar, handler: VariantTextHandler, options: { readonly simpleTags?: boolean } = {}) {
    this.#grammar = grammar
    this.#handler = handler
    this.#simpleTags = options.simpleTags === true
  }

  get #here(): Position {
    return { line: this.#line, column: this.#column }
  }

  #fail(why: string): never {
    throw new MalformedData(`line ${this.#line}: ${why}; the engine would not load this resource`)
  }

  /** Text the engine loads, read otherwise than the scanner can follow: refused as well. */
  #refuse(why: string): never {
    throw new MalformedData(`line ${this.#line}: ${why}; no editor writes it`)
  }

  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i] as number
      this.#byte(b)
      if (b === 0x0a) {
        this.#line += 1
        this.#column = 1
      } else if ((b & 0xc0) !== 0x80) this.#column += b >= 0xf0 ? 2 : 1
    }
  }

  /** The end of the file: what is still open must end here as the engine ends it. */
  finish(): void {
    const lex = this.#lex
    if (lex !== null) {
      if (lex.kind === "str") this.#fail(`a string starting at line ${lex.start.line} has no closing quote`)
      if (lex.kind === "prefix") this.#fail("a string prefix without its string")
      if (lex.kind === "simpletag") this.#fail("the file ends inside a tag")
      if (lex.kind !== "comment") this.#endLexeme(lex)
    }
    this.#lex = null
    if (this.#mode === "tag") this.#fail(`the tag [${this.#tagName} …] is not closed`)
    if (this.#mode === "value" || this.#awaiting !== null) this.#fail("the file ends inside a value")
  }

  #byte(b: number): void {
    const lex = this.#lex
    if (lex !== null) {
      if (this.#lexByte(lex, b)) return
      this.#lex = null
      this.#endLexeme(lex)
    }
    if (this.#mode === "key") this.#keyByte(b)
    else this.#tokenStart(b)
  }

  // ---- key mode (parse_tag_assign_eof) ----

  #keyByte(b: number): void {
    if (b === 0x3b) {
      this.#lex = { kind: "comment" }
      return
    }
    if (b === 0x5b && this.#what === "" && this.#simpleTags) {
      this.#keyAt = null
      this.#lex = { kind: "simpletag", bytes: new Bytes(), at: this.#here }
      return
    }
    if (b === 0x5b && this.#what === "") {
      this.#keyAt = null
      this.#mode = "tag"
      this.#tagState = "name"
      this.#tagName = ""
      this.#tagFields = new Map()
      this.#parsingTag = true
      this.#tagAt = this.#here
      return
    }
    if (b <= 32) return
    this.#keyAt ??= this.#here
    if (b === 0x22) this.#startString("")
    else if (b === 0x3d) {
      this.#mode = "value"
      this.#context = "assign"
      this.#valueBytes = 0
    } else this.#what += String.fromCharCode(b)
  }

  // ---- tokens (get_token) ----

  #tokenStart(b: number): void {
    if (b <= 32) {
      if (b === 0) this.#token({ t: "eof" })
      return
    }
    const ch = String.fromCharCode(b)
    if ("{}[]():,.=".includes(ch)) return this.#token({ t: "punct", ch })
    if (b === 0x3b) this.#lex = { kind: "comment" }
    else if (b === 0x23) this.#lex = { kind: "color" }
    else if (b === 0x22) this.#startString("")
    else if (this.#grammar === 4 && (b === 0x26 || b === 0x40)) this.#lex = { kind: "prefix" }
    else if (b === 0x2d || isDigit(b)) this.#lex = { kind: "num", state: "int", expSign: false, expDigits: false, text: this.#inPackedArray() ? null : ch }
    else if (isLetter(b)) this.#lex = { kind: "ident", name: ch, at: this.#here }
    else this.#fail(`unexpected character ${JSON.stringify(ch)}`)
  }

  /**
   * Inside a PackedScene's `_bundled` value (a scene nested in a resource: textResource.ts reads its node and
   * connection records, numbers of packed arrays); their text counts towards the value's size limit.
   */
  #inBundle(): boolean {
    const top = this.#stack.at(-1)
    if (top === undefined) return this.#context === "assign" && this.#what === BUNDLED
    return top.kind !== "typeargs" && (top.bundle || (top.colon && stringOf(top.items.at(-1)) === BUNDLED))
  }

  /** Inside `PoolIntArray(…)` / `PackedByteArray(…)`: data nobody reads as code, not kept (it can be tens of megabytes). */
  #inPackedArray(): boolean {
    const top = this.#stack.at(-1)
    return this.#mode === "value" && top?.kind === "call" && !top.numbers
  }

  /** A new frame's numbers: kept where `numbers` says, and every one (with its position) inside a `_bundled` value. */
  #keeps(numbers: boolean): { readonly numbers: boolean; readonly bundle: boolean } {
    const bundle = this.#inBundle()
    return { numbers: numbers || bundle, bundle }
  }

  #startString(flavor: "" | "&"): void {
    const start = { line: this.#line, column: this.#column + 1 }
    // A packed string array's strings are kept: they are text the engine shows (a translation's messages, BBCode).
    const top = this.#stack.at(-1)
    const discard = this.#inPackedArray() && !(top?.kind === "call" && /^(PoolStringArray|PackedStringArray)$/.test(top.name))
    this.#lex = { kind: "str", flavor, start, raw: new Bytes(), units: new Bytes(), escapes: [], escape: null, lead: 0, tooLong: false, discard }
  }

  /** Feeds a byte to the lexeme under way; false when the lexeme ended before it (the byte is then read anew). */
  #lexByte(lex: Lexeme, b: number): boolean {
    switch (lex.kind) {
      case "comment":
        if (b === 0x0a) this.#lex = null
        return true
      case "str":
        this.#stringByte(lex, b)
        return true
      case "prefix":
        if (b !== 0x22) this.#fail("expected '\"' after a string prefix")
        this.#startString("&")
        return true
      case "color":
        return hexValue(b) >= 0
      case "simpletag":
        if (b !== 0x5d) {
          lex.bytes.push(b)
          if (lex.bytes.length > MAX_VALUE_BYTES) this.#fail("a tag longer than the scanner reads")
          return true
        }
        this.#lex = null
        // Godot 3.2 builds a section's name byte by byte, later 3.x releases decode it as UTF-8: a name with bytes past
        // ASCII (a byte-order mark or an overlong space inside `[remap]`) is another section to one than to the other
        // (an eighty-sixth red team's `.remap` the engine passed over). No editor writes one.
        if (this.#grammar === 3 && lex.bytes.view().some((x) => x >= 0x80)) this.#refuse("a section name with bytes past ASCII, which Godot 3 releases read apart (3.2 byte by byte, later ones as UTF-8)")
        this.#handler.tag({ name: (this.#grammar === 3 ? (decodeGodot3Utf8(lex.bytes.view()) ?? "") : decodeGodot4Utf8(lex.bytes.view())).replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, ""), fields: new Map(), at: lex.at })
        return true
      case "ident":
        if (isLetter(b) || isDigit(b)) {
          lex.name += String.fromCharCode(b)
          return true
        }
        return false
      case "num":
        if (!this.#numberByte(lex, b)) return false
        if (lex.text !== null && lex.text.length < 64) lex.text += String.fromCharCode(b)
        return true
    }
  }

  /** The engine's number reading: digits, then `.` and digits, then `e`, a sign and digits. */
  #numberByte(lex: Extract<Lexeme, { kind: "num" }>, b: number): boolean {
    if (lex.state === "int") {
      if (b === 0x2e) lex.state = "dec"
      else if (b === 0x65) lex.state = "exp"
      else if (!isDigit(b)) return false
    } else if (lex.state === "dec") {
      if (b === 0x65) lex.state = "exp"
      else if (!isDigit(b)) return false
    } else if (isDigit(b)) lex.expDigits = true
    else if ((b === 0x2d || b === 0x2b) && !lex.expSign && !lex.expDigits) lex.expSign = true
    else return false
    return true
  }

  #endLexeme(lex: Lexeme): void {
    if (lex.kind === "ident") this.#token({ t: "ident", name: lex.name, at: lex.at })
    else if (lex.kind === "num") this.#token({ t: "num", text: lex.text ?? "" })
    else if (lex.kind === "color") this.#token({ t: "color" })
  }

  #stringByte(lex: StringLex, b: number): void {
    if (b === 0) this.#fail(`a string starting at line ${lex.start.line} is cut by a NUL byte`)
    const esc = lex.escape
    if (b === 0x22 && esc === null) return this.#endString(lex)
    if (!lex.tooLong && !lex.discard) lex.raw.push(b)
    if (esc !== null) {
      if (esc.need === 0) {
        lex.escape = null
        const simple = b === 0x62 ? 8 : b === 0x74 ? 9 : b === 0x6e ? 10 : b === 0x66 ? 12 : b === 0x72 ? 13 : -1
        if (simple >= 0) return this.#unit(lex, simple, true)
        if (b === 0x75 || (b === 0x55 && this.#grammar === 4)) {
          lex.escape = { hex: 0, need: b === 0x75 ? 4 : 6, value: 0 }
          return
        }
        return this.#unit(lex, b, true)
      }
      const v = hexValue(b)
      if (v < 0) this.#fail("malformed hex constant in a string")
      esc.value = esc.value * 16 + v
      esc.hex += 1
      if (esc.hex === esc.need) {
        lex.escape = null
        this.#unit(lex, esc.value, true)
      }
      return
    }
    if (b === 0x5c) {
      lex.escape = { hex: 0, need: 0, value: 0 }
      return
    }
    this.#unit(lex, b, false)
  }

  #endString(lex: StringLex): void {
    if (lex.lead !== 0) this.#fail("an unpaired UTF-16 lead surrogate in a string")
    this.#lex = null
    const keep = !lex.tooLong && !lex.discard
    const value = keep ? engineString(lex, this.#grammar) : ""
    if (value === null) this.#refuse(`a string starting at line ${lex.start.line} is UTF-8 that Godot 3 decodes only part-way once its escapes are read (the engine keeps it half decoded)`)
    const node = { k: "str", value, raw: keep ? new TextDecoder().decode(lex.raw.view()) : "", start: lex.start, flavor: lex.flavor } as const
    this.#valueBytes = lex.tooLong ? MAX_VALUE_BYTES + 1 : this.#valueBytes + node.value.length + node.raw.length
    this.#token({ t: "str", node })
  }

  /** One character of a string: a byte of the file, or what an escape stands for. */
  #unit(lex: StringLex, code: number, escaped: boolean): void {
    let c = code
    if (this.#grammar === 4 && escaped) {
      if ((c & 0xfffffc00) === 0xd800) {
        if (lex.lead !== 0) this.#fail("an unpaired UTF-16 lead surrogate in a string")
        lex.lead = c
        return
      }
      if ((c & 0xfffffc00) === 0xdc00) {
        if (lex.lead === 0) this.#fail("an unpaired UTF-16 trail surrogate in a string")
        c = (lex.lead << 10) + c - ((0xd800 << 10) + 0xdc00 - 0x10000)
        lex.lead = 0
      }
    }
    if (this.#grammar === 4 && lex.lead !== 0) this.#fail("an unpaired UTF-16 lead surrogate in a string")
    if (lex.tooLong || lex.discard) return
    if (lex.units.length >= MAX_FIELD_BYTES) {
      lex.tooLong = true
      return
    }
    if (escaped) lex.escapes.push([lex.units.length, c])
    lex.units.push(escaped ? 0 : c)
  }

  // ---- tags (_parse_tag) ----

  #token(tok: Token): void {
    if (this.#mode === "tag") this.#tagToken(tok)
    else if (this.#mode === "value") this.#valueToken(tok)
    // A quoted part of a key replaces what came before it.
    else if (tok.t === "str") this.#what = tok.node.value
    else this.#fail("a token where a key was expected")
  }

  #tagToken(tok: Token): void {
    switch (this.#tagState) {
      case "name":
        if (tok.t !== "ident") this.#fail("expected the tag's name")
        this.#tagName = tok.name
        this.#tagState = "fields"
        return
      case "name-part":
        if (tok.t !== "ident") this.#fail("expected an identifier in the tag's name")
        this.#tagName += tok.name
        this.#tagState = "fields"
        return
      case "equals":
        if (tok.t !== "punct" || tok.ch !== "=") this.#fail(`expected '=' after ${this.#field}`)
        this.#mode = "value"
        this.#context = "field"
        this.#valueBytes = 0
        return
      case "fields":
        if (tok.t === "punct" && tok.ch === "]") {
          this.#mode = "key"
          this.#what = ""
          this.#keyAt = null
          this.#handler.tag({ name: this.#tagName, fields: this.#tagFields, at: this.#tagAt })
          return
        }
        if (this.#parsingTag && tok.t === "punct" && (tok.ch === "." || tok.ch === ":")) {
          this.#tagName += tok.ch
          this.#tagState = "name-part"
          return
        }
        this.#parsingTag = false
        if (tok.t !== "ident") this.#fail("expected a field of the tag")
        this.#field = tok.name
        this.#tagState = "equals"
    }
  }

  // ---- values (parse_value) ----

  #valueToken(tok: Token): void {
    const awaiting = this.#awaiting
    if (awaiting !== null) {
      this.#awaiting = null
      if (tok.t === "punct" && tok.ch === "(") {
        this.#stack.push({ kind: "call", name: awaiting.name, at: awaiting.at, items: [], colon: false, ...this.#keeps(!/^(Pool|Packed)\w*Array$/.test(awaiting.name)) })
        return
      }
      if (tok.t === "punct" && tok.ch === "[" && (awaiting.name === "Array" || awaiting.name === "Dictionary")) {
        this.#stack.push({ kind: "typeargs", name: awaiting.name, at: awaiting.at })
        return
      }
      this.#fail(`expected '(' after ${awaiting.name}`)
    }
    const top = this.#stack.at(-1)
    if (top?.kind === "typeargs") {
      // The element types of `Array[int]` / `Dictionary[String, int]`: names only.
      if (tok.t === "punct" && tok.ch === "]") {
        this.#stack.pop()
        this.#awaiting = { name: top.name, at: top.at }
      } else if (tok.t === "punct" && tok.ch === "[") this.#fail("nested typed-collection types")
      else if (tok.t === "eof") this.#fail("the file ends inside a value")
      return
    }
    switch (tok.t) {
      case "eof":
        return this.#fail("the file ends inside a value")
      case "str":
        return this.#complete(tok.node)
      case "num":
        if (top?.bundle === true) this.#valueBytes += tok.text.length + 1
        return this.#complete(this.#inPackedArray() || (top?.kind === "array" && !top.bundle && top.items.length >= POSITIONS_KEPT) ? SCALAR : { k: "num", text: tok.text })
      case "color":
        return this.#complete(SCALAR)
      case "ident":
        if (SCALAR_IDENTIFIERS.has(tok.name) || (top?.kind === "call" && top.name === "Object" && top.items.length === 0)) return this.#complete({ k: "ident", name: tok.name })
        this.#awaiting = { name: tok.name, at: tok.at }
        return
      case "punct":
        break
    }
    switch (tok.ch) {
      case "[":
        this.#stack.push({ kind: "array", items: [], colon: false, ...this.#keeps(false) })
        return
      case "{":
        this.#stack.push({ kind: "dict", items: [], colon: false, ...this.#keeps(true) })
        return
      case "]":
      case "}":
      case ")": {
        const want = tok.ch === "]" ? "array" : tok.ch === "}" ? "dict" : "call"
        if (top === undefined || top.kind !== want) this.#fail(`unexpected '${tok.ch}'`)
        this.#stack.pop()
        return this.#complete(top.kind === "call" ? { k: "call", name: top.name, args: top.items, at: top.at } : { k: top.kind, items: top.items })
      }
      case ",":
        if (top === undefined) this.#fail("unexpected ','")
        return
      case ":":
        if (top === undefined || top.kind === "array") this.#fail("unexpected ':'")
        top.colon = true
        return
      default:
        this.#fail(`unexpected '${tok.ch}'`)
    }
  }

  #complete(node: VNode): void {
    if (this.#valueBytes > MAX_VALUE_BYTES) this.#fail(`a value holds more than ${MAX_VALUE_BYTES} bytes of text`)
    const top = this.#stack.at(-1)
    if (top === undefined) return this.#deliver(node)
    if (top.kind === "typeargs") return
    if (top.colon) {
      top.colon = false
      const key = top.items.pop() ?? SCALAR
      top.items.push({ k: "pair", key, value: node })
      return
    }
    if (node === SCALAR && !top.numbers && !(top.kind === "array" && top.items.length < POSITIONS_KEPT)) return
    top.items.push(node)
  }

  #deliver(node: VNode): void {
    if (this.#context === "field") {
      this.#tagFields.set(this.#field, node)
      this.#mode = "tag"
      this.#tagState = "fields"
      return
    }
    const key = this.#what
    const at = this.#keyAt ?? this.#here
    this.#mode = "key"
    this.#what = ""
    this.#keyAt = null
    this.#handler.assign(key, node, at)
  }
}

/** The string of a value: a plain string, a StringName, or the argument of `NodePath("…")`. */
export const stringOf = (node: VNode | undefined): string | null => {
  if (node === undefined) return null
  if (node.k === "str") return node.value
  if (node.k === "call" && (node.name === "NodePath" || node.name === "StringName") && node.args.length === 1) return stringOf(node.args[0])
  return null
}

/** Every node of a value, depth first. */
export const forEachNode = (node: VNode, visit: (n: VNode) => void): void => {
  visit(node)
  if (node.k === "call" || node.k === "array" || node.k === "dict") for (const child of node.k === "call" ? node.args : node.items) forEachNode(child, visit)
  else if (node.k === "pair") {
    forEachNode(node.key, visit)
    forEachNode(node.value, visit)
  }
}

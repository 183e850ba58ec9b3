// A project.binary (ECFG) as the exporter encodes it (core/project_settings.cpp, _save_settings_binary): a count,
// then each key (its bytes as given, so a test can spell one in bytes no editor writes) and its value, here a
// String (type 4 in Godot 3 and 4: a length, the UTF-8 bytes, padding to 4).
import { ByteBuilder, utf8 } from "./bytes.ts"

/** A String variant holding `bytes` exactly. */
export const stringVariant = (bytes: Uint8Array): Uint8Array => new ByteBuilder().u32(4).u32(bytes.length).bytes(bytes).zeros((4 - (bytes.length % 4)) % 4).build()

/** Settings as `[key bytes or text, value bytes or text]`, every value a String. */
export const writeProjectBinary = (settings: ReadonlyArray<readonly [Uint8Array | string, Uint8Array | string]>): Uint8Array =>
  writeProjectBinaryVariants(settings.map(([key, value]) => [key, stringVariant(typeof value === "string" ? utf8(value) : value)]))

/** Settings as `[key bytes or text, encoded variant]`. */
export const writeProjectBinaryVariants = (settings: ReadonlyArray<readonly [Uint8Array | string, Uint8Array]>): Uint8Array => {
  const b = new ByteBuilder().ascii("ECFG").u32(settings.length)
  for (const [key, v] of settings) {
    const k = typeof key === "string" ? utf8(key) : key
    b.u32(k.length).bytes(k).u32(v.length).bytes(v)
  }
  return b.build()
}

/** A value of the settings: a String, an int, an Array, or a Dictionary's pairs in order. */
export type SettingValue = string | number | ReadonlyArray<SettingValue> | { readonly dict: ReadonlyArray<readonly [SettingValue, SettingValue]> }

/** A value in Godot 3's variant encoding (core/io/marshalls.cpp encode_variant: String 4, int 2, Dictionary 18, Array 19). */
export const variant3 = (value: SettingValue): Uint8Array => {
  if (typeof value === "string") return stringVariant(utf8(value))
  if (typeof value === "number") return new ByteBuilder().u32(2).i32(value).build()
  const b = new ByteBuilder()
  if ("dict" in value) {
    b.u32(18).u32(value.dict.length)
    for (const [k, v] of value.dict) b.bytes(variant3(k)).bytes(variant3(v))
  } else {
    b.u32(19).u32(value.length)
    for (const item of value) b.bytes(variant3(item))
  }
  return b.build()
}

/** `text` with the character at `index` spelled as a 3-byte overlong sequence (E0 …), which Godot 3 reads as that character. */
export const overlongAt = (text: string, index: number): Uint8Array => {
  const c = text.charCodeAt(index)
  return Uint8Array.from([...utf8(text.slice(0, index)), 0xe0, 0x80 | (c >> 6), 0x80 | (c & 0x3f), ...utf8(text.slice(index + 1))])
}

import type { Grammar } from "../gdscript/tokenizer.ts"

// The paths RichTextLabel's BBCode parser loads as resources, read the way the parser reads them
// (RichTextLabel::append_bbcode of 3.x, parse_bbcode/append_text of 4.x, scene/gui/rich_text_label.cpp).
// The parser tries a tag at every `[`: the tag is the text up to the next `]`, compared as written (no
// case folding, no trimming). 3.x loads `[img]`/`[img=WxH]` (the path is the text after the tag up to the
// next `[`) with ResourceLoader::load(…, "Texture") and `[font=path]` with ResourceLoader::load(…, "Font").
// 4.x takes every tag beginning with `img` (`[img=…]`, `[img width=… height=…]`), `[font=path]`, the
// `name=`/`n=` option of `[font …]` and the `font=`/`f=` option of `[dropcap …]`. A resource may carry a
// script, so each path is a load path. Every `[` is tried here, also one the engine would have consumed as
// the text of an earlier tag: a string yields at least the loads the engine makes.

/** One path a BBCode string makes the engine load, with the tag that loads it and its offset in the string. */
export interface BbcodeLoad {
  readonly tag: "img" | "font" | "dropcap"
  readonly path: string
  readonly offset: number
}

/** A quoted option value (`name="res://f.tres"`, 4.x) without its quotes. */
const unquote = (value: string): string => (/^(["']).*\1$/.test(value) && value.length >= 2 ? value.slice(1, -1) : value)

/** `key=value` options of a 4.x tag (after its name), split on spaces. */
const optionValues = (tag: string, keys: ReadonlySet<string>): ReadonlyArray<string> =>
  tag
    .split(" ")
    .slice(1)
    .flatMap((option) => {
      const eq = option.indexOf("=")
      return eq > 0 && keys.has(option.slice(0, eq)) ? [unquote(option.slice(eq + 1))] : []
    })

const FONT_OPTIONS: ReadonlySet<string> = new Set(["name", "n"])
const DROPCAP_OPTIONS: ReadonlySet<string> = new Set(["font", "f"])

/** Every path the BBCode of `text` loads, for the engine whose grammar is given; empty paths (no load) are left out. */
export const bbcodeLoads = (text: string, grammar: Grammar): ReadonlyArray<BbcodeLoad> => {
  const out: Array<BbcodeLoad> = []
  for (let open = text.indexOf("["); open >= 0; open = text.indexOf("[", open + 1)) {
    const close = text.indexOf("]", open + 1)
    if (close < 0) break
    const tag = text.slice(open + 1, close)
    const add = (kind: BbcodeLoad["tag"], path: string): void => {
      if (path !== "") out.push({ tag: kind, path, offset: open })
    }
    const isImage = grammar === 3 ? tag === "img" || tag.startsWith("img=") : tag.startsWith("img")
    if (isImage) {
      const end = text.indexOf("[", close)
      add("img", text.slice(close + 1, end < 0 ? text.length : end))
    } else if (tag.startsWith("font=")) {
      const value = tag.slice(5)
      add("font", value)
      // 4.x reads options after the main value in later versions: its first word is the path then.
      if (grammar === 4) {
        const word = unquote(value.split(" ")[0] ?? "")
        if (word !== value) add("font", word)
        for (const v of optionValues(tag, FONT_OPTIONS)) add("font", v)
      }
    } else if (grammar === 4 && tag.startsWith("font ")) {
      for (const v of optionValues(tag, FONT_OPTIONS)) add("font", v)
    } else if (grammar === 4 && tag.startsWith("dropcap")) {
      for (const v of optionValues(tag, DROPCAP_OPTIONS)) add("dropcap", v)
    }
  }
  return out
}

/** Whether a string may hold a loading tag at all (a cheap test before the parse). */
export const mayLoadBbcode = (text: string): boolean => text.includes("[") && /\[(img|font|dropcap)/.test(text)

/**
 * The metas Godot 3's BBCode parser gives the `[url]` tags of `text` (RichTextLabel::append_bbcode of 3.x,
 * scene/gui/rich_text_label.cpp): `[url=value]` pushes `value` (the tag after `url=`, up to the tag's `]`),
 * `[url]` the text after the tag up to the next `[`. A RichTextLabel's `meta_clicked` passes the meta of the
 * link clicked. Every `[` is tried, as for the loads: a string yields at least the metas the engine pushes.
 */
export const bbcodeUrlMetas = (text: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (let open = text.indexOf("[url"); open >= 0; open = text.indexOf("[url", open + 1)) {
    const close = text.indexOf("]", open + 1)
    if (close < 0) break
    const tag = text.slice(open + 1, close)
    if (tag.startsWith("url=")) out.push(tag.slice(4))
    else if (tag === "url") {
      const end = text.indexOf("[", close)
      out.push(text.slice(close + 1, end < 0 ? text.length : end))
    }
  }
  return out
}

// Gettext `.po` translations as Godot reads them (TranslationLoaderPO::load_translation, core/io/translation_loader_po.cpp
// of 3.x; 4.x the same with plural forms): lines stripped, `msgctxt`/`msgid`/`msgstr` (4.x `msgstr[N]`) start a part,
// each following line that starts with `"` continues it up to its closing unescaped quote, unescaped with
// String::c_unescape (core/ustring.cpp:3517-3531 of 3.5: its replacements in their order), `#` lines are comments.
// The messages (msgstr) are what tr() hands a script. Fuzzy entries, which the engine skips, are kept: a reader of
// the file cannot tell which the engine takes more reliably than taking them all.

export interface PoMessage {
  readonly text: string
  /** 1-based line of the msgstr keyword. */
  readonly line: number
}

const UNESCAPES: ReadonlyArray<readonly [string, string]> = [
  ["\\a", "\u0007"], ["\\b", "\b"], ["\\f", "\f"], ["\\n", "\n"], ["\\r", "\r"], ["\\t", "\t"], ["\\v", "\v"],
  ["\\'", "'"], ['\\"', '"'], ["\\?", "?"], ["\\\\", "\\"],
]

/** String::c_unescape of Godot 3: each replacement over the whole text, in the engine's order. */
const cUnescape = (raw: string): string => UNESCAPES.reduce((s, [from, to]) => s.replaceAll(from, to), raw)

/**
 * The inside of a quoted PO line up to its first quote not right after a backslash, or null when it has none: the
 * engine looks only at the character before (`l[i - 1] != '\\'`), so in `"x\\" …"` the quote after `\\` does not end
 * the string (a forty-fourth red team's message went on to an [img] tag the scanner never read).
 */
const quoted = (line: string): string | null => {
  for (let i = 1; i < line.length; i++) if (line[i] === '"' && line[i - 1] !== "\\") return line.slice(1, i)
  return null
}

/** Every msgstr of a `.po` text, with its line. */
export const poMessages = (text: string): ReadonlyArray<PoMessage> => {
  const out: Array<{ text: string; line: number }> = []
  let current: { text: string; line: number } | null = null
  // Lines as File.get_line reads them (every CR dropped; a NUL ends a line too), with String::strip_edges (every
  // character up to a space), not JS trim(): a forty-sixth red team's CR inside a message and \x01 before a quote.
  const edges = (t: string): string => t.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "")
  text.split(/\n|\u0000/).forEach((raw, index) => {
    let l = edges(raw.replaceAll("\r", ""))
    const keyword = /^(msgctxt|msgid_plural|msgid|msgstr(\[\d+\])?)/.exec(l)
    if (keyword !== null) {
      current = keyword[1]?.startsWith("msgstr") === true ? { text: "", line: index + 1 } : null
      if (current !== null) out.push(current)
      l = edges(l.slice(keyword[0].length))
    }
    if (l === "" || !l.startsWith('"') || current === null) return
    const inside = quoted(l)
    if (inside !== null) current.text += cUnescape(inside)
  })
  return out
}

// Reads the subset of YAML that action.yml uses (block mappings and sequences, plain and quoted scalars, comments),
// so a test can check the action without a YAML dependency. Anything outside the subset throws rather than guessing.

type Value = string | Array<Value> | { [key: string]: Value }

interface Line {
  readonly indent: number
  readonly text: string
}

const scalar = (raw: string): string => {
  const text = raw.trim()
  if (text.startsWith('"') && text.endsWith('"')) return JSON.parse(text) as string
  if (text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1).replaceAll("''", "'")
  if (/^[|>[{&*!]/.test(text)) throw new Error(`unsupported YAML value: ${text}`)
  return text
}

const withoutComment = (line: string): string => {
  let quote: string | null = null
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quote !== null) quote = c === quote ? null : quote
    else if (c === '"' || c === "'") quote = c
    else if (c === "#" && (i === 0 || line[i - 1] === " ")) return line.slice(0, i)
  }
  return line
}

const block = (lines: ReadonlyArray<Line>, start: number, indent: number): [Value, number] => {
  const first = lines[start]!
  if (first.text.startsWith("- ")) {
    const items: Array<Value> = []
    let i = start
    while (i < lines.length && lines[i]!.indent === indent && lines[i]!.text.startsWith("- ")) {
      // "- key: value" opens a mapping whose keys sit two columns further in.
      const rest: Line = { indent: indent + 2, text: lines[i]!.text.slice(2) }
      const [item, next] = block([...lines.slice(0, i), rest, ...lines.slice(i + 1)], i, indent + 2)
      items.push(item)
      i = next
    }
    return [items, i]
  }
  if (!/^[A-Za-z0-9_.-]+:(\s|$)/.test(first.text)) return [scalar(first.text), start + 1]
  const map: Record<string, Value> = {}
  let i = start
  while (i < lines.length && lines[i]!.indent === indent && !lines[i]!.text.startsWith("- ")) {
    const match = /^([A-Za-z0-9_.-]+):(?:\s+(.*))?$/.exec(lines[i]!.text)
    if (match === null) throw new Error(`unsupported YAML line: ${lines[i]!.text}`)
    const [, key, value] = match
    if (value !== undefined && value !== "") {
      map[key!] = scalar(value)
      i++
    } else if (i + 1 < lines.length && lines[i + 1]!.indent > indent) {
      const [child, next] = block(lines, i + 1, lines[i + 1]!.indent)
      map[key!] = child
      i = next
    } else {
      map[key!] = ""
      i++
    }
  }
  return [map, i]
}

export const parseYamlSubset = (text: string): Value => {
  const lines = text.split("\n").map(withoutComment).filter((line) => line.trim() !== "").map((line) => ({
    indent: line.length - line.trimStart().length,
    text: line.trim(),
  }))
  const [value, next] = block(lines, 0, lines[0]?.indent ?? 0)
  if (next !== lines.length) throw new Error(`unsupported YAML from line: ${lines[next]!.text}`)
  return value
}

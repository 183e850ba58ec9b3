// A file's text with line numbers and highlighting, each finding shown under its line; and unified diffs with added
// and removed lines marked (`<ins>`/`<del>`, so the change is in the markup, not only in colour). Hidden characters
// (bidirectional controls, zero-width characters) show as labelled marks, never acting on the text (visibleText.ts).
import type { PackFileKind } from "../../../domain/review/PackFile.ts"
import { acceptedNote, type ShownFinding } from "./findings.ts"
import { highlightLines, type Token } from "./highlight.ts"
import { type Html, html } from "./html.ts"
import { visibleText } from "./visibleText.ts"

const tokens = (line: ReadonlyArray<Token>): Html =>
  html`${line.map((t) => (t.className === null ? visibleText(t.text) : html`<span class="${t.className}">${visibleText(t.text)}</span>`))}`

/**
 * The text as a table of numbered, highlighted lines; each finding under its line with who accepted it (never hidden)
 * and `action` (the accept form, see reviewGateSections.ts), keyed by the finding's place in `findings`.
 */
export const codeView = async (
  text: string,
  kind: PackFileKind,
  findings: ReadonlyArray<ShownFinding>,
  action: (finding: ShownFinding, key: string) => Html | null = () => null,
): Promise<Html> => {
  const lines = await highlightLines(text, kind)
  const byLine = new Map<number, Array<ShownFinding>>()
  for (const f of findings) if (f.line !== null) byLine.set(f.line, [...(byLine.get(f.line) ?? []), f])
  const rows = lines.map((line, i) => {
    const n = i + 1
    const here = byLine.get(n) ?? []
    return html`<tr id="L${n}" class="${here.length > 0 ? "code-line flagged" : "code-line"}"${here.length > 0 ? html` aria-describedby="F${n}"` : ""}>
<th scope="row" class="line-number">${n}</th><td class="code"><code>${tokens(line)}</code></td></tr>${
      here.length > 0 &&
      html`<tr class="line-findings"><td></td><td id="F${n}">${here.map((f) =>
        html`<div class="line-finding${f.accepted != null ? " finding-accepted" : ""}"><p><span class="severity severity-${f.severity}">${
          f.severity === "error" ? "Error" : "Warning"
        }</span> <span class="rule">${f.rule}</span> ${visibleText(f.message)}</p>${acceptedNote(f)}${action(f, `L${n}-${findings.indexOf(f)}`)}</div>`
      )}</td></tr>`
    }`
  })
  return html`<div class="code-view"><table class="code-table">
<caption class="visually-hidden">Source with line numbers${findings.length > 0 ? "; lines with findings are marked" : ""}</caption>
<tbody>${rows}</tbody></table></div>`
}

/** A unified diff, line by line: hunk headers, context, and marked additions and removals. */
export const unifiedView = (unified: string): Html => {
  const lines = unified.split("\n")
  if (lines.at(-1) === "") lines.pop()
  return html`<pre class="diff"><code>${lines.map((line) => {
    if (line.startsWith("+++") || line.startsWith("---")) return html`<span class="diff-file">${visibleText(line)}</span>\n`
    if (line.startsWith("@@")) return html`<span class="diff-hunk">${visibleText(line)}</span>\n`
    if (line.startsWith("+")) return html`<ins class="diff-add"><span class="visually-hidden">added: </span>${visibleText(line)}</ins>\n`
    if (line.startsWith("-")) return html`<del class="diff-del"><span class="visually-hidden">removed: </span>${visibleText(line)}</del>\n`
    return html`<span class="diff-context">${visibleText(line)}</span>\n`
  })}</code></pre>`
}

// A tiny HTML template: every interpolated value is escaped unless it is already `Html` (built by this template).
// Pages never concatenate strings into markup; user-supplied text (names, reasons, findings, paths) is inert.

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
}

/** Escapes text for element content and for quoted attribute values (single or double quotes). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!)

/** Markup that is already safe: produced by `html`, or explicitly trusted with `trustedHtml`. */
export class Html {
  readonly #markup: string
  constructor(markup: string) {
    this.#markup = markup
  }
  toString(): string {
    return this.#markup
  }
}

/** What may be interpolated: text and numbers (escaped), Html (kept), lists (joined), and nothing (null, false). */
export type Interpolation = Html | string | number | boolean | null | undefined | ReadonlyArray<Interpolation>

const render = (value: Interpolation): string => {
  if (value instanceof Html) return value.toString()
  if (value === null || value === undefined || typeof value === "boolean") return ""
  if (typeof value === "string") return escapeHtml(value)
  if (typeof value === "number") return escapeHtml(String(value))
  return value.map(render).join("")
}

/**
 * `html\`<p title="${title}">${text}</p>\`` — values are escaped by default; attribute values must be quoted.
 * `false`, `null` and `undefined` render as nothing, so `${cond && html\`…\`}` works.
 */
export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Interpolation>): Html => {
  let out = strings[0] ?? ""
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? "")
  return new Html(out)
}

/** Markup from a trusted source (a constant of this code base); never for anything a user or a pack supplied. */
export const trustedHtml = (markup: string): Html => new Html(markup)

import { describe, expect, test } from "vitest"
import { escapeHtml, html, Html, trustedHtml } from "../../adapters/http/pages/html.ts"
import { findingsList } from "../../adapters/http/pages/findings.ts"
import { formatDuration, page } from "../../adapters/http/pages/layout.ts"

// The pages' template escapes by default: whatever a user or a pack supplies comes out as text, never as markup.

const HOSTILE = [
  `<script>alert("x")</script>`,
  `"><img src=x onerror=alert(1)>`,
  `' onmouseover='alert(1)`,
  `</textarea><script>alert(2)</script>`,
  "`${alert(3)}`",
  "&lt;already&gt; escaped & not",
]

/** Markup with every tag and attribute a hostile value could have opened, for "nothing got through" checks. */
const tagsIn = (markup: string) => [...markup.matchAll(/<\/?([a-z]+)/gi)].map((m) => m[1]!.toLowerCase())

describe("html tagged template", () => {
  test("escapes text and attribute values so hostile strings stay inert", () => {
    for (const value of HOSTILE) {
      const out = html`<p title="${value}" data-x='${value}'>${value}</p><textarea>${value}</textarea>`.toString()
      expect(tagsIn(out)).toEqual(["p", "p", "textarea", "textarea"])
      expect(out).not.toMatch(/<script|<img/i)
      // Quotes inside attribute values cannot end them, so `onerror=` stays part of the value's text.
      expect(out.match(/"/g)!.length).toBe(2)
      expect(out.match(/'/g)!.length).toBe(2)
      const decode = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#96;/g, "`").replace(/&amp;/g, "&")
      expect(decode(/title="([^"]*)"/.exec(out)![1]!)).toBe(value)
    }
    expect(escapeHtml(`<>&"'\``)).toBe("&lt;&gt;&amp;&quot;&#39;&#96;")
    // Escaping is applied once per interpolation: already-escaped text is shown as typed, not decoded.
    expect(html`${"&lt;b&gt;"}`.toString()).toBe("&amp;lt;b&amp;gt;")
  })

  test("keeps nested templates, joins lists, and renders nothing for null, undefined and booleans", () => {
    const items = ["a<b", "c&d"].map((x) => html`<li>${x}</li>`)
    expect(html`<ul>${items}</ul>`.toString()).toBe("<ul><li>a&lt;b</li><li>c&amp;d</li></ul>")
    expect(html`${null}${undefined}${false}${true}${0}${[]}`.toString()).toBe("0")
    expect(html`${false && html`<b>x</b>`}${true && html`<b>y</b>`}`.toString()).toBe("<b>y</b>")
    expect(html`${trustedHtml("<hr>")}`.toString()).toBe("<hr>")
    expect(html``).toBeInstanceOf(Html)
  })

  test("a plain string that looks like markup is never trusted, even when it came from an Html's text", () => {
    const inner = html`<b>${"<i>"}</b>`
    expect(html`${inner.toString()}`.toString()).toBe("&lt;b&gt;&amp;lt;i&amp;gt;&lt;/b&gt;")
  })

  test("findings and the page frame escape file paths, messages, patterns and user names", () => {
    const hostile = HOSTILE[3]!
    const list = findingsList([{
      file: `res://${hostile}.gd`,
      line: 3,
      column: 1,
      rule: `banned-api${hostile}`,
      pattern: hostile,
      message: hostile,
      severity: "error",
      embeddedIn: { resource: hostile, subResource: hostile },
    }]).toString()
    expect(list).not.toMatch(/<script|<\/textarea/i)
    expect(list).toContain("res://&lt;/textarea&gt;&lt;script&gt;alert(2)&lt;/script&gt;.gd:3")
    const frame = page({ title: hostile, principal: { userId: hostile, isAdmin: false }, section: "home", main: html`<p>${hostile}</p>` }).toString()
    expect(frame).not.toMatch(/<script>|<\/textarea/i)
    expect(tagsIn(frame).filter((t) => t === "script")).toEqual([])
  })

  test("waiting times read as people say them", () => {
    expect([0, 59, 60, 3599, 3600, 3660, 86400, 90000].map(formatDuration)).toEqual([
      "less than a minute", "less than a minute", "1 min", "59 min", "1 h", "1 h 1 min", "1 d", "1 d 1 h",
    ])
  })
})

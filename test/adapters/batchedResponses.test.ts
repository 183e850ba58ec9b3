// The server hands responses ready in one turn of the event loop to Node together (adapters/system/batchedResponses.ts).
import { describe, expect, it } from "vitest"
import { batchedResponses } from "../../adapters/system/batchedResponses.ts"

const microtasksPass = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

describe("batchedResponses", () => {
  it("releases the responses of one turn together, at its end, each the handler's own", async () => {
    const handle = batchedResponses((request) => new Response(new URL(request.url).pathname))
    const released: Array<string> = []
    const pending = ["/a", "/b", "/c"].map((path) =>
      handle(new Request(`http://localhost${path}`)).then(async (response) => void released.push(await response.text()))
    )
    await microtasksPass()
    expect(released).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    await Promise.all(pending)
    expect(released).toEqual(["/a", "/b", "/c"])
  })

  it("a later turn gets a batch of its own; a failing handler fails its request only", async () => {
    let calls = 0
    const handle = batchedResponses(async () => {
      calls++
      if (calls === 2) throw new Error("handler failed")
      return new Response(String(calls))
    })
    expect(await (await handle(new Request("http://localhost/"))).text()).toBe("1")
    await expect(handle(new Request("http://localhost/"))).rejects.toThrow("handler failed")
    expect(await (await handle(new Request("http://localhost/"))).text()).toBe("3")
  })
})

// A tiny client for the release API used by the HTTP and end-to-end tests.
import { sha256Hex } from "./streams.ts"

export type Fetch = (request: Request) => Promise<Response>

export interface Reply {
  readonly status: number
  readonly body: any
  readonly headers: Headers
}

export const reply = async (response: Response): Promise<Reply> => {
  const text = await response.text()
  let body: unknown = text
  try {
    body = text === "" ? null : JSON.parse(text)
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body, headers: response.headers }
}

export const apiClient = (baseUrl: string, fetchImpl: Fetch = (r) => fetch(r)) => {
  const call = async (method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.token !== undefined) headers["authorization"] = `Bearer ${options.token}`
    const init: RequestInit = { method, headers }
    if (options.body !== undefined) {
      headers["content-type"] = "application/json"
      init.body = typeof options.body === "string" ? options.body : JSON.stringify(options.body)
    }
    return reply(await fetchImpl(new Request(`${baseUrl}${path}`, init)))
  }
  return {
    call,
    createGame: (token: string, body: unknown) => call("POST", "/api/games/engine", { token, body }),
    uploadUrl: (token: string, gameId: string, body: unknown) => call("POST", `/api/games/${gameId}/releases/upload-url`, { token, body }),
    finalize: (token: string, gameId: string, body: unknown) => call("POST", `/api/games/${gameId}/releases/finalize`, { token, body }),
    downloadUrl: (token: string | undefined, gameId: string, version: string) =>
      call("GET", `/api/games/${gameId}/releases/${version}/download-url`, token === undefined ? {} : { token }),
    approve: (token: string, gameId: string, version: string, body?: unknown) =>
      call("POST", `/api/admin/games/${gameId}/releases/${version}/approve`, body === undefined ? { token } : { token, body }),
    /** Polls GET …/scan until the release's scan has run (never a fixed sleep); returns the scan reply's body. */
    scanned: async (token: string, gameId: string, version: string, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const scan = await call("GET", `/api/games/${gameId}/releases/${version}/scan`, { token })
        if (scan.status !== 200) throw new Error(`scan of ${gameId} ${version} answered ${scan.status}: ${JSON.stringify(scan.body)}`)
        if (scan.body.status === "scanned") return scan.body
        if (Date.now() > deadline) throw new Error(`the scan of ${gameId} ${version} is still pending`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    /**
     * The review gate's way through for test artifacts (random bytes: never a Godot pack): wait for the scan, then
     * approve with an override reason.
     */
    approveScanned: async (token: string, gameId: string, version: string) => {
      const deadline = Date.now() + 20_000
      for (;;) {
        const scan = await call("GET", `/api/games/${gameId}/releases/${version}/scan`, { token })
        if (scan.body?.status === "scanned" || scan.status !== 200) break
        if (Date.now() > deadline) throw new Error(`the scan of ${gameId} ${version} is still pending`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      return call("POST", `/api/admin/games/${gameId}/releases/${version}/approve`, {
        token,
        body: { override: { reason: "test artifact: random bytes, not a Godot pack" } },
      })
    },
    reject: (token: string, gameId: string, version: string, reason: unknown) =>
      call("POST", `/api/admin/games/${gameId}/releases/${version}/reject`, { token, body: { reason } }),
    /** upload-url, PUT and finalize of one artifact: the finalize reply (each step's status is checked by the caller's flow). */
    uploadRelease: async (token: string, gameId: string, pck: { readonly bytes: Uint8Array; readonly declaration: unknown }) => {
      const presigned = await call("POST", `/api/games/${gameId}/releases/upload-url`, { token, body: pck.declaration })
      if (presigned.status !== 200) return presigned
      const put = reply(await fetchImpl(new Request(presigned.body.uploadUrl, { method: "PUT", headers: presigned.body.headers, body: pck.bytes as BodyInit })))
      if ((await put).status !== 200) return put
      return call("POST", `/api/games/${gameId}/releases/finalize`, { token, body: pck.declaration })
    },
    /** PUTs bytes to a presigned URL with the given headers (as a client that follows the contract would). */
    put: async (url: string, headers: Record<string, string>, bytes: Uint8Array) =>
      reply(await fetchImpl(new Request(url, { method: "PUT", headers, body: bytes as BodyInit }))),
    get: async (url: string) => fetchImpl(new Request(url)),
  }
}

/** An artifact of `size` pseudo-random bytes with its declaration. */
export const artifact = (size = 4096, version = "1.0.0") => {
  const bytes = new Uint8Array(size)
  crypto.getRandomValues(bytes.subarray(0, Math.min(size, 65536)))
  return { bytes, declaration: { version, sha256: sha256Hex(bytes), sizeBytes: size } }
}

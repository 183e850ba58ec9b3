// Responses handed to the HTTP server together, once per turn of the event loop, rather than each as soon as its
// handler finishes. A response written to a client that is waiting wakes it; on a virtual machine a wake-up of an
// idle CPU is an inter-processor interrupt, and on this project's 2-core benchmark VM it cost ~10 µs of the server's
// time per response — as much as the whole handler of a cached download-url. Written back to back, one burst wakes
// each waiting reader once. The delay is the rest of the current turn: the handlers of requests that arrived together.

export type FetchHandler = (request: Request) => Response | Promise<Response>

export const batchedResponses = (handle: FetchHandler): ((request: Request) => Promise<Response>) => {
  let waiting: Array<() => void> = []
  const release = () => {
    const batch = waiting
    waiting = []
    for (const resolve of batch) resolve()
  }
  return async (request) => {
    const response = await handle(request)
    await new Promise<void>((resolve) => {
      if (waiting.push(resolve) === 1) setImmediate(release)
    })
    return response
  }
}

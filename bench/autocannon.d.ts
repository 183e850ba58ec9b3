// The part of autocannon's API the benchmarks use (the package ships no types).
declare module "autocannon" {
  interface Request {
    method?: string
    path?: string
    headers?: Record<string, string>
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request
  }
  interface Options {
    url: string
    connections?: number
    duration?: number
    headers?: Record<string, string>
    requests?: ReadonlyArray<Request>
  }
  interface Histogram {
    average: number
    p50: number
    p99: number
  }
  interface Result {
    requests: Histogram & { total: number }
    latency: Histogram
    non2xx: number
    /** Answers by status class. */
    "2xx": number
    "3xx": number
    "4xx": number
    "5xx": number
    errors: number
    timeouts: number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}

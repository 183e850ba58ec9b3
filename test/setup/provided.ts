// Values the global setup hands to test files through vitest's provide/inject.
declare module "vitest" {
  export interface ProvidedContext {
    /** Scratch folder for this run (deleted at the end). */
    readonly runDir: string
  }
}
export {}

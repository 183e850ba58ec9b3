// A small argument parser: --name value, --name=value, boolean --flags, and positionals.

export interface ParsedArgs {
  readonly positionals: ReadonlyArray<string>
  readonly values: Readonly<Record<string, string | boolean | undefined>>
}

export const parseArgs = (
  argv: ReadonlyArray<string>,
  spec: { readonly strings: ReadonlyArray<string>; readonly booleans: ReadonlyArray<string> },
): ParsedArgs | { readonly error: string } => {
  const values: Record<string, string | boolean> = {}
  const positionals: Array<string> = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1))
      break
    }
    if (!arg.startsWith("--")) {
      positionals.push(arg)
      continue
    }
    const eq = arg.indexOf("=")
    const name = arg.slice(2, eq === -1 ? undefined : eq)
    if (spec.booleans.includes(name)) {
      if (eq !== -1) return { error: `--${name} takes no value` }
      values[name] = true
    } else if (spec.strings.includes(name)) {
      const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i]
      if (value === undefined) return { error: `--${name} needs a value` }
      values[name] = value
    } else {
      return { error: `unknown option --${name}` }
    }
  }
  return { positionals, values }
}

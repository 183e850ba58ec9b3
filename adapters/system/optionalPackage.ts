// mysql2 and @google-cloud/storage are optional peer dependencies: an integrator who uses the domain and the memory
// adapters installs neither. Whoever configures MySQL or GCS is told which package to add, not shown a resolver error.

export class OptionalPackageMissing extends Error {
  readonly packageName: string
  constructor(packageName: string, neededFor: string) {
    super(`${neededFor} needs the package '${packageName}', which is not installed: run \`npm install ${packageName}\` next to pckgate`)
    this.packageName = packageName
  }
}

const isMissing = (error: unknown, packageName: string): boolean => {
  const code = (error as { code?: unknown } | null)?.code
  return (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && String((error as Error).message).includes(packageName)
}

/** Runs `load` (a dynamic import); a missing `packageName` becomes an OptionalPackageMissing naming what to install. */
export const loadOptional = async <A>(packageName: string, neededFor: string, load: () => Promise<A>): Promise<A> => {
  try {
    return await load()
  } catch (error) {
    if (isMissing(error, packageName)) throw new OptionalPackageMissing(packageName, neededFor)
    throw error
  }
}

import { layerMeteredPackScanner } from "../../adapters/observability/meteredScanner.ts"
import { layer } from "../../adapters/scanner/layer.ts"
import { layerLazyPackScanner } from "../../adapters/scanner/lazyLayer.ts"
import { packScannerContract } from "../contract/PackScanner.contract.ts"
import { Layer } from "effect"

packScannerContract("default scanner", () => layer)
packScannerContract("lazily loaded scanner", () => layerLazyPackScanner)
packScannerContract("metered scanner (the server's)", () => layerMeteredPackScanner.pipe(Layer.provide(layerLazyPackScanner)))

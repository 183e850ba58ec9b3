// The static pack scanner (`pckgate/scanner`): the PackScanner layer, the scan itself, its policy and the preset check.
export { type Decompressors } from "./Decompressors.ts"
export { fileByteSource, type FileByteSource, openFileByteSource, withFileByteSource } from "./fileByteSource.ts"
export { layer as layerPackScanner, makeLayer as makePackScannerLayer, makePackScanner } from "./layer.ts"
export { nodeDecompressors } from "./nodeDecompressors.ts"
export { defaultPolicy } from "./policy/defaultPolicy.ts"
export { parsePolicy, Policy as ScanPolicy, type PolicyDecoding } from "./policy/Policy.ts"
export { checkPresetText, PACK_PRESET_NAME, type PresetProblem } from "./preset/checkPreset.ts"
export { SCANNER_VERSION, type ScannerConfig, scanPack } from "./scanPack.ts"

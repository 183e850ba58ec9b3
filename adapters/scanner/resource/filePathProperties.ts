// Properties of engine resources that hold the path of a file the engine opens itself when the resource
// is loaded or used (FileAccess::open, no ResourceLoader, no localize_path): StreamTexture's load_path (3.x;
// Godot 4's CompressedTexture*), DynamicFontData's font_path, the video streams' file. A relative path there
// is one in the process's working folder.

const byClass: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
  [["StreamTexture", "CompressedTexture2D", "CompressedTexture3D", "CompressedTextureLayered", "CompressedTexture2DArray", "CompressedCubemap", "CompressedCubemapArray"], "load_path"],
  [["DynamicFontData"], "font_path"],
  [["VideoStream", "VideoStreamTheora", "VideoStreamWebm", "VideoStreamGDNative"], "file"],
]

const PROPERTY_OF_CLASS: ReadonlyMap<string, string> = new Map(byClass.flatMap(([classes, property]) => classes.map((c) => [c, property] as const)))

/** The file-path property of a resource class, if it has one. */
export const filePathProperty = (className: string): string | undefined => PROPERTY_OF_CLASS.get(className)

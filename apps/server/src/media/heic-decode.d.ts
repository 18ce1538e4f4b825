// heic-decode 2 ships no types; only what heic-worker.ts uses is declared.
declare module "heic-decode" {
  export interface HeicPixels {
    width: number;
    height: number;
    /** RGBA, width × height × 4 bytes, transformations (rotation, mirroring) applied. */
    data: Uint8ClampedArray;
  }
  export interface HeicImage {
    width: number;
    height: number;
    decode(): Promise<HeicPixels>;
  }
  interface Decode {
    (input: { buffer: Uint8Array }): Promise<HeicPixels>;
    /** Every image in the file, header only; decode() each as needed, then dispose() the lot. */
    all(input: { buffer: Uint8Array }): Promise<HeicImage[] & { dispose(): void }>;
  }
  const decode: Decode;
  export default decode;
}

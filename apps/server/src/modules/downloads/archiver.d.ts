// archiver 8 ships no types; only what zip.ts uses is declared.
declare module "archiver" {
  import type { Readable, Transform } from "node:stream";

  export interface ZipEntryData {
    name: string;
    /** STORE (no compression) for this entry instead of deflate. */
    store?: boolean;
    date?: Date;
    mode?: number;
  }
  export class ZipArchive extends Transform {
    constructor(options?: { zlib?: { level?: number }; store?: boolean; forceZip64?: boolean });
    append(source: Readable | Buffer | string | null, data: ZipEntryData): this;
    finalize(): Promise<void>;
    abort(): this;
    pointer(): number;
  }
}

// What the page hands the worker to read, and the progress it hears back: shared by the message protocol
// (./protocol.ts) and the folder analysis (./folder.ts), so neither imports the other for them.

/** One input as the page hands it over: a File or Blob is structured-cloned without reading its bytes. */
export interface InputBlob {
  name: string;
  blob: Blob;
  /** Inside a dropped folder: the path below it (`/`-separated), which names the file in the folder table. */
  folderPath?: string;
}

export interface ProgressInfo {
  /** Index of the input being read. */
  file: number;
  bytesRead: number;
  /** 0 when the total is unknown (a stream of unknown length). */
  bytesTotal: number;
  records: number;
  /** In a folder analysis: sessions analysed so far, of how many. */
  sessions?: { done: number; total: number };
}

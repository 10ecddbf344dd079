// Built-in synthetic examples, served from the app's own origin (examples/ next to index.html). The index is small
// and read at start; an example's bytes are fetched only when it is picked.

export interface ExampleEntry {
  id: string;
  title: string;
  file: string;
  synthetic: true;
  description: string;
  format?: string;
  requests?: number;
}

function isExampleEntry(value: unknown): value is ExampleEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v['id'] === 'string' &&
    typeof v['title'] === 'string' &&
    typeof v['file'] === 'string' &&
    typeof v['description'] === 'string' &&
    v['synthetic'] === true &&
    // Only plain file names inside examples/: the index cannot point anywhere else.
    /^[\w.-]+$/.test(v['file'])
  );
}

const examplesUrl = (file: string): URL => new URL(`examples/${file}`, document.baseURI);

export async function loadExampleIndex(): Promise<ExampleEntry[]> {
  const response = await fetch(examplesUrl('index.json'), { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`examples/index.json: HTTP ${response.status}`);
  const data: unknown = await response.json();
  if (!Array.isArray(data)) throw new Error('examples/index.json is not a list');
  return data.filter(isExampleEntry);
}

export async function fetchExample(entry: ExampleEntry, signal: AbortSignal): Promise<Blob> {
  const response = await fetch(examplesUrl(entry.file), { signal, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`examples/${entry.file}: HTTP ${response.status}`);
  // The bytes go to the worker as they are (gzip included); the page does not parse them.
  return response.blob();
}

/** The example index, fetched once (the start screen and a link's `example=` share it); a failed fetch lists none, said. */
export class ExampleIndex {
  entries: ExampleEntry[] | null = null;
  error: string | null = null;
  private loading: Promise<ExampleEntry[]> | null = null;

  list(): Promise<ExampleEntry[]> {
    this.loading ??= loadExampleIndex().then(
      (entries) => (this.entries = entries),
      (error: unknown) => {
        this.error = `The examples could not be listed: ${(error as Error).message}`;
        return (this.entries = []);
      },
    );
    return this.loading;
  }
}

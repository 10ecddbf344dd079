// Input that arrives outside the start screen's controls: files or a folder dropped anywhere on the page (with an
// overlay while dragging), and text pasted outside a text field.
import { droppedEntries } from './folder-drop.ts';
import type { InputBlob } from '../worker/inputs.ts';

export interface InputEvents {
  files(inputs: InputBlob[]): void;
  folder(entries: FileSystemEntry[]): void;
  paste(text: string): void;
}

export function installDragAndDrop(overlay: HTMLElement, on: InputEvents): void {
  let depth = 0;
  const hasFiles = (event: DragEvent): boolean => [...(event.dataTransfer?.types ?? [])].includes('Files');
  document.addEventListener('dragenter', (event) => {
    if (!hasFiles(event)) return;
    depth++;
    overlay.hidden = false;
  });
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) overlay.hidden = true;
  });
  document.addEventListener('dragover', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  });
  document.addEventListener('drop', (event) => {
    // A drop target of its own (the compare dialog) took it already.
    const taken = event.defaultPrevented;
    event.preventDefault();
    depth = 0;
    overlay.hidden = true;
    if (taken) return;
    const entries = droppedEntries(event.dataTransfer);
    if (entries !== null) {
      on.folder(entries);
      return;
    }
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length > 0) on.files(files.map((f) => ({ name: f.name, blob: f })));
  });
}

export function installPaste(on: InputEvents): void {
  document.addEventListener('paste', (event) => {
    const target = event.target as HTMLElement | null;
    if (target?.closest('input, textarea, [contenteditable]')) return;
    const text = event.clipboardData?.getData('text/plain') ?? '';
    if (text.trim() === '') return;
    event.preventDefault();
    on.paste(text);
  });
}

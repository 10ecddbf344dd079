// "Compare with…": a dialog that picks the other side of a comparison (files, a folder, or a saved `analyze --json`
// record) by button or by drop. With nothing on screen it picks both sides, so two saved records can be compared.
// Picking only; the comparison itself is the worker's (src/worker/handlers/compare.ts).
import type { CompareSideInput } from '../../worker/handlers/compare.ts';
import type { InputBlob } from '../../worker/inputs.ts';
import { el } from '../dom.ts';
import { droppedEntries, isLogFileName, readDroppedEntries } from '../folder-drop.ts';

/** A side as chosen: what the worker reads, and its name on screen. */
export interface PickedSide {
  side: CompareSideInput;
  name: string;
}

export interface CompareDialogOptions {
  /** The side on screen (the session or folder), or null to pick both. */
  before: PickedSide | null;
  chosen(before: PickedSide, after: PickedSide): void;
}

const filesSide = (files: readonly File[]): PickedSide | null => {
  const inputs = files.map((file) => ({ name: file.name, blob: file }));
  if (inputs.length === 0) return null;
  return { side: { kind: 'files', inputs }, name: inputs.length === 1 ? (inputs[0]?.name ?? '') : `${inputs.length} files` };
};

/** A folder chosen with the folder picker: its log files, named by their path below it (as a dropped folder's). */
function pickedFolder(files: readonly File[]): PickedSide | null {
  const inputs: InputBlob[] = files
    .filter((file) => isLogFileName(file.name))
    .map((file) => {
      const path = file.webkitRelativePath || file.name;
      return { name: path, folderPath: path.slice(path.indexOf('/') + 1), blob: file };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const root = files[0]?.webkitRelativePath.split('/')[0] ?? 'folder';
  return inputs.length === 0 ? null : { side: { kind: 'folder', inputs }, name: `${root}/` };
}

/** What a drop holds: one folder's log files, or the files themselves (one side each when two are dropped). */
async function droppedSides(transfer: DataTransfer | null): Promise<PickedSide[]> {
  const entries = droppedEntries(transfer);
  if (entries === null) return [...(transfer?.files ?? [])].map((file) => filesSide([file])).filter((side) => side !== null);
  const { inputs } = await readDroppedEntries(entries);
  return inputs.length === 0 ? [] : [{ side: { kind: 'folder', inputs }, name: `${entries.map((entry) => entry.name).join(', ')}/` }];
}

interface Slot {
  element: HTMLElement;
  picked: PickedSide | null;
  set(side: PickedSide): void;
}

function slot(which: 'before' | 'after', changed: () => void): Slot {
  const shown = el('span', { className: 'compare-picked muted', text: 'nothing chosen yet', attrs: { id: `compare-picked-${which}` } });
  const filesInput = el('input', { attrs: { type: 'file', multiple: '', hidden: '', id: `compare-files-${which}`, 'aria-label': `${which}: files` } });
  const folderInput = el('input', { attrs: { type: 'file', webkitdirectory: '', hidden: '', id: `compare-folder-${which}`, 'aria-label': `${which}: a folder` } });
  const result: Slot = {
    element: el('div', { className: 'compare-slot' }, [
      el('span', { className: 'compare-slot-name', text: which === 'before' ? 'Before' : 'After' }),
      el('button', { text: 'Choose files…', attrs: { type: 'button', id: `compare-choose-${which}` }, on: { click: () => filesInput.click() } }),
      el('button', { text: 'Choose a folder…', attrs: { type: 'button' }, on: { click: () => folderInput.click() } }),
      shown,
      filesInput,
      folderInput,
    ]),
    picked: null,
    set(side) {
      result.picked = side;
      shown.textContent = side.name;
      changed();
    },
  };
  const take = (input: HTMLInputElement, read: (files: File[]) => PickedSide | null) =>
    input.addEventListener('change', () => {
      const side = read([...(input.files ?? [])]);
      input.value = '';
      if (side) result.set(side);
    });
  take(filesInput, filesSide);
  take(folderInput, pickedFolder);
  return result;
}

export function openCompareDialog(options: CompareDialogOptions): void {
  const dialog = el('dialog', { className: 'compare-dialog', attrs: { id: 'compare-dialog', 'aria-labelledby': 'compare-dialog-title' } });
  const finish = (): void => {
    const before = options.before ?? slots.before?.picked ?? null;
    const after = slots.after.picked;
    if (before === null || after === null) return;
    dialog.close();
    options.chosen(before, after);
  };
  const slots = { before: options.before === null ? slot('before', finish) : null, after: slot('after', finish) };
  dialog.append(
    el('h2', { text: options.before ? 'Compare with…' : 'Compare two runs', attrs: { id: 'compare-dialog-title' } }),
    options.before ? el('p', {}, ['Before: ', el('strong', { text: options.before.name })]) : '',
    slots.before?.element ?? '',
    slots.after.element,
    el('p', { className: 'compare-drop muted', text: 'Or drop a log file, a folder or a saved `ctxray analyze --json` record here. Nothing is uploaded.' }),
    el('div', { className: 'compare-dialog-actions' }, [el('button', { text: 'Cancel', attrs: { type: 'button' }, on: { click: () => dialog.close() } })]),
  );
  dialog.addEventListener('dragover', (event) => event.preventDefault());
  // Marked as handled (preventDefault), so the page's own drop handler (src/ui/input-events.ts) leaves it alone.
  dialog.addEventListener('drop', (event) => {
    event.preventDefault();
    void droppedSides(event.dataTransfer).then((sides) => {
      for (const side of sides) {
        const open = [slots.before, slots.after].find((s) => s !== null && s.picked === null);
        if (open) open.set(side);
      }
    });
  });
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

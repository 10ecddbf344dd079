// The progress bar shown while the worker reads and analyzes input, with a Cancel button.
import { el } from './dom.ts';
import { formatBytes, formatCount } from '../render/format.ts';
import type { ProgressInfo } from '../worker/inputs.ts';

export interface ProgressHandle {
  update(progress: ProgressInfo, fileName: string, lastFile: boolean): void;
  phase(text: string): void;
  remove(): void;
}

export function showProgress(host: HTMLElement, title: string, onCancel: () => void): ProgressHandle {
  const bar = el('progress', { attrs: { max: '1', 'aria-label': 'Reading input' } });
  const detail = el('span', { className: 'muted small', attrs: { 'aria-live': 'polite' } });
  const box = el('div', { className: 'progress', attrs: { role: 'status', id: 'progress' } }, [
    el('div', { className: 'progress-head' }, [
      el('strong', { text: title }),
      el('button', { text: 'Cancel', attrs: { type: 'button', id: 'cancel' }, on: { click: onCancel } }),
    ]),
    bar,
    detail,
  ]);
  host.replaceChildren(box);
  host.hidden = false;
  return {
    update(progress, fileName, lastFile) {
      if (progress.bytesTotal > 0) {
        bar.value = Math.min(1, progress.bytesRead / progress.bytesTotal);
      } else bar.removeAttribute('value');
      const bytes = progress.bytesTotal > 0 ? `${formatBytes(progress.bytesRead)} of ${formatBytes(progress.bytesTotal)}` : formatBytes(progress.bytesRead);
      // Once the last file's bytes are all read the worker is counting tokens, which has no byte measure of its own.
      const counting = lastFile && progress.bytesTotal > 0 && progress.bytesRead >= progress.bytesTotal ? ' · counting tokens…' : '';
      const session = progress.sessions ? `session ${formatCount(progress.sessions.done + 1)} of ${formatCount(progress.sessions.total)} · ` : '';
      detail.textContent = `${session}${fileName} · ${bytes} · ${formatCount(progress.records)} records${counting}`;
    },
    phase(text) {
      bar.removeAttribute('value');
      detail.textContent = text;
    },
    remove() {
      // Only this box: a newer open may already show its own.
      box.remove();
      if (!host.firstChild) host.hidden = true;
    },
  };
}
